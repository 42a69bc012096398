/* collect.c: listens to the parser and builds each compute function's
 * tiles: which functions count (model.md, "Compute functions"), their
 * bindings, and lexical lifetimes extended by every read. */
#include "collect.h"

#include <stdlib.h>
#include <string.h>

#include "tiles.h"
#include "uses.h"

typedef struct binding {
  const char *name; /* into the source */
  uint32_t name_len;
  uint32_t line, end_line, depth;
  mm_tile_fields fields;
  const char *op;
} binding;

static bool str_is(mm_str s, const char *word) {
  return s.len == strlen(word) && memcmp(s.text, word, s.len) == 0;
}

/* The `type=` of the first decorator call of a dotted name ending in
 * `.function`: the last component of its dotted value. */
static mm_str function_type(const char *src, mm_node *const *decorators, size_t count) {
  mm_str none = {NULL, 0};
  for (size_t i = 0; i < count; i++) {
    const mm_node *d = decorators[i];
    if (d->kind != N_CALL || !mm_is_dotted_ending(src, d->kids[0], "function")) continue;
    for (uint32_t k = d->positional; k < d->count; k++) {
      const mm_node *kw = d->kids[k];
      if (kw->len == 4 && memcmp(src + kw->start, "type", 4) == 0)
        return mm_dotted_last(src, kw->kids[0]);
    }
  }
  return none;
}

static bool function_begin(void *context, const mm_node *name, mm_node *const *decorators,
                           size_t decorator_count, uint32_t first_line) {
  mm_collector *c = context;
  mm_str type = function_type(c->src, decorators, decorator_count);
  if (!str_is(type, "AIC") && !str_is(type, "AIV") && !str_is(type, "InCore")) return false;
  c->active = true;
  c->name = c->src + name->start;
  c->name_len = name->len;
  c->ftype = type;
  c->first_line = first_line;
  c->bindings.len = 0;
  c->reads.len = 0;
  mm__window_reading_start(&c->windows, type.text, type.len);
  return true;
}

static void push_binding(mm_collector *c, uint32_t name_start, uint32_t name_len,
                         const mm_tile_fields *fields, const char *op, uint32_t line,
                         uint32_t end_line, uint32_t depth) {
  binding *b = mm_vec_push(&c->bindings);
  if (!b || !op) {
    mm_diag_set(c->diag, MM_ERR_NO_MEMORY, line, "out of memory");
    return;
  }
  b->name = c->src + name_start;
  b->name_len = name_len;
  b->line = line;
  b->end_line = end_line;
  b->depth = depth;
  b->fields = *fields;
  b->op = op;
}

/* A binding whose annotation is a tile; `value` is NULL for a parameter
 * (op "param"). The op string is made only once the annotation qualifies. */
static void add_binding(mm_collector *c, const mm_node *name, const mm_node *annotation,
                        const mm_node *value, bool is_param, uint32_t line, uint32_t end_line,
                        uint32_t depth) {
  mm_tile_fields fields;
  if (!mm_tile_from_annotation(c->src, annotation, &c->model->arena, &fields, c->diag)) return;
  const char *op = is_param ? "param" : mm_value_op(c->src, value, &c->model->arena);
  push_binding(c, name->start, name->len, &fields, op, line, end_line, depth);
}

/* The fast path's binding: the tile is read already; copies as tiles.c
 * makes them (a string base has no escapes in the fast path's subset). */
static void tile_binding(void *context, const mm_skim_statement *st, uint32_t depth,
                         bool is_param) {
  mm_collector *c = context;
  mm_arena *arena = &c->model->arena;
  mm_tile_fields fields = {
      .space = {c->src + st->space_start, st->space_len},
      .base = mm_arena_strndup(arena, c->src + st->base_start, st->base_len),
      .offset = st->offset,
      .size = st->size,
      .shape = NULL,
      .shape_len = st->shape_len,
      .dtype = {st->dtype_len ? c->src + st->dtype_start : "", st->dtype_len},
  };
  if (st->shape_len) {
    fields.shape = mm_arena_alloc(arena, st->shape_len * sizeof *fields.shape);
    if (fields.shape) memcpy(fields.shape, st->shape, st->shape_len * sizeof *fields.shape);
  }
  const char *op = is_param ? "param" : mm_arena_strndup(arena, c->src + st->op_start, st->op_len);
  if (!fields.base || (st->shape_len && !fields.shape)) op = NULL; /* reported as out of memory */
  push_binding(c, st->name_start, st->name_len, &fields, op, st->line, st->end_line, depth);
}

