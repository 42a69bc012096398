/* tiles.c: model.md's tile rules: a `.Tile[...]` annotation holding a
 * `.MemRef(base, offset, size)` call and a `.Mem.<Space>` attribute, each
 * taken first in breadth-first order; its shape, dtype and op. */
#include "model/tiles.h"

#include <stdio.h>
#include <string.h>

#include "syntax/lexer.h"

bool mm__node_text_is(const char *src, const mm_node *node, const char *word) {
  return mm__span_is(src + node->start, node->len, word);
}

static bool is_dotted(const mm_node *node, size_t *parts) {
  size_t n = 1;
  while (node->kind == N_ATTRIBUTE) {
    node = node->kids[0];
    n++;
  }
  *parts = n;
  return node->kind == N_NAME;
}

bool mm__is_dotted_ending(const char *src, const mm_node *node, const char *last) {
  size_t parts;
  return node->kind == N_ATTRIBUTE && mm__node_text_is(src, node, last) && is_dotted(node, &parts);
}

bool mm__is_dotted_call_of(const char *src, const mm_node *node, mm_window_call kind) {
  size_t parts;
  return node->kind == N_ATTRIBUTE && mm__window_call_kind(src + node->start, node->len) == kind &&
         is_dotted(node, &parts);
}

/* A dotted name of two parts or more whose last part `rule` accepts (a
 * rule of tile_rules.h). */
static bool is_dotted_with(const char *src, const mm_node *node,
                           bool (*rule)(const char *, size_t)) {
  size_t parts;
  return node->kind == N_ATTRIBUTE && rule(src + node->start, node->len) && is_dotted(node, &parts);
}

/* A node whose text `rule` accepts. */
static bool text_with(const char *src, const mm_node *node, bool (*rule)(const char *, size_t)) {
  return rule(src + node->start, node->len);
}

mm_str mm__dotted_last(const char *src, const mm_node *node) {
  size_t parts;
  mm_str s = {NULL, 0};
  if ((node->kind == N_ATTRIBUTE || node->kind == N_NAME) && is_dotted(node, &parts)) {
    s.text = src + node->start;
    s.len = node->len;
  }
  return s;
}

/* ---------------------------------------------------------- integers */

static int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (char)(c | 0x20);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : 99;
}

static mm_int_result literal_value(const char *src, const mm_node *node, int64_t *value) {
  if (node->kind == N_CONST &&
      (mm__node_text_is(src, node, "True") || mm__node_text_is(src, node, "False"))) {
    *value = src[node->start] == 'T'; /* Python's bool is an int */
    return MM_INT_OK;
  }
  if (node->kind != N_INT) return MM_INT_NONE;
  const char *s = src + node->start;
  size_t len = node->len, i = 0;
  int base = 10;
  if (len > 1 && s[0] == '0' && strchr("xXoObB", s[1])) {
    base = (s[1] | 0x20) == 'x' ? 16 : (s[1] | 0x20) == 'o' ? 8 : 2;
    i = 2;
  }
  int64_t v = 0;
  for (; i < len; i++) {
    if (s[i] == '_') continue;
    int d = digit_value(s[i]);
    if (d >= base) return MM_INT_NONE;
    if (v > (MM_MAX_EXACT_INTEGER - d) / base) return MM_INT_RANGE;
    v = v * base + d;
  }
  *value = v;
  return MM_INT_OK;
}

/* An integer literal or a negated one. */
static mm_int_result signed_literal_value(const char *src, const mm_node *node, int64_t *value) {
  if (node->kind == N_UNARY && node->op == OP_MINUS && node->count == 1) {
    mm_int_result r = literal_value(src, node->kids[0], value);
    if (r == MM_INT_OK) *value = -*value;
    return r;
  }
  return literal_value(src, node, value);
}

mm_int_result mm__usable_integer(const char *src, const mm_node *node, int64_t *value) {
  if (node->kind == N_CALL && node->positional >= 2 &&
      is_dotted_with(src, node->kids[0], mm__is_const_call))
    return signed_literal_value(src, node->kids[1], value);
  return signed_literal_value(src, node, value);
}

/* ----------------------------------------------------------- strings */

