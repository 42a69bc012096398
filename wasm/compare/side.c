/* side.c: one model's side of a comparison: taken from the model, written
 * as bytes, and read back from them with every count and length checked. */
#include "compare/side.h"

#include <string.h>

#include "model/function_tiles.h"
#include "output/check_text.h"
#include "rules/tile_names.h"

/* The bytes start with this (its NUL included): another version's bytes
 * are refused, not misread. */
static const char magic[] = "mm-side 2";
#define NO_STRING UINT32_MAX

static mm_side *side_new(void) {
  mm_side *side = mm__alloc(sizeof *side);
  if (side) memset(side, 0, sizeof *side);
  return side;
}

void mm__side_free(mm_side *side) {
  if (!side) return;
  mm__arena_free(&side->arena);
  mm__dealloc(side);
}

/* ------------------------------------------------------ from a model */

/* The box's kind (mm_side_box), in `arena`; NULL when out of memory. */
static const char *kind_of(const mm_tile *t, mm_arena *arena) {
  char stem[256];
  mm__tile_name_stem(t->name, stem, sizeof stem);
  mm_buf key = {0};
  mm__buf_puts(&key, stem);
  mm__buf_putc(&key, '|');
  mm__buf_puts(&key, t->space);
  mm__buf_putc(&key, '|');
  for (uint32_t k = 0; k < t->shape_len; k++) {
    if (k) mm__buf_putc(&key, ',');
    mm__buf_put_int(&key, t->shape[k]);
  }
  mm__buf_putc(&key, '|');
  mm__buf_puts(&key, t->dtype);
  mm__buf_putc(&key, '|');
  mm__buf_puts(&key, t->op);
  const char *kind =
      key.failed ? NULL : mm__arena_strndup(arena, key.data ? key.data : "", key.len);
  mm__buf_free(&key);
  return kind;
}

static bool box_of(mm_side_box *out, const mm_function *fn, uint32_t i, mm_arena *arena) {
  const mm_box *box = &fn->boxes[i];
  *out = (mm_side_box){box->tile->name,
                       box->tile->space,
                       box->tile->base,
                       kind_of(box->tile, arena),
                       box->aliases,
                       box->alias_count,
                       box->tile->offset,
                       box->tile->size,
                       box->start,
                       box->end,
                       mm__statements_in(fn, box->start, box->end)};
  return out->kind != NULL;
}

static bool anomaly_of(mm_side_anomaly *out, const char *dump, const mm_function *fn,
                       const mm_anomaly *e, mm_arena *arena) {
  *out = (mm_side_anomaly){*e, NULL, NULL, NULL};
  if (e->kind == MM_ANOMALY_WINDOW || e->kind == MM_ANOMALY_WINDOW_OVERLAP ||
      e->kind == MM_ANOMALY_WINDOW_OVER)
    out->key_a = fn->windows[e->other].name;
  if (e->kind == MM_ANOMALY_WINDOW_OVERLAP)
    out->key_b = fn->windows[fn->windows[e->other].overlaps].name;
  if (e->kind == MM_ANOMALY_UNPLACED) out->key_a = fn->skipped[e->other].name;
  if (e->kind == MM_ANOMALY_NEEDS) out->key_a = fn->spaces[e->other].space;
  mm_buf text = {0};
  mm__anomaly_put(&text, dump, fn, e);
  out->text = text.failed ? NULL : mm__arena_strndup(arena, text.data ? text.data : "", text.len);
  mm__buf_free(&text);
  return out->text != NULL;
}

static bool function_of(mm_side_function *out, const mm_model *model, const mm_function *fn,
                        mm_arena *arena) {
  *out = (mm_side_function){.name = fn->name,
                            .ftype = fn->ftype,
                            .spaces = fn->spaces,
                            .space_count = (uint32_t)fn->space_count};
  mm_side_box *boxes = mm__arena_alloc(arena, (fn->box_count + 1) * sizeof *boxes);
  if (!boxes) return false;
  for (uint32_t i = 0; i < fn->box_count; i++)
    if (!box_of(&boxes[i], fn, i, arena)) return false;
  out->boxes = boxes;
  out->box_count = (uint32_t)fn->box_count;
  size_t n;
  mm_anomaly *entries = mm__function_anomalies(fn, &n);
  mm_side_anomaly *anomalies = entries ? mm__arena_alloc(arena, (n + 1) * sizeof *anomalies) : NULL;
  bool ok = anomalies != NULL;
  for (size_t i = 0; ok && i < n; i++)
    if (!mm__anomaly_is_note(&entries[i]))
      ok = anomaly_of(&anomalies[out->anomaly_count++], model->dump, fn, &entries[i], arena);
  mm__dealloc(entries);
  out->anomalies = anomalies;
  return ok;
}

mm_side *mm__side_of(const mm_model *model) {
  mm_side *side = side_new();
  if (!side) return NULL;
  side->fields = mm__model_dump_fields(model);
  size_t n = model->functions.len;
  mm_side_function *functions = mm__arena_alloc(&side->arena, (n + 1) * sizeof *functions);
  bool ok = functions != NULL;
  for (size_t i = 0; ok && i < n; i++)
    ok = function_of(&functions[i], model, mm__vec_at(&model->functions, i), &side->arena);
  side->functions = functions;
  side->function_count = n;
  if (!ok) {
    mm__side_free(side);
    return NULL;
  }
  return side;
}

