/* collect.c: listens to the parser: which functions count (model.md,
 * "Compute functions"), and for each its reading: tile bindings, reads,
 * reserved windows' calls, handed on when the function ends. */
#include "model/collect.h"

#include <stdlib.h>
#include <string.h>

#include "model/allocations.h"
#include "model/tiles.h"

/* The `type=` of the decorator calls of a dotted name ending in
 * `.function`: the last component of its dotted value. The last one
 * given wins (a later decorator, or `type=` repeated), as upstream reads
 * them in order. */
static mm_str function_type(const char *src, mm_node *const *decorators, size_t count) {
  mm_str type = {NULL, 0};
  for (size_t i = 0; i < count; i++) {
    const mm_node *d = decorators[i];
    if (d->kind != N_CALL || !mm__is_dotted_ending(src, d->kids[0], "function")) continue;
    for (uint32_t k = d->positional; k < d->count; k++) {
      const mm_node *kw = d->kids[k];
      if (mm__node_text_is(src, kw, "type")) type = mm__dotted_last(src, kw->kids[0]);
    }
  }
  return type;
}

/* The entries of a `{key: value, ...}` of a function's attributes: a key
 * as its string's value (or as written), a value as written; a later key
 * replaces an earlier one. A dict with `**` entries is passed over. */
static void read_attrs(mm_collector *c, const mm_node *dict) {
  if (!dict || dict->kind != N_DICT || dict->count % 2) return;
  uint32_t n = dict->count / 2;
  for (uint32_t i = 0; i < n && !mm__diag_failed(c->diag); i++) {
    const mm_node *key = dict->kids[i], *value = dict->kids[n + i];
    const char *k = key->kind == N_STR ? mm__string_value(c->src, key, c->arena)
                                       : mm__arena_strndup(c->arena, c->src + key->start, key->len);
    mm_str v = mm__argument_text(c->src, value);
    const char *text = mm__arena_strndup(c->arena, v.text, v.len);
    mm_attr *slot = NULL;
    for (size_t j = 0; k && j < c->attrs.len && !slot; j++)
      if (strcmp(((mm_attr *)c->attrs.items)[j].key, k) == 0) slot = (mm_attr *)c->attrs.items + j;
    if (!slot) slot = mm__vec_push(&c->attrs);
    if (!k || !text || !slot) {
      mm__diag_set(c->diag, MM_ERR_NO_MEMORY, dict->line, "out of memory");
      return;
    }
    *slot = (mm_attr){k, text};
  }
}

static bool function_begin(void *context, const mm_node *name, mm_node *const *decorators,
                           size_t decorator_count, uint32_t first_line) {
  mm_collector *c = context;
  mm_str type = function_type(c->src, decorators, decorator_count);
  if (!mm__span_is(type.text, type.len, "AIC") && !mm__span_is(type.text, type.len, "AIV") &&
      !mm__span_is(type.text, type.len, "InCore"))
    return false;
  c->active = true;
  c->compute_functions++;
  c->name = c->src + name->start;
  c->name_len = name->len;
  c->ftype = type;
  c->first_line = first_line;
  c->bindings.len = 0;
  c->reads.len = 0;
  c->statements.len = 0;
  c->loops.len = 0;
  c->skipped.len = 0;
  c->allocations.len = 0;
  c->attrs.len = 0;
  for (size_t i = 0; i < decorator_count; i++) /* `@pl.function(..., attrs={...})` */
    if (decorators[i]->kind == N_CALL &&
        mm__is_dotted_ending(c->src, decorators[i]->kids[0], "function"))
      read_attrs(c, mm__keyword_value(c->src, decorators[i], "attrs"));
  mm__window_reading_start(&c->windows, type.text, type.len);
  return true;
}

/* A binding of a tile (`fields`, `op`) or, with `fields` NULL, of a name
 * whose annotation makes no tile. */
static void push_binding(mm_collector *c, const mm_binding_event *event,
                         const mm_tile_fields *fields, const char *op) {
  mm_binding *b = mm__vec_push(&c->bindings);
  if (!b || (fields && !op)) {
    mm__diag_set(c->diag, MM_ERR_NO_MEMORY, event->line, "out of memory");
    return;
  }
  *b = (mm_binding){.name = c->src + event->name_start,
                    .name_len = event->name_len,
                    .line = event->line,
                    .end_line = event->end_line,
                    .depth = event->depth, /* a parameter's is 0 */
                    .is_tile = fields != NULL,
                    .op = op};
  if (fields) b->fields = *fields;
}