static void put_utf8(mm_buf *out, uint32_t cp) {
  char b[4];
  size_t n;
  if (cp == 0) {
    /* U+0000 as C0 80 (modified UTF-8): a string stays a C string, and
     * "m\0x" and "m\0y" stay two bases, as Python's two strings are;
     * the writers show it as U+0000 (json_writer.c) or \0. */
    b[0] = (char)0xC0;
    b[1] = (char)0x80;
    n = 2;
  } else if (cp < 0x80) {
    b[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    b[0] = (char)(0xC0 | (cp >> 6));
    b[1] = (char)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    b[0] = (char)(0xE0 | (cp >> 12));
    b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[2] = (char)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    b[0] = (char)(0xF0 | (cp >> 18));
    b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[3] = (char)(0x80 | (cp & 0x3F));
    n = 4;
  }
  mm__buf_append(out, b, n);
}

static size_t hex_escape(const char *s, size_t i, size_t end, size_t digits, mm_buf *out) {
  uint32_t cp = 0;
  size_t k = 0;
  for (; k < digits && i + k < end && digit_value(s[i + k]) < 16; k++)
    cp = cp * 16 + (uint32_t)digit_value(s[i + k]);
  if (k < digits || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    mm__buf_putc(out, '\\'); /* malformed: keep the text as written */
    return i - 1;
  }
  put_utf8(out, cp);
  return i + k;
}

/* Python's escapes in a non-raw string body [i, end). */
static void decode_body(const char *s, size_t i, size_t end, bool raw, mm_buf *out) {
  while (i < end) {
    char c = s[i];
    if (c != '\\' || raw || i + 1 >= end) {
      mm__buf_putc(out, c);
      i++;
      continue;
    }
    char e = s[i + 1];
    i += 2;
    switch (e) {
    case '\n': break;
    case '\r':
      if (i < end && s[i] == '\n') i++;
      break;
    case 'a': mm__buf_putc(out, '\a'); break;
    case 'b': mm__buf_putc(out, '\b'); break;
    case 'f': mm__buf_putc(out, '\f'); break;
    case 'n': mm__buf_putc(out, '\n'); break;
    case 'r': mm__buf_putc(out, '\r'); break;
    case 't': mm__buf_putc(out, '\t'); break;
    case 'v': mm__buf_putc(out, '\v'); break;
    case 'x': i = hex_escape(s, i, end, 2, out); break;
    case 'u': i = hex_escape(s, i, end, 4, out); break;
    case 'U': i = hex_escape(s, i, end, 8, out); break;
    default:
      if (e >= '0' && e <= '7') {
        uint32_t cp = (uint32_t)(e - '0');
        for (int k = 0; k < 2 && i < end && s[i] >= '0' && s[i] <= '7'; k++)
          cp = cp * 8 + (uint32_t)(s[i++] - '0');
        put_utf8(out, cp);
      } else if (e == '\\' || e == '\'' || e == '"') {
        mm__buf_putc(out, e);
      } else {
        mm__buf_putc(out, '\\'); /* unknown escapes stay as written */
        mm__buf_putc(out, e);
      }
    }
  }
}

char *mm__string_value(const char *src, const mm_node *node, mm_arena *arena) {
  mm_buf out = {0};
  size_t i = node->start, end = node->start + node->len;
  while (i < end) {
    char c = src[i];
    if (c == '#') { /* a comment between literals */
      while (i < end && src[i] != '\n' && src[i] != '\r')
        i++;
      continue;
    }
    if (c != '\'' && c != '"' && (c | 0x20) != 'r' && (c | 0x20) != 'u') {
      i++; /* whitespace, line ends, continuations between literals */
      continue;
    }
    bool raw = false;
    while (src[i] != '\'' && src[i] != '"')
      raw |= (src[i++] | 0x20) == 'r';
    char quote = src[i];
    size_t q = (i + 2 < end && src[i + 1] == quote && src[i + 2] == quote) ? 3 : 1;
    size_t body = i + q, j = body;
    while (j < end) {
      if (src[j] == '\\') {
        j += 2;
      } else if (src[j] == quote && (q == 1 || (src[j + 1] == quote && src[j + 2] == quote))) {
        break;
      } else {
        j++;
      }
    }
    decode_body(src, body, j, raw, &out);
    i = j + q;
  }
  char *text = out.failed ? NULL : mm__arena_strndup(arena, out.data ? out.data : "", out.len);
  mm__buf_free(&out);
  return text;
}

/* ------------------------------------------------------------ memref */

/* A `.MemRef(...)` call as the model reads it. */
typedef struct memref {
  const mm_node *call, *base; /* base NULL: the older form's (legacy_space, legacy_id) */
  const mm_node *index;       /* the subscript `[index]` applied to the call, or NULL */
  int64_t offset, size;
  int64_t slots; /* `slots=`, 1 when not given */
  bool runtime;  /* a runtime slot index: offset and size cover every slot */
  /* Offsets relative to a buffer not placed yet (drawn by lifetime): an
   * offset that is an expression is a position in it chosen at run time,
   * read by its integer terms. */
  const mm_node *runtime_offset;
  bool beyond_exact;   /* an integer past 2^53: refused if the tile is kept */
  mm_str legacy_space; /* `MemRef(<...>.MemorySpace.<Space>, addr, size, id)`: its space */
  int64_t legacy_id;
} memref;

/* `what` holds an integer past 2^53, which a JSON reader could not hold. */
static bool report_range(const mm_node *node, const char *what, mm_diag *diag) {
  mm__diag_set(diag, MM_ERR_LIMIT, node->line, "%s on line %u is beyond 2^53", what,
               (unsigned)node->line);
  return false;
}

const mm_node *mm__keyword_value(const char *src, const mm_node *call, const char *name) {
  const mm_node *found = NULL; /* the last one given wins, as in **kwargs */
  for (uint32_t k = call->positional; k < call->count; k++) {
    const mm_node *kw = call->kids[k];
    if (kw->kind == N_KEYWORD && mm__node_text_is(src, kw, name)) found = kw->kids[0];
  }
  return found;
}

/* The first byte of `node`'s text: nodes start at their first token, a
 * binary operation at its left operand's. */
static uint32_t leftmost(const mm_node *node) {
  uint32_t start = node->start;
  for (uint32_t i = 0; i < node->count; i++) {
    uint32_t kid = leftmost(node->kids[i]);
    if (kid < start) start = kid;
  }
  return start;
}

static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\\';
}

