/* model.h: the model's data, as the stages fill it and the JSON writer
 * and the page see it. Everything is allocated in the model's arena. */
#ifndef MM_MODEL_H
#define MM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "memory_map.h"

/* One named tile after merging its bindings (model.md, "Tiles"). */
typedef struct mm_tile {
  const char *name, *space, *base, *dtype, *op;
  int64_t offset, size;
  const int64_t *shape;
  uint32_t shape_len;
  uint32_t start, end; /* lexical lifetime */
  /* One slot of an N-slot allocation (slot_count > 1; model.md, "Slots"):
   * the slot's size and the index as written ("" without one). A runtime
   * index's tile covers all N slots. */
  uint32_t slot_count;
  int64_t slot_size;
  const char *slot_index;
  bool slot_runtime;
  /* Drawn by lifetime: an offset that is an expression, as written (a
   * run-time position in its buffer; `offset` its integer terms); NULL
   * otherwise. */
  const char *runtime_offset;
  /* The lines it is used on: every line of a statement binding it and
   * every line it is read on, sorted and distinct (uses.c). */
  const uint32_t *uses;
  uint32_t use_count;
} mm_tile;

#define MM_BOX_PARTNERS 8

/* A tile with on-chip memory whose MemRef gives no address (an offset
 * that is an expression, no address at all): listed, never dropped in
 * silence (model.md, "Skipped tiles"). */
typedef struct mm_skipped {
  const char *name, *space, *reason;
  uint32_t line;
} mm_skipped;

/* What is drawn: a run of tiles in one slot (model.md, "Boxes"). */
typedef struct mm_box {
  const mm_tile *tile; /* the run's first tile gives the fields */
  uint32_t start, end;
  const char **aliases;
  uint32_t alias_count;
  const mm_tile *const *run; /* the run's tiles: the first, then one per alias */
  /* The lines its tiles are used on, sorted and distinct, and the longest
   * run of lines strictly between two of them (idle_from 0: none). */
  const uint32_t *uses;
  uint32_t use_count;
  uint32_t idle_from, idle_to;
  uint32_t rank;  /* space rank */
  uint32_t order; /* position before sorting, for stability */
  bool view, conflict;
  /* Another base's box that takes over its bytes in the statement that
   * binds it, or whose bytes it takes over: index + 1, 0 for none
   * (layout.c; model.md, "Views and conflicts"). */
  uint32_t in_place_to, in_place_from;
  bool over_capacity; /* outside [0, limit): drawn where it is, and flagged */
  /* The reserved windows sharing its bytes (windows.c): the first listed
   * (at most MM_BOX_PARTNERS) and how many in all. */
  uint32_t *window_partners;
  uint32_t window_partner_count, window_partner_total;
  /* The boxes it conflicts with (indices in the sorted boxes): the first
   * MM_BOX_PARTNERS in sort order, and how many there are in all. */
  uint32_t partners[MM_BOX_PARTNERS];
  uint32_t partner_total;
} mm_box;

/* Live bytes from `line` until the next step's line. */
typedef struct mm_live_step {
  uint32_t line;
  int64_t bytes;
} mm_live_step;

/* A function's use of one space (model.md §8, §10). The stages fill it
 * in the pipeline's order (pipeline.c), each only reading what came
 * before: layout.c makes it from the boxes (space, hwm, limit,
 * has_capacity, tiles, bases, over_capacity, hwm_box); windows.c adds the
 * windows (reserved_bytes, hwm_all, hwm_window, reserved_only, a window
 * over capacity, a reserved-only space's limit); liveness.c the live
 * profile, the peak, the lower bound, and hwm_box's choice by the peak
 * line; what_if.c the what-if. */
