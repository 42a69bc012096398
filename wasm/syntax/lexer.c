/* lexer.c: Python's tokenizer rules, as CPython applies them to a file:
 * logical lines, INDENT/DEDENT with tab consistency, implicit joining inside
 * brackets, backslash continuations, string prefixes and triple quotes.
 * Messages follow CPython's wording so users recognise them. */
#include "syntax/lexer.h"

#include <stdint.h>
#include <string.h>

#include "base/bytes.h"
#include "base/identifiers.h"

#define MAX_BRACKETS MM_MAX_BRACKETS
#define MAX_INDENT MM_MAX_INDENT

typedef mm_lexer lexer;

static bool failed(const lexer *lx) { return mm__diag_failed(lx->diag); }

static void oom(lexer *lx) { mm__diag_set(lx->diag, MM_ERR_NO_MEMORY, lx->line, "out of memory"); }

/* A new chunk at the end of the chunk table; false when out of memory. */
static bool add_chunk(lexer *lx) {
  if (lx->chunk_count == lx->chunk_cap) {
    size_t cap = lx->chunk_cap ? lx->chunk_cap * 2 : 8;
    mm_token **grown = mm__realloc(lx->chunks, cap * sizeof *grown);
    if (!grown) return false;
    lx->chunks = grown;
    lx->chunk_cap = cap;
  }
  mm_token *chunk = mm__alloc(MM_TOKEN_CHUNK * sizeof *chunk);
  if (!chunk) return false;
  lx->chunks[lx->chunk_count++] = chunk;
  return true;
}

/* A fresh last chunk for emit; false when out of memory. */
static bool next_chunk(lexer *lx) {
  if (!add_chunk(lx)) {
    oom(lx);
    return false;
  }
  lx->next_slot = lx->chunks[lx->chunk_count - 1];
  lx->chunk_end = lx->next_slot + MM_TOKEN_CHUNK;
  return true;
}

/* Once per token: inline, with the chunk change out of line. */
static inline mm_token *emit(lexer *lx, uint8_t kind, size_t start, size_t len, uint32_t line) {
  if (lx->next_slot == lx->chunk_end && !next_chunk(lx)) return NULL;
  mm_token *tok = lx->next_slot++;
  lx->count++;
  tok->kind = kind;
  tok->op = 0;
  tok->flags = 0;
  tok->start = (uint32_t)start;
  tok->len = (uint32_t)len;
  tok->line = line;
  tok->end_line = lx->line;
  return tok;
}

/* The line the end of input is on, as CPython counts it: a final line
 * break ends the last line rather than starting another. */
static uint32_t eof_line(const lexer *lx) {
  bool broken = lx->end > 0 && (lx->src[lx->end - 1] == '\n' || lx->src[lx->end - 1] == '\r');
  return broken && lx->line > 1 ? lx->line - 1 : lx->line;
}

/* The end after an error. Out of memory, the last token becomes the end
 * (or the fallback token, when there is none): the parser must find one. */
static void emit_end(lexer *lx) {
  if (emit(lx, TK_END, lx->pos, 0, lx->line)) return;
  if (lx->count == lx->first) { /* no chunk at all: the table holds nothing */
    mm__dealloc(lx->chunks);
    lx->fallback_chunks[0] = &lx->fallback_token;
    lx->chunks = lx->fallback_chunks;
    lx->chunk_count = lx->chunk_cap = 1;
    lx->count++;
  }
  mm_token *last = (mm_token *)mm__lexer_at(lx, lx->count - 1);
  memset(last, 0, sizeof *last);
  last->kind = TK_END;
  last->start = (uint32_t)lx->pos;
  last->line = last->end_line = lx->line;
}

static void record_line_start(lexer *lx) {
  if (!lx->with_lines) return;
  mm_vec *v = &lx->lines;
  uint32_t *start = v->len < v->cap ? (uint32_t *)v->items + v->len++ : mm__vec_push(v);
  if (!start)
    oom(lx);
  else
    *start = (uint32_t)lx->pos;
}

/* Consumes a line end (\n, \r\n or \r) at pos, if any. */
static bool take_newline(lexer *lx) {
  char c = lx->pos < lx->end ? lx->src[lx->pos] : 0;
  if (c == '\n') {
    lx->pos++;
  } else if (c == '\r') {
    lx->pos++;
    if (lx->pos < lx->end && lx->src[lx->pos] == '\n') lx->pos++;
  } else {
    return false;
  }
  lx->line++;
  record_line_start(lx);
  return true;
}

static bool at_newline(const lexer *lx) {
  return lx->pos < lx->end && (lx->src[lx->pos] == '\n' || lx->src[lx->pos] == '\r');
}

/* Decodes the UTF-8 sequence at `pos` (already validated). */
static uint32_t decode_utf8(const char *src, size_t pos, size_t *len) {
  const unsigned char *s = (const unsigned char *)src + pos;
  if (s[0] < 0x80) {
    *len = 1;
    return s[0];
  }
  if (s[0] < 0xE0) {
    *len = 2;
    return ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
  }
  if (s[0] < 0xF0) {
    *len = 3;
    return ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
  }
  *len = 4;
  return ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
         ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
}