/* A blank that does not end a line: looking back, a line end may close a
 * comment, whose text is no code. */
static bool is_inline_blank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

/* The text of an argument or an index as written (`node`, in a statement
 * the parser accepted): back over the parentheses that open it on its own
 * line, then on to the ',' or closing bracket that ends it, strings and
 * comments skipped. */
mm_str mm__argument_text(const char *src, const mm_node *node) {
  size_t from = leftmost(node), back = from;
  while (back > 0 && (is_inline_blank(src[back - 1]) || src[back - 1] == '(')) {
    if (src[--back] != '(') continue;
    size_t before = back; /* a call's '(' (after a name or a bracket) opens no group */
    while (before > 0 && is_inline_blank(src[before - 1]))
      before--;
    char c = before ? src[before - 1] : ',';
    if (c == ')' || c == ']' || c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
        (c >= '0' && c <= '9') || (unsigned char)c >= 0x80)
      break;
    from = back;
  }
  size_t i = from;
  int depth = 0;
  for (;; i++) {
    char c = src[i];
    if (c == '(' || c == '[' || c == '{') depth++;
    if ((c == ')' || c == ']' || c == '}') && depth-- == 0) break;
    if (c == ',' && depth == 0) break;
    if (c == '#') {
      while (src[i + 1] != '\n' && src[i + 1] != '\r')
        i++;
    } else if (c == '\'' || c == '"') {
      bool triple = src[i + 1] == c && src[i + 2] == c;
      for (i += triple ? 3 : 1; !(src[i] == c && (!triple || (src[i + 1] == c && src[i + 2] == c)));
           i++)
        i += src[i] == '\\';
      i += triple ? 2 : 0;
    }
  }
  while (i > from && is_blank(src[i - 1]))
    i--;
  return (mm_str){src + from, i - from};
}

/* `text` for a message: blanks and line ends as one space, at most 48
 * bytes (then "..."). In `arena`; NULL when out of memory. */
