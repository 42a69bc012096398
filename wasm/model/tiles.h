/* tiles.h: reading a tile out of an annotation (model.md, "Tiles"), and
 * the small node helpers the model needs (dotted names, integers). */
#ifndef MM_TILES_H
#define MM_TILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "rules/tile_rules.h"
#include "rules/window_calls.h"
#include "syntax/ast.h"

typedef struct mm_tile_fields {
  mm_str space; /* points into the source */
  char *base;   /* NUL-terminated copy (a string constant is decoded) */
  int64_t offset, size;
  int64_t *shape;
  uint32_t shape_len;
  mm_str dtype; /* into the source, or empty */
  /* A MemRef of an N-slot allocation (`slots=N`, N > 1; model.md,
   * "Slots"): slot_count N and slot_size the MemRef's size; slot_index
   * the subscript as written (empty: none). With a runtime index,
   * offset and size above cover every slot it can select. */
  uint32_t slot_count;
  int64_t slot_size;
  mm_str slot_index;
  bool slot_runtime;
  /* Drawn by lifetime: the offset as written when it is an expression, a
   * position in the buffer chosen at run time (`offset` its integer
   * terms); empty otherwise. */
  mm_str runtime_offset;
  /* MM_TILE_SKIPPED: why the MemRef gives no address (NUL-terminated,
   * static or in the arena). */
  const char *skip_reason;
} mm_tile_fields;

/* What an annotation says of a tile. */
typedef enum mm_tile_result {
  MM_TILE_NONE,   /* no tile: not `.Tile[...]`, no space, DDR, no MemRef (or an error) */
  MM_TILE_OK,     /* a tile with on-chip memory: `out` is filled */
  MM_TILE_SKIPPED /* on-chip, but no MemRef gives an address: out->skip_reason, out->space */
} mm_tile_result;

/* Reads `annotation` as a tile annotation; fills `out` (copies in
 * `arena`). `relative`: the dump is drawn by lifetime, its offsets
 * relative to buffers not placed yet, so an offset that is an expression
 * is a run-time position in one, not a missing address. A number out of
 * the exactly representable range (|n| > 2^53) is an error in `diag`
 * (MM_TILE_NONE): JSON readers could not hold it. */
mm_tile_result mm__tile_from_annotation(const char *src, const mm_node *annotation, bool relative,
                                        mm_arena *arena, mm_tile_fields *out, mm_diag *diag);

/* How an integer argument reads. */
typedef enum mm_int_result { MM_INT_NONE, MM_INT_OK, MM_INT_RANGE } mm_int_result;

/* An integer as a MemRef's offset and size may be written: a literal, a
 * negated literal, or `<...>.const(<such a literal>, ...)`. MM_INT_RANGE
 * beyond 2^53. */
mm_int_result mm__usable_integer(const char *src, const mm_node *node, int64_t *value);

/* The value of a (possibly implicitly concatenated) string constant, its
 * escapes decoded, copied into `arena`; NULL when out of memory. */
char *mm__string_value(const char *src, const mm_node *node, mm_arena *arena);

/* The text of `node`, an argument or a subscript's index in a statement
 * the parser accepted, as written (parentheses that open it included). */
mm_str mm__argument_text(const char *src, const mm_node *node);

/* `op` of an assignment's value: the called dotted name without a leading
 * "pl."; empty when the value is not a call of a dotted name. Allocated in
 * `arena` (NUL-terminated). */
char *mm__value_op(const char *src, const mm_node *value, mm_arena *arena);

/* Whether `node` is a dotted name (Name or Attribute chain) of at least two
 * parts whose last part is `last`. */
bool mm__is_dotted_ending(const char *src, const mm_node *node, const char *last);

/* Whether `node` is a dotted name of at least two parts whose last part
 * names a call of `kind` (rules/window_calls.h). */
bool mm__is_dotted_call_of(const char *src, const mm_node *node, mm_window_call kind);

/* Whether `node`'s text is `word`: a name, an attribute's last part, a
 * keyword argument's name, a literal as written. */
bool mm__node_text_is(const char *src, const mm_node *node, const char *word);

/* A memory space as a dotted name: `<...>.Mem.<Space>`, or the older
 * `<...>.MemorySpace.<Space>`. */
bool mm__is_memory_space(const char *src, const mm_node *node);

/* The value of `call`'s keyword argument `name`, or NULL; the last one
 * given wins, as in a Python call's **kwargs. */
const mm_node *mm__keyword_value(const char *src, const mm_node *call, const char *name);

/* The last component of a dotted name (a bare name counts), or an empty
 * slice when `node` is not a dotted name. */
mm_str mm__dotted_last(const char *src, const mm_node *node);

#endif