/* Character classes of ASCII bytes, looked up once per byte in hot loops. */
enum { C_IDENT = 1, C_DIGIT = 2, C_SPACE = 4 };
static const uint8_t char_class[256] = {
    ['\t'] = C_SPACE, ['\f'] = C_SPACE, [' '] = C_SPACE, ['0'] = C_DIGIT, ['1'] = C_DIGIT,
    ['2'] = C_DIGIT,  ['3'] = C_DIGIT,  ['4'] = C_DIGIT, ['5'] = C_DIGIT, ['6'] = C_DIGIT,
    ['7'] = C_DIGIT,  ['8'] = C_DIGIT,  ['9'] = C_DIGIT, ['_'] = C_IDENT, ['a'] = C_IDENT,
    ['b'] = C_IDENT,  ['c'] = C_IDENT,  ['d'] = C_IDENT, ['e'] = C_IDENT, ['f'] = C_IDENT,
    ['g'] = C_IDENT,  ['h'] = C_IDENT,  ['i'] = C_IDENT, ['j'] = C_IDENT, ['k'] = C_IDENT,
    ['l'] = C_IDENT,  ['m'] = C_IDENT,  ['n'] = C_IDENT, ['o'] = C_IDENT, ['p'] = C_IDENT,
    ['q'] = C_IDENT,  ['r'] = C_IDENT,  ['s'] = C_IDENT, ['t'] = C_IDENT, ['u'] = C_IDENT,
    ['v'] = C_IDENT,  ['w'] = C_IDENT,  ['x'] = C_IDENT, ['y'] = C_IDENT, ['z'] = C_IDENT,
    ['A'] = C_IDENT,  ['B'] = C_IDENT,  ['C'] = C_IDENT, ['D'] = C_IDENT, ['E'] = C_IDENT,
    ['F'] = C_IDENT,  ['G'] = C_IDENT,  ['H'] = C_IDENT, ['I'] = C_IDENT, ['J'] = C_IDENT,
    ['K'] = C_IDENT,  ['L'] = C_IDENT,  ['M'] = C_IDENT, ['N'] = C_IDENT, ['O'] = C_IDENT,
    ['P'] = C_IDENT,  ['Q'] = C_IDENT,  ['R'] = C_IDENT, ['S'] = C_IDENT, ['T'] = C_IDENT,
    ['U'] = C_IDENT,  ['V'] = C_IDENT,  ['W'] = C_IDENT, ['X'] = C_IDENT, ['Y'] = C_IDENT,
    ['Z'] = C_IDENT,
};
static bool is_ascii_ident_start(char c) { return char_class[(unsigned char)c] & C_IDENT; }
static bool is_digit(char c) { return char_class[(unsigned char)c] & C_DIGIT; }

#define ASCII_REFUSED "invalid syntax"

static void invalid_character(lexer *lx) {
  size_t n;
  uint32_t cp = decode_utf8(lx->src, lx->pos, &n);
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && mm__identifier_class(cp) & MM_IDENT_UNPRINTABLE))
    mm__diag_set_at(lx->diag, MM_ERR_SYNTAX, lx->line, (uint32_t)lx->pos,
                    "invalid non-printable character U+%04X", (unsigned)cp);
  else if (cp < 0x80) /* `$`, `?`, `!`: a token to CPython's tokenizer; its parser refuses it */
    mm__diag_set_at(lx->diag, MM_ERR_SYNTAX, lx->line, (uint32_t)lx->pos, "%s", ASCII_REFUSED);
  else
    mm__diag_set_at(lx->diag, MM_ERR_SYNTAX, lx->line, (uint32_t)lx->pos,
                    "invalid character '%.*s' (U+%04X)", (int)n, lx->src + lx->pos, (unsigned)cp);
}

/* A name Python would read as another one: it normalises names to NFKC
 * (PEP 3131); the model compares them as written, so it refuses. */
static void unstable_name(lexer *lx, size_t start, size_t end, size_t at) {
  size_t n;
  uint32_t cp = decode_utf8(lx->src, at, &n);
  mm__diag_set(&lx->unstable_name, MM_ERR_LIMIT, lx->line,
               "the name '%.*s' on line %u holds '%.*s' (U+%04X), which Python reads as "
               "another character (it normalises names to NFKC); memory-map compares names as "
               "written and would read this dump differently: rename it",
               (int)(end - start < 200 ? end - start : 200), lx->src + start, (unsigned)lx->line,
               (int)n, lx->src + at, (unsigned)cp);
}

/* Advances over identifier characters; false when none. A non-ASCII one
 * must be XID_Continue (else the name ends there, and the next step says
 * the character is invalid, as CPython does); a name holding one that
 * NFKC changes is refused. */
static bool scan_identifier(lexer *lx) {
  const unsigned char *s = (const unsigned char *)lx->src;
  size_t start = lx->pos, pos = start, end = lx->end, unstable = SIZE_MAX;
  for (;;) {
    while (pos < end &&
           (char_class[s[pos]] & (C_IDENT | C_DIGIT))) /* the ASCII run, in registers */
      pos++;
    if (pos >= end || s[pos] < 0x80) break;
    size_t n;
    unsigned cls = mm__identifier_class(decode_utf8(lx->src, pos, &n));
    if (!(cls & (pos == start ? MM_IDENT_START : MM_IDENT_CONTINUE))) break;
    if (cls & MM_IDENT_UNSTABLE && unstable == SIZE_MAX) unstable = pos;
    pos += n;
  }
  lx->pos = pos;
  if (unstable != SIZE_MAX) unstable_name(lx, start, pos, unstable);
  return pos > start;
}

/* Keywords by length (2..8): a few candidates each, compared once. */
static const struct {
  const char *word;
  uint8_t kind;
} keywords_by_length[7][10] = {
    /* 2 */ {
        {"as", TK_KW_AS}, {"if", TK_KW_IF}, {"in", TK_KW_IN}, {"is", TK_KW_IS}, {"or", TK_KW_OR}},
    /* 3 */
    {{"and", TK_KW_AND},
     {"def", TK_KW_DEF},
     {"del", TK_KW_DEL},
     {"for", TK_KW_FOR},
     {"not", TK_KW_NOT},
     {"try", TK_KW_TRY}},
    /* 4 */
    {{"None", TK_KW_NONE},
     {"True", TK_KW_TRUE},
     {"elif", TK_KW_ELIF},
     {"else", TK_KW_ELSE},
     {"from", TK_KW_FROM},
     {"pass", TK_KW_PASS},
     {"with", TK_KW_WITH}},
    /* 5 */
    {{"False", TK_KW_FALSE},
     {"async", TK_KW_ASYNC},
     {"await", TK_KW_AWAIT},
     {"break", TK_KW_BREAK},
     {"class", TK_KW_CLASS},
     {"raise", TK_KW_RAISE},
     {"while", TK_KW_WHILE},
     {"yield", TK_KW_YIELD}},
    /* 6 */
    {{"assert", TK_KW_ASSERT},
     {"except", TK_KW_EXCEPT},
     {"global", TK_KW_GLOBAL},
     {"import", TK_KW_IMPORT},
     {"lambda", TK_KW_LAMBDA},
     {"return", TK_KW_RETURN}},
    /* 7 */ {{"finally", TK_KW_FINALLY}},
    /* 8 */ {{"continue", TK_KW_CONTINUE}, {"nonlocal", TK_KW_NONLOCAL}},
};