static const char *snippet(mm_str text, mm_arena *arena) {
  char out[56];
  size_t n = 0;
  bool blank = false;
  for (size_t i = 0; i < text.len && n < 48; i++) {
    bool b = is_blank(text.text[i]);
    if (b && !blank && n) out[n++] = ' ';
    if (!b) out[n++] = text.text[i];
    blank = b;
  }
  if (n == 48 && text.len > 48) { /* cut on a character boundary */
    while (n && ((unsigned char)out[n - 1] & 0xC0) == 0x80)
      n--;
    if (n && (unsigned char)out[n - 1] >= 0xC0) n--;
    memcpy(out + n, "...", 3);
    n += 3;
  }
  return mm__arena_strndup(arena, out, n);
}

/* `format` (one %s at most) with `text`, in `arena`; NULL when out of memory. */
static char *format_reason(mm_arena *arena, const char *format, const char *text) {
  int n = snprintf(NULL, 0, format, text);
  char *message = n < 0 ? NULL : mm__arena_alloc(arena, (size_t)n + 1);
  if (message) snprintf(message, (size_t)n + 1, format, text);
  return message;
}

/* The sum of the integer terms of an offset's top-level `+`/`-` chain
 * (`16384 + i % 2 * 16384` gives 16384): where AllocateMemoryAddr put the
 * allocation a runtime slot index selects in. MM_INT_RANGE past 2^53. */
static mm_int_result constant_part(const char *src, const mm_node *node, int sign, int64_t *sum) {
  if (node->kind == N_BINOP && (node->op == OP_PLUS || node->op == OP_MINUS)) {
    mm_int_result r = constant_part(src, node->kids[0], sign, sum);
    return r == MM_INT_RANGE
               ? r
               : constant_part(src, node->kids[1], node->op == OP_MINUS ? -sign : sign, sum);
  }
  int64_t value;
  mm_int_result r = mm__usable_integer(src, node, &value);
  if (r == MM_INT_RANGE) return r;
  if (r == MM_INT_OK) *sum += sign * value;
  return *sum > MM_MAX_EXACT_INTEGER || *sum < -MM_MAX_EXACT_INTEGER ? MM_INT_RANGE : MM_INT_OK;
}

/* `<...>.MemorySpace.<Space>`: the space as printers before 2026 put it
 * first in a MemRef (`pl.MemRef(pl.MemorySpace.Vec, 0, 16, 10)`). */
static bool is_legacy_space(const char *src, const mm_node *node) {
  size_t parts;
  return node->kind == N_ATTRIBUTE && is_dotted(node, &parts) &&
         text_with(src, node->kids[0], mm__is_legacy_space_namespace);
}

/* The older form `MemRef(<...>.MemorySpace.<Space>, addr, size, id)`:
 * its buffer is the one its alloc line binds, `mem_<space>_<id>` (lower
 * case), and an address of -1 is none yet. As usable_memref. */
static bool legacy_memref(const char *src, const mm_node *call, memref *out, const char **why,
                          mm_arena *arena, mm_diag *diag) {
  mm_int_result r_off = mm__usable_integer(src, call->kids[2], &out->offset);
  mm_int_result r_size = mm__usable_integer(src, call->kids[3], &out->size);
  mm_int_result r_id = mm__usable_integer(src, call->kids[4], &out->legacy_id);
  out->legacy_space = (mm_str){src + call->kids[1]->start, call->kids[1]->len};
  const char *reason = NULL;
  const mm_node *culprit = call->kids[2];
  if (r_off == MM_INT_NONE) {
    reason = "its address `%s` is not an integer";
  } else if (r_size == MM_INT_NONE) {
    reason = "its size `%s` is not an integer";
    culprit = call->kids[3];
  } else if (r_id == MM_INT_NONE) {
    reason = "its id `%s` is not an integer";
    culprit = call->kids[4];
  } else if (r_off == MM_INT_OK && out->offset == -1) {
    reason = "its address is %s: not assigned yet";
  }
  if (reason) {
    const char *text = snippet(mm__argument_text(src, culprit), arena);
    *why = text ? format_reason(arena, reason, text) : NULL;
    if (!*why) mm__diag_set(diag, MM_ERR_NO_MEMORY, call->line, "out of memory");
    return false;
  }
  out->beyond_exact = r_off == MM_INT_RANGE || r_size == MM_INT_RANGE || r_id == MM_INT_RANGE;
  return true;
}

