/*
 * memory_map.h: the whole public API of the memory-map core.
 *
 * The core reads a PyPTO pass dump (Python source written after a compiler
 * pass) and computes the memory-map model of docs/model.md: compute
 * functions, tiles with lexical lifetimes, merged aliases, views, conflicts,
 * reserved windows, per-space high-water marks against a backend's
 * capacities, live bytes per line and the spans a tile is held unused.
 *
 * The boundary is deliberately narrow: bytes of a dump in, a model or an
 * error out, in one call. Everything the page and the CLI need crosses it as
 * JSON written by the core, so JS never re-implements the model.
 *
 * Ownership: every pointer returned by a function here is owned by the
 * caller and freed with the matching *_free function (or mm_free for plain
 * buffers). Inputs are only read during the call; the core keeps no
 * reference to them afterwards. The core has no global mutable state, so
 * separate calls may run on separate threads.
 */
#ifndef MEMORY_MAP_H
#define MEMORY_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- Limits */

/* Largest dump the core accepts, in bytes (256 MiB). Real dumps are a few
 * MB; the limit keeps memory bounded for hostile input. */
#define MM_MAX_INPUT_BYTES ((size_t)256 * 1024 * 1024)

/* ----------------------------------------------------------------- Errors */

typedef enum mm_status {
  MM_OK = 0,
  MM_ERR_SYNTAX,      /* not valid Python: `line` is where parsing stopped */
  MM_ERR_ENCODING,    /* not UTF-8 text, NUL bytes, binary data */
  MM_ERR_NO_TILES,    /* no compute function binds a tile MemRef */
  MM_ERR_UNALLOCATED, /* MemRefs still at offset 0: dump predates allocation */
  MM_ERR_BACKEND,     /* an explicit backend name that is not in the table */
  MM_ERR_LIMIT,       /* input too large or a value out of range */
  MM_ERR_NO_MEMORY    /* an allocation failed */
} mm_status;

/* What went wrong and where. Filled by mm_model_new on failure; release
 * with mm_error_clear (safe on a zeroed or already cleared struct). */
typedef struct mm_error {
  mm_status status;
  uint32_t line;    /* 1-based input line, 0 when not tied to a line */
  uint32_t column;  /* 1-based, in characters (code points) of that line; 0 when not known */
  char *message;    /* NUL-terminated, owned by this struct */
  char **functions; /* MM_ERR_UNALLOCATED: the functions refused */
  size_t function_count;
  /* MM_ERR_NO_TILES of a dump written at or after AllocateMemoryAddr:
   * the program keeps nothing on chip (tensors in DDR, an external
   * kernel), so there is nothing to map and nothing a check can fail. */
  bool nothing_on_chip;
} mm_error;

/* Frees the error's message and function list and zeroes it. */
void mm_error_clear(mm_error *error);

/* Short stable identifier of a status, as written in error JSON:
 * "syntax", "encoding", "no_tiles", "unallocated", "backend", "limit",
 * "no_memory" ("ok" for MM_OK). Static storage; do not free. */
const char *mm_status_name(mm_status status);

/* "memory-map 0.1.0": the project's version (package.json's), as
 * --version prints it and the JSON's `generator` and the SVG's metadata
 * name it. Static storage; do not free. */
const char *mm_generator(void);

/* --------------------------------------------------------------- Backends */

/* One SoC description: capacities in bytes, 0 where the space is absent. */
typedef struct mm_backend {
  const char *name; /* "Ascend910B" */
  const char *arch; /* pto.target_arch value, "a2a3" */
  uint64_t vec, mat, left, right, acc, bias, left_scale, right_scale;
} mm_backend;

/* Number of known backends, and the i-th (NULL when out of range). The table
 * is static storage; do not free. */
size_t mm_backend_count(void);
const mm_backend *mm_backend_at(size_t index);

/* The backend named `name` (exact match), or NULL. */
const mm_backend *mm_backend_find(const char *name);

/* Capacity of `space` ("Vec", "Mat", ...) in bytes, 0 when the backend has
 * none for it. `space` need not be NUL-terminated. */
uint64_t mm_backend_capacity(const mm_backend *backend, const char *space, size_t space_len);

