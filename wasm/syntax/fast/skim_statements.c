/* skim_statements.c: the fast path's statements (skim.h): `name:
 * annotation = value`, the other simple statements, for headers and def
 * parameters, each read to its line end; and the tile annotation exactly
 * as the compiler prints it, matched byte for byte. */
#include "base/bytes.h"
#include "rules/tile_rules.h"
#include "syntax/fast/skim.h"
#include "syntax/fast/skim_expr.h"
#include "syntax/fast/skim_memo.h"

/* Whether the span holds `word` (a literal: its length is known when
 * compiled, so no strlen runs). */
static inline bool span_is(const skim *k, uint32_t start, uint32_t len, const char *word) {
  return mm__span_is(text_at(k, start), len, word);
}

static inline size_t ident_end_at(const skim *k, size_t pos) {
  return ident_run_end(k->s, pos, k->end);
}

/* ------------------------------------------------- the printed tile */

/* The bytes of `text` at pos: consumed. */
static bool take_bytes(skim *k, const char *text, size_t n) {
  if (k->end - k->pos < n || !mm__bytes_equal((const char *)k->s + k->pos, text, n)) return false;
  k->pos += n;
  return true;
}
/* `text` a string literal: its length is known when compiled. */
#define take(k, text) take_bytes(k, text, sizeof(text) - 1)

/* A decimal integer within 2^53 (the caller restores pos on failure). A
 * plain one (as printed) is read here; any other number by mm__skim_number,
 * with its rules. */
static bool take_integer(skim *k, int64_t *value) {
  int64_t v;
  size_t end = decimal_prefix(k, &v);
  if (is_plain_integer(k, k->pos, end) && v <= MM_MAX_EXACT_INTEGER) {
    *value = v;
    k->pos = end;
    return true;
  }
  summary n;
  if (!byte_is_digit(byte_at(k, k->pos)) || !mm__skim_number(k, &n) || n.form != F_INT || n.range)
    return false;
  *value = n.value;
  return true;
}

/* A name that is no keyword; `read` makes it a read. */
static bool take_name(skim *k, bool read, uint32_t *start, uint32_t *len) {
  if (!is_ident_start(byte_at(k, k->pos))) return false;
  size_t s = k->pos, e = ident_end(k);
  if (!e || is_keyword(k, s, e - s) || (read && !push_load(k, s, e))) return false;
  *start = (uint32_t)s;
  *len = (uint32_t)(e - s);
  k->pos = e;
  return true;
}

/* `pl.` as a read of `pl`, then `rest`. */
static bool take_pl_then(skim *k, const char *rest, size_t rest_len) {
  size_t at = k->pos;
  return take(k, "pl.") && push_load(k, at, at + 2) && take_bytes(k, rest, rest_len);
}
#define take_pl(k, rest) take_pl_then(k, rest, sizeof(rest) - 1)

/* Where an annotation may end: an assignment's `=` (not `==`), or a
 * parameter's `,` or `)`. */
static bool annotation_ends(skim *k) {
  unsigned char c = peek(k);
  return k->depth ? c == ',' || c == ')' : c == '=' && byte_at(k, k->pos + 1) != '=';
}

/* The annotation exactly as the compiler prints a tile, up to its end:
 *   pl.Tile[[16, 256], pl.BF16, pl.MemRef(mem_vec_2, pl.const(8192, pl.INT64), 16384), pl.Mem.Vec]
 * with any further elements after the space read as usual. In this form
 * every field sits where tiles.c's breadth-first walk finds it (elements
 * 0 to 3 at level 2), so no summaries are needed. Its words are the
 * printer's bytes, each one that tile_rules.h accepts (Tile, MemRef,
 * const, Mem); finish_tile asks the rules of the type and the space it
 * read, and the tests hold this reading to the general one's. False, with nothing consumed or
 * read, for any other form. */
