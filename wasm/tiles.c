/* tiles.c: model.md's tile rules: a `.Tile[...]` annotation holding a
 * `.MemRef(base, offset, size)` call and a `.Mem.<Space>` attribute, each
 * taken first in breadth-first order; its shape, dtype and op. */
#include "tiles.h"

#include <string.h>

#include "identifiers.h"
#include "lexer.h"

static bool node_text_is(const char *src, const mm_node *node, const char *word) {
  size_t n = strlen(word);
  return node->len == n && memcmp(src + node->start, word, n) == 0;
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
  return node->kind == N_ATTRIBUTE && node_text_is(src, node, last) && is_dotted(node, &parts);
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
      (node_text_is(src, node, "True") || node_text_is(src, node, "False"))) {
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
      mm__is_dotted_ending(src, node->kids[0], "const"))
    return signed_literal_value(src, node->kids[1], value);
  return signed_literal_value(src, node, value);
}

/* ----------------------------------------------------------- strings */

static void put_utf8(mm_buf *out, uint32_t cp) {
  char b[4];
  size_t n;
  if (cp == 0) {
    /* U+0000 as C0 80 (modified UTF-8): a string stays a C string, and
     * "m\0x" differs from "m\0y" (#21 item 5); the writers show it as
     * U+0000 (json_writer.c) or \0. */
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

typedef struct memref {
  const mm_node *call, *base;
  int64_t offset, size;
  bool beyond_exact; /* an offset or size past 2^53: refused if the tile is kept */
} memref;

/* `what` holds an integer past 2^53, which a JSON reader could not hold. */
static bool report_range(const mm_node *node, const char *what, mm_diag *diag) {
  mm__diag_set(diag, MM_ERR_LIMIT, node->line, "%s on line %u is beyond 2^53", what,
               (unsigned)node->line);
  return false;
}

/* Whether `call` is a usable `<...>.MemRef(base, offset, size, ...)`. An
 * integer past 2^53 is usable (Python reads it); whether to refuse it waits
 * for the annotation to be a tile the model keeps. */
static bool usable_memref(const char *src, const mm_node *call, memref *out) {
  if (call->kind != N_CALL || call->positional < 4 ||
      !mm__is_dotted_ending(src, call->kids[0], "MemRef"))
    return false;
  const mm_node *base = call->kids[1];
  if (base->kind != N_NAME && base->kind != N_STR) return false;
  mm_int_result r1 = mm__usable_integer(src, call->kids[2], &out->offset);
  mm_int_result r2 = mm__usable_integer(src, call->kids[3], &out->size);
  out->call = call;
  out->base = base;
  out->beyond_exact = r1 == MM_INT_RANGE || r2 == MM_INT_RANGE;
  return (r1 == MM_INT_OK || r1 == MM_INT_RANGE) && (r2 == MM_INT_OK || r2 == MM_INT_RANGE);
}

/* `<...>.Mem.<Space>`: a dotted name (names and attributes only, as
 * upstream reads them: `Mem.Vec` counts, `f().Mem.Vec` does not) whose
 * next to last part is `Mem` (#21 item 7). */
static bool is_space_attribute(const char *src, const mm_node *node) {
  size_t parts;
  return node->kind == N_ATTRIBUTE && is_dotted(node, &parts) &&
         node_text_is(src, node->kids[0], "Mem");
}

/* Breadth-first, as ast.walk: the first usable MemRef and the first space. */
static bool find_memref_and_space(const char *src, const mm_node *root, memref *ref,
                                  const mm_node **space, mm_diag *diag) {
  mm_vec queue;
  mm__vec_init(&queue, sizeof(const mm_node *));
  bool found_ref = false;
  *space = NULL;
  mm__vec_push_ptr(&queue, root);
  for (size_t head = 0; head < queue.len && !(found_ref && *space); head++) {
    const mm_node *node = ((const mm_node **)queue.items)[head];
    if (!found_ref && usable_memref(src, node, ref)) found_ref = true;
    if (!*space && is_space_attribute(src, node)) *space = node;
    for (uint32_t i = 0; i < node->count; i++)
      mm__vec_push_ptr(&queue, node->kids[i]);
  }
  bool ok = !queue.failed;
  if (queue.failed) mm__diag_set(diag, MM_ERR_NO_MEMORY, root->line, "out of memory");
  mm__vec_free(&queue);
  return ok && found_ref && *space;
}

/* --------------------------------------------------- shape and dtype */

/* Python's str.isupper() of a name (valid UTF-8): no lower or title case
 * character, at least one upper case one (#21 item 8: `pl.ÉF16` too). */
static bool is_upper_word(const char *s, size_t len) {
  bool cased = false;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      if (c >= 'a' && c <= 'z') return false;
      if (c >= 'A' && c <= 'Z') cased = true;
      i++;
      continue;
    }
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    uint32_t cp = c & (0x3F >> (n - 1));
    for (size_t k = 1; k < n && i + k < len; k++)
      cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3F);
    unsigned cls = mm__identifier_class(cp);
    if (cls & MM_IDENT_LOWER) return false;
    if (cls & MM_IDENT_UPPER) cased = true;
    i += n;
  }
  return cased;
}

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
        is_upper_word(src + e->start, e->len)) {
      out->dtype.text = src + e->start;
      out->dtype.len = e->len;
      return;
    }
  }
}

bool mm__tile_from_annotation(const char *src, const mm_node *annotation, mm_arena *arena,
                              mm_tile_fields *out, mm_diag *diag) {
  if (annotation->kind != N_SUBSCRIPT || !mm__is_dotted_ending(src, annotation->kids[0], "Tile"))
    return false;
  memref ref;
  const mm_node *space;
  if (!find_memref_and_space(src, annotation, &ref, &space, diag)) return false;
  if (node_text_is(src, space, "DDR")) return false; /* off-chip: not a tile */
  if (ref.beyond_exact) return report_range(ref.call, "a MemRef offset or size", diag);
  out->space.text = src + space->start;
  out->space.len = space->len;
  out->base = ref.base->kind == N_NAME
                  ? mm__arena_strndup(arena, src + ref.base->start, ref.base->len)
                  : mm__string_value(src, ref.base, arena);
  out->offset = ref.offset;
  out->size = ref.size;
  const mm_node *slice = annotation->kids[1];
  mm_node *const *elements = slice->kind == N_TUPLE ? slice->kids : &annotation->kids[1];
  uint32_t count = slice->kind == N_TUPLE ? slice->count : 1;
  if (!out->base || (count && !read_shape(src, elements[0], arena, out, diag))) {
    if (!mm__diag_failed(diag))
      mm__diag_set(diag, MM_ERR_NO_MEMORY, annotation->line, "out of memory");
    return false;
  }
  read_dtype(src, elements, count, out);
  return true;
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
  if (len > 3 && memcmp(text, "pl.", 3) == 0) {
    text += 3;
    len -= 3;
  }
  char *op = out.failed ? NULL : mm__arena_strndup(arena, text, len);
  mm__buf_free(&out);
  return op;
}