/* ---------------------------------------------------------------- Folders */

/* Who placed a build's memory, as the names of its pass dumps say. */
typedef enum mm_planner {
  /* A lone dump, or a build that stopped before AllocateMemoryAddr's
   * place: the dump's own name and offsets decide (docs/model.md §13). */
  MM_PLANNER_UNKNOWN = 0,
  /* AllocateMemoryAddr wrote a dump (the default or the DSA planner): it
   * and every later pass hold addresses, whatever they are. */
  MM_PLANNER_COMPILER = 1,
  /* Passes after AllocateMemoryAddr's place ran without it
   * (memory_planner=PTOAS): ptoas places the memory after the last dump,
   * and no dump holds its addresses. */
  MM_PLANNER_PTOAS = 2
} mm_planner;

/* The pass a dump's file name says it was written after,
 * `<case>__NN_after_<Pass>.py` or `NN_after_<Pass>.py` (the ".py" may be
 * left off, as with --name): the text after its last "_after_", `*len`
 * bytes long (`len` may be NULL); NULL when the name names no pass (no
 * "_after_", or anything but letters, digits and '_' after it). */
const char *mm_dump_pass(const char *name, size_t *len);

/* How many folders below a build the cases are looked for: a case at
 * build/a/b/c/ is found, one a folder deeper is not. */
#define MM_CASE_DEPTH 3

/* Whether the entry `name` of a folder (itself a folder when `is_dir`)
 * makes that folder a case: a passes_dump/ or ptoas/ folder (a case
 * built without dumps is still one), or a pass dump of its own (a `.py`
 * file mm_dump_pass reads). */
bool mm_entry_makes_case(const char *name, bool is_dir);

/* What a case's folder of pass dumps says: the dump to read, who placed
 * the build's memory, and whether that dump is drawn by lifetime. */
typedef struct mm_folder_choice {
  size_t dump; /* index into the names given; SIZE_MAX: no dump of the pass */
  size_t last; /* the highest-numbered dump of any pass; SIZE_MAX: none */
  mm_planner planner;
  bool by_lifetime; /* a ptoas build: no dump holds its addresses */
  /* Asked for AllocateMemoryAddr, whose dump is not there: `dump` is the
   * latest pass after it instead (mm_folder_why says so). */
  bool instead;
} mm_folder_choice;

/* From the file names of one folder of pass dumps (`NN_after_<Pass>.py`;
 * any order, other names passed over), the dump to read for `pass` (NULL
 * or "": AllocateMemoryAddr): the highest-numbered `*_after_<pass>.py`
 * (numbers compare as numbers, 10 after 9; ties in byte order). Asked
 * for AllocateMemoryAddr when it has no dump there: the latest dump of a
 * pass after it, drawn by lifetime in a ptoas build (docs/cli.md,
 * "<path>"). */
mm_folder_choice mm_folder_choose(const char *const *names, size_t count, const char *pass);

/* What to tell of `choice`, naming `folder`, into `buf` (`len` bytes,
 * NUL-terminated, cut to fit; "" when there is nothing to tell): with no
 * dump (its dump is SIZE_MAX), why (a compile that stopped before
 * AllocateMemoryAddr names its last dump; otherwise how to get one), an
 * error; with a dump drawn by lifetime or opened instead of
 * AllocateMemoryAddr's, a note saying so. `names` and `pass` as given to
 * mm_folder_choose. */
void mm_folder_why(const mm_folder_choice *choice, const char *const *names, size_t count,
                   const char *pass, const char *folder, char *buf, size_t len);

/* ------------------------------------------------------------------ Model */

typedef struct mm_model mm_model;

