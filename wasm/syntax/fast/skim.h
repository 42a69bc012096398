/* skim.h: the fast path for the statements a dump is made of: above all
 * `name: annotation = value`, and the other simple statements, for
 * headers and def parameter lists. It reads the bytes directly (no tokens,
 * no tree) and accepts only a strict subset of Python in which every
 * accepted statement is valid and means exactly what the general parser
 * would make of it: the same reads, and the same tile out of the
 * annotation. Anything outside the subset (keywords, comments inside
 * brackets, backslashes, prefixed or escaped strings, slices, stars,
 * parentheses where a tile field is read, a MemRef or space not at the
 * annotation's top level, ...) is refused untouched, and the general
 * parser reads the statement instead. A comment after a statement ends
 * with its line. The C test test_skim and the fuzzer hold the two to the
 * same model. The statements are read in skim_statements.c, their
 * expressions in skim_expr.c. */
#ifndef MM_SKIM_H
#define MM_SKIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"

/* A read of a name: its text in the source and its line. */
typedef struct mm_skim_load {
  uint32_t start, len, line;
} mm_skim_load;

/* Longest shape the fast path keeps; a longer one goes the general way. */
#define MM_SKIM_MAX_DIMS 16

/* What the statement says, when it was accepted. Spans index the source. */
typedef struct mm_skim_statement {
  uint32_t name_start, name_len; /* the bound name */
  uint32_t line, end_line;       /* first and last line of its tokens */
  size_t next;                   /* the byte after the statement's '\n' */
  /* The tile of the annotation, when it is one (model.md, "Tiles"). */
  bool is_tile;
  uint32_t space_start, space_len;
  uint32_t base_start, base_len; /* a name, or a plain string's body */
  int64_t offset, size;
  int64_t shape[MM_SKIM_MAX_DIMS];
  uint32_t shape_len;
  uint32_t dtype_start, dtype_len; /* dtype_len 0: none */
  uint32_t op_start, op_len;       /* the value's called dotted name; 0: none */
} mm_skim_statement;

/* Annotations read before (skim_memo.c): a dump repeats its annotations,
 * and one seen again takes the result it had without being read again.
 * For one source: positions in it are kept. NULL from mm__skim_memo_new
 * when out of memory; the fast path then works without. */
typedef struct mm_skim_memo mm_skim_memo;
mm_skim_memo *mm__skim_memo_new(void);
void mm__skim_memo_free(mm_skim_memo *memo);

/* Reads the statement starting at src[start] (its first byte, outside any
 * bracket; `line` is its line) up to end. True when it is in the subset:
 * `out` is filled and every read is appended to `loads` (mm_skim_load;
 * emptied first). False when the general parser must read it; then `out`
 * means nothing, and `loads` is left empty unless it ran out of memory
 * (`loads->failed`). `memo` (may be NULL) remembers annotations of src. */
bool mm__skim_annotated(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                        mm_skim_memo *memo, mm_skim_statement *out);

/* The other statements the fast path reads, each with what it reads
 * appended to `loads` as above and `out`'s line, end_line and next filled
 * (nothing else): */

/* `name, ... = values` (plain names only), an expression statement, or
 * `return [values]`, starting at src[start]. */
bool mm__skim_simple(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                     mm_skim_statement *out);

/* The header `for targets in values:` at src[start] (its `for`), up to the
 * line end after the colon; targets are names, in brackets or not. */
bool mm__skim_for_header(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                         mm_skim_statement *out);

/* A def's parameters from its '(' at src[start] to the line end after the
 * header's colon, with the return annotation: plain names, annotated or
 * not (no defaults, no '*', '/' or '**'). Each annotated parameter is
 * appended to `parameters` (mm_skim_statement: name, its line and the
 * annotation's last line, the tile as for mm__skim_annotated; no op). */
bool mm__skim_parameters(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                         mm_vec *parameters, mm_skim_statement *out);

#endif