/* Reads `call` as `<...>.MemRef(base, offset, size[, slots=N])[index]`.
 * True when it places a tile. False otherwise, with `*why` set (in
 * `arena`) when it is a MemRef that gives no address; NULL when it is no
 * MemRef call at all or memory ran out (then `diag` is set). An integer
 * past 2^53 still reads (Python reads it); whether to refuse it waits for
 * the annotation to be a tile the model keeps. */
static bool usable_memref(const char *src, const mm_node *call, const mm_node *index, bool relative,
                          mm_arena *arena, memref *out, const char **why, mm_diag *diag) {
  *why = NULL;
  if (call->kind != N_CALL || !is_dotted_with(src, call->kids[0], mm__is_memref_call)) return false;
  const char *reason = NULL;
  const mm_node *culprit = call;
  memset(out, 0, sizeof *out);
  out->call = call;
  out->index = index;
  out->slots = 1;
  if (call->positional >= 5 && is_legacy_space(src, call->kids[1]))
    return legacy_memref(src, call, out, why, arena, diag);
  if (call->positional < 4) {
    reason = "the MemRef gives no address (an allocation the author declared, not yet placed)";
  } else if (call->kids[1]->kind != N_NAME && call->kids[1]->kind != N_STR) {
    reason = "its base `%s` is neither a name nor a string";
    culprit = call->kids[1];
  }
  const mm_node *slots = reason ? NULL : mm__keyword_value(src, call, "slots");
  mm_int_result r_size = reason ? MM_INT_NONE : mm__usable_integer(src, call->kids[3], &out->size);
  mm_int_result r_slots = slots ? mm__usable_integer(src, slots, &out->slots) : MM_INT_OK;
  mm_int_result r_off = reason ? MM_INT_NONE : mm__usable_integer(src, call->kids[2], &out->offset);
  int64_t k;
  bool constant_index = index && mm__usable_integer(src, index, &k) == MM_INT_OK;
  if (reason) {
  } else if (r_size == MM_INT_NONE) {
    reason = "its size `%s` is not an integer";
    culprit = call->kids[3];
  } else if (r_slots == MM_INT_NONE || out->slots < 1) {
    reason = "its slots= `%s` is not a positive integer";
    culprit = slots;
  } else if (r_off == MM_INT_NONE && out->slots > 1 && index && !constant_index) {
    /* One of N slots picked at run time: it may be any of them. */
    out->runtime = true;
    out->offset = 0;
    r_off = constant_part(src, call->kids[2], 1, &out->offset);
  } else if (r_off == MM_INT_NONE && relative) {
    out->runtime_offset = call->kids[2];
    out->offset = 0;
    r_off = constant_part(src, call->kids[2], 1, &out->offset);
  } else if (r_off == MM_INT_NONE) {
    reason = "its offset `%s` is an expression, not an address";
    culprit = call->kids[2];
  }
  if (reason) {
    const char *text = culprit == call ? "" : snippet(mm__argument_text(src, culprit), arena);
    char *message = text ? format_reason(arena, reason, text) : NULL;
    if (!message) mm__diag_set(diag, MM_ERR_NO_MEMORY, call->line, "out of memory");
    *why = message;
    return false;
  }
  out->base = call->kids[1];
  out->beyond_exact = r_off == MM_INT_RANGE || r_size == MM_INT_RANGE || r_slots == MM_INT_RANGE;
  if (out->runtime && !out->beyond_exact) { /* the slots' bytes together */
    out->beyond_exact = out->size > MM_MAX_EXACT_INTEGER / out->slots;
    if (!out->beyond_exact) out->size *= out->slots;
  }
  return true;
}

/* `<...>.Mem.<Space>`: a dotted name (names and attributes only, as
 * upstream reads them: `Mem.Vec` counts, `f().Mem.Vec` does not) whose
 * next to last part is `Mem`. */
static bool is_space_attribute(const char *src, const mm_node *node) {
  size_t parts;
  return node->kind == N_ATTRIBUTE && is_dotted(node, &parts) &&
         text_with(src, node->kids[0], mm__is_space_namespace);
}