typedef struct mm_options {
  /* Base name of the dump file ("32_after_AllocateMemoryAddr.py"); gives
   * the model's `dump` and `pass_name`. NULL means "dump.py". */
  const char *dump_name;
  /* Explicit backend name (the CLI's -b); NULL to detect. An unknown name
   * fails with MM_ERR_BACKEND listing the known ones. */
  const char *backend;
  /* Text of the case's .pto files, concatenated in name order, searched for
   * the first `pto.target_arch = "<arch>"`; NULL when there are none. */
  const char *pto_text;
  size_t pto_len;
  /* Keep no copy of each function's source lines: mm_model_to_json then
   * leaves `source` out, as with MM_JSON_WITHOUT_SOURCE. For a caller that
   * keeps the input (mm_analyze_json does it with that flag). */
  bool without_source;
  /* For a dump whose addresses no pass wrote (memory planned by ptoas):
   * no `unallocated` refusal; each function's bases are packed first-fit
   * by lifetime, its tiles keeping their offsets within them, and the
   * model says `planned: false` (docs/model.md, "Drawn by lifetime"). */
  bool lifetimes_only;
  /* Who placed the build's memory (an mm_planner), as its folder says
   * (mm_folder_choose); MM_PLANNER_UNKNOWN for a lone dump. With
   * MM_PLANNER_COMPILER a dump of AllocateMemoryAddr or a later pass is
   * never refused for its addresses; with MM_PLANNER_PTOAS and
   * `lifetimes_only`, every function is packed by lifetime. */
  unsigned char planner;
  /* Called, when not NULL, after each compute function is read, with the
   * bytes of the input read so far and the input's length: a caller
   * showing a progress bar. It must not call back into this API. */
  void (*progress)(void *context, size_t done, size_t total);
  void *progress_context;
  /* Called once, when not NULL, as soon as the first compute function has
   * gone through every stage, before the rest of the dump is read: a
   * caller showing that function at once (the page, for a big dump).
   * `model` holds it alone, with the notes so far and no pipes (those need
   * every function); it is valid during the call only, for
   * mm_model_to_json_with and the mm_model_* readers. Not called when
   * that function has no tile placed (its tiles' MemRefs give no address),
   * or tiles the whole dump would be refused for (MM_ERR_UNALLOCATED); nor
   * for a later function then. The model, or a refusal met later, still
   * comes from mm_model_new as always. */
  void (*first_function)(void *context, const mm_model *model);
  void *first_function_context;
} mm_options;

/* Parses `len` bytes of a dump and computes its model.
 * Returns the model (free with mm_model_free), or NULL with `error` filled
 * (clear it with mm_error_clear). `options` may be NULL. The input need not
 * be NUL-terminated and may contain any bytes. */
mm_model *mm_model_new(const char *input, size_t len, const mm_options *options, mm_error *error);

/* As mm_model_new, but each function's source lines are not copied: the
 * model points into `input`, which must stay as it is until mm_model_free
 * (the CLI keeps the dump file mapped so). */
mm_model *mm_model_new_borrowing(const char *input, size_t len, const mm_options *options,
                                 mm_error *error);

/* Frees a model and everything it owns. NULL is allowed. */
void mm_model_free(mm_model *model);

/* Number of compute functions in the model, and of boxes over all of them. */
size_t mm_model_function_count(const mm_model *model);
size_t mm_model_box_count(const mm_model *model);

/* The name of function `index` (in dump order), owned by the model; NULL
 * when out of range. */
const char *mm_model_function_name(const mm_model *model, size_t index);

/* Where a tile would fit (mm_model_fit): its offset, the space's
 * high-water mark with it there (reserved windows included), and whether
 * that is within the capacity (true when none is known). */
typedef struct mm_fit {
  int64_t offset, hwm, limit;
  bool has_capacity, fits;
} mm_fit;

/* "A tile of `bytes` bytes live from line `first` to `last`: where does it
 * fit?" in space `space` of function `function`: the lowest 32-byte-aligned
 * offset where it shares no byte with a tile live on any of those lines
 * nor with a reserved window (docs/model.md, "What if"). False when the
 * function is out of range, `bytes` is not positive or first > last. */
bool mm_model_fit(const mm_model *model, size_t function, const char *space, int64_t bytes,
                  uint32_t first, uint32_t last, mm_fit *out);