/* Entry [len - 2][(first letter | 0x20) - 'a'] has bit (second letter |
 * 0x20) - 'a' set when a keyword of that length starts with those two
 * letters: most names are refused here without a comparison, also the
 * fast path's, which often start like a keyword (`tile`, `array`). Kept
 * in step with the table above (the C tests look up every keyword). */
#define KW_LETTER(c) (1u << ((c) - 'a'))
#define KW_PAIR(len, first, seconds) [(len)-2][(first) - 'a'] = (seconds)
const uint32_t mm__keyword_pairs[7][26] = {
    KW_PAIR(2, 'a', KW_LETTER('s')),
    KW_PAIR(2, 'i', KW_LETTER('f') | KW_LETTER('n') | KW_LETTER('s')),
    KW_PAIR(2, 'o', KW_LETTER('r')),
    KW_PAIR(3, 'a', KW_LETTER('n')),
    KW_PAIR(3, 'd', KW_LETTER('e')),
    KW_PAIR(3, 'f', KW_LETTER('o')),
    KW_PAIR(3, 'n', KW_LETTER('o')),
    KW_PAIR(3, 't', KW_LETTER('r')),
    KW_PAIR(4, 'n', KW_LETTER('o')),
    KW_PAIR(4, 't', KW_LETTER('r')),
    KW_PAIR(4, 'e', KW_LETTER('l')),
    KW_PAIR(4, 'f', KW_LETTER('r')),
    KW_PAIR(4, 'p', KW_LETTER('a')),
    KW_PAIR(4, 'w', KW_LETTER('i')),
    KW_PAIR(5, 'f', KW_LETTER('a')),
    KW_PAIR(5, 'a', KW_LETTER('s') | KW_LETTER('w')),
    KW_PAIR(5, 'b', KW_LETTER('r')),
    KW_PAIR(5, 'c', KW_LETTER('l')),
    KW_PAIR(5, 'r', KW_LETTER('a')),
    KW_PAIR(5, 'w', KW_LETTER('h')),
    KW_PAIR(5, 'y', KW_LETTER('i')),
    KW_PAIR(6, 'a', KW_LETTER('s')),
    KW_PAIR(6, 'e', KW_LETTER('x')),
    KW_PAIR(6, 'g', KW_LETTER('l')),
    KW_PAIR(6, 'i', KW_LETTER('m')),
    KW_PAIR(6, 'l', KW_LETTER('a')),
    KW_PAIR(6, 'r', KW_LETTER('e')),
    KW_PAIR(7, 'f', KW_LETTER('i')),
    KW_PAIR(8, 'c', KW_LETTER('o')),
    KW_PAIR(8, 'n', KW_LETTER('o')),
};
#undef KW_PAIR
#undef KW_LETTER

static inline uint8_t keyword_kind(const char *text, size_t len) {
  if (!mm__maybe_keyword(text, len)) return TK_NAME;
  for (size_t i = 0; i < 10 && keywords_by_length[len - 2][i].word; i++) {
    const char *word = keywords_by_length[len - 2][i].word;
    if (word[0] == text[0] && mm__bytes_equal(word, text, len))
      return keywords_by_length[len - 2][i].kind;
  }
  return TK_NAME;
}

uint8_t mm__keyword_kind(const char *text, size_t len) { return keyword_kind(text, len); }

/* String prefix flags for `text`, or -1 when it is not a string prefix. */
static int string_prefix_flags(const char *text, size_t len) {
  int flags = 0;
  if (len > 2) return -1;
  for (size_t i = 0; i < len; i++) {
    int bit;
    switch (text[i] | 0x20) {
    case 'r': bit = STR_RAW; break;
    case 'b': bit = STR_BYTES; break;
    case 'f': bit = STR_FORMAT; break;
    case 'u': bit = 16; break;
    default: return -1;
    }
    if (flags & bit) return -1;
    flags |= bit;
  }
  if ((flags & 16) && len > 1) return -1; /* u combines with nothing */
  if ((flags & STR_BYTES) && (flags & STR_FORMAT)) return -1;
  return flags & ~16;
}

/* Scans a string body starting at the opening quote. */
static void scan_string(lexer *lx, size_t start, int flags) {
  uint32_t line = lx->line;
  char quote = lx->src[lx->pos];
  bool triple =
      lx->pos + 2 < lx->end && lx->src[lx->pos + 1] == quote && lx->src[lx->pos + 2] == quote;
  lx->pos += triple ? 3 : 1;
  for (;;) {
    if (lx->pos >= lx->end) {
      mm__diag_set(lx->diag, MM_ERR_SYNTAX, line,
                   triple ? "unterminated triple-quoted string literal (detected at line %u)"
                          : "unterminated string literal (detected at line %u)",
                   (unsigned)eof_line(lx));
      return;
    }
    char c = lx->src[lx->pos];
    if (c == '\\') {
      lx->pos++;
      if (!take_newline(lx) && lx->pos < lx->end) lx->pos++;
    } else if (c == '\n' || c == '\r') {
      if (!triple) {
        mm__diag_set(lx->diag, MM_ERR_SYNTAX, line,
                     "unterminated string literal (detected at line %u)", (unsigned)lx->line);
        return;
      }
      take_newline(lx);
    } else if (c == quote) {
      if (!triple) {
        lx->pos++;
        break;
      }
      if (lx->pos + 2 < lx->end && lx->src[lx->pos + 1] == quote && lx->src[lx->pos + 2] == quote) {
        lx->pos += 3;
        break;
      }
      lx->pos++;
    } else {
      lx->pos++;
    }
  }
  mm_token *tok = emit(lx, TK_STRING, start, lx->pos - start, line);
  if (tok) {
    size_t prefix = 0;
    while (lx->src[start + prefix] != quote)
      prefix++;
    tok->flags = (uint8_t)(flags | (triple ? STR_TRIPLE : 0) | (prefix << 4));
  }
}

