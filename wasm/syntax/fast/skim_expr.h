/* skim_expr.h: the fast path's expressions (skim_expr.c), internal to it:
 * the summary of an expression's top node and the tile facts read from
 * it, for the statements of skim_statements.c. */
#ifndef MM_SKIM_EXPR_H
#define MM_SKIM_EXPR_H

#include "syntax/fast/skim_scan.h"

typedef enum form { F_OTHER, F_NAME, F_DOTTED, F_CALL, F_SUBSCRIPT, F_LIST, F_INT, F_STR } form;

/* What tiles.c's integer readers would answer. */
typedef enum int_fact { I_NONE, I_OK, I_RANGE, I_UNSURE } int_fact;
typedef enum base_fact { B_NONE, B_NAME, B_STRING, B_UNSURE } base_fact;

/* One of a call's first three positional arguments, as tiles.c reads it:
 * a MemRef's base, offset and size, or a const's value. */
typedef struct arg_fact {
  uint8_t plain, usable, base; /* int_fact, int_fact, base_fact */
  int64_t plain_value, usable_value;
  uint32_t text_start, text_len; /* the name, or the string's body */
} arg_fact;

/* The top node of an expression. */
typedef struct summary {
  uint8_t form;
  bool unsure;
  /* dotted names, and the callee or value of F_CALL and F_SUBSCRIPT */
  uint32_t start, dotted_end, parts, last_start, last_len;
  bool mem_before_last, spaced;
  int64_t value; /* F_INT */
  bool range;
  uint32_t str_start, str_len; /* F_STR: the body */
  uint32_t positional;         /* F_CALL */
  bool keywords;               /* F_CALL: a keyword argument given */
  arg_fact args[3];
  uint8_t shape; /* F_LIST: int_fact of the elements read so far */
  int64_t dims[MM_SKIM_MAX_DIMS];
  uint32_t dim_count;
} summary;

/* The elements of `X.Tile[...]` at the annotation's top (breadth-first
 * level 2): where tiles.c finds the MemRef and space when they are here. */
typedef struct tile_facts {
  bool seen, tuple, unsure;
  uint32_t count;
  bool has_ref, has_space;
  arg_fact base;
  int64_t offset, size;
  uint32_t space_start, space_len, dtype_start, dtype_len;
  uint8_t shape;
  int64_t dims[MM_SKIM_MAX_DIMS];
  uint32_t dim_count;
} tile_facts;

/* One expression (no top-level comma), summed up in `out`; `tile` takes
 * the elements of a `<...>.Tile[...]` at its top. Stops before the first
 * byte that cannot continue it; false when it leaves the subset. */
bool mm__skim_expression(skim *k, summary *out, tile_facts *tile);
/* After `open`: comma-separated expressions up to `close`, each summary
 * handed to `each` (with its index) when given. */
typedef void (*element_fn)(skim *k, void *context, uint32_t index, const summary *e);
bool mm__skim_elements(skim *k, unsigned char close, bool allow_empty, element_fn each,
                       void *context, bool *tuple);
/* A number at a digit: a decimal integer within 2^53 is F_INT with its
 * value (`range` set beyond), a float F_OTHER; false for other forms. */
bool mm__skim_number(skim *k, summary *out);
/* Expressions separated by commas, a trailing one allowed (a tuple). */
bool mm__skim_sequence(skim *k);
/* One bound name: an identifier that is no keyword. Not a read. */
bool mm__skim_bound_name(skim *k);
/* `for` targets: names, and parenthesized or bracketed lists of them. */
bool mm__skim_target_list(skim *k);
/* The line of the last token read (inside brackets peek crosses lines). */
uint32_t mm__skim_last_token_line(const skim *k, size_t floor);

#endif