/* Flags for mm_model_to_json_with. */
enum {
  /* Leave each function's `source` out: `src_start` and `src_end` say
   * which lines of the input it is. For a caller that keeps the input (the
   * page): the lines are most of the JSON. */
  MM_JSON_WITHOUT_SOURCE = 1,
  /* The page's form, parsed a function at a time as its card opens: each
   * function's `allocations`, `boxes` and spaces' `live` as its "body"
   * ({"allocations", "boxes", "live": [per space, in the order of
   * `spaces` then `reserved_only_spaces`]}, then a newline), then a NUL
   * byte, then the model's JSON without those keys. Each function there
   * gains `box_count`; `box_problems` (a box conflicts or is over
   * capacity); `names` (a line per box: its first line, name and aliases,
   * space-separated); `source_bytes` and `body`, [offset, length] of its
   * lines in the input and of its body in this buffer. A form for one
   * model: mm_compare_json writes its two whole. */
  MM_JSON_SPLIT_BODIES = 2,
  /* With MM_JSON_SPLIT_BODIES, for a reader that needs few functions (a
   * comparison shows those that changed): the functions' heads too go
   * before the NUL, after the bodies, each followed by a newline, and
   * `functions` in the model's JSON lists each head's [offset, length]
   * in this buffer instead. */
  MM_JSON_SPLIT_HEADS = 4
};

/* Writes the model as JSON: the upstream tool's keys and this project's
 * extra ones (reserved windows, live profile, headroom, uses and idle
 * spans), each defined in docs/model.md, section 14. Returns a
 * NUL-terminated buffer owned by the caller (free with mm_free) and stores
 * its length in `*out_len` when non-NULL; NULL when out of memory. */
char *mm_model_to_json(const mm_model *model, size_t *out_len);

/* As mm_model_to_json, with MM_JSON_* `flags` (0: the same). */
char *mm_model_to_json_with(const mm_model *model, unsigned flags, size_t *out_len);

/* Takes the next `len` bytes of an output; false to stop the writer (a
 * write failed). */
typedef bool (*mm_sink)(void *context, const char *data, size_t len);

/* As mm_model_to_json_with, the same bytes (no NUL), handed to `sink` in
 * order, a piece at a time as they are written: the whole JSON is never in
 * memory (the CLI writes a 5 MB dump's page so). False when out of memory
 * or when `sink` returned false: the pieces given by then are a prefix. */
bool mm_model_write_json(const mm_model *model, unsigned flags, mm_sink sink, void *context);

/* The anomalies as text, one line each, `<label>:<line>: conflict in <fn>:
 * ...` for every pair of boxes with different bases sharing bytes while
 * both are live and every box sharing a reserved window's bytes, and
 * `... over capacity in <fn>: ...` for every box or window outside its
 * space's capacity; then one closing line with the count. `label`
 * prefixes each line (NULL: the dump's name). Stores the number of
 * anomalies in `*anomalies` when non-NULL. Ownership as for
 * mm_model_to_json; NULL when out of memory. */
char *mm_model_check_text(const mm_model *model, const char *label, size_t *out_len,
                          size_t *anomalies);

/* Plain-text tables: one row per function and space (high-water mark
 * with reserved windows, capacity, usage, reserved bytes, headroom, peak
 * live bytes, fragmentation and the peak's line); then, when there are
 * any, one row per reserved window (its bytes, ring slots and the
 * high-water mark with one more slot) and, per function, the three boxes
 * held longest while idle. Ownership as for mm_model_to_json. */
char *mm_model_summary_text(const mm_model *model, size_t *out_len);

/* What the compiler's printer wrote that is not Python and the core read
 * anyway (`<unsupported IRNode type>`, an empty block, a keyword after a
 * dot), one line per kind: `note: <label>:<line>: <what>` at its first
 * line, with ` (N times from here on)` when it recurs, then `note: ... and
 * N more` past the first 100 notes; "" when there is none. `label` as for
 * mm_model_check_text. Ownership as for mm_model_to_json. */
char *mm_model_notes_text(const mm_model *model, const char *label, size_t *out_len);

/* Writes an error as JSON: {"error": <status name>, "message": ..., "line":
 * N, "column": N, "functions": [...]} ("line", "column" and "functions"
 * only when set). Ownership as for mm_model_to_json. */
char *mm_error_to_json(const mm_error *error, size_t *out_len);

/* ------------------------------------------------------------ Comparison */

/* What changed from one dump of a kernel to another (a change to a tile
 * size, another allocator, a later pass). */
typedef struct mm_diff mm_diff;