bool mm__is_memory_space(const char *src, const mm_node *node) {
  return is_space_attribute(src, node) || is_legacy_space(src, node);
}

typedef struct walk_item {
  const mm_node *node, *parent;
} walk_item;

/* The subscript `call[index]` when `parent` applies one to `node`. */
static const mm_node *index_of(const mm_node *node, const mm_node *parent) {
  return parent && parent->kind == N_SUBSCRIPT && parent->kids[0] == node ? parent->kids[1] : NULL;
}

/* Breadth-first, as ast.walk: the first usable MemRef and the first
 * space; `*why` says why the first MemRef met gave no address, when no
 * later one did. False on an error in `diag`. */
static bool find_memref_and_space(const char *src, const mm_node *root, bool relative,
                                  mm_arena *arena, memref *ref, bool *found_ref,
                                  const mm_node **space, const char **why, mm_diag *diag) {
  mm_vec queue;
  mm__vec_init(&queue, sizeof(walk_item));
  *found_ref = false;
  *space = NULL;
  *why = NULL;
  walk_item *first = mm__vec_push(&queue);
  if (first) *first = (walk_item){root, NULL};
  for (size_t head = 0; head < queue.len && !(*found_ref && *space); head++) {
    walk_item item = ((const walk_item *)queue.items)[head];
    const mm_node *node = item.node;
    const char *unusable;
    if (!*found_ref) {
      *found_ref = usable_memref(src, node, index_of(node, item.parent), relative, arena, ref,
                                 &unusable, diag);
      if (!*why) *why = unusable;
    }
    if (!*space && is_space_attribute(src, node)) *space = node;
    for (uint32_t i = 0; i < node->count; i++) {
      walk_item *next = mm__vec_push(&queue);
      if (next) *next = (walk_item){node->kids[i], node};
    }
  }
  bool ok = !queue.failed && !mm__diag_failed(diag);
  if (queue.failed) mm__diag_set(diag, MM_ERR_NO_MEMORY, root->line, "out of memory");
  mm__vec_free(&queue);
  return ok;
}

/* --------------------------------------------------- shape and dtype */

static bool read_shape(const char *src, const mm_node *first, mm_arena *arena, mm_tile_fields *out,
                       mm_diag *diag) {
  out->shape = NULL;
  out->shape_len = 0;
  if (first->kind != N_LIST) return true;
  int64_t *dims = mm__arena_alloc(arena, (first->count ? first->count : 1) * sizeof *dims);
  if (!dims) return false;
  for (uint32_t i = 0; i < first->count; i++) {
    mm_int_result r = mm__usable_integer(src, first->kids[i], &dims[i]);
    if (r == MM_INT_RANGE) return report_range(first, "a shape dimension", diag);
    if (r != MM_INT_OK) return true; /* not a list of integers: shape [] */
  }
  out->shape = dims;
  out->shape_len = first->count;
  return true;
}

static void read_dtype(const char *src, mm_node *const *elements, uint32_t count,
                       mm_tile_fields *out) {
  out->dtype.text = "";
  out->dtype.len = 0;
  for (uint32_t i = 1; i < 3 && i < count; i++) {
    const mm_node *e = elements[i];
    if (e->kind == N_ATTRIBUTE && e->kids[0]->kind == N_NAME &&
        mm__is_dtype_name(src + e->start, e->len)) {
      out->dtype.text = src + e->start;
      out->dtype.len = e->len;
      return;
    }
  }
}

/* `mem_<space>_<id>`, the name the older form's alloc line binds. */
static char *legacy_base(const memref *ref, mm_arena *arena) {
  char text[64];
  int width = ref->legacy_space.len < 24 ? (int)ref->legacy_space.len : 24;
  size_t n = (size_t)snprintf(text, sizeof text, "mem_%.*s_%lld", width, ref->legacy_space.text,
                              (long long)ref->legacy_id);
  for (size_t i = 4; i < n && i < 4 + ref->legacy_space.len; i++)
    if (text[i] >= 'A' && text[i] <= 'Z') text[i] = (char)(text[i] - 'A' + 'a');
  return mm__arena_strndup(arena, text, n < sizeof text ? n : sizeof text - 1);
}

