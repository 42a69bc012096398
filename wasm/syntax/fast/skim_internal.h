/* skim_internal.h: what the fast path's two halves share: the scanner's
 * state, the summary of an expression's top node, the tile facts, the
 * byte-level helpers (skim_expr.c reads expressions, skim.c statements).
 * Not part of the public API. */
#ifndef MM_SKIM_INTERNAL_H
#define MM_SKIM_INTERNAL_H

#include <string.h>

#include "base/bytes.h"
#include "rules/tile_rules.h"
#include "rules/window_calls.h"
#include "syntax/fast/skim.h"
#include "syntax/lexer.h"

/* Brackets and operands nest at most this deep here; deeper goes the
 * general way (which applies CPython's limits). */
#define MAX_NESTING 48

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

typedef struct skim {
  const unsigned char *s;
  size_t pos, end;
  uint32_t line;
  int depth;   /* open brackets: line ends are blanks inside them */
  int nesting; /* recursion */
  mm_vec *loads;
  /* The identifier last measured: an argument's first name is measured
   * to tell `name=` from an expression, then read again as one. */
  size_t ident_at, ident_end;
  /* Inside an annotation: a tile's fields may depend on what brackets
   * hold. Elsewhere brackets are only checked and their reads taken. */
  bool facts;
  /* An attribute named as a reserved window's call (windows.h) was read:
   * the statement goes the general way, which reads their arguments. */
  bool window_call;
} skim;

/* Byte classes: identifier letters, digits. One look-up per byte; both
 * have the NAME_CHAR bit, so four look-ups ANDed test four bytes. */
enum { NAME_CHAR = 2, IDENT = 3, DIGIT = 2 };
#define LETTERS_FROM(c)                                                                            \
  [c] = IDENT, [c + 1] = IDENT, [c + 2] = IDENT, [c + 3] = IDENT, [c + 4] = IDENT,                 \
  [c + 5] = IDENT, [c + 6] = IDENT, [c + 7] = IDENT, [c + 8] = IDENT, [c + 9] = IDENT,             \
  [c + 10] = IDENT, [c + 11] = IDENT, [c + 12] = IDENT
static const uint8_t byte_class[256] = {
    LETTERS_FROM('a'), LETTERS_FROM('n'), LETTERS_FROM('A'), LETTERS_FROM('N'), ['_'] = IDENT,
    ['0'] = DIGIT,     ['1'] = DIGIT,     ['2'] = DIGIT,     ['3'] = DIGIT,     ['4'] = DIGIT,
    ['5'] = DIGIT,     ['6'] = DIGIT,     ['7'] = DIGIT,     ['8'] = DIGIT,     ['9'] = DIGIT,
};
#undef LETTERS_FROM
static inline bool is_ident_char(unsigned char c) { return byte_class[c] != 0; }
static inline bool is_ident_start(unsigned char c) { return byte_class[c] == IDENT; }
static inline bool byte_is_digit(unsigned char c) { return byte_class[c] == DIGIT; }

/* The source's text at `start`, for the rules of tile_rules.h. */
static inline const char *text_at(const skim *k, uint32_t start) {
  return (const char *)k->s + start;
}

/* Whether the span holds `word` (a literal: its length is known when
 * compiled, so no strlen runs). */
static inline bool span_is(const skim *k, uint32_t start, uint32_t len, const char *word) {
  return mm__span_is(text_at(k, start), len, word);
}

/* The next significant byte (0 at the end), after blanks and, inside
 * brackets, line ends. Comments, backslashes, '\r' and '\f' are returned
 * as they are: no caller accepts them, so they end the fast path. */
static inline unsigned char peek(skim *k) {
  if (k->pos < k->end && k->s[k->pos] > ' ') return k->s[k->pos]; /* mostly */
  while (k->pos < k->end) {
    unsigned char c = k->s[k->pos];
    if (c == ' ' || c == '\t') {
      k->pos++;
    } else if (c == '\n' && k->depth > 0) {
      k->pos++;
      k->line++;
    } else {
      return c;
    }
  }
  return 0;
}

static inline unsigned char byte_at(const skim *k, size_t pos) {
  return pos < k->end ? k->s[pos] : 0;
}

/* The decimal digits at pos, 16 at most: where they stop, and their value. */
static inline size_t decimal_prefix(const skim *k, int64_t *value) {
  size_t p = k->pos;
  int64_t v = 0;
  while (p < k->end && byte_is_digit(k->s[p]) && p - k->pos < 16)
    v = v * 10 + (k->s[p++] - '0');
  *value = v;
  return p;
}