/* Compares two models: functions matched by name, tiles within a function
 * by a name they share (a merged alias counts), lifetimes counted in
 * statements since line numbers shift between dumps, and the anomalies of
 * mm_model_check_text that one side has and the other not. Both models
 * must outlive the diff (it points into them). Free with mm_diff_free;
 * NULL when out of memory. */
mm_diff *mm_diff_new(const mm_model *old_model, const mm_model *new_model);

/* Frees a diff (not its models). NULL is allowed. */
void mm_diff_free(mm_diff *diff);

/* The comparison as JSON, docs/model.md section 15. Ownership as for
 * mm_model_to_json; NULL when out of memory. */
char *mm_diff_to_json(const mm_diff *diff, size_t *out_len);

/* The comparison as text: per function its status; for a changed one,
 * its spaces old -> new (high-water mark, change, peak live, usage,
 * reserved bytes), its tiles that moved, were resized, live longer or
 * shorter, were added or removed, and the anomalies that appeared or
 * went; one line per unchanged function; a closing line of counts.
 * Ownership as for mm_model_to_json. */
char *mm_diff_report_text(const mm_diff *diff, size_t *out_len);

/* The regressions, one line each: every anomaly the new side has and the
 * old not (`new: <new dump>:<line>: conflict in ...`) and every space
 * whose high-water mark grew (`<new dump>: high-water mark grew in <fn>:
 * Vec a -> b (+n (+p%))`), then a closing line. Stores their number in
 * `*regressions` when non-NULL. Ownership as for mm_model_to_json. */
char *mm_diff_check_text(const mm_diff *diff, size_t *out_len, size_t *regressions);

/* ----------------------------------------------------------------- Build */

/* A gate's threshold for one space (or "*": every space a rule names not
 * by itself). A space keeps at least `min_headroom` bytes free above its
 * high-water mark (reserved windows included) and its mark takes at most
 * `max_usage` percent of its capacity; a negative value asks nothing. A
 * space without a known capacity is never failed by either. */
typedef struct mm_limit {
  const char *space;
  int64_t min_headroom;
  double max_usage;
} mm_limit;

/* Many cases of a build (`build_output/<case>/` folders), or one: a row
 * per case, function and space, the problems mm_model_check_text finds
 * and the gate's thresholds broken, each kept as text and numbers, so a
 * model can be freed as soon as it is added (a build of 50 cases holds
 * one model at a time). docs/model.md, "A build". */
typedef struct mm_build mm_build;

/* An empty build checking `limits` (copied; `count` may be 0). Free with
 * mm_build_free; NULL when out of memory. */
mm_build *mm_build_new(const mm_limit *limits, size_t count);

/* Adds case `case_name` read from `dump` (a label for its lines) as
 * `model`; the model is not kept. False when out of memory. */
bool mm_build_add_model(mm_build *build, const char *case_name, const char *dump,
                        const mm_model *model);

/* Adds case `case_name` whose dump could not be read or was refused:
 * `dump` is the path (or the folder) and `error` why. False when out of
 * memory. */
bool mm_build_add_error(mm_build *build, const char *case_name, const char *dump,
                        const mm_error *error);

/* How many problems and broken thresholds the cases added have, and how
 * many cases could not be read. */
size_t mm_build_failures(const mm_build *build);
size_t mm_build_errors(const mm_build *build);

/* The rows as a plain-text table, least headroom first (rows without a
 * capacity last): case, backend, function, space, high-water mark,
 * capacity, usage, reserved bytes, headroom, peak live bytes,
 * fragmentation, conflicts (over capacity included) and unplaced tiles;
 * then, when there are any, the cases' cross-core pipes, a row per ring
 * with its pipe's answers; then the cases not read, with why. Ownership as
 * for mm_model_to_json. */
char *mm_build_summary_text(const mm_build *build, size_t *out_len);

/* The check: each case's lines as mm_model_check_text writes them, each
 * broken threshold as `<dump>:<line>: headroom in <fn>: ...` or `usage
 * in`, each case not read as `<dump>: error: <why>`, then one closing
 * line with the counts. Ownership as for mm_model_to_json. */
char *mm_build_check_text(const mm_build *build, size_t *out_len);

