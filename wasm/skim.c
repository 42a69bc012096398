/* skim.c: the byte-level fast path for `name: annotation = value` (see
 * skim.h). Each expression is read as operands and operators with a small
 * summary of its top node (a name, a dotted name, a call or subscript of
 * one, a list, an integer, a string, or something else), which is all the
 * tile rules of tiles.c look at. "Unsure" marks a summary that parentheses
 * made ambiguous; wherever a tile field would be read from it, the
 * statement goes to the general parser instead. */
#include "skim.h"

#include <string.h>

#include "lexer.h"

/* Integers beyond this cannot be held exactly by a JSON reader (tiles.c). */
#define MAX_EXACT_INTEGER ((int64_t)1 << 53)
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
} skim;

/* Byte classes: identifier letters, digits. One look-up per byte. */
enum { IDENT = 1, DIGIT = 2 };
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
static inline bool is_digit(unsigned char c) { return byte_class[c] == DIGIT; }

static bool span_equals(const skim *k, uint32_t start, uint32_t len, const char *word,
                        size_t word_len) {
  return word_len == len && memcmp(k->s + start, word, len) == 0;
}
/* Whether the span holds `word`, a string literal: its length is known
 * here, so no strlen runs (a byte loop in the WebAssembly libc). */
#define text_is(k, start, len, word) span_equals(k, start, len, word, sizeof(word) - 1)

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

/* An ASCII identifier at pos: its end, or 0 when a non-ASCII letter or a
 * quote (a string prefix) follows it. */
static inline size_t ident_end(skim *k) {
  if (k->pos == k->ident_at) return k->ident_end;
  const unsigned char *s = k->s;
  size_t e = k->pos, end = k->end;
  while (e < end && byte_class[s[e]])
    e++;
  unsigned char next = e < end ? s[e] : 0;
  k->ident_at = k->pos;
  k->ident_end = next >= 0x80 || next == '"' || next == '\'' ? 0 : e;
  return k->ident_end;
}

static size_t ident_end_at(const skim *k, size_t pos) {
  while (pos < k->end && byte_class[k->s[pos]])
    pos++;
  return pos;
}

static inline bool is_keyword(const skim *k, size_t start, size_t len) {
  const char *text = (const char *)k->s + start;
  return mm_maybe_keyword(text, len) && mm_keyword_kind(text, len) != TK_NAME;
}

/* The operator continuing an expression at pos: its length, or 0 when the
 * expression ends here (also for `=`, augmented assignments and `->`). */