/* The slot fields of a tile read from `ref`. */
static void read_slots(const char *src, const memref *ref, mm_tile_fields *out) {
  out->slot_count = 0;
  out->slot_size = 0;
  out->slot_index = (mm_str){"", 0};
  out->slot_runtime = false;
  if (ref->slots <= 1) return;
  out->slot_count = ref->slots > UINT32_MAX ? UINT32_MAX : (uint32_t)ref->slots;
  out->slot_size = ref->runtime ? ref->size / ref->slots : ref->size;
  out->slot_runtime = ref->runtime;
  if (ref->index) out->slot_index = mm__argument_text(src, ref->index);
}

mm_tile_result mm__tile_from_annotation(const char *src, const mm_node *annotation, bool relative,
                                        mm_arena *arena, mm_tile_fields *out, mm_diag *diag) {
  if (annotation->kind != N_SUBSCRIPT ||
      !is_dotted_with(src, annotation->kids[0], mm__is_tile_type))
    return MM_TILE_NONE;
  memref ref = {0};
  bool found_ref;
  const mm_node *space;
  const char *why;
  if (!find_memref_and_space(src, annotation, relative, arena, &ref, &found_ref, &space, &why,
                             diag))
    return MM_TILE_NONE;
  /* The older MemRef names its space itself (usable or not). */
  mm_str space_text = space ? (mm_str){src + space->start, space->len} : ref.legacy_space;
  if (!space_text.text || mm__is_off_chip_space(space_text.text, space_text.len))
    return MM_TILE_NONE; /* no space, or off-chip: not a tile */
  out->space = space_text;
  if (!found_ref) {
    out->skip_reason = why;
    return why ? MM_TILE_SKIPPED : MM_TILE_NONE;
  }
  if (ref.beyond_exact) return report_range(ref.call, "a MemRef offset or size", diag);
  out->skip_reason = NULL;
  out->base = !ref.base ? legacy_base(&ref, arena)
              : ref.base->kind == N_NAME
                  ? mm__arena_strndup(arena, src + ref.base->start, ref.base->len)
                  : mm__string_value(src, ref.base, arena);
  out->offset = ref.offset;
  out->size = ref.size;
  out->runtime_offset =
      ref.runtime_offset ? mm__argument_text(src, ref.runtime_offset) : (mm_str){"", 0};
  read_slots(src, &ref, out);
  const mm_node *slice = annotation->kids[1];
  mm_node *const *elements = slice->kind == N_TUPLE ? slice->kids : &annotation->kids[1];
  uint32_t count = slice->kind == N_TUPLE ? slice->count : 1;
  if (!out->base || (count && !read_shape(src, elements[0], arena, out, diag))) {
    if (!mm__diag_failed(diag))
      mm__diag_set(diag, MM_ERR_NO_MEMORY, annotation->line, "out of memory");
    return MM_TILE_NONE;
  }
  read_dtype(src, elements, count, out);
  return MM_TILE_OK;
}

char *mm__value_op(const char *src, const mm_node *value, mm_arena *arena) {
  size_t parts;
  if (!value || value->kind != N_CALL || !is_dotted(value->kids[0], &parts))
    return mm__arena_strndup(arena, "", 0);
  /* Join the parts: spaces or comments may sit between them in the source. */
  const mm_node *chain[MM_MAX_OP_PARTS];
  size_t n = 0;
  const mm_node *node = value->kids[0];
  mm_buf out = {0};
  while (n < MM_MAX_OP_PARTS) {
    chain[n++] = node;
    if (node->kind != N_ATTRIBUTE) break;
    node = node->kids[0];
  }
  if (node->kind == N_ATTRIBUTE) mm__buf_puts(&out, "..."); /* more parts: elided */
  for (size_t i = n; i-- > 0;) {
    mm__buf_append(&out, src + chain[i]->start, chain[i]->len);
    if (i) mm__buf_putc(&out, '.');
  }
  const char *text = out.data ? out.data : "";
  size_t len = out.len;
  size_t prefix = mm__op_prefix_len(text, len);
  text += prefix;
  len -= prefix;
  char *op = out.failed ? NULL : mm__arena_strndup(arena, text, len);
  mm__buf_free(&out);
  return op;
}