typedef struct mm_space_usage {
  const char *space;
  int64_t hwm, limit;
  /* Reserved windows (windows.c): their bytes, the high-water mark with
   * them, whether the backend gives a capacity, and whether the space
   * holds windows only (not in model.md's `spaces`). */
  int64_t reserved_bytes, hwm_all;
  /* What sets the high-water mark: of the boxes whose end is `hwm`, the
   * first (in box order) live on the peak line, else the first (layout.c,
   * liveness.c); and the first window whose end is `hwm_all` when that is
   * above every box; index + 1, 0 for none. */
  uint32_t hwm_box, hwm_window;
  bool has_capacity, reserved_only;
  uint32_t tiles, bases;
  uint32_t over_capacity; /* boxes outside [0, limit) */
  /* Liveness (liveness.c): bytes covered by the boxes live on each line,
   * as steps; the most of them on one line, its first line, and the
   * address space lost to fragmentation there (hwm - peak_live). */
  mm_live_step *profile;
  uint32_t profile_len;
  int64_t peak_live, fragmentation;
  uint32_t peak_line;
  uint32_t *peak_boxes; /* box indices live on peak_line, largest first */
  uint32_t peak_box_count;
  /* Drawn by lifetime (fn->by_lifetime): the most bytes live at once in
   * the planners' time, which no placement can go below, and the time
   * point where it is first reached (liveness.c). */
  int64_t lower_bound;
  uint64_t lower_bound_at;
  /* What if the mark's tile (box what_if_box - 1; 0: no what-if) and its
   * base's other boxes (what_if_moved in all) moved, as one block, to the
   * lowest gap free over their lifetimes: its offset there and the mark
   * then (what_if.c). */
  uint32_t what_if_box, what_if_moved;
  int64_t what_if_offset, what_if_hwm;
} mm_space_usage;

/* What holds a window's bytes for the whole function. */
typedef enum mm_window_kind {
  MM_WINDOW_RESERVE, /* a reserve_buffer call: a cross-core ring */
  MM_WINDOW_PINNED   /* a pinned allocation (allocations.c): its own tiles sit inside */
} mm_window_kind;

/* A reserved window (model.md, "Reserved windows"): [base, base + size)
 * of `space` for the whole function. windows.c reads it from a
 * reserve_buffer call (kind to slot_num; overlaps and one_more_fits
 * start at -1) and allocations.c adds a pinned allocation's; windows.c
 * then places both in their spaces: over_capacity, partners, overlaps,
 * grown_hwm, one_more_fits and grow_*. */
typedef struct mm_window {
  mm_window_kind kind;
  const char *owner; /* MM_WINDOW_PINNED: its base, as the tiles' (shared) */
  const char *name;  /* its name= */
  const char *bound; /* the name the call's result is bound to; NULL: none */
  const char *space;
  int64_t base, size;
  bool base_known, size_known; /* integers as written (not `AUTO`, ...) */
  bool placed;                 /* drawn and counted: base >= 0, size > 0 */
  uint32_t line;
  int64_t slot_size, slot_num; /* from an *_initialize_pipe call; 0: unknown */
  bool over_capacity;
  /* The boxes sharing its bytes: some of them (at most MM_BOX_PARTNERS,
   * those starting highest below its end, in box order; fewer on hostile
   * input with many boxes ending below it) and how many in all. */
  uint32_t partners[MM_BOX_PARTNERS];
  uint32_t partner_count, partner_total;
  int32_t overlaps;  /* a window before it sharing its bytes, or -1 */
  int64_t grown_hwm; /* the space's high-water mark with one more slot; 0: unknown */
  /* Whether that mark stays within the space's capacity: 1, 0, or -1
   * unknown (no grown_hwm, or no capacity). Every output says this. */
  int8_t one_more_fits;
  /* With n slots the mark is max(grow_fixed, grow_moved + (n - slot_num) *
   * slot_size): what stays below the ring's end, and what moves with it
   * (its end and everything above). Known with grown_hwm. */
  int64_t grow_fixed, grow_moved;
} mm_window;

/* One of a function's attributes (model.md, "Compute functions"): its
 * key, and its value as written. */
typedef struct mm_attr {
  const char *key, *value;
} mm_attr;

/* A base's allocation (model.md, "Allocations"): its `alloc` line, and
 * where its tiles put it. */
typedef struct mm_allocation {
  const char *name, *space;
  int64_t size;   /* as written; size_known false: not an integer */
  int64_t offset; /* the lowest address its tiles give it; offset_known false: no tile */
  bool size_known, offset_known, pinned;
  uint32_t line;
  uint32_t tiles;      /* tiles in it */
  uint32_t slot_count; /* its tiles' `slots=`, 0: none */
  int64_t slot_size;
} mm_allocation;

/* A peer function's window this function uses (import_peer_buffer): its
 * name, the peer, the name the call's result is bound to (NULL: none), and
 * the slots this side's *_initialize_pipe call gives it (0: unknown). */