static bool take_printed_tile(skim *k, summary *ann, tile_facts *t) {
  size_t start = k->pos, loads = k->loads->len;
  uint32_t base_start = 0, base_len = 0;
  if (!take_pl(k, "Tile[[")) { /* most annotations that are no tile: nothing written yet */
    k->pos = start;
    k->loads->len = loads;
    return false;
  }
  bool ok = true;
  for (t->dim_count = 0; ok; t->dim_count++) {
    ok = t->dim_count < MM_SKIM_MAX_DIMS && take_integer(k, &t->dims[t->dim_count]);
    if (ok && take(k, "]")) {
      t->dim_count++;
      break;
    }
    ok = ok && take(k, ", ");
  }
  ok = ok && take(k, ", ") && take_pl(k, "") &&
       take_name(k, false, &t->dtype_start, &t->dtype_len) &&
       mm__is_dtype_name(text_at(k, t->dtype_start), t->dtype_len) && take(k, ", ") &&
       take_pl(k, "MemRef(") && take_name(k, true, &base_start, &base_len) && take(k, ", ") &&
       take_pl(k, "const(") && take_integer(k, &t->offset) && take(k, ", ") &&
       take_pl(k, "INT64), ") && take_integer(k, &t->size) && take(k, "), ") &&
       take_pl(k, "Mem.") && take_name(k, false, &t->space_start, &t->space_len);
  if (ok && !take(k, "]")) { /* elements after the space: no field depends on them */
    bool tuple, facts = k->facts;
    k->depth++;
    k->facts = false;
    ok = take(k, ", ") && mm__skim_elements(k, ']', true, NULL, NULL, &tuple);
    k->facts = facts;
    k->depth--;
  }
  if (!ok || !annotation_ends(k)) { /* `[...].x`, `| y`, ... */
    k->pos = start;
    k->loads->len = loads;
    memset(t, 0, sizeof *t);
    return false;
  }
  t->seen = t->tuple = t->has_ref = t->has_space = true;
  t->shape = I_OK;
  t->base = (arg_fact){.base = B_NAME, .text_start = base_start, .text_len = base_len};
  ann->form = F_SUBSCRIPT;
  ann->unsure = false;
  ann->parts = 2;
  ann->start = (uint32_t)start;
  ann->last_start = (uint32_t)start + 3;
  ann->last_len = 4;
  return true;
}

/* ------------------------------------------------------- statement */

static bool finish_tile(const skim *k, const summary *ann, const tile_facts *t,
                        mm_skim_statement *out) {
  out->is_tile = false;
  if (ann->unsure) return false;
  if (ann->form != F_SUBSCRIPT || !mm__is_tile_type(text_at(k, ann->last_start), ann->last_len))
    return true; /* not `<...>.Tile[...]`: no tile */
  if (ann->parts < 2) return true;
  if (!t->seen || !t->tuple || t->unsure || !t->has_ref || !t->has_space) return false;
  if (mm__is_off_chip_space(text_at(k, t->space_start), t->space_len)) return true;
  out->is_tile = true;
  out->space_start = t->space_start;
  out->space_len = t->space_len;
  out->base_start = t->base.text_start;
  out->base_len = t->base.text_len;
  out->offset = t->offset;
  out->size = t->size;
  out->shape_len = t->shape == I_OK ? t->dim_count : 0;
  memcpy(out->shape, t->dims, sizeof out->shape);
  out->dtype_start = t->dtype_start;
  out->dtype_len = t->dtype_len;
  return true;
}

static skim skim_over(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads) {
  loads->len = 0;
  return (skim){
      (const unsigned char *)src, start, end, line, 0, 0, loads, SIZE_MAX, 0, false, false};
}

/* The end of every statement read: its line end, outside brackets. Fills
 * `out`'s lines and next; when not `ok`, the reads are dropped. */
static bool statement_end(skim *k, bool ok, uint32_t line, mm_skim_statement *out) {
  if (ok && peek(k) == '#') /* a comment after the statement: to its line end */
    k->pos = mm__find_line_end((const char *)k->s, k->pos, k->end);
  if (!ok || peek(k) != '\n') {
    k->loads->len = 0;
    return false;
  }
  out->line = line;
  out->end_line = k->line;
  out->next = k->pos + 1;
  return true;
}

/* A header's closing `:` (not `:=`). */
static bool take_colon(skim *k) {
  if (peek(k) != ':' || byte_at(k, k->pos + 1) == '=') return false;
  k->pos++;
  return true;
}

/* A name that may start a simple statement: no keyword, and none of the
 * soft keywords that start statements of their own. */
static bool is_statement_name(const skim *k, size_t start, size_t len) {
  uint32_t at = (uint32_t)start, n = (uint32_t)len;
  return !is_keyword(k, start, len) && !span_is(k, at, n, "match") && !span_is(k, at, n, "case") &&
         !span_is(k, at, n, "type");
}

/* An annotation, up to its end (annotation_ends), and the tile it holds
 * into `out` (is_tile and the fields); false when it goes the general way. */
static bool scan_annotation(skim *k, mm_skim_statement *out) {
  summary annotation;
  tile_facts tile;
  memset(&tile, 0, sizeof tile);
  k->facts = true;
  peek(k);
  bool ok = take_printed_tile(k, &annotation, &tile) ||
            (mm__skim_expression(k, &annotation, &tile) && annotation_ends(k));
  k->facts = false;
  return ok && finish_tile(k, &annotation, &tile, out);
}