/* ---------------------------------------------------------- as bytes */

static void put_u32(mm_buf *out, uint32_t v) {
  char b[4] = {(char)v, (char)(v >> 8), (char)(v >> 16), (char)(v >> 24)};
  mm__buf_append(out, b, 4);
}

static void put_i64(mm_buf *out, int64_t value) {
  uint64_t v = (uint64_t)value;
  put_u32(out, (uint32_t)v);
  put_u32(out, (uint32_t)(v >> 32));
}

static void put_string(mm_buf *out, const char *s) {
  if (!s) {
    put_u32(out, NO_STRING);
    return;
  }
  size_t len = strlen(s);
  put_u32(out, (uint32_t)len);
  mm__buf_append(out, s, len);
}

static void put_spaces(mm_buf *out, const mm_side_function *fn) {
  put_u32(out, fn->space_count);
  for (uint32_t i = 0; i < fn->space_count; i++) {
    const mm_space_usage *u = &fn->spaces[i];
    put_string(out, u->space);
    put_i64(out, u->hwm);
    put_i64(out, u->hwm_all);
    put_i64(out, u->limit);
    put_i64(out, u->peak_live);
    put_i64(out, u->reserved_bytes);
    put_u32(out, u->tiles);
  }
}

static void put_boxes(mm_buf *out, const mm_side_function *fn) {
  put_u32(out, fn->box_count);
  for (uint32_t i = 0; i < fn->box_count; i++) {
    const mm_side_box *b = &fn->boxes[i];
    put_string(out, b->name);
    put_string(out, b->space);
    put_string(out, b->base);
    put_string(out, b->kind);
    put_i64(out, b->offset);
    put_i64(out, b->size);
    put_u32(out, b->start);
    put_u32(out, b->end);
    put_u32(out, b->statements);
    put_u32(out, b->alias_count);
    for (uint32_t k = 0; k < b->alias_count; k++)
      put_string(out, b->aliases[k]);
  }
}

static void put_anomalies(mm_buf *out, const mm_side_function *fn) {
  put_u32(out, fn->anomaly_count);
  for (uint32_t i = 0; i < fn->anomaly_count; i++) {
    const mm_side_anomaly *a = &fn->anomalies[i];
    put_u32(out, a->anomaly.line);
    put_u32(out, a->anomaly.box);
    put_u32(out, a->anomaly.other);
    put_u32(out, a->anomaly.kind);
    put_string(out, a->key_a);
    put_string(out, a->key_b);
    put_string(out, a->text);
  }
}

static void put_function(mm_buf *out, const mm_side_function *fn) {
  put_string(out, fn->name);
  put_string(out, fn->ftype);
  put_spaces(out, fn);
  put_boxes(out, fn);
  put_anomalies(out, fn);
}

char *mm__side_write(const mm_side *side, size_t *out_len) {
  mm_buf out = {0};
  mm__buf_append(&out, magic, sizeof magic);
  put_string(&out, side->fields.dump);
  put_string(&out, side->fields.pass_name);
  put_string(&out, side->fields.backend_name);
  put_string(&out, side->fields.backend_arch);
  put_u32(&out, side->fields.detected);
  put_u32(&out, (uint32_t)side->function_count);
  for (size_t i = 0; i < side->function_count; i++)
    put_function(&out, &side->functions[i]);
  return mm__buf_finish(&out, out_len);
}

/* ------------------------------------------------------- from bytes */

typedef struct reader {
  const unsigned char *at, *end;
  mm_arena *arena;
  bool malformed, failed; /* bytes not a side's; out of memory */
} reader;

static bool have(reader *r, size_t n) {
  if (!r->malformed && (size_t)(r->end - r->at) >= n) return true;
  r->malformed = true;
  return false;
}

static uint32_t get_u32(reader *r) {
  if (!have(r, 4)) return 0;
  uint32_t v = (uint32_t)r->at[0] | (uint32_t)r->at[1] << 8 | (uint32_t)r->at[2] << 16 |
               (uint32_t)r->at[3] << 24;
  r->at += 4;
  return v;
}

static int64_t get_i64(reader *r) {
  uint64_t low = get_u32(r), high = get_u32(r);
  return (int64_t)(low | high << 32);
}

/* A string; NULL for none (`*none` set) or on a failure. */
static const char *get_string_or_none(reader *r, bool *none) {
  uint32_t len = get_u32(r);
  *none = len == NO_STRING && !r->malformed;
  if (*none || !have(r, len)) return NULL;
  char *s = mm__arena_strndup(r->arena, (const char *)r->at, len);
  r->at += len;
  if (!s) r->failed = true;
  return s;
}

static const char *get_string(reader *r) {
  bool none;
  const char *s = get_string_or_none(r, &none);
  if (none) r->malformed = true;
  return s ? s : "";
}

