/* skim_expr.c: the fast path's expressions (skim_expr.h): operands and
 * operators read byte by byte, with a small summary of each expression's
 * top node (a name, a dotted name, a call or subscript of one, a list, an
 * integer, a string, or something else), which is all the tile rules of
 * tiles.c look at; brackets no tile field depends on are only checked and
 * their reads taken (scan_lean). "Unsure" marks a summary that
 * parentheses made ambiguous; wherever a tile field would be read from
 * it, the statement goes to the general parser instead. */
#include "syntax/fast/skim_expr.h"
#include "rules/tile_rules.h"
#include "rules/window_calls.h"

/* Brackets and operands nest at most this deep here; deeper goes the
 * general way (which applies CPython's limits). */
#define MAX_NESTING 48

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

/* ------------------------------------------------------- tile facts */

static int_fact plain_fact(const summary *e, int64_t *value) {
  if (e->unsure) return I_UNSURE;
  if (e->form != F_INT) return I_NONE;
  *value = e->value;
  return e->range ? I_RANGE : I_OK;
}

/* What tiles.c makes of an argument: is_plain_integer, usable_integer (a
 * plain integer or `<...>.const(<plain>, ...)`) and a MemRef base. */
static arg_fact arg_fact_of(const skim *k, const summary *e) {
  arg_fact f = {0};
  f.plain = (uint8_t)plain_fact(e, &f.plain_value);
  bool is_const = e->form == F_CALL && e->parts >= 2 &&
                  mm__is_const_call(text_at(k, e->last_start), e->last_len);
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

/* Element `index` of the tile subscript, as tiles.c's breadth-first walk
 * meets it at level 2. Shapes it cannot judge make the tile unsure. */
static void tile_element(skim *k, void *context, uint32_t index, const summary *e) {
  tile_facts *t = context;
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
      mm__is_dtype_name(text_at(k, e->last_start), e->last_len)) {
    t->dtype_start = e->last_start;
    t->dtype_len = e->last_len;
  }
  if (!t->has_space && dotted && e->parts >= 3 && e->mem_before_last) {
    t->has_space = true;
    t->space_start = e->last_start;
    t->space_len = e->last_len;
  }
  if (!t->has_ref && e->form == F_CALL && e->parts >= 2 &&
      mm__is_memref_call(text_at(k, e->last_start), e->last_len)) {
    const arg_fact *a = e->args;
    if (e->positional < 3 || e->keywords || a[0].base == B_NONE || a[0].base == B_UNSURE ||
        a[1].usable != I_OK || a[2].usable != I_OK) {
      /* Slots, no address, an expression, an integer past 2^53: tiles.c
       * reads them (a tile it places, or lists as skipped). */
      t->unsure = true;
    } else {
      t->has_ref = true;
      t->base = a[0];
      t->offset = a[1].usable_value;
      t->size = a[2].usable_value;
    }
  }
}

/* ------------------------------------------------------ expressions */

bool mm__skim_number(skim *k, summary *out) {
  const unsigned char *s = k->s;
  size_t start = k->pos;
  bool integer = true;
  int64_t value;
  size_t p = decimal_prefix(k, &value);
  if (is_plain_integer(k, start, p)) {
    out->form = F_INT; /* most numbers: a short decimal integer */
    out->value = value;
    out->range = value > MM_MAX_EXACT_INTEGER;
    k->pos = p;
    return true;
  }
  while (p < k->end && byte_is_digit(s[p]))
    p++;
  if (byte_at(k, p) == '.') {
    if (!byte_is_digit(byte_at(k, ++p))) return false;
    while (p < k->end && byte_is_digit(s[p]))
      p++;
    integer = false;
  }
  if ((byte_at(k, p) | 0x20) == 'e') {
    p++;
    if (byte_at(k, p) == '+' || byte_at(k, p) == '-') p++;
    if (!byte_is_digit(byte_at(k, p))) return false;
    while (p < k->end && byte_is_digit(s[p]))
      p++;
    integer = false;
  }
  unsigned char next = byte_at(k, p);
  if (is_ident_char(next) || next == '.' || next >= 0x80) return false; /* 1_0, 0x1, 1j, ... */
  if (integer && s[start] == '0' && p - start > 1) return false;        /* leading zeros */
  out->form = integer ? F_INT : F_OTHER;
  out->range = integer && (p - start > 16 || value > MM_MAX_EXACT_INTEGER); /* 2^53: 16 digits */
  out->value = value;
  k->pos = p;
  return true;
}

