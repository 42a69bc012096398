/* skim_scan.h: the fast path's scanner, internal to it: its state over a
 * statement's bytes and the byte-level reading that its expressions
 * (skim_expr.c), statements (skim_statements.c) and memo (skim_memo.c)
 * share. */
#ifndef MM_SKIM_SCAN_H
#define MM_SKIM_SCAN_H

#include "syntax/fast/skim.h"
#include "syntax/lexer.h"

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

static inline bool is_keyword(const skim *k, size_t start, size_t len) {
  const char *text = (const char *)k->s + start;
  return mm__maybe_keyword(text, len) && mm__keyword_kind(text, len) != TK_NAME;
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

#endif