static void parameter(void *context, const mm_node *name, const mm_node *annotation, uint32_t line,
                      uint32_t end_line) {
  mm_collector *c = context;
  add_binding(c, name, annotation, NULL, true, line, end_line, 0);
}

static void binding_event(void *context, const mm_node *name, const mm_node *annotation,
                          const mm_node *value, uint32_t line, uint32_t end_line, uint32_t depth) {
  add_binding(context, name, annotation, value, false, line, end_line, depth);
}

/* A call statement: reserved windows are read from some (windows.c). */
static void call_statement(void *context, const mm_node *target, const mm_node *call,
                           uint32_t line) {
  mm_collector *c = context;
  mm__window_read(&c->windows, c->src, target, call, line, &c->model->arena, c->diag);
}

/* A read is only logged: a read before a binding stretches its tile too,
 * so reads are resolved when the function ends (extend_by_reads). */
static void load(void *context, const mm_node *name) {
  mm_collector *c = context;
  mm_vec *v = &c->reads;
  mm_read *r = v->len < v->cap ? (mm_read *)v->items + v->len++ : mm_vec_push(v);
  if (!r) {
    mm_diag_set(c->diag, MM_ERR_NO_MEMORY, name->line, "out of memory");
    return;
  }
  *r = (mm_read){name->start, name->len, name->line};
}

/* Bindings in model.md's order, as indices: parameters first, then
 * breadth-first (shallowest, then in source order: what ast.walk
 * yields). Parameters are depth 0 and every binding was appended in source
 * order, so a counting sort by depth gives it without moving a binding.
 * NULL when out of memory. */
static uint32_t *breadth_first_order(const mm_collector *c) {
  const binding *bs = c->bindings.items;
  size_t n = c->bindings.len;
  uint32_t deepest = 0;
  for (size_t i = 0; i < n; i++)
    if (bs[i].depth > deepest) deepest = bs[i].depth;
  size_t *next = mm__alloc(((size_t)deepest + 2) * sizeof *next);
  uint32_t *order = mm__alloc(n * sizeof *order);
  if (!next || !order) {
    mm__dealloc(next);
    mm__dealloc(order);
    return NULL;
  }
  memset(next, 0, ((size_t)deepest + 2) * sizeof *next);
  for (size_t i = 0; i < n; i++) /* next[d + 1]: how many at depth d */
    next[bs[i].depth + 1]++;
  for (size_t d = 1; d <= deepest; d++) /* next[d]: where depth d starts */
    next[d] += next[d - 1];
  for (size_t i = 0; i < n; i++)
    order[next[bs[i].depth]++] = (uint32_t)i;
  mm__dealloc(next);
  return order;
}

static char *copy_str(mm_arena *arena, mm_str s) { return mm_arena_strndup(arena, s.text, s.len); }

/* One copy of each base and space in a function: layout and liveness
 * compare them often, and there the same text is the same pointer (no
 * strcmp). Known spaces point to the backends table's names. */
static const char *shared_space(mm_names *spaces, mm_arena *arena, mm_str space) {
  const char *known = mm__space_at(mm__space_find(space.text, space.len));
  if (known) return known;
  bool added;
  mm_name_entry *e = mm_names_upsert(spaces, space.text, space.len, &added);
  if (!e) return NULL;
  if (added) {
    char *copy = copy_str(arena, space); /* the same bytes, NUL-terminated */
    if (!copy) return NULL;              /* the key stays the source's */
    e->key = copy;
  }
  return e->key;
}