static void log_read(mm_collector *c, uint32_t start, uint32_t len, uint32_t line) {
  mm_vec *v = &c->reads;
  mm_read *r = v->len < v->cap ? (mm_read *)v->items + v->len++ : mm__vec_push(v);
  if (!r) {
    mm__diag_set(c->diag, MM_ERR_NO_MEMORY, line, "out of memory");
    return;
  }
  *r = (mm_read){start, len, line};
}

/* An annotated assignment that binds no tile (`t: pl.Scalar[...] = 1`, a
 * DDR tensor, a MemRef the model cannot read) still binds the name: kept,
 * so that it stretches a tile of that name bound before it (model.md,
 * "Lexical lifetime"). */
static void bind_name(mm_collector *c, const mm_binding_event *b) {
  if (!b->is_param) push_binding(c, b, NULL, NULL);
}

/* A tile the model cannot place: listed with why (model.md, "Skipped
 * tiles"). */
static void skip_tile(mm_collector *c, const mm_binding_event *b, const mm_tile_fields *fields) {
  uint32_t line = b->line;
  mm_skipped *s = mm__vec_push(&c->skipped);
  if (!s) {
    mm__diag_set(c->diag, MM_ERR_NO_MEMORY, line, "out of memory");
    return;
  }
  s->name = mm__arena_strndup(c->arena, c->src + b->name_start, b->name_len);
  s->space = mm__arena_strndup(c->arena, fields->space.text, fields->space.len);
  s->reason = fields->skip_reason;
  s->line = line;
  if (!s->name || !s->space) mm__diag_set(c->diag, MM_ERR_NO_MEMORY, line, "out of memory");
}

/* The general parser's binding: its annotation read here (tiles.c). A
 * parameter's op is "param"; the op string is made only once the
 * annotation qualifies. A tile whose MemRef gives no address is listed as
 * skipped, never dropped in silence, and binds its name as any other
 * annotation does. */
static void read_binding(mm_collector *c, const mm_binding_event *b) {
  mm_tile_fields fields;
  mm_tile_result result = mm__tile_from_annotation(c->src, b->annotation, c->relative_offsets,
                                                   c->arena, &fields, c->diag);
  if (result != MM_TILE_OK) {
    if (mm__diag_failed(c->diag)) return;
    if (result == MM_TILE_SKIPPED) skip_tile(c, b, &fields);
    bind_name(c, b);
    return;
  }
  const char *op = b->is_param ? "param" : mm__value_op(c->src, b->value, c->arena);
  push_binding(c, b, &fields, op);
}

/* The fast path's binding: the tile is read already; copies as tiles.c
 * makes them (a string base has no escapes in the fast path's subset). */
static void take_binding(mm_collector *c, const mm_binding_event *b) {
  const mm_tile_read *st = b->tile;
  mm_arena *arena = c->arena;
  mm_tile_fields fields = {
      .space = {c->src + st->space_start, st->space_len},
      .base = mm__arena_strndup(arena, c->src + st->base_start, st->base_len),
      .offset = st->offset,
      .size = st->size,
      .shape = NULL,
      .shape_len = st->shape_len,
      .dtype = {st->dtype_len ? c->src + st->dtype_start : "", st->dtype_len},
      .runtime_offset = {"", 0},
  };
  if (st->shape_len) {
    fields.shape = mm__arena_alloc(arena, st->shape_len * sizeof *fields.shape);
    if (fields.shape) memcpy(fields.shape, st->shape, st->shape_len * sizeof *fields.shape);
  }
  const char *op =
      b->is_param ? "param" : mm__arena_strndup(arena, c->src + st->op_start, st->op_len);
  if (!fields.base || (st->shape_len && !fields.shape)) op = NULL; /* reported as out of memory */
  push_binding(c, b, &fields, op);
}

/* An annotated name, from either reader: a tile, or a binding of the name. */
static void binding(void *context, const mm_binding_event *b) {
  mm_collector *c = context;
  if (b->annotation)
    read_binding(c, b);
  else if (b->tile)
    take_binding(c, b);
  else
    bind_name(c, b);
}

/* A call statement: reserved windows (windows.c) and allocations
 * (allocations.c) are read from some. */
static void call_statement(void *context, const mm_node *target, const mm_node *call,
                           uint32_t line) {
  mm_collector *c = context;
  if (mm__window_read(&c->windows, c->src, target, call, line, c->arena, c->diag))
    mm__allocation_read(&c->allocations, c->src, target, call, line, c->arena, c->diag);
  /* `pl.func_attr({...})`, the body's first line since 2026-08-12. */
  if (!target && c->statements.len == 1 && call->positional >= 2 &&
      mm__is_dotted_call_of(c->src, call->kids[0], MM_WINDOW_CALL_ATTRS))
    read_attrs(c, call->kids[1]);
}