/* Numbers as CPython 3.11's tokenizer reads them (tokenizer.c, "Number"),
 * its messages and all: what follows a number is checked too. */

static char at(const lexer *lx, size_t pos) { return pos < lx->end ? lx->src[pos] : 0; }

/* A character a name may hold: CPython's is_potential_identifier_char. */
static bool name_char(char c) {
  return is_ascii_ident_start(c) || is_digit(c) || (unsigned char)c >= 0x80;
}

/* src[pos...] spells `word`, and no name character follows it. */
static bool spells(const lexer *lx, size_t pos, const char *word) {
  size_t n = strlen(word);
  return pos + n <= lx->end && memcmp(lx->src + pos, word, n) == 0 && !name_char(at(lx, pos + n));
}

/* CPython's verify_end_of_number: a number glued to a keyword that may
 * follow one in valid code (`0for`, `1if`, `1else`: CPython warns) ends
 * there; glued to any other name character it is an invalid literal. */
static bool number_ends(lexer *lx, const char *kind, uint32_t line) {
  size_t p = lx->pos;
  char c = at(lx, p), d = at(lx, p + 1);
  bool keyword = (c == 'a' && spells(lx, p + 1, "nd")) || (c == 'e' && spells(lx, p + 1, "lse")) ||
                 (c == 'f' && spells(lx, p + 1, "or")) ||
                 (c == 'i' && (d == 'f' || d == 'n' || d == 's')) ||
                 (c == 'o' && spells(lx, p + 1, "r")) || (c == 'n' && spells(lx, p + 1, "ot"));
  if (keyword || !name_char(c)) return true;
  mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "invalid %s literal", kind);
  return false;
}

/* tok_decimal_tail: digits with single underscores between them, from a
 * digit; false on a misplaced underscore. */
static bool decimal_tail(lexer *lx, uint32_t line) {
  for (;;) {
    while (is_digit(at(lx, lx->pos)))
      lx->pos++;
    if (at(lx, lx->pos) != '_') return true;
    if (!is_digit(at(lx, ++lx->pos))) {
      mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "invalid decimal literal");
      return false;
    }
  }
}

static bool is_digit_of(char c, int base) {
  return base == 16  ? (is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'))
         : base == 8 ? (c >= '0' && c <= '7')
                     : (c == '0' || c == '1');
}

/* After `0x`, `0o` or `0b`: its digits and what follows them. */
static bool radix_number(lexer *lx, int base, uint32_t line) {
  const char *kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
  do {
    if (at(lx, lx->pos) == '_') lx->pos++;
    char c = at(lx, lx->pos);
    if (!is_digit_of(c, base)) {
      if (base != 16 && is_digit(c))
        mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "invalid digit '%c' in %s literal", c, kind);
      else
        mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "invalid %s literal", kind);
      return false;
    }
    while (is_digit_of(at(lx, lx->pos), base))
      lx->pos++;
  } while (at(lx, lx->pos) == '_');
  char c = at(lx, lx->pos);
  if (base != 16 && is_digit(c)) {
    mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "invalid digit '%c' in %s literal", c, kind);
    return false;
  }
  return number_ends(lx, kind, line);
}

/* From a fraction's digits (or none) on: an exponent, an imaginary `j`,
 * and what follows. An `e` not starting an exponent ends the number
 * before it (`1else`) or is an invalid literal. */
static bool number_tail(lexer *lx, uint32_t line) {
  if (is_digit(at(lx, lx->pos)) && !decimal_tail(lx, line)) return false;
  if ((at(lx, lx->pos) | 0x20) == 'e') {
    size_t e = lx->pos++;
    char c = at(lx, lx->pos);
    if (c == '+' || c == '-') {
      if (!is_digit(at(lx, ++lx->pos))) {
        mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "invalid decimal literal");
        return false;
      }
    } else if (!is_digit(c)) {
      lx->pos = e;
      return number_ends(lx, "decimal", line);
    }
    if (!decimal_tail(lx, line)) return false;
  }
  if ((at(lx, lx->pos) | 0x20) == 'j') {
    lx->pos++;
    return number_ends(lx, "imaginary", line);
  }
  return number_ends(lx, "decimal", line);
}

/* `0`, then zeros and underscores: a zero, a float, or leading zeros. */
static bool zero_number(lexer *lx, uint32_t line) {
  lx->pos++;
  for (;;) {
    if (at(lx, lx->pos) == '_' && !is_digit(at(lx, ++lx->pos))) {
      mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "invalid decimal literal");
      return false;
    }
    if (at(lx, lx->pos) != '0') break;
    lx->pos++;
  }
  bool nonzero = is_digit(at(lx, lx->pos));
  if (nonzero && !decimal_tail(lx, line)) return false;
  char c = at(lx, lx->pos);
  if (c == '.') {
    lx->pos++;
    return number_tail(lx, line);
  }
  if ((c | 0x20) == 'e' || (c | 0x20) == 'j') return number_tail(lx, line);
  if (nonzero) {
    mm__diag_set(lx->diag, MM_ERR_SYNTAX, line,
                 "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
                 "for octal integers");
    return false;
  }
  return number_ends(lx, "decimal", line);
}

static void scan_number(lexer *lx) {
  size_t start = lx->pos;
  uint32_t line = lx->line;
  char c = lx->src[lx->pos], next = (char)(at(lx, lx->pos + 1) | 0x20);
  bool ok;
  if (c == '0' && (next == 'x' || next == 'o' || next == 'b')) {
    lx->pos += 2;
    ok = radix_number(lx, next == 'x' ? 16 : next == 'o' ? 8 : 2, line);
  } else if (c == '0') {
    ok = zero_number(lx, line);
  } else if (c == '.') {
    lx->pos++;
    ok = number_tail(lx, line);
  } else {
    ok = decimal_tail(lx, line);
    if (ok && at(lx, lx->pos) == '.') lx->pos++;
    ok = ok && number_tail(lx, line);
  }
  if (ok) emit(lx, TK_NUMBER, start, lx->pos - start, line);
}