static const char *shared_base(mm_names *bases, const char *base) {
  bool added;
  mm_name_entry *e = mm_names_upsert(bases, base, strlen(base), &added);
  return e ? e->key : NULL;
}

/* One tile per name: the first binding's fields, the lifetime of all. */
static size_t merge_bindings(mm_collector *c, const uint32_t *order, mm_tile *tiles,
                             mm_names *by_name, mm_names *spaces, mm_names *bases) {
  size_t count = 0;
  const binding *all = c->bindings.items;
  mm_arena *arena = &c->model->arena;
  for (size_t k = 0; k < c->bindings.len; k++) {
    const binding *b = &all[order[k]];
    bool added;
    mm_name_entry *e = mm_names_upsert(by_name, b->name, b->name_len, &added);
    if (!e) return SIZE_MAX;
    if (added) e->value[0] = (uint32_t)count;
    mm_use *use = mm_vec_push(&c->uses);
    if (!use) return SIZE_MAX;
    *use = (mm_use){e->value[0], b->line, b->end_line};
    if (!added) {
      mm_tile *t = &tiles[e->value[0]];
      if (b->line < t->start) t->start = b->line;
      if (b->end_line > t->end) t->end = b->end_line;
      continue;
    }
    mm_tile *t = &tiles[count++];
    const mm_tile_fields *f = &b->fields;
    t->name = mm_arena_strndup(arena, b->name, b->name_len);
    t->space = shared_space(spaces, arena, f->space);
    t->base = shared_base(bases, f->base);
    t->dtype = copy_str(arena, f->dtype);
    t->op = b->op;
    t->offset = f->offset;
    t->size = f->size;
    t->shape = f->shape;
    t->shape_len = f->shape_len;
    t->start = b->line;
    t->end = b->end_line;
    if (!t->name || !t->space || !t->base || !t->dtype) return SIZE_MAX;
  }
  return count;
}

/* A read's bucket in extend_by_reads' filter: its length and end bytes. */
static uint32_t read_bucket(const char *text, uint32_t len) {
  uint32_t h = len * 0x9E3779B1u ^ (unsigned char)text[0] * 0x85EBCA6Bu ^
               (unsigned char)text[len - 1] * 0xC2B2AE35u;
  return h >> 22; /* 1,024 buckets */
}

/* Every read of a tile's name stretches its lifetime to that line, before
 * or after its bindings (model.md). Most reads name no tile (`pl`, tensors,
 * scalars): a bitmap of the tiles' buckets turns them away before a hash. */
static bool extend_by_reads(mm_collector *c, mm_tile *tiles, size_t count,
                            const mm_names *by_name) {
  uint64_t buckets[1024 / 64] = {0};
  for (size_t i = 0; i < count; i++) {
    uint32_t b = read_bucket(tiles[i].name, (uint32_t)strlen(tiles[i].name));
    buckets[b / 64] |= (uint64_t)1 << (b % 64);
  }
  const mm_read *reads = c->reads.items;
  for (size_t k = 0; k < c->reads.len; k++) {
    const char *text = c->src + reads[k].start;
    uint32_t b = read_bucket(text, reads[k].len);
    if (!(buckets[b / 64] >> (b % 64) & 1)) continue;
    const mm_name_entry *e = mm_names_find(by_name, text, reads[k].len);
    if (!e) continue;
    mm_tile *t = &tiles[e->value[0]];
    if (reads[k].line < t->start) t->start = reads[k].line;
    if (reads[k].line > t->end) t->end = reads[k].line;
    mm_use *use = mm_vec_push(&c->uses);
    if (!use) return false;
    *use = (mm_use){e->value[0], reads[k].line, reads[k].line};
  }
  return true;
}

/* The text of lines [first, last], for `source`: copied, since the model
 * keeps no reference to the caller's input (memory_map.h). */