bool mm__skim_annotated(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                        mm_skim_memo *memo, mm_skim_statement *out) {
  skim k = skim_over(src, start, end, line, loads);
  if (!is_ident_start(byte_at(&k, start))) return false;
  size_t name_end = ident_end(&k);
  if (!name_end || !is_statement_name(&k, start, name_end - start)) return false;
  k.pos = name_end;
  if (peek(&k) != ':' || byte_at(&k, k.pos + 1) == '=') return false;
  k.pos++;
  summary value;
  peek(&k);
  size_t annotation = k.pos, first_load = k.loads->len;
  bool ok = mm__skim_memo_take(memo, &k, out);
  if (!ok && (ok = scan_annotation(&k, out)))
    mm__skim_memo_keep(memo, &k, annotation, line, first_load, out);
  if (ok) {
    k.pos++;               /* '=' */
    k.window_call = false; /* the value's, not the annotation's */
    ok = mm__skim_expression(&k, &value, NULL) && !value.unsure &&
         !(value.form == F_CALL && (value.spaced || value.parts > MM_MAX_OP_PARTS)) &&
         !k.window_call;
  }
  if (!statement_end(&k, ok, line, out)) return false;
  out->name_start = (uint32_t)start;
  out->name_len = (uint32_t)(name_end - start);
  out->op_start = out->op_len = 0;
  if (value.form == F_CALL) {
    out->op_start = value.start;
    out->op_len = value.dotted_end - value.start;
    uint32_t prefix = (uint32_t)mm__op_prefix_len(src + value.start, out->op_len);
    out->op_start += prefix;
    out->op_len -= prefix;
  }
  return true;
}

/* `name, ... = values` and expression statements: the reads only. */
static bool scan_simple(skim *k) {
  size_t start = k->pos;
  uint32_t line = k->line;
  /* Plain names then '=' (not '=='): an assignment; else an expression. */
  bool targets = true;
  for (;;) {
    if (!mm__skim_bound_name(k)) {
      targets = false;
      break;
    }
    if (peek(k) != ',') break;
    k->pos++;
    if (!is_ident_start(peek(k))) break;
  }
  if (targets && peek(k) == '=' && byte_at(k, k->pos + 1) != '=') {
    k->pos++;
  } else {
    k->pos = start;
    k->line = line;
  }
  /* then the line end: not `a = b = c`, `+=`, `;`, a comment, ... */
  return mm__skim_sequence(k) && !k->window_call;
}

bool mm__skim_simple(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                     mm_skim_statement *out) {
  skim k = skim_over(src, start, end, line, loads);
  if (!is_ident_start(byte_at(&k, start))) return false;
  size_t first_end = ident_end(&k);
  uint32_t first_len = (uint32_t)(first_end - start);
  bool ok = false;
  if (first_end && span_is(&k, (uint32_t)start, first_len, "return")) {
    k.pos = first_end;
    ok = peek(&k) == '\n' || mm__skim_sequence(&k);
  } else if (first_end && is_statement_name(&k, start, first_len)) {
    ok = scan_simple(&k);
  }
  return statement_end(&k, ok, line, out);
}

bool mm__skim_for_header(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                         mm_skim_statement *out) {
  skim k = skim_over(src, start, end, line, loads);
  if (!take(&k, "for") || is_ident_char(byte_at(&k, k.pos))) return false;
  bool ok = mm__skim_target_list(&k) && is_ident_start(peek(&k));
  if (ok) {
    size_t word = k.pos, e = ident_end(&k);
    ok = e && span_is(&k, (uint32_t)word, (uint32_t)(e - word), "in");
    k.pos = e;
  }
  ok = ok && mm__skim_sequence(&k) && take_colon(&k); /* a body on the same line: the general way */
  return statement_end(&k, ok, line, out);
}

bool mm__skim_parameters(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                         mm_vec *parameters, mm_skim_statement *out) {
  skim k = skim_over(src, start, end, line, loads);
  parameters->len = 0;
  bool ok = byte_at(&k, start) == '(';
  k.pos++;
  k.depth++;
  while (ok && peek(&k) != ')') {
    size_t name = k.pos;
    uint32_t name_line = k.line;
    ok = mm__skim_bound_name(&k); /* '*', '/', '**': the general way */
    if (ok && peek(&k) == ':') {
      k.pos++;
      mm_skim_statement *param = mm__vec_push(parameters);
      ok = param && scan_annotation(&k, param);
      if (ok) {
        param->name_start = (uint32_t)name;
        param->name_len = (uint32_t)(ident_end_at(&k, name) - name);
        param->line = name_line;
        param->end_line = mm__skim_last_token_line(&k, name);
      }
    }
    if (!ok) break;
    unsigned char c = peek(&k);
    if (c == ',') {
      k.pos++;
    } else if (c != ')') {
      ok = false; /* defaults, ... */
    }
  }
  if (ok) {
    k.pos++;
    k.depth--;
    if (peek(&k) == '-' && byte_at(&k, k.pos + 1) == '>') {
      k.pos += 2;
      summary returns;
      ok = mm__skim_expression(&k, &returns, NULL);
    }
  }
  if (statement_end(&k, ok && take_colon(&k), line, out)) return true;
  parameters->len = 0;
  return false;
}