/* The operator at `s` (n bytes available) and its length, longest first;
 * OP_NONE when there is none. */
static inline uint8_t match_operator(const char *s, size_t n, size_t *len) {
  char c1 = n > 1 ? s[1] : 0, c2 = n > 2 ? s[2] : 0;
  *len = 1;
#define TWO(second, op2, op1) ((c1 == (second)) ? (*len = 2, (op2)) : (op1))
  switch (s[0]) {
  case '(': return OP_LPAR;
  case ')': return OP_RPAR;
  case '[': return OP_LSQB;
  case ']': return OP_RSQB;
  case '{': return OP_LBRACE;
  case '}': return OP_RBRACE;
  case ',': return OP_COMMA;
  case ';': return OP_SEMI;
  case '~': return OP_TILDE;
  case ':': return TWO('=', OP_WALRUS, OP_COLON);
  case '=': return TWO('=', OP_EQEQ, OP_EQUAL);
  case '!': return c1 == '=' ? (*len = 2, OP_NOTEQ) : OP_NONE;
  case '+': return TWO('=', OP_PLUSEQ, OP_PLUS);
  case '-': return c1 == '>' ? (*len = 2, OP_ARROW) : TWO('=', OP_MINUSEQ, OP_MINUS);
  case '%': return TWO('=', OP_PERCENTEQ, OP_PERCENT);
  case '&': return TWO('=', OP_AMPEREQ, OP_AMPER);
  case '|': return TWO('=', OP_VBAREQ, OP_VBAR);
  case '^': return TWO('=', OP_CIRCUMFLEXEQ, OP_CIRCUMFLEX);
  case '@': return TWO('=', OP_ATEQ, OP_AT);
  case '.':
    if (c1 == '.' && c2 == '.') {
      *len = 3;
      return OP_ELLIPSIS;
    }
    return OP_DOT;
  case '*':
    if (c1 == '*') return c2 == '=' ? (*len = 3, OP_DSTAREQ) : (*len = 2, OP_DSTAR);
    return TWO('=', OP_STAREQ, OP_STAR);
  case '/':
    if (c1 == '/') return c2 == '=' ? (*len = 3, OP_DSLASHEQ) : (*len = 2, OP_DSLASH);
    return TWO('=', OP_SLASHEQ, OP_SLASH);
  case '<':
    if (c1 == '<') return c2 == '=' ? (*len = 3, OP_LSHIFTEQ) : (*len = 2, OP_LSHIFT);
    return TWO('=', OP_LESSEQ, OP_LESS);
  case '>':
    if (c1 == '>') return c2 == '=' ? (*len = 3, OP_RSHIFTEQ) : (*len = 2, OP_RSHIFT);
    return TWO('=', OP_GREATEREQ, OP_GREATER);
  default: return OP_NONE;
  }
#undef TWO
}

static void track_bracket(lexer *lx, uint8_t op) {
  char c = lx->src[lx->pos];
  if (op == OP_LPAR || op == OP_LSQB || op == OP_LBRACE) {
    if (lx->depth >= MAX_BRACKETS) {
      mm__diag_set(lx->diag, MM_ERR_SYNTAX, lx->line, "too many nested parentheses");
      return;
    }
    lx->brackets[lx->depth] = c;
    lx->bracket_lines[lx->depth] = lx->line;
    lx->bracket_offsets[lx->depth] = (uint32_t)lx->pos;
    lx->depth++;
  } else if (op == OP_RPAR || op == OP_RSQB || op == OP_RBRACE) {
    if (lx->depth <= lx->base_depth) {
      mm__diag_set_at(lx->diag, MM_ERR_SYNTAX, lx->line, (uint32_t)lx->pos, "unmatched '%c'", c);
      return;
    }
    char open = lx->brackets[lx->depth - 1];
    char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
    if (c != expected) {
      uint32_t open_line = lx->bracket_lines[lx->depth - 1];
      if (open_line != lx->line)
        mm__diag_set_at(
            lx->diag, MM_ERR_SYNTAX, lx->line, (uint32_t)lx->pos,
            "closing parenthesis '%c' does not match opening parenthesis '%c' on line %u", c, open,
            (unsigned)open_line);
      else
        mm__diag_set_at(lx->diag, MM_ERR_SYNTAX, lx->line, (uint32_t)lx->pos,
                        "closing parenthesis '%c' does not match opening parenthesis '%c'", c,
                        open);
      return;
    }
    lx->depth--;
  }
}

static void scan_operator(lexer *lx) {
  size_t n;
  uint8_t op = match_operator(lx->src + lx->pos, lx->end - lx->pos, &n);
  if (op == OP_NONE) {
    invalid_character(lx);
    return;
  }
  track_bracket(lx, op);
  if (failed(lx)) return;
  mm_token *tok = emit(lx, TK_OP, lx->pos, n, lx->line);
  if (tok) tok->op = op;
  lx->pos += n;
}

/* Measures the indentation at the start of a logical line, through
 * lines that hold only a backslash continuation as CPython's tokenizer
 * does: the column of the first backslash is the line's indentation, and
 * a blank line after it is no line at all. Emits INDENT/DEDENT. Returns
 * false when the line is blank or a comment. */