static bool function_source(mm_collector *c, mm_function *fn) {
  if (!c->keep_source) return true; /* the caller has the input (mm_options) */
  /* The lexer is past the function's last line by now: its next line's
   * start is known (or the file ends there). */
  const uint32_t *starts = c->line_starts->items;
  size_t known = c->line_starts->len;
  size_t begin = fn->src_start - 1 < known ? starts[fn->src_start - 1] : c->src_len;
  size_t end = fn->src_end < known ? starts[fn->src_end] : c->src_len;
  fn->source = mm_arena_strndup(&c->model->arena, c->src + begin, end - begin);
  fn->source_len = end - begin;
  return fn->source != NULL;
}

/* The model's stages for one function, in order: its boxes, windows,
 * liveness and idle spans. */
static bool analyse_function(mm_collector *c, mm_function *fn) {
  mm_arena *arena = &c->model->arena;
  return mm__window_reading_finish(&c->windows, fn, arena) &&
         mm_function_layout(fn, c->backend, arena) && mm_function_windows(fn, c->backend, arena) &&
         mm_function_liveness(fn, arena) && mm_function_idle(fn, arena);
}

static void function_end(void *context, uint32_t last_line) {
  mm_collector *c = context;
  c->active = false;
  if (mm_diag_failed(c->diag) || c->bindings.len == 0) return; /* no tile: skipped */
  mm_arena *arena = &c->model->arena;
  uint32_t *order = breadth_first_order(c);
  mm_tile *tiles = order ? mm_arena_alloc(arena, c->bindings.len * sizeof *tiles) : NULL;
  mm_names by_name = {0}, spaces = {0}, bases = {0};
  c->uses.len = 0;
  size_t count = tiles ? merge_bindings(c, order, tiles, &by_name, &spaces, &bases) : SIZE_MAX;
  mm__dealloc(order);
  if (count != SIZE_MAX && !(extend_by_reads(c, tiles, count, &by_name) &&
                             mm__tile_uses(tiles, count, c->uses.items, c->uses.len, arena)))
    count = SIZE_MAX;
  mm_names_free(&by_name);
  mm_names_free(&spaces);
  mm_names_free(&bases);
  mm_function *fn = count != SIZE_MAX ? mm_vec_push(&c->model->functions) : NULL;
  if (!fn) {
    mm_diag_set(c->diag, MM_ERR_NO_MEMORY, last_line, "out of memory");
    return;
  }
  fn->name = mm_arena_strndup(arena, c->name, c->name_len);
  fn->ftype = copy_str(arena, c->ftype);
  fn->src_start = c->first_line;
  fn->src_end = last_line;
  fn->tiles = tiles;
  fn->tile_count = count;
  if (!function_source(c, fn) || !fn->name || !fn->ftype || !analyse_function(c, fn))
    mm_diag_set(c->diag, MM_ERR_NO_MEMORY, last_line, "out of memory");
}

void mm_collector_init(mm_collector *c, const char *src, size_t src_len, const mm_lexer *lexer,
                       mm_model *model, const mm_backend *backend, mm_diag *diag) {
  memset(c, 0, sizeof *c);
  c->src = src;
  c->src_len = src_len;
  c->line_starts = &lexer->lines;
  c->model = model;
  c->backend = backend;
  c->diag = diag;
  c->keep_source = true;
  mm_vec_init(&c->bindings, sizeof(binding));
  mm_vec_init(&c->reads, sizeof(mm_read));
  mm_vec_init(&c->uses, sizeof(mm_use));
  mm__window_reading_init(&c->windows);
  c->events.context = c;
  c->events.function_begin = function_begin;
  c->events.parameter = parameter;
  c->events.binding = binding_event;
  c->events.tile_binding = tile_binding;
  c->events.call_statement = call_statement;
  c->events.load = load;
  c->events.function_end = function_end;
}

void mm_collector_free(mm_collector *c) {
  mm_vec_free(&c->bindings);
  mm_vec_free(&c->reads);
  mm_vec_free(&c->uses);
  mm__window_reading_free(&c->windows);
}