/* The build as JSON (docs/model.md, "A build"): cases, rows in the
 * summary's order, the pipes' rings, the limits, every problem with its
 * case, function, kind, line and text. Ownership as for mm_model_to_json. */
char *mm_build_to_json(const mm_build *build, size_t *out_len);

/* The check as a JUnit XML report: a testsuite per case, a testcase per
 * function (its problems as one <failure>), an <error> for a case not
 * read. Ownership as for mm_model_to_json. */
char *mm_build_junit(const mm_build *build, size_t *out_len);

/* Frees a build. NULL is allowed. */
void mm_build_free(mm_build *build);

/* ------------------------------------------------------------------ SVG */

/* What mm_model_svg draws. Zeroed, or NULL: the whole function, every
 * space, lanes up to each capacity, 960 px of lanes at zoom 1, the live
 * profiles, the light theme. */
typedef struct mm_svg_options {
  uint32_t first_line, last_line; /* dump lines drawn; 0: the function's first / last */
  bool axis_used;                 /* lanes up to the high-water mark (the page's `used`) */
  const char *hidden;             /* spaces left out, comma-separated ("Mat,Left"); NULL: none */
  double zoom;                    /* <= 0: 1 */
  uint32_t map_width;             /* px of lanes at zoom 1; 0: 960 */
  bool dark;                      /* the page's dark theme's colours */
  bool hide_profile;              /* no live profile nor peak tick (the page's toggle) */
} mm_svg_options;

/* Function `function`'s map as a standalone SVG document (UTF-8): a header
 * (function, type, dump, backend, lines; each space's usage and headroom
 * as the page's pills give them; each space's peak, high-water mark, what
 * sets it, and its reserved windows with what they hold and what one more
 * slot would do), a lane per space on one byte scale with its high-water
 * mark, live profile and peak, the reserved windows, a box per tile, line
 * numbers, and a key giving the name of every box and window too narrow
 * to show it, by the number it shows. Each box has its name, bytes and
 * lines in a <title> too. Owned by the caller (mm_free); NULL when out of
 * memory or `function` is out of range. */
char *mm_model_svg(const mm_model *model, size_t function, const mm_svg_options *options,
                   size_t *out_len);

/* ------------------------------------------------------ One-call boundary */

/* What the page calls (the WebAssembly exports, listed by the build from
 * this section: every function declared between this heading and the
 * end-of-boundary line). The three analyses take the dump's bytes and an
 * mm_options (`without_source` set too when `flags` leave the source out)
 * and return one buffer owned by the caller (mm_free) with its length in
 * `*out_len`: the answer, or the refusal's JSON (mm_error_to_json). NULL
 * only when out of memory.
 *
 * The page writes mm_options and mm_svg_options into the module's heap
 * itself, so their layout on wasm32 is part of the boundary (boundary.c
 * asserts it, web/core.js writes it): mm_options is 36 bytes, dump_name at
 * 0, backend at 4, pto_text at 8, pto_len at 12, without_source at 16,
 * lifetimes_only at 17, planner at 18, progress at 20 (the page leaves it NULL: its
 * module reports to Module.onProgress instead), progress_context at 24,
 * first_function at 28 (NULL too: the module hands the first function's
 * JSON, in the call's form but for MM_JSON_SPLIT_HEADS, to
 * Module.onPreview(pointer, length) when the worker set one),
 * first_function_context at 32; mm_svg_options is 32 bytes,
 * first_line at 0, last_line at 4, axis_used at 8, hidden at 12, zoom at 16, map_width at 24, dark
 * at 28, hide_profile at 29. */

/* The model's JSON, written with MM_JSON_* `flags`. */
char *mm_analyze_json(const char *input, size_t len, const mm_options *options, unsigned flags,
                      size_t *out_len);

/* Two dumps compared on two cores (the page's two workers): each read
 * with mm_analyze_json_side, which returns what mm_analyze_json does and,
 * when the dump is read, stores in `*side` (owned by the caller, mm_free;
 * NULL when refused or out of memory) and `*side_len` what a comparison
 * needs of the model, as bytes another instance of the module can read;
 * then mm_compare_sides_json compares two such sides: the same JSON as
 * the "diff" of mm_compare_json for the same dumps, or an error's JSON
 * when either is not a side this version wrote. */