static bool handle_indentation(lexer *lx) {
  int col = 0, alt = 0, cont_col = 0, cont_alt = 0;
  while (lx->pos < lx->end) {
    char c = lx->src[lx->pos];
    if (c == ' ') {
      col++;
      alt++;
    } else if (c == '\t') {
      col = (col / 8 + 1) * 8;
      alt++;
    } else if (c == '\f') {
      col = alt = 0;
    } else if (c == '\\' && lx->pos + 1 < lx->end &&
               (lx->src[lx->pos + 1] == '\n' || lx->src[lx->pos + 1] == '\r')) {
      if (!cont_col) cont_col = col, cont_alt = alt;
      uint32_t line = lx->line;
      lx->pos++;
      take_newline(lx);
      if (lx->pos >= lx->end) {
        mm__diag_set(lx->diag, MM_ERR_SYNTAX, line, "unexpected EOF while parsing");
        return true;
      }
      continue;
    } else {
      break;
    }
    lx->pos++;
  }
  if (lx->pos >= lx->end || at_newline(lx) || lx->src[lx->pos] == '#') return false;
  if (cont_col) col = cont_col, alt = cont_alt;
  int top = lx->indent_top;
  if (col == lx->indents[top]) {
    if (alt != lx->alt_indents[top]) goto tab_error;
  } else if (col > lx->indents[top]) {
    if (top + 1 >= MAX_INDENT) { /* CPython: indent + 1 >= MAXINDENT */
      mm__diag_set(lx->diag, MM_ERR_SYNTAX, lx->line, "too many levels of indentation");
      return true;
    }
    if (alt <= lx->alt_indents[top]) goto tab_error;
    lx->indent_top++;
    lx->indents[lx->indent_top] = col;
    lx->alt_indents[lx->indent_top] = alt;
    emit(lx, TK_INDENT, lx->pos, 0, lx->line);
  } else {
    while (lx->indent_top > 0 && col < lx->indents[lx->indent_top]) {
      lx->indent_top--;
      emit(lx, TK_DEDENT, lx->pos, 0, lx->line);
    }
    if (col != lx->indents[lx->indent_top]) {
      mm__diag_set(lx->diag, MM_ERR_SYNTAX, lx->line,
                   "unindent does not match any outer indentation level");
      return true;
    }
    if (alt != lx->alt_indents[lx->indent_top]) goto tab_error;
  }
  return true;
tab_error:
  mm__diag_set(lx->diag, MM_ERR_SYNTAX, lx->line,
               "inconsistent use of tabs and spaces in indentation");
  return true;
}

static void skip_comment(lexer *lx) {
  while (lx->pos < lx->end && !at_newline(lx))
    lx->pos++;
}

static void scan_name_or_string(lexer *lx) {
  size_t start = lx->pos;
  uint32_t line = lx->line;
  scan_identifier(lx);
  size_t len = lx->pos - start;
  if (lx->pos < lx->end && (lx->src[lx->pos] == '"' || lx->src[lx->pos] == '\'')) {
    int flags = string_prefix_flags(lx->src + start, len);
    if (flags >= 0) {
      scan_string(lx, start, flags);
      return;
    }
  }
  emit(lx, keyword_kind(lx->src + start, len), start, len, line);
}

/* One token (or none, for blanks, comments and continuations). */
static void scan_token(lexer *lx, bool *line_start) {
  /* Blanks between tokens are skipped here, not as a step of their own:
   * most tokens of a dump follow a space. */
  while (char_class[(unsigned char)lx->src[lx->pos]] & C_SPACE)
    if (++lx->pos >= lx->end) return;
  char c = lx->src[lx->pos];
  if ((unsigned char)c >= 0x80) {
    return; /* a non-ASCII identifier: the next step decodes it */
  } else if (c == '#') {
    skip_comment(lx);
  } else if (c == '\n' || c == '\r') {
    if (lx->depth == 0) {
      emit(lx, TK_NEWLINE, lx->pos, 0, lx->line);
      *line_start = true;
    }
    take_newline(lx);
  } else if (c == '\\') {
    lx->pos++;
    if (!take_newline(lx)) {
      if (lx->pos >= lx->end)
        mm__diag_set(lx->diag, MM_ERR_SYNTAX, lx->line, "unexpected EOF while parsing");
      else
        mm__diag_set(lx->diag, MM_ERR_SYNTAX, lx->line,
                     "unexpected character after line continuation character");
    } else if (lx->pos >= lx->end) {
      mm__diag_set(lx->diag, MM_ERR_SYNTAX, lx->line, "unexpected EOF while parsing");
    }
  } else if (is_ascii_ident_start(c)) {
    scan_name_or_string(lx);
  } else if (is_digit(c) || (c == '.' && lx->pos + 1 < lx->end && is_digit(lx->src[lx->pos + 1]))) {
    scan_number(lx);
  } else if (c == '"' || c == '\'') {
    scan_string(lx, lx->pos, 0);
  } else {
    scan_operator(lx);
  }
}

static void end_of_input(lexer *lx) {
  if (lx->depth > lx->base_depth) {
    mm__diag_set_at(lx->diag, MM_ERR_SYNTAX, lx->bracket_lines[lx->depth - 1],
                    lx->bracket_offsets[lx->depth - 1], "'%c' was never closed",
                    lx->brackets[lx->depth - 1]);
    return;
  }
  /* A logical line left open ends here; not one the fast path read
   * through its line end (the lexer resumed at a line's start). */
  const mm_token *last = lx->count > lx->first ? mm__lexer_at(lx, lx->count - 1) : NULL;
  if (last && !lx->line_start && last->kind != TK_NEWLINE && last->kind != TK_DEDENT &&
      last->kind != TK_INDENT)
    emit(lx, TK_NEWLINE, lx->pos, 0, lx->line);
  while (lx->indent_top > 0) {
    lx->indent_top--;
    emit(lx, TK_DEDENT, lx->pos, 0, eof_line(lx));
  }
  emit(lx, TK_END, lx->pos, 0, eof_line(lx));
}

void mm__lexer_init(mm_lexer *lx, const char *input, size_t begin, size_t end, uint32_t base_line,
                    bool in_brackets, bool with_lines, mm_diag *diag) {
  memset(lx, 0, sizeof *lx);
  lx->src = input;
  lx->pos = begin;
  lx->end = end;
  lx->line = base_line;
  lx->with_lines = with_lines;
  lx->diag = diag;
  lx->depth = lx->base_depth = in_brackets ? 1 : 0;
  if (in_brackets) lx->brackets[0] = '{';
  lx->line_start = !in_brackets;
  mm__vec_init(&lx->lines, sizeof(uint32_t));
  if (with_lines) { /* dumps hold about one line per 40 bytes: reserve that once */
    size_t lines = (end - begin) / 40 + 16;
    lx->lines.items = mm__alloc(lines * sizeof(uint32_t));
    lx->lines.cap = lx->lines.items ? lines : 0;
  }
  record_line_start(lx);
  /* A UTF-8 byte order mark is not part of the source (CPython skips it). */
  if (begin == 0 && end >= 3 && memcmp(input, "\xEF\xBB\xBF", 3) == 0) lx->pos = 3;
}