/* Room for `count` items of at least `least` bytes each in what is left:
 * a count the bytes cannot hold is refused before anything is allocated. */
static void *get_array(reader *r, uint32_t count, size_t least, size_t item) {
  if (count && (size_t)(r->end - r->at) / least < count) r->malformed = true;
  if (r->malformed || r->failed) return NULL;
  void *items = mm__arena_alloc(r->arena, ((size_t)count + 1) * item);
  if (!items)
    r->failed = true;
  else
    memset(items, 0, ((size_t)count + 1) * item);
  return items;
}

static void get_spaces(reader *r, mm_side_function *fn) {
  uint32_t n = get_u32(r);
  mm_space_usage *spaces = get_array(r, n, 48, sizeof *spaces);
  for (uint32_t i = 0; spaces && i < n && !r->malformed; i++) {
    mm_space_usage *u = &spaces[i];
    u->space = get_string(r);
    u->hwm = get_i64(r);
    u->hwm_all = get_i64(r);
    u->limit = get_i64(r);
    u->peak_live = get_i64(r);
    u->reserved_bytes = get_i64(r);
    u->tiles = get_u32(r);
  }
  fn->spaces = spaces;
  fn->space_count = spaces ? n : 0;
}

static void get_boxes(reader *r, mm_side_function *fn) {
  uint32_t n = get_u32(r);
  mm_side_box *boxes = get_array(r, n, 52, sizeof *boxes);
  for (uint32_t i = 0; boxes && i < n && !r->malformed; i++) {
    mm_side_box *b = &boxes[i];
    b->name = get_string(r);
    b->space = get_string(r);
    b->base = get_string(r);
    b->kind = get_string(r);
    b->offset = get_i64(r);
    b->size = get_i64(r);
    b->start = get_u32(r);
    b->end = get_u32(r);
    b->statements = get_u32(r);
    uint32_t aliases = get_u32(r);
    const char **names = get_array(r, aliases, 4, sizeof *names);
    for (uint32_t k = 0; names && k < aliases && !r->malformed; k++)
      names[k] = get_string(r);
    b->aliases = names;
    b->alias_count = names ? aliases : 0;
  }
  fn->boxes = boxes;
  fn->box_count = boxes ? n : 0;
}

/* A known kind, and its boxes among the function's (the comparison
 * indexes by them). */
static bool anomaly_fits(const mm_side_anomaly *a, uint32_t box_count) {
  const mm_anomaly *e = &a->anomaly;
  if (e->kind > MM_ANOMALY_UNPLACED) return false;
  if (e->box != MM_NO_BOX && e->box >= box_count) return false;
  return e->kind != MM_ANOMALY_PAIR || e->other < box_count;
}

static void get_anomalies(reader *r, mm_side_function *fn) {
  uint32_t n = get_u32(r);
  mm_side_anomaly *anomalies = get_array(r, n, 28, sizeof *anomalies);
  for (uint32_t i = 0; anomalies && i < n && !r->malformed; i++) {
    mm_side_anomaly *a = &anomalies[i];
    bool none;
    a->anomaly.line = get_u32(r);
    a->anomaly.box = get_u32(r);
    a->anomaly.other = get_u32(r);
    a->anomaly.kind = (uint8_t)get_u32(r);
    a->key_a = get_string_or_none(r, &none);
    a->key_b = get_string_or_none(r, &none);
    a->text = get_string(r);
    if (!anomaly_fits(a, fn->box_count)) r->malformed = true;
  }
  fn->anomalies = anomalies;
  fn->anomaly_count = anomalies ? n : 0;
}

static void get_functions(reader *r, mm_side *side) {
  uint32_t n = get_u32(r);
  mm_side_function *functions = get_array(r, n, 20, sizeof *functions);
  for (uint32_t i = 0; functions && i < n && !r->malformed && !r->failed; i++) {
    functions[i].name = get_string(r);
    functions[i].ftype = get_string(r);
    get_spaces(r, &functions[i]);
    get_boxes(r, &functions[i]);
    get_anomalies(r, &functions[i]);
  }
  side->functions = functions;
  side->function_count = functions ? n : 0;
}

mm_side *mm__side_read(const char *bytes, size_t len, bool *malformed) {
  *malformed = false;
  mm_side *side = side_new();
  if (!side) return NULL;
  reader r = {.at = (const unsigned char *)bytes,
              .end = (const unsigned char *)bytes + len,
              .arena = &side->arena};
  if (len < sizeof magic || memcmp(bytes, magic, sizeof magic) != 0)
    r.malformed = true;
  else
    r.at += sizeof magic;
  side->fields.dump = get_string(&r);
  side->fields.pass_name = get_string(&r);
  side->fields.backend_name = get_string(&r);
  side->fields.backend_arch = get_string(&r);
  side->fields.detected = get_u32(&r) != 0;
  get_functions(&r, side);
  if (r.at != r.end) r.malformed = true;
  if (r.malformed || r.failed) {
    *malformed = r.malformed;
    mm__side_free(side);
    return NULL;
  }
  return side;
}