char *mm_analyze_json_side(const char *input, size_t len, const mm_options *options, unsigned flags,
                           size_t *out_len, char **side, size_t *side_len);
char *mm_compare_sides_json(const char *old_side, size_t old_len, const char *new_side,
                            size_t new_len, size_t *out_len);

/* Two dumps compared in one call: {"old": model, "new": model, "diff":
 * comparison}, the models written with MM_JSON_WITHOUT_SOURCE when `flags`
 * has it (MM_JSON_SPLIT_BODIES and MM_JSON_SPLIT_HEADS are ignored); or, when a side is refused,
 * its error's JSON with "side": "old" or "new". Each side is read with its
 * own options (name, backend, .pto text). */
char *mm_compare_json(const char *old_input, size_t old_len, const mm_options *old_options,
                      const char *new_input, size_t new_len, const mm_options *new_options,
                      unsigned flags, size_t *out_len);

/* The page's "Save SVG": function `function`'s map as mm_model_svg draws
 * it with `svg` (NULL: the defaults), or the error's JSON (it starts with
 * '{') when the dump is refused or has no such function. */
char *mm_analyze_svg(const char *input, size_t len, const mm_options *options, uint32_t function,
                     const mm_svg_options *svg, size_t *out_len);

/* One case of a build (the page's overview of a build_output/ folder):
 * the dump read with `options` and added as case `case_name` (`dump`: its
 * path, for the check lines), or its refusal as the case's error;
 * mm_build_to_json's JSON of that one case. NULL only when out of memory. */
char *mm_analyze_build_json(const char *input, size_t len, const mm_options *options,
                            const char *case_name, const char *dump, size_t *out_len);

/* The line inspector's "a tile of `bytes` bytes live from line `first` to
 * `last`: where does it fit?" in `space` of function `function`, as
 * mm_model_fit answers it: {"offset", "hwm_with_reserved", "limit" (null
 * without a capacity), "fits"}, or an error's JSON. `bytes` is a double:
 * the page's numbers (a whole number, at most 2^53). */
char *mm_analyze_fit_json(const char *input, size_t len, const mm_options *options,
                          uint32_t function, const char *space, double bytes, uint32_t first,
                          uint32_t last, size_t *out_len);

/* mm_folder_choose for the page: `names` are a folder's file names, one
 * a line (`len` bytes, '\n' between them), `pass` as there, `folder` its
 * name for the message. Returns {"dump": index or null, "last": index or
 * null, "planner": "unknown", "compiler" or "ptoas", "by_lifetime": bool,
 * "instead": bool, "error": mm_folder_why's message when there is no dump,
 * else null, "note": its message when there is a dump and one, else null,
 * "dump_pass": the chosen dump's pass (mm_dump_pass) or null, "passes":
 * the passes the names hold dumps of, each once, in the order the
 * compiler ran them}, owned by the caller (mm_free); NULL when out of
 * memory. */
char *mm_folder_json(const char *names, size_t len, const char *pass, const char *folder,
                     size_t *out_len);

/* The cases of a dropped folder for the page, as the command line finds
 * them on disk: `paths` are its files' paths, one a line (`len` bytes,
 * '\n' between them), '/'-separated and each starting with the dropped
 * folder's name. Returns {"build": bool, "cases": [{"dir", "pool":
 * [indices], "pto": [indices]}]}: with "build" false the folder is one
 * case (or holds none) and "cases" is it alone; the indices name the
 * case's pass dumps to choose among (mm_folder_choose) and its .pto
 * files, in path order. Owned by the caller (mm_free); NULL when out of
 * memory. */
char *mm_cases_json(const char *paths, size_t len, size_t *out_len);

/* The backend table as JSON: [{"name", "arch", "capacities": {"Vec": n,
 * ...}}], spaces without a capacity left out. Owned by the caller
 * (mm_free); `*out_len` gets its length. NULL when out of memory. */
char *mm_backends_json(size_t *out_len);

/* Frees a buffer returned by this API (any of it, not only the boundary). */
void mm_free(void *buffer);

/* -------------------------------------------------- end of the boundary */

#ifdef __cplusplus
}
#endif

#endif /* MEMORY_MAP_H */