/* One step: a logical line's indentation, or one token (or a blank). */
static void lex_step(lexer *lx) {
  if (lx->line_start && lx->depth == 0) {
    if (!handle_indentation(lx)) {
      /* blank or comment-only line: no tokens, no NEWLINE */
      skip_comment(lx);
      take_newline(lx);
      return;
    }
    lx->line_start = false;
    if (failed(lx)) return;
  }
  size_t before = lx->pos;
  if ((unsigned char)lx->src[lx->pos] >= 0x80) {
    /* identifiers that start with a non-ASCII letter */
    size_t n;
    uint32_t cp = decode_utf8(lx->src, lx->pos, &n);
    if (!(mm__identifier_class(cp) & MM_IDENT_START)) {
      invalid_character(lx);
      return;
    }
    scan_name_or_string(lx);
  } else {
    scan_token(lx, &lx->line_start);
  }
  if (lx->pos == before && !failed(lx)) lx->pos++; /* defensive: always progress */
}

/* The tokens most of a line is made of (names, keywords, plain decimal
 * integers, operators) in a loop that keeps the position and the token
 * slot in registers: stores into a token may alias anything in `lx`, so
 * lex_step reloads them for every token. Stops, with nothing consumed of
 * it, at the first token it leaves to lex_step (line ends, strings, string
 * prefixes, other numbers, non-ASCII, comments, backslashes, errors) and
 * once token `want` exists. Each token is exactly what lex_step makes. */
static void lex_run(lexer *lx, size_t want) {
  const unsigned char *s = (const unsigned char *)lx->src;
  const size_t end = lx->end;
  const uint32_t line = lx->line;
  size_t pos = lx->pos, count = lx->count;
  mm_token *slot = lx->next_slot;
  while (count <= want) {
    while (pos < end && (char_class[s[pos]] & C_SPACE))
      pos++;
    if (pos >= end) break;
    size_t start = pos;
    uint8_t kind, op = 0, cls = char_class[s[pos]];
    if (cls & C_IDENT) {
      while (pos < end && (char_class[s[pos]] & (C_IDENT | C_DIGIT)))
        pos++;
      if (pos < end && (s[pos] >= 0x80 || s[pos] == '"' || s[pos] == '\'')) {
        pos = start; /* a non-ASCII name or a string prefix */
        break;
      }
      kind = keyword_kind(lx->src + start, pos - start);
    } else if (cls & C_DIGIT) {
      while (pos < end && (char_class[s[pos]] & C_DIGIT))
        pos++;
      if ((pos < end && ((char_class[s[pos]] & C_IDENT) || s[pos] == '.' || s[pos] >= 0x80)) ||
          (s[start] == '0' && pos - start > 1)) {
        pos = start; /* floats, exponents, underscores, bases, leading zeros */
        break;
      }
      kind = TK_NUMBER;
    } else {
      size_t n;
      op = match_operator(lx->src + pos, end - pos, &n);
      if (op == OP_NONE) break; /* line ends, quotes, '#', '\\', invalid bytes */
      if (op == OP_DOT && pos + 1 < end && (char_class[s[pos + 1]] & C_DIGIT)) break; /* .5 */
      if (op <= OP_RBRACE) { /* a bracket: kept on the stack, maybe refused */
        lx->pos = pos;
        track_bracket(lx, op);
        if (failed(lx)) break;
      }
      pos += n;
      kind = TK_OP;
    }
    if (slot == lx->chunk_end) {
      lx->count = count;
      if (!next_chunk(lx)) break;
      slot = lx->next_slot;
    }
    *slot++ = (mm_token){.start = (uint32_t)start,
                         .len = (uint32_t)(pos - start),
                         .line = line,
                         .end_line = line,
                         .kind = kind,
                         .op = op};
    count++;
  }
  lx->pos = pos;
  lx->count = count;
  lx->next_slot = slot;
}

void mm__lexer_fill(mm_lexer *lx, size_t index) {
  /* A few tokens more than asked: the parser mostly wants the next one. */
  size_t want = index < SIZE_MAX - 16 ? index + 16 : SIZE_MAX;
  while (!lx->done && lx->count <= want) {
    /* Not past a line end unless asked: the parser's fast path may read
     * the next statement itself (mm__lexer_resume_at). */
    if (lx->line_start && lx->count > index) break;
    if (!failed(lx) && lx->pos < lx->end) {
      bool line_start = lx->line_start;
      if (!line_start && !lx->steps_only) lex_run(lx, want);
      if (lx->count <= want && !failed(lx) && lx->pos < lx->end) lex_step(lx);
      /* Nor past a line's first token when that is the one asked for. */
      if (line_start && !lx->line_start && lx->count > index) break;
      continue;
    }
    if (!failed(lx)) end_of_input(lx);
    if (failed(lx)) emit_end(lx); /* the parser reads up to here */
    if (lx->lines.failed) oom(lx);
    lx->done = true;
  }
}

bool mm__lexer_can_resume(const mm_lexer *lx, size_t next) {
  return !lx->done && !failed(lx) && lx->base_depth == 0 &&
         (lx->pos < next || (lx->pos == next && lx->line_start));
}

bool mm__lexer_same_indent(const mm_lexer *lx, size_t spaces) {
  return (size_t)lx->indents[lx->indent_top] == spaces &&
         (size_t)lx->alt_indents[lx->indent_top] == spaces;
}