static void statement(void *context, uint32_t line) {
  mm_collector *c = context;
  if (!mm__vec_push_u32(&c->statements, line))
    mm__diag_set(c->diag, MM_ERR_NO_MEMORY, line, "out of memory");
}

static void loop(void *context, uint32_t header_line, uint32_t last_line) {
  mm_collector *c = context;
  mm_loop *l = mm__vec_push(&c->loops);
  if (l)
    *l = (mm_loop){header_line, last_line};
  else
    mm__diag_set(c->diag, MM_ERR_NO_MEMORY, header_line, "out of memory");
}

/* A read is only logged: a read before a binding stretches its tile too,
 * so reads are resolved when the function ends (extend_by_reads). */
static void load(void *context, const mm_node *name) {
  log_read(context, name->start, name->len, name->line);
}

static bool has_tile(const mm_vec *bindings) {
  const mm_binding *b = bindings->items;
  for (size_t i = 0; i < bindings->len; i++)
    if (b[i].is_tile) return true;
  return false;
}

/* The function is read: its reading goes to the model (pipeline.c), which
 * runs its stages. A function without a tile is skipped. */
static void function_end(void *context, uint32_t last_line) {
  mm_collector *c = context;
  c->active = false;
  if (mm__diag_failed(c->diag) || (!has_tile(&c->bindings) && c->skipped.len == 0)) return;
  mm_function_reading reading = {
      .src = c->src,
      .src_len = c->src_len,
      .line_starts = c->line_starts,
      .name = c->name,
      .name_len = c->name_len,
      .ftype = c->ftype,
      .first_line = c->first_line,
      .last_line = last_line,
      .bindings = c->bindings.items,
      .binding_count = c->bindings.len,
      .reads = c->reads.items,
      .read_count = c->reads.len,
      .windows = &c->windows,
      .statements = c->statements.items,
      .statement_count = c->statements.len,
      .loops = c->loops.items,
      .loop_count = c->loops.len,
      .skipped = c->skipped.items,
      .skipped_count = c->skipped.len,
      .allocations = &c->allocations,
      .attrs = c->attrs.items,
      .attr_count = c->attrs.len,
  };
  if (!c->on_function(c->context, &reading) && !mm__diag_failed(c->diag))
    mm__diag_set(c->diag, MM_ERR_NO_MEMORY, last_line, "out of memory");
}

static void note(void *context, uint32_t line, const char *text) {
  mm_collector *c = context;
  if (!c->notes) return;
  if (++*c->note_count > MM_MAX_NOTES) return;
  mm_note *n = mm__vec_push(c->notes);
  if (n)
    *n = (mm_note){line, text};
  else
    mm__diag_set(c->diag, MM_ERR_NO_MEMORY, line, "out of memory");
}

void mm__collector_notes(mm_collector *c, mm_vec *notes, size_t *count) {
  c->notes = notes;
  c->note_count = count;
}

void mm__collector_init(mm_collector *c, const char *src, size_t src_len, const mm_lexer *lexer,
                        mm_arena *arena, mm_diag *diag, mm_function_done on_function,
                        void *context) {
  memset(c, 0, sizeof *c);
  c->src = src;
  c->src_len = src_len;
  c->line_starts = &lexer->lines;
  c->arena = arena;
  c->diag = diag;
  c->on_function = on_function;
  c->context = context;
  mm__vec_init(&c->bindings, sizeof(mm_binding));
  mm__vec_init(&c->reads, sizeof(mm_read));
  mm__vec_init(&c->statements, sizeof(uint32_t));
  mm__vec_init(&c->loops, sizeof(mm_loop));
  mm__vec_init(&c->skipped, sizeof(mm_skipped));
  mm__vec_init(&c->allocations, sizeof(mm_allocation));
  mm__vec_init(&c->attrs, sizeof(mm_attr));
  mm__window_reading_init(&c->windows);
  c->events.context = c;
  c->events.function_begin = function_begin;
  c->events.binding = binding;
  c->events.call_statement = call_statement;
  c->events.statement = statement;
  c->events.loop = loop;
  c->events.load = load;
  c->events.function_end = function_end;
  c->events.note = note;
}

void mm__collector_free(mm_collector *c) {
  mm__vec_free(&c->bindings);
  mm__vec_free(&c->reads);
  mm__vec_free(&c->statements);
  mm__vec_free(&c->loops);
  mm__vec_free(&c->skipped);
  mm__vec_free(&c->allocations);
  mm__vec_free(&c->attrs);
  mm__window_reading_free(&c->windows);
}