/* A one-line string without prefix or backslash. */
static bool simple_string(skim *k, summary *out) {
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
bool mm__skim_elements(skim *k, unsigned char close, bool allow_empty, element_fn each,
                       void *context, bool *tuple) {
  *tuple = false;
  if (peek(k) == close) {
    k->pos++;
    return allow_empty;
  }
  for (uint32_t index = 0;; index++) {
    summary e;
    if (!mm__skim_expression(k, &e, NULL)) return false;
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

/* At an argument's start: `name=` (not `==`) names a keyword argument,
 * whose name is no read; it is consumed with the `=` and `*keyword` set.
 * False when the subset ends here (a non-ASCII or prefixed name, or a
 * keyword such as `True=`). */
static bool take_keyword_name(skim *k, bool *keyword) {
  *keyword = false;
  if (!is_ident_start(peek(k))) return true;
  size_t start = k->pos, e = ident_end(k);
  uint32_t line = k->line;
  if (!e) return false;
  k->pos = e;
  if (peek(k) == '=' && byte_at(k, k->pos + 1) != '=') {
    if (is_keyword(k, start, e - start)) return false;
    k->pos++;
    *keyword = true;
  } else {
    k->pos = start;
    k->line = line;
  }
  return true;
}

/* After '(': positional and keyword arguments; the first three positional
 * ones are summed up in `call`. */
static bool scan_arguments(skim *k, summary *call) {
  bool keywords = false;
  call->positional = 0;
  call->keywords = false;
  if (peek(k) == ')') {
    k->pos++;
    return true;
  }
  for (;;) {
    bool keyword;
    if (!take_keyword_name(k, &keyword)) return false;
    summary arg;
    if (!keyword && keywords) return false; /* positional after keyword */
    if (!mm__skim_expression(k, &arg, NULL)) return false;
    if (keyword) {
      keywords = call->keywords = true;
    } else {
      if (call->positional < 3) call->args[call->positional] = arg_fact_of(k, &arg);
      call->positional++;
    }
    unsigned char c = peek(k);
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
  return (n == 4 && (mm__bytes_equal(w, "True", 4) || mm__bytes_equal(w, "None", 4))) ||
         (n == 5 && mm__bytes_equal(w, "False", 5));
}

/* The bracket kinds of scan_lean, and what closes each. */
enum { L_CALL, L_GROUP, L_LIST, L_SUBSCRIPT, L_DICT };
static const unsigned char closer[] = {')', ')', ']', ']', '}'};

typedef struct lean_frame {
  uint8_t kind;
  bool any;      /* an element seen */
  bool keywords; /* calls: a keyword argument seen */
  bool value;    /* dicts: after the key's `:` */
} lean_frame;

/* A bracket opened in operand position: a group, list or dict display. */
static uint8_t display_kind(unsigned char open) {
  return open == '(' ? L_GROUP : open == '[' ? L_LIST : L_DICT;
}

/* Whether the binary operator of `n` bytes at the position is `**`. */
static bool is_power(const skim *k, size_t n) {
  return n == 2 && byte_at(k, k->pos) == '*' && byte_at(k, k->pos + 1) == '*';
}

/* After the opening bracket of `kind`: everything up to its matching
 * closer, checked against the subset and its reads taken, in one flat
 * loop: the brackets no tile field depends on (most of a dump). */
static bool scan_lean(skim *k, uint8_t kind) {
  enum { START, OPERAND, AFTER } state = START;
  lean_frame stack[MAX_NESTING];
  int top = 0, levels = 0; /* signs and `**`: the parser counts each as a level */
  bool after_comma = false;
  stack[0] = (lean_frame){kind, false, false, false};
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
        if (is_ident_start(c)) { /* `name=` only when `=` or a blank follows the name */
          size_t e = ident_end(k);
          if (!e) return false;
          unsigned char next = byte_at(k, e);
          bool maybe = next == '=' || next == ' ' || next == '\t' || next == '\n';
          if (maybe && !take_keyword_name(k, &keyword)) return false;
        }
        if (f->keywords && !keyword) return false; /* positional after keyword */
        f->keywords |= keyword;
        if (keyword) continue;
      }
    }
    if (state == OPERAND) {
      if (c == '-' || c == '+' || c == '~') {
        if (++levels > MAX_NESTING) return false;
        k->pos++;
      } else if (is_ident_start(c)) {
        size_t start = k->pos, e = ident_end(k);
        if (!e) return false;
        if (is_keyword(k, start, e - start) ? !is_constant_keyword(k, start, e - start)
                                            : !push_load(k, start, e))
          return false;
        k->pos = e;
        state = AFTER;
      } else if (byte_is_digit(c) || c == '"' || c == '\'') {
        int64_t unused;
        size_t after = byte_is_digit(c) ? decimal_prefix(k, &unused) : 0;
        summary literal;
        if (after && is_plain_integer(k, k->pos, after))
          k->pos = after; /* no field reads a plain integer here: only checked */
        else if (!(byte_is_digit(c) ? mm__skim_number(k, &literal) : simple_string(k, &literal)))
          return false;
        state = AFTER;
      } else if (c == '(' || c == '[' || c == '{') {
        if (++top == MAX_NESTING) return false;
        stack[top] = (lean_frame){display_kind(c), false, false, false};
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
      if (next == '.' || byte_is_digit(next)) return false;
      k->pos++;
      if (!is_ident_start(peek(k))) return false;
      size_t start = k->pos, e = ident_end(k);
      if (!e || is_keyword(k, start, e - start)) return false;
      note_attribute(k, start, e);
      k->pos = e;
    } else if (c == '(' || c == '[') {
      if (++top == MAX_NESTING) return false;
      stack[top] = (lean_frame){c == '(' ? L_CALL : L_SUBSCRIPT, false, false, false};
      k->pos++;
      after_comma = false;
      state = START;
    } else if (c == ',') {
      lean_frame *f = &stack[top];
      if (f->kind == L_DICT && !f->value) return false; /* a set display */
      f->value = false;
      k->pos++;
      after_comma = true;
      state = START;
    } else if (c == ':' && stack[top].kind == L_DICT && !stack[top].value) {
      if (byte_at(k, k->pos + 1) == '=') return false; /* a walrus */
      stack[top].value = true;
      k->pos++;
      after_comma = false;
      state = START;
    } else if (c == ')' || c == ']' || c == '}') {
      const lean_frame *f = &stack[top];
      if (c != closer[f->kind] || (f->kind == L_DICT && !f->value)) return false;
      goto close;
    } else {
      size_t n = binary_operator(k);
      if (!n) return false; /* slices, generators, keywords, comments, ... */
      if (is_power(k, n) && ++levels > MAX_NESTING) return false;
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
  } else if (byte_is_digit(c)) {
    if (!mm__skim_number(k, out)) return false;
  } else if (c == '"' || c == '\'') {
    if (!simple_string(k, out)) return false;
  } else if (c == '(') {
    k->pos++;
    if (!scan_lean(k, L_GROUP)) return false;
    out->unsure = true; /* a group: its top node is what it holds */
  } else if (c == '{') {
    k->pos++;
    if (!scan_lean(k, L_DICT)) return false; /* a dict display: F_OTHER */
  } else if (c == '[') {
    k->pos++;
    out->form = F_LIST;
    out->dim_count = 0;
    if (k->facts) { /* maybe a shape */
      out->shape = I_OK;
      k->depth++;
      if (!mm__skim_elements(k, ']', true, list_element, out, &tuple)) return false;
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
      if (next == '.' || byte_is_digit(next)) return false;
      bool spaced = k->pos != before;
      k->pos++;
      before = k->pos;
      if (!is_ident_start(peek(k))) return false;
      spaced |= k->pos != before;
      size_t start = k->pos, e = ident_end(k);
      if (!e || is_keyword(k, start, e - start)) return false;
      note_attribute(k, start, e);
      k->pos = e;
      if (dotted) {
        out->form = F_DOTTED;
        out->parts++;
        out->mem_before_last = mm__is_space_namespace(text_at(k, out->last_start), out->last_len);
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
          (mm__is_memref_call(text_at(k, out->last_start), out->last_len) ||
           mm__is_const_call(text_at(k, out->last_start), out->last_len))) {
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
      bool is_tile = tile && dotted && out->parts == 2 &&
                     mm__is_tile_type(text_at(k, out->last_start), out->last_len);
      if (is_tile) {
        k->depth++;
        if (!mm__skim_elements(k, ']', false, tile_element, tile, &tuple)) return false;
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
    if (++unary > MAX_NESTING) return false; /* the parser counts each as a level */
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
bool mm__skim_expression(skim *k, summary *out, tile_facts *tile) {
  if (++k->nesting > MAX_NESTING) return false;
  bool ok = scan_operand(k, out, tile);
  bool joined = false;
  int powers = 0; /* `**` nests to the right: the parser counts each as a level */
  while (ok) {
    peek(k);
    size_t n = binary_operator(k);
    if (!n) break;
    if (is_power(k, n) && ++powers > MAX_NESTING) {
      ok = false;
      break;
    }
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
uint32_t mm__skim_last_token_line(const skim *k, size_t floor) {
  uint32_t line = k->line;
  for (size_t p = k->pos;
       p > floor && (k->s[p - 1] == ' ' || k->s[p - 1] == '\t' || k->s[p - 1] == '\n'); p--)
    line -= k->s[p - 1] == '\n';
  return line;
}

static bool starts_operand(unsigned char c) {
  return byte_class[c] != 0 || c == '"' || c == '\'' || c == '(' || c == '[' || c == '{' ||
         c == '-' || c == '+' || c == '~';
}

/* Expressions separated by commas, a trailing one allowed (a tuple). */
bool mm__skim_sequence(skim *k) {
  for (;;) {
    summary e;
    if (!mm__skim_expression(k, &e, NULL)) return false;
    if (peek(k) != ',') return true;
    k->pos++;
    if (!starts_operand(peek(k))) return true;
  }
}

/* One bound name: an identifier that is no keyword. Not a read. */
bool mm__skim_bound_name(skim *k) {
  if (!is_ident_start(peek(k))) return false;
  size_t start = k->pos, e = ident_end(k);
  if (!e || is_keyword(k, start, e - start)) return false;
  k->pos = e;
  return true;
}

/* `for` targets: names, and parenthesized or bracketed lists of them. */
bool mm__skim_target_list(skim *k) {
  if (++k->nesting > MAX_NESTING) return false;
  for (;;) {
    unsigned char c = peek(k);
    if (c == '(' || c == '[') {
      unsigned char close = c == '(' ? ')' : ']';
      k->pos++;
      k->depth++;
      if (!mm__skim_target_list(k) || peek(k) != close) return false;
      k->pos++;
      k->depth--;
    } else if (!mm__skim_bound_name(k)) {
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