typedef struct mm_import {
  const char *name, *peer, *bound;
  uint32_t line;
  int64_t slot_size, slot_num;
} mm_import;

/* A `for` or `while` loop: its header's line and its body's last line. */
typedef struct mm_loop {
  uint32_t first, last;
} mm_loop;

/* Whether a function's tiles carry addresses (model.md, "Refusals"). */
typedef enum mm_placement {
  MM_PLACED,
  MM_UNPLACED_ALL_ZERO,     /* every tile at 0, two bases in a space: upstream refuses */
  MM_UNPLACED_BASES_AT_ZERO /* two bases in a space, every base starting at 0 */
} mm_placement;

typedef struct mm_function {
  const char *name, *ftype;
  uint32_t src_start, src_end;
  const char *source; /* lines src_start..src_end as written; NULL: not kept */
  size_t source_len;
  /* Where those lines are in the input: a byte offset and length (kept
   * without the copy, for a caller that keeps the input). */
  size_t source_offset, source_bytes;
  mm_tile *tiles;
  size_t tile_count;
  mm_box *boxes;
  size_t box_count;
  mm_space_usage *spaces;
  size_t space_count;
  mm_window *windows;
  size_t window_count;
  mm_import *imports;
  size_t import_count;
  const mm_skipped *skipped;
  size_t skipped_count;
  mm_allocation *allocations;
  size_t allocation_count;
  const mm_attr *attrs; /* from `attrs=` of its decorator, then `pl.func_attr({...})` */
  size_t attr_count;
  /* The line each statement of the body begins on, ascending: a lifetime
   * measured in statements survives edits that shift lines (diff.c). */
  const uint32_t *statements;
  uint32_t statement_count;
  const mm_loop *loops; /* in the order they end (an inner one before its outer one) */
  size_t loop_count;
  uint8_t unallocated; /* mm_placement: do its tiles have addresses yet? (layout.c) */
  bool by_lifetime;    /* no addresses: its bases packed by lifetime (lifetimes.c) */
  /* The dump's name says a planner placed it (AllocateMemoryAddr's dump or
   * a later pass's): the planners' read-before-write holds (layout.c). */
  bool planner_placed;
} mm_function;

/* One ring of a cross-core pipe (pipes.c): a reserve_buffer window in the
 * function that consumes it and an import_peer_buffer naming it in the
 * function that produces into it; MM_NONE where a side is missing. */
#define MM_NONE UINT32_MAX
typedef struct mm_ring {
  const char *name;
  uint32_t consumer, window; /* function index, and its window */
  uint32_t producer, import; /* function index, and its import */
  int64_t max_slots;         /* the most slots its space takes; -1: unknown */
} mm_ring;

/* The rings between two functions (an AIC and an AIV one, as a mixed
 * kernel splits), one per direction: slot_num sizes every ring of a pipe,
 * so one more slot, and the most slots, are answered for all of them. */
typedef struct mm_pipe {
  uint32_t first, second; /* function indices (first: the AIC side when there is one) */
  mm_ring *rings;
  uint32_t ring_count;
  int8_t one_more_fits; /* 1, 0, or -1: unknown (a ring's slot size or capacity) */
  int64_t max_slots;    /* the smallest of its rings'; -1: unknown */
} mm_pipe;

/* Something only PyPTO's printer writes, read anyway (parser.h). */
typedef struct mm_note {
  uint32_t line;
  const char *text; /* static storage */
} mm_note;

/* Notes kept; past this many only counted. */
#define MM_MAX_NOTES 100

struct mm_model {
  mm_arena arena;
  const char *dump, *pass_name;
  const mm_backend *backend;
  bool detected;
  mm_vec functions; /* mm_function */
  mm_vec notes;     /* mm_note: the first MM_MAX_NOTES, in source order */
  size_t note_count;
  bool by_lifetime;         /* no addresses in the dump: bases packed by lifetime (lifetimes.c) */
  mm_planner planner;       /* who placed the build's memory, as its folder says (mm_options) */
  size_t compute_functions; /* AIC, AIV and InCore functions in the dump, with a tile or not */
  mm_pipe *pipes;           /* pipes.c, after every function */
  size_t pipe_count;
};

#endif