/* Whether the digits s[start, end) are a whole plain integer, as most
 * numbers in a dump are: no leading zero, and a separator after them (`,`
 * `)` `]` `}` or a space). Other numbers take mm__skim_number's rules. */
static inline bool is_plain_integer(const skim *k, size_t start, size_t end) {
  unsigned char c = byte_at(k, end);
  return end > start && (c == ',' || c == ')' || c == ']' || c == '}' || c == ' ') &&
         (k->s[start] != '0' || end - start == 1);
}

/* The end of the identifier bytes from s[e]: four a step while they last
 * (names in dumps run to dozens of bytes), then one. */
static inline size_t ident_run_end(const unsigned char *s, size_t e, size_t end) {
  while (e + 4 <= end &&
         (byte_class[s[e]] & byte_class[s[e + 1]] & byte_class[s[e + 2]] & byte_class[s[e + 3]]))
    e += 4;
  while (e < end && byte_class[s[e]])
    e++;
  return e;
}

/* An ASCII identifier at pos: its end, or 0 when a non-ASCII letter or a
 * quote (a string prefix) follows it. */
static inline size_t ident_end(skim *k) {
  if (k->pos == k->ident_at) return k->ident_end;
  const unsigned char *s = k->s;
  size_t e = ident_run_end(s, k->pos, k->end), end = k->end;
  unsigned char next = e < end ? s[e] : 0;
  k->ident_at = k->pos;
  k->ident_end = next >= 0x80 || next == '"' || next == '\'' ? 0 : e;
  return k->ident_end;
}

static inline size_t ident_end_at(const skim *k, size_t pos) {
  return ident_run_end(k->s, pos, k->end);
}

static inline bool is_keyword(const skim *k, size_t start, size_t len) {
  const char *text = (const char *)k->s + start;
  return mm__maybe_keyword(text, len) && mm__keyword_kind(text, len) != TK_NAME;
}

/* The operator continuing an expression at pos: its length, or 0 when the
 * expression ends here (also for `=`, augmented assignments and `->`). */
static inline size_t binary_operator(const skim *k) {
  unsigned char c = byte_at(k, k->pos), c1 = byte_at(k, k->pos + 1), c2 = byte_at(k, k->pos + 2);
  switch (c) {
  case '+':
  case '%':
  case '&':
  case '|':
  case '^':
  case '@': return c1 == '=' ? 0 : 1;
  case '-': return c1 == '=' || c1 == '>' ? 0 : 1;
  case '*':
  case '/':
    if (c1 == c) return c2 == '=' ? 0 : 2;
    return c1 == '=' ? 0 : 1;
  case '<':
  case '>':
    if (c1 == c) return c2 == '=' ? 0 : 2;
    if (c1 == '=') return 2;
    return c == '<' && c1 == '>' ? 0 : 1;
  case '=':
  case '!': return c1 == '=' ? 2 : 0;
  default: return 0;
  }
}

/* An attribute's name s[start, end) after a dot: notes a reserved
 * window's, an allocation's or the attributes' call (by its length first:
 * the names are 5, 9, 14, 18 or 19 bytes). */
static inline void note_attribute(skim *k, size_t start, size_t end) {
  size_t n = end - start;
  if ((n == 5 || n == 9 || n == 14 || n == 18 || n == 19) &&
      mm__window_call_kind((const char *)k->s + start, n) != MM_WINDOW_CALL_NONE)
    k->window_call = true;
}

static inline bool push_load(skim *k, size_t start, size_t end) {
  mm_vec *v = k->loads;
  mm_skim_load *load = v->len < v->cap ? (mm_skim_load *)v->items + v->len++ : mm__vec_push(v);
  if (!load) return false;
  load->start = (uint32_t)start;
  load->len = (uint32_t)(end - start);
  load->line = k->line;
  return true;
}

/* ------------------------------------------------ skim_expr.c */

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

/* ------------------------------------------------ skim_memo.c */

/* At an annotation's first byte: when the same annotation was kept before,
 * its reads are appended, `out`'s tile filled and pos set at the `=` after
 * it, as reading it would; false otherwise (nothing changed). */
bool mm__skim_memo_take(mm_skim_memo *memo, skim *k, mm_skim_statement *out);
/* After reading the annotation from `start` on `line` (its reads from
 * `first_load` on) with the result `out`, pos at the `=` after it: kept
 * when its form allows. */
void mm__skim_memo_keep(mm_skim_memo *memo, const skim *k, size_t start, uint32_t line,
                        size_t first_load, const mm_skim_statement *out);

#endif