void mm__lexer_resume_at(mm_lexer *lx, size_t index, size_t next, uint32_t next_line,
                         const uint32_t *starts, size_t start_count) {
  const mm_token *first = mm__lexer_at(lx, index);
  size_t statement_start = first->start;
  uint32_t first_line = first->line;
  /* Drop the tokens from `index` on: the chunks after its own are freed. */
  size_t k = index - lx->first, chunk = k / MM_TOKEN_CHUNK;
  while (lx->chunk_count > chunk + 1)
    mm__dealloc(lx->chunks[--lx->chunk_count]);
  lx->next_slot = lx->chunks[chunk] + k % MM_TOKEN_CHUNK;
  lx->chunk_end = lx->chunks[chunk] + MM_TOKEN_CHUNK;
  lx->count = index;
  if (lx->with_lines && lx->lines.len > first_line) lx->lines.len = first_line;
  lx->pos = statement_start;
  /* The line starts inside the statement: the caller's, or found (line
   * ends there are all '\n'). */
  if (lx->with_lines && lx->lines.len == first_line && start_count == next_line - first_line) {
    for (size_t i = 0; i < start_count; i++) {
      lx->pos = starts[i];
      record_line_start(lx);
    }
  }
  while (lx->with_lines && lx->lines.len < next_line) {
    size_t nl = mm__find_line_end(lx->src, lx->pos, next);
    if (nl == next) break;
    lx->pos = nl + 1;
    record_line_start(lx);
  }
  lx->pos = next;
  lx->line = next_line;
  lx->line_start = true;
  lx->depth = 0;
}

void mm__lexer_release(mm_lexer *lx, size_t index) {
  size_t drop = 0;
  /* Keep the chunk holding `index` and the one holding the last token. */
  size_t keep_from = index < lx->count ? index : lx->count ? lx->count - 1 : 0;
  while (drop + 1 < lx->chunk_count && lx->first + (drop + 1) * MM_TOKEN_CHUNK <= keep_from)
    mm__dealloc(lx->chunks[drop++]);
  if (!drop) return;
  memmove(lx->chunks, lx->chunks + drop, (lx->chunk_count - drop) * sizeof *lx->chunks);
  lx->chunk_count -= drop;
  lx->first += drop * MM_TOKEN_CHUNK;
}

void mm__lexer_free(mm_lexer *lx) {
  if (lx->chunks == lx->fallback_chunks) lx->chunk_count = 0, lx->chunks = NULL;
  for (size_t i = 0; i < lx->chunk_count; i++)
    mm__dealloc(lx->chunks[i]);
  mm__dealloc(lx->chunks);
  mm__vec_free(&lx->lines);
  lx->chunks = NULL;
  lx->chunk_count = lx->chunk_cap = 0;
}

void mm__lex_rest_errors(const char *input, size_t end, uint32_t stopped_line, mm_diag *diag) {
  mm_diag rest = {0};
  lexer lx;
  mm__lexer_init(&lx, input, 0, end, 1, false, false, &rest);
  while (!failed(&lx) && lx.pos < lx.end) {
    lex_step(&lx);
    mm__lexer_release(&lx, lx.count); /* only the state matters */
    if (mm__lex_error_is_parsers(&rest)) {
      rest.status = MM_OK; /* not the tokenizer's error: it goes on */
      lx.pos++;
    }
  }
  /* CPython's tokenizer raises most of its errors at once; these it only
   * marks (E_DEDENT, E_TABSPACE, E_TOODEEP, E_LINECONT, E_EOF), and they do
   * not replace the parser's; a bracket still open where they stop does. */
  static const char *const marked[] = {
      "unindent does not match", "inconsistent use of tabs", "too many levels of indentation",
      "unexpected character after line continuation", "unexpected EOF while parsing"};
  bool only_marked = false;
  for (size_t i = 0; rest.status == MM_ERR_SYNTAX && i < sizeof marked / sizeof *marked; i++)
    only_marked |= strncmp(rest.message, marked[i], strlen(marked[i])) == 0;
  if (rest.status == MM_ERR_SYNTAX && !only_marked) {
    *diag = rest; /* the tokenizer's error wins */
  } else if (lx.depth > 0 && lx.bracket_lines[lx.depth - 1] < stopped_line) {
    diag->status = MM_OK;
    mm__diag_set_at(diag, MM_ERR_SYNTAX, lx.bracket_lines[lx.depth - 1],
                    lx.bracket_offsets[lx.depth - 1], "'%c' was never closed",
                    lx.brackets[lx.depth - 1]);
  }
  mm__lexer_free(&lx);
}

void mm__lexer_note_unstable_name(mm_lexer *lx, const mm_diag *found) {
  if (found->status != MM_OK &&
      (lx->unstable_name.status == MM_OK || found->line < lx->unstable_name.line))
    lx->unstable_name = *found;
}

bool mm__lex_error_is_parsers(const mm_diag *diag) {
  return diag->status == MM_ERR_SYNTAX && strcmp(diag->message, ASCII_REFUSED) == 0;
}

bool mm__lex(const char *input, size_t begin, size_t end, uint32_t base_line, bool in_brackets,
             bool with_lines, mm_lexed *out, mm_diag *diag) {
  lexer lx;
  mm__lexer_init(&lx, input, begin, end, base_line, in_brackets, with_lines, diag);
  mm__lexer_fill(&lx, SIZE_MAX);
  memset(out, 0, sizeof *out);
  size_t n = lx.count - lx.first;
  out->tokens = mm__alloc((n ? n : 1) * sizeof *out->tokens);
  if (out->tokens) {
    for (size_t i = 0; i < n; i++)
      out->tokens[i] = *mm__lexer_at(&lx, lx.first + i);
    out->count = n;
  } else {
    oom(&lx);
  }
  out->line_starts = lx.lines.items;
  out->line_count = lx.lines.len;
  lx.lines.items = NULL;
  mm__lexer_free(&lx);
  if (!failed(&lx) && lx.unstable_name.status != MM_OK) *diag = lx.unstable_name;
  return !failed(&lx);
}

void mm__lexed_free(mm_lexed *lexed) {
  mm__dealloc(lexed->tokens);
  mm__dealloc(lexed->line_starts);
  memset(lexed, 0, sizeof *lexed);
}