static size_t binary_operator(const skim *k) {
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

/* ------------------------------------------------------- tile facts */

static int_fact plain_fact(const summary *e, int64_t *value) {
  if (e->unsure) return I_UNSURE;
  if (e->form != F_INT) return I_NONE;
  *value = e->value;
  return e->range ? I_RANGE : I_OK;
}

/* What tiles.c makes of an argument: plain_integer, usable_integer (a
 * plain integer or `<...>.const(<plain>, ...)`) and a MemRef base. */
static arg_fact arg_fact_of(const skim *k, const summary *e) {
  arg_fact f = {0};
  f.plain = (uint8_t)plain_fact(e, &f.plain_value);
  bool is_const =
      e->form == F_CALL && e->parts >= 2 && text_is(k, e->last_start, e->last_len, "const");
  if (e->unsure) {
    f.usable = I_UNSURE;
  } else if (is_const && e->positional >= 1) {
    f.usable = e->args[0].plain;
    f.usable_value = e->args[0].plain_value;
  } else {
    f.usable = f.plain;
    f.usable_value = f.plain_value;
  }
  if (e->unsure) {
    f.base = B_UNSURE;
  } else if (e->form == F_NAME) {
    f.base = B_NAME;
    f.text_start = e->start;
    f.text_len = e->last_len;
  } else if (e->form == F_STR) {
    f.base = B_STRING;
    f.text_start = e->str_start;
    f.text_len = e->str_len;
  }
  return f;
}

static bool is_upper_word(const skim *k, uint32_t start, uint32_t len) {
  bool cased = false;
  for (uint32_t i = 0; i < len; i++) {
    unsigned char c = k->s[start + i];
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') cased = true;
  }
  return cased;
}

/* Element `index` of the tile subscript, as tiles.c's breadth-first walk
 * meets it at level 2. Shapes it cannot judge make the tile unsure. */
static void tile_element(const skim *k, tile_facts *t, uint32_t index, const summary *e) {
  if (e->unsure || e->form == F_OTHER || e->form == F_SUBSCRIPT) {
    t->unsure = true; /* may hide a space attribute, or parentheses */
    return;
  }
  if (index == 0) {
    t->shape = e->form == F_LIST ? e->shape : I_NONE;
    t->dim_count = e->form == F_LIST && e->shape == I_OK ? e->dim_count : 0;
    memcpy(t->dims, e->dims, sizeof t->dims);
    if (t->shape == I_RANGE || t->shape == I_UNSURE) t->unsure = true;
  }
  bool dotted = e->form == F_DOTTED;
  if ((index == 1 || index == 2) && !t->dtype_len && dotted && e->parts == 2 &&
      is_upper_word(k, e->last_start, e->last_len)) {
    t->dtype_start = e->last_start;
    t->dtype_len = e->last_len;
  }
  if (!t->has_space && dotted && e->parts >= 3 && e->mem_before_last) {
    t->has_space = true;
    t->space_start = e->last_start;
    t->space_len = e->last_len;
  }
  if (!t->has_ref && e->form == F_CALL && e->parts >= 2 && e->positional >= 3 &&
      text_is(k, e->last_start, e->last_len, "MemRef")) {
    const arg_fact *a = e->args;
    if (a[0].base == B_UNSURE) {
      t->unsure = true;
    } else if (a[0].base != B_NONE) {
      if (a[1].usable == I_RANGE || a[2].usable == I_RANGE || a[1].usable == I_UNSURE ||
          a[2].usable == I_UNSURE) {
        t->unsure = true; /* the general way reports the range */
      } else if (a[1].usable == I_OK && a[2].usable == I_OK) {
        t->has_ref = true;
        t->base = a[0];
        t->offset = a[1].usable_value;
        t->size = a[2].usable_value;
      }
    }
  }
}

/* ------------------------------------------------------ expressions */

static bool scan_expression(skim *k, summary *out, tile_facts *tile);

static bool push_load(skim *k, size_t start, size_t end) {
  mm_vec *v = k->loads;
  mm_skim_load *load = v->len < v->cap ? (mm_skim_load *)v->items + v->len++ : mm_vec_push(v);
  if (!load) return false;
  load->start = (uint32_t)start;
  load->len = (uint32_t)(end - start);
  load->line = k->line;
  return true;
}

static bool scan_number(skim *k, summary *out) {
  const unsigned char *s = k->s;
  size_t p = k->pos, start = p;
  bool integer = true;
  int64_t value = 0;
  while (p < k->end && is_digit(s[p]) && p - start < 16)
    value = value * 10 + (s[p++] - '0');
  unsigned char c = byte_at(k, p);
  if ((c == ',' || c == ')' || c == ']' || c == ' ') && (s[start] != '0' || p - start == 1)) {
    out->form = F_INT; /* most numbers: a short decimal integer */
    out->value = value;
    out->range = value > MAX_EXACT_INTEGER;
    k->pos = p;
    return true;
  }
  while (p < k->end && is_digit(s[p]))
    p++;
  if (byte_at(k, p) == '.') {
    if (!is_digit(byte_at(k, ++p))) return false;
    while (p < k->end && is_digit(s[p]))
      p++;
    integer = false;
  }
  if ((byte_at(k, p) | 0x20) == 'e') {
    p++;
    if (byte_at(k, p) == '+' || byte_at(k, p) == '-') p++;
    if (!is_digit(byte_at(k, p))) return false;
    while (p < k->end && is_digit(s[p]))
      p++;
    integer = false;
  }
  unsigned char next = byte_at(k, p);
  if (is_ident_char(next) || next == '.' || next >= 0x80) return false; /* 1_0, 0x1, 1j, ... */
  if (integer && s[start] == '0' && p - start > 1) return false;        /* leading zeros */
  out->form = integer ? F_INT : F_OTHER;
  out->range = integer && (p - start > 16 || value > MAX_EXACT_INTEGER); /* 2^53: 16 digits */
  out->value = value;
  k->pos = p;
  return true;
}

/* A one-line string without prefix or backslash. */
static bool scan_string(skim *k, summary *out) {
  const unsigned char *s = k->s;
  unsigned char quote = s[k->pos];
  size_t p = k->pos + 1;
  if (byte_at(k, p) == quote && byte_at(k, p + 1) == quote) return false; /* triple */
  while (p < k->end && s[p] != quote) {
    if (s[p] == '\\' || s[p] == '\n' || s[p] == '\r') return false;
    p++;
  }
  if (p >= k->end) return false;
  out->form = F_STR;
  out->str_start = (uint32_t)(k->pos + 1);
  out->str_len = (uint32_t)(p - k->pos - 1);
  k->pos = p + 1;
  return true;
}

/* After `open`: comma-separated expressions up to `close`. Each element's
 * summary goes to `each` (with its index) when given. */
typedef void (*element_fn)(skim *k, void *context, uint32_t index, const summary *e);

static bool scan_elements(skim *k, unsigned char close, bool allow_empty, element_fn each,
                          void *context, bool *tuple) {
  *tuple = false;
  if (peek(k) == close) {
    k->pos++;
    return allow_empty;
  }
  for (uint32_t index = 0;; index++) {
    summary e;
    if (!scan_expression(k, &e, NULL)) return false;
    if (each) each(k, context, index, &e);
    unsigned char c = peek(k);
    if (c == close) {
      k->pos++;
      return true;
    }
    if (c != ',') return false; /* slices, generators, walruses, ... */
    k->pos++;
    *tuple = true;
    if (peek(k) == close) {
      k->pos++;
      return true;
    }
  }
}

static void list_element(skim *k, void *context, uint32_t index, const summary *e) {
  (void)index;
  summary *list = context;
  if (list->shape != I_OK) return; /* tiles.c stops at the first non-integer */
  arg_fact a = arg_fact_of(k, e);  /* tiles.c's usable_integer, as for a MemRef */
  uint8_t f = a.usable;
  if (f == I_OK && list->dim_count == MM_SKIM_MAX_DIMS) f = I_UNSURE;
  if (f == I_OK) list->dims[list->dim_count++] = a.usable_value;
  list->shape = f;
}

static void subscript_element(skim *k, void *context, uint32_t index, const summary *e) {
  tile_element(k, context, index, e);
}

/* After '(': positional and keyword arguments; the first three positional
 * ones are summed up in `call`. */
static bool scan_arguments(skim *k, summary *call) {
  bool keywords = false;
  call->positional = 0;
  if (peek(k) == ')') {
    k->pos++;
    return true;
  }
  for (;;) {
    unsigned char c = peek(k);
    bool keyword = false;
    if (is_ident_start(c)) {
      /* `name =` (not `==`): a keyword argument, whose name is no read */
      size_t save = k->pos, e = ident_end(k);
      uint32_t save_line = k->line;
      if (!e) return false;
      k->pos = e;
      if (peek(k) == '=' && byte_at(k, k->pos + 1) != '=') {
        if (is_keyword(k, save, e - save)) return false;
        k->pos++;
        keyword = true;
      } else {
        k->pos = save;
        k->line = save_line;
      }
    }
    summary arg;
    if (!keyword && keywords) return false; /* positional after keyword */
    if (!scan_expression(k, &arg, NULL)) return false;
    if (keyword) {
      keywords = true;
    } else {
      if (call->positional < 3) call->args[call->positional] = arg_fact_of(k, &arg);
      call->positional++;
    }
    c = peek(k);
    if (c == ',') {
      k->pos++;
      c = peek(k);
      if (c == ')') {
        k->pos++;
        return true;
      }
      continue;
    }
    if (c != ')') return false;
    k->pos++;
    return true;
  }
}

static bool is_constant_keyword(const skim *k, size_t start, size_t n) {
  const char *w = (const char *)k->s + start;
  return (n == 4 && (memcmp(w, "True", 4) == 0 || memcmp(w, "None", 4) == 0)) ||
         (n == 5 && memcmp(w, "False", 5) == 0);
}

/* The bracket kinds of scan_lean, and what closes each. */
enum { L_CALL, L_GROUP, L_LIST, L_SUBSCRIPT };
static const unsigned char closer[] = {')', ')', ']', ']'};

typedef struct lean_frame {
  uint8_t kind;
  bool any, keywords; /* an element seen; a keyword argument seen (calls) */
} lean_frame;

/* After the opening bracket of `kind`: everything up to its matching
 * closer, checked against the subset and its reads taken, in one flat
 * loop: the brackets no tile field depends on (most of a dump). */
static bool scan_lean(skim *k, uint8_t kind) {
  enum { START, OPERAND, AFTER } state = START;
  lean_frame stack[MAX_NESTING];
  int top = 0;
  bool after_comma = false;
  stack[0] = (lean_frame){kind, false, false};
  k->depth++;
  for (;;) {
    unsigned char c = peek(k);
    if (state == START) { /* an element, or the closer */
      lean_frame *f = &stack[top];
      if (c == closer[f->kind]) {
        if (!after_comma && (f->any || f->kind == L_SUBSCRIPT)) return false;
        goto close;
      }
      f->any = true;
      state = OPERAND;
      if (f->kind == L_CALL) {
        bool keyword = false;
        if (is_ident_start(c)) { /* `name=` (not `==`): no read */
          size_t start = k->pos, e = ident_end(k);
          uint32_t line = k->line;
          if (!e) return false;
          k->pos = e;
          if (peek(k) == '=' && byte_at(k, k->pos + 1) != '=') {
            if (is_keyword(k, start, e - start)) return false;
            k->pos++;
            keyword = f->keywords = true;
          } else {
            k->pos = start;
            k->line = line;
          }
        }
        if (f->keywords && !keyword) return false; /* positional after keyword */
        if (keyword) continue;
      }
    }
    if (state == OPERAND) {
      if (c == '-' || c == '+' || c == '~') {
        k->pos++;
      } else if (is_ident_start(c)) {
        size_t start = k->pos, e = ident_end(k);
        if (!e) return false;
        if (is_keyword(k, start, e - start) ? !is_constant_keyword(k, start, e - start)
                                            : !push_load(k, start, e))
          return false;
        k->pos = e;
        state = AFTER;
      } else if (is_digit(c) || c == '"' || c == '\'') {
        summary literal;
        if (!(is_digit(c) ? scan_number(k, &literal) : scan_string(k, &literal))) return false;
        state = AFTER;
      } else if (c == '(' || c == '[') {
        if (++top == MAX_NESTING) return false;
        stack[top] = (lean_frame){c == '(' ? L_GROUP : L_LIST, false, false};
        k->pos++;
        after_comma = false;
        state = START;
      } else {
        return false;
      }
      continue;
    }
    /* AFTER an operand: a trailer, an operator, a comma or the closer */
    if (c == '.') {
      unsigned char next = byte_at(k, k->pos + 1);
      if (next == '.' || is_digit(next)) return false;
      k->pos++;
      if (!is_ident_start(peek(k))) return false;
      size_t start = k->pos, e = ident_end(k);
      if (!e || is_keyword(k, start, e - start)) return false;
      k->pos = e;
    } else if (c == '(' || c == '[') {
      if (++top == MAX_NESTING) return false;
      stack[top] = (lean_frame){c == '(' ? L_CALL : L_SUBSCRIPT, false, false};
      k->pos++;
      after_comma = false;
      state = START;
    } else if (c == ',') {
      k->pos++;
      after_comma = true;
      state = START;
    } else if (c == ')' || c == ']') {
      if (c != closer[stack[top].kind]) return false;
      goto close;
    } else {
      size_t n = binary_operator(k);
      if (!n) return false; /* slices, generators, keywords, comments, ... */
      k->pos += n;
      state = OPERAND;
    }
    continue;
  close:
    k->pos++;
    if (top-- == 0) {
      k->depth--;
      return true;
    }
    state = AFTER;
  }
}

/* An atom and its trailers (`.name`, calls, subscripts). */
static bool scan_primary(skim *k, summary *out, tile_facts *tile) {
  unsigned char c = peek(k);
  out->form = F_OTHER;
  out->unsure = false;
  out->parts = 0;
  out->spaced = false;
  bool tuple;
  if (is_ident_start(c)) {
    size_t start = k->pos, e = ident_end(k);
    if (!e) return false;
    if (is_keyword(k, start, e - start)) {
      /* only the constants; other keywords go the general way */
      if (!is_constant_keyword(k, start, e - start)) return false;
    } else {
      if (!push_load(k, start, e)) return false;
      out->form = F_NAME;
      out->parts = 1;
      out->start = out->last_start = (uint32_t)start;
      out->dotted_end = (uint32_t)e;
      out->last_len = (uint32_t)(e - start);
      out->mem_before_last = false;
    }
    k->pos = e;
  } else if (is_digit(c)) {
    if (!scan_number(k, out)) return false;
  } else if (c == '"' || c == '\'') {
    if (!scan_string(k, out)) return false;
  } else if (c == '(') {
    k->pos++;
    if (!scan_lean(k, L_GROUP)) return false;
    out->unsure = true; /* a group: its top node is what it holds */
  } else if (c == '[') {
    k->pos++;
    out->form = F_LIST;
    out->dim_count = 0;
    if (k->facts) { /* maybe a shape */
      out->shape = I_OK;
      k->depth++;
      if (!scan_elements(k, ']', true, list_element, out, &tuple)) return false;
      k->depth--;
    } else {
      out->shape = I_UNSURE;
      if (!scan_lean(k, L_LIST)) return false;
    }
  } else {
    return false;
  }
  for (;;) {
    size_t before = k->pos;
    c = peek(k);
    bool dotted = !out->unsure && (out->form == F_NAME || out->form == F_DOTTED);
    if (c == '.') {
      unsigned char next = byte_at(k, k->pos + 1);
      if (next == '.' || is_digit(next)) return false;
      bool spaced = k->pos != before;
      k->pos++;
      before = k->pos;
      if (!is_ident_start(peek(k))) return false;
      spaced |= k->pos != before;
      size_t start = k->pos, e = ident_end(k);
      if (!e || is_keyword(k, start, e - start)) return false;
      k->pos = e;
      if (dotted) {
        out->form = F_DOTTED;
        out->parts++;
        out->mem_before_last = text_is(k, out->last_start, out->last_len, "Mem");
        out->last_start = (uint32_t)start;
        out->last_len = (uint32_t)(e - start);
        out->dotted_end = (uint32_t)e;
        out->spaced |= spaced;
      } else {
        out->form = F_OTHER;
      }
    } else if (c == '(') {
      k->pos++;
      /* Only a MemRef's and a const's arguments make tile fields. */
      if (dotted && k->facts &&
          (text_is(k, out->last_start, out->last_len, "MemRef") ||
           text_is(k, out->last_start, out->last_len, "const"))) {
        k->depth++;
        if (!scan_arguments(k, out)) return false;
        k->depth--;
      } else {
        if (!scan_lean(k, L_CALL)) return false;
        out->positional = 0; /* not counted: nothing reads them */
      }
      out->form = dotted ? F_CALL : F_OTHER;
    } else if (c == '[') {
      k->pos++;
      bool is_tile =
          tile && dotted && out->parts == 2 && text_is(k, out->last_start, out->last_len, "Tile");
      if (is_tile) {
        k->depth++;
        if (!scan_elements(k, ']', false, subscript_element, tile, &tuple)) return false;
        k->depth--;
        tile->seen = true;
        tile->tuple = tuple;
      } else if (!scan_lean(k, L_SUBSCRIPT)) {
        return false;
      }
      out->form = dotted ? F_SUBSCRIPT : F_OTHER;
    } else {
      return true;
    }
  }
}

/* Unary operators, then a primary. */
static bool scan_operand(skim *k, summary *out, tile_facts *tile) {
  int unary = 0;
  bool minus_only = true;
  for (unsigned char c = peek(k); c == '-' || c == '+' || c == '~'; c = peek(k)) {
    minus_only &= c == '-';
    unary++;
    k->pos++;
  }
  if (!scan_primary(k, out, unary ? NULL : tile)) return false;
  if (!unary) return true;
  if (unary == 1 && minus_only && out->form == F_INT && !out->unsure) {
    out->value = -out->value; /* tiles.c's "negated integer literal" */
  } else {
    out->form = F_OTHER; /* a unary operation; still unsure when it holds a group */
  }
  return true;
}

/* Operands joined by binary operators and comparisons. Stops before the
 * first byte that cannot continue the expression. */
static bool scan_expression(skim *k, summary *out, tile_facts *tile) {
  if (++k->nesting > MAX_NESTING) return false;
  bool ok = scan_operand(k, out, tile);
  bool joined = false;
  while (ok) {
    peek(k);
    size_t n = binary_operator(k);
    if (!n) break;
    k->pos += n;
    summary right;
    ok = scan_operand(k, &right, NULL);
    joined = true;
  }
  if (joined) {
    out->form = F_OTHER; /* a BinOp or Compare, whatever its operands hold */
    out->unsure = false;
  }
  k->nesting--;
  return ok;
}

/* The line of the last token read: k->line less the line ends among the
 * blanks just skipped (inside brackets peek crosses them). */
static uint32_t last_token_line(const skim *k, size_t floor) {
  uint32_t line = k->line;
  for (size_t p = k->pos;
       p > floor && (k->s[p - 1] == ' ' || k->s[p - 1] == '\t' || k->s[p - 1] == '\n'); p--)
    line -= k->s[p - 1] == '\n';
  return line;
}

static bool starts_operand(unsigned char c) {
  return byte_class[c] != 0 || c == '"' || c == '\'' || c == '(' || c == '[' || c == '-' ||
         c == '+' || c == '~';
}

/* Expressions separated by commas, a trailing one allowed (a tuple). */
static bool scan_sequence(skim *k) {
  for (;;) {
    summary e;
    if (!scan_expression(k, &e, NULL)) return false;
    if (peek(k) != ',') return true;
    k->pos++;
    if (!starts_operand(peek(k))) return true;
  }
}

/* One bound name: an identifier that is no keyword. Not a read. */
static bool scan_bound_name(skim *k) {
  if (!is_ident_start(peek(k))) return false;
  size_t start = k->pos, e = ident_end(k);
  if (!e || is_keyword(k, start, e - start)) return false;
  k->pos = e;
  return true;
}

/* `for` targets: names, and parenthesized or bracketed lists of them. */
static bool scan_target_list(skim *k) {
  if (++k->nesting > MAX_NESTING) return false;
  for (;;) {
    unsigned char c = peek(k);
    if (c == '(' || c == '[') {
      unsigned char close = c == '(' ? ')' : ']';
      k->pos++;
      k->depth++;
      if (!scan_target_list(k) || peek(k) != close) return false;
      k->pos++;
      k->depth--;
    } else if (!scan_bound_name(k)) {
      return false;
    }
    if (peek(k) != ',') break;
    k->pos++;
    c = peek(k);
    if (!is_ident_start(c) && c != '(' && c != '[') break;
  }
  k->nesting--;
  return true;
}

/* ------------------------------------------------- the printed tile */

/* The bytes of `text` at pos: consumed. */
static bool take_bytes(skim *k, const char *text, size_t n) {
  if (k->end - k->pos < n || memcmp(k->s + k->pos, text, n) != 0) return false;
  k->pos += n;
  return true;
}
/* `text` a string literal, as for text_is. */
#define take(k, text) take_bytes(k, text, sizeof(text) - 1)

/* A decimal integer as the compiler prints it, within 2^53. */
static bool take_integer(skim *k, int64_t *value) {
  size_t start = k->pos, p = start;
  int64_t v = 0;
  while (p < k->end && is_digit(k->s[p]) && p - start < 16)
    v = v * 10 + (k->s[p++] - '0');
  unsigned char next = byte_at(k, p);
  if (p == start || is_ident_char(next) || next == '.' || next >= 0x80 ||
      (k->s[start] == '0' && p - start > 1) || v > MAX_EXACT_INTEGER)
    return false;
  *value = v;
  k->pos = p;
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

/* The annotation exactly as the compiler prints a tile, up to the `=`:
 *   pl.Tile[[16, 256], pl.BF16, pl.MemRef(mem_vec_2, pl.const(8192, pl.INT64), 16384), pl.Mem.Vec]
 * with any further elements after the space read as usual. In this form
 * every field sits where tiles.c's breadth-first walk finds it (elements
 * 0 to 3 at level 2), so no summaries are needed. False, with nothing
 * consumed or read, for any other form. */
static bool take_printed_tile(skim *k, summary *ann, tile_facts *t) {
  size_t start = k->pos, loads = k->loads->len;
  uint32_t base_start = 0, base_len = 0;
  bool ok = take_pl(k, "Tile[[");
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
       is_upper_word(k, t->dtype_start, t->dtype_len) && take(k, ", ") && take_pl(k, "MemRef(") &&
       take_name(k, true, &base_start, &base_len) && take(k, ", ") && take_pl(k, "const(") &&
       take_integer(k, &t->offset) && take(k, ", ") && take_pl(k, "INT64), ") &&
       take_integer(k, &t->size) && take(k, "), ") && take_pl(k, "Mem.") &&
       take_name(k, false, &t->space_start, &t->space_len);
  if (ok && !take(k, "]")) { /* elements after the space: no field depends on them */
    bool tuple, facts = k->facts;
    k->depth++;
    k->facts = false;
    ok = take(k, ", ") && scan_elements(k, ']', true, NULL, NULL, &tuple);
    k->facts = facts;
    k->depth--;
  }
  if (!ok || peek(k) != '=' || byte_at(k, k->pos + 1) == '=') { /* `[...].x`, `| y`, ... */
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
  if (ann->form != F_SUBSCRIPT || !text_is(k, ann->last_start, ann->last_len, "Tile"))
    return true; /* not `<...>.Tile[...]`: no tile */
  if (ann->parts < 2) return true;
  if (!t->seen || !t->tuple || t->unsure || !t->has_ref || !t->has_space) return false;
  if (text_is(k, t->space_start, t->space_len, "DDR")) return true; /* off-chip */
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

bool mm_skim_annotated(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                       mm_skim_statement *out) {
  skim k = {(const unsigned char *)src, start, end, line, 0, 0, loads, SIZE_MAX, 0, false};
  loads->len = 0;
  if (!is_ident_start(byte_at(&k, start))) return false;
  size_t name_end = ident_end(&k);
  uint32_t name_len = (uint32_t)(name_end - start);
  if (!name_end || is_keyword(&k, start, name_len) ||
      text_is(&k, (uint32_t)start, name_len, "match") ||
      text_is(&k, (uint32_t)start, name_len, "case") ||
      text_is(&k, (uint32_t)start, name_len, "type"))
    return false; /* soft keywords: statements of their own */
  k.pos = name_end;
  if (peek(&k) != ':' || byte_at(&k, k.pos + 1) == '=') return false;
  k.pos++;
  summary annotation, value;
  tile_facts tile;
  memset(&tile, 0, sizeof tile);
  k.facts = true;
  peek(&k);
  bool ok =
      take_printed_tile(&k, &annotation, &tile) ||
      (scan_expression(&k, &annotation, &tile) && peek(&k) == '=' && byte_at(&k, k.pos + 1) != '=');
  k.facts = false;
  if (ok) {
    k.pos++;
    ok = scan_expression(&k, &value, NULL) && peek(&k) == '\n';
  }
  ok = ok && finish_tile(&k, &annotation, &tile, out) && !value.unsure;
  if (ok && value.form == F_CALL && (value.spaced || value.parts > 64)) ok = false;
  if (!ok) {
    loads->len = 0;
    return false;
  }
  out->name_start = (uint32_t)start;
  out->name_len = (uint32_t)name_len;
  out->line = line;
  out->end_line = k.line;
  out->next = k.pos + 1;
  out->op_start = out->op_len = 0;
  if (value.form == F_CALL) {
    out->op_start = value.start;
    out->op_len = value.dotted_end - value.start;
    if (out->op_len > 3 && memcmp(src + value.start, "pl.", 3) == 0) {
      out->op_start += 3;
      out->op_len -= 3;
    }
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
    if (!scan_bound_name(k)) {
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
  if (!scan_sequence(k)) return false;
  return peek(k) == '\n'; /* not `a = b = c`, `+=`, `;`, a comment, ... */
}

bool mm_skim_simple(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                    mm_skim_statement *out) {
  skim k = {(const unsigned char *)src, start, end, line, 0, 0, loads, SIZE_MAX, 0, false};
  loads->len = 0;
  if (!is_ident_start(byte_at(&k, start))) return false;
  size_t first_end = ident_end(&k);
  uint32_t first_len = (uint32_t)(first_end - start);
  bool ok;
  if (first_end && text_is(&k, (uint32_t)start, first_len, "return")) {
    k.pos = first_end;
    ok = peek(&k) == '\n' || (scan_sequence(&k) && peek(&k) == '\n');
  } else if (!first_end || is_keyword(&k, start, first_len) ||
             text_is(&k, (uint32_t)start, first_len, "match") ||
             text_is(&k, (uint32_t)start, first_len, "case") ||
             text_is(&k, (uint32_t)start, first_len, "type")) {
    ok = false;
  } else {
    ok = scan_simple(&k);
  }
  if (!ok) {
    loads->len = 0;
    return false;
  }
  out->line = line;
  out->end_line = k.line;
  out->next = k.pos + 1;
  return true;
}

bool mm_skim_for_header(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                        mm_skim_statement *out) {
  skim k = {(const unsigned char *)src, start, end, line, 0, 0, loads, SIZE_MAX, 0, false};
  loads->len = 0;
  if (end - start < 4 || memcmp(src + start, "for", 3) != 0 || is_ident_char(k.s[start + 3]))
    return false;
  k.pos = start + 3;
  bool ok = scan_target_list(&k) && is_ident_start(peek(&k));
  if (ok) {
    size_t word = k.pos, e = ident_end(&k);
    ok = e && text_is(&k, (uint32_t)word, (uint32_t)(e - word), "in");
    k.pos = e;
  }
  ok = ok && scan_sequence(&k) && peek(&k) == ':';
  if (ok) {
    k.pos++;
    ok = peek(&k) == '\n'; /* a body on the same line goes the general way */
  }
  if (!ok) {
    loads->len = 0;
    return false;
  }
  out->line = line;
  out->end_line = k.line;
  out->next = k.pos + 1;
  return true;
}

bool mm_skim_parameters(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                        mm_vec *parameters, mm_skim_statement *out) {
  skim k = {(const unsigned char *)src, start, end, line, 0, 0, loads, SIZE_MAX, 0, false};
  loads->len = 0;
  parameters->len = 0;
  bool ok = byte_at(&k, start) == '(';
  k.pos++;
  k.depth++;
  while (ok && peek(&k) != ')') {
    size_t name = k.pos;
    uint32_t name_line = k.line;
    ok = scan_bound_name(&k); /* '*', '/', '**': the general way */
    if (ok && peek(&k) == ':') {
      k.pos++;
      summary annotation;
      tile_facts tile;
      memset(&tile, 0, sizeof tile);
      mm_skim_statement *param = mm_vec_push(parameters);
      k.facts = true;
      ok = param && scan_expression(&k, &annotation, &tile) &&
           finish_tile(&k, &annotation, &tile, param);
      k.facts = false;
      if (ok) {
        param->name_start = (uint32_t)name;
        param->name_len = (uint32_t)(ident_end_at(&k, name) - name);
        param->line = name_line;
        param->end_line = last_token_line(&k, name);
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
      ok = scan_expression(&k, &returns, NULL);
    }
  }
  ok = ok && peek(&k) == ':';
  if (ok) {
    k.pos++;
    ok = peek(&k) == '\n';
  }
  if (!ok) {
    loads->len = 0;
    parameters->len = 0;
    return false;
  }
  out->line = line;
  out->end_line = k.line;
  out->next = k.pos + 1;
  return true;
}
