/* function_tiles.c: the model's first stage for a compute function: its
 * bindings merged into one tile per name (the first binding's fields,
 * breadth-first), lifetimes stretched by every read (model.md, "Lexical
 * lifetime"), the lines each tile is used on, and its source lines. */
#include "model/function_tiles.h"

#include <string.h>

#include "base/names.h"
#include "base/search.h"
#include "model/backends.h"
#include "model/uses.h"

/* What merging needs besides the tiles: names, shared spaces and bases,
 * and the uses found. */
typedef struct tile_scratch {
  mm_names by_name, spaces, bases;
  mm_vec uses; /* mm_use */
} tile_scratch;

/* Bindings in model.md's order, as indices: parameters first, then
 * breadth-first (shallowest, then in source order: what ast.walk
 * yields). Parameters are depth 0 and every binding was appended in source
 * order, so a counting sort by depth gives it without moving a binding.
 * NULL when out of memory. */
static uint32_t *breadth_first_order(const mm_function_reading *r) {
  const mm_binding *bs = r->bindings;
  size_t n = r->binding_count;
  uint32_t deepest = 0;
  for (size_t i = 0; i < n; i++)
    if (bs[i].depth > deepest) deepest = bs[i].depth;
  size_t *next = mm__alloc(((size_t)deepest + 2) * sizeof *next);
  uint32_t *order = mm__alloc((n ? n : 1) * sizeof *order);
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

static char *copy_str(mm_arena *arena, mm_str s) { return mm__arena_strndup(arena, s.text, s.len); }

/* One copy of each base and space in a function: layout and liveness
 * compare them often, and there the same text is the same pointer (no
 * strcmp). Known spaces point to the backends table's names. */
static const char *shared_space(mm_names *spaces, mm_arena *arena, mm_str space) {
  const char *known = mm__space_at(mm__space_find(space.text, space.len));
  if (known) return known;
  bool added;
  mm_name_entry *e = mm__names_upsert(spaces, space.text, space.len, &added);
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
  mm_name_entry *e = mm__names_upsert(bases, base, strlen(base), &added);
  return e ? e->key : NULL;
}

/* One tile per name: the first tile binding's fields, the lifetime of
 * every binding of the name met after it, as upstream walks them: an
 * annotation that makes no tile counts only once the name is a tile. */
static size_t merge_bindings(const mm_function_reading *r, const uint32_t *order, tile_scratch *s,
                             mm_tile *tiles, mm_arena *arena) {
  size_t count = 0;
  for (size_t k = 0; k < r->binding_count; k++) {
    const mm_binding *b = &r->bindings[order[k]];
    bool added = false;
    const mm_name_entry *e;
    if (b->is_tile) {
      mm_name_entry *entry = mm__names_upsert(&s->by_name, b->name, b->name_len, &added);
      if (!entry) return SIZE_MAX;
      if (added) entry->value[0] = (uint32_t)count;
      e = entry;
    } else if (!(e = mm__names_find(&s->by_name, b->name, b->name_len))) {
      continue; /* not a tile yet: no lifetime to stretch */
    }
    mm_use *use = mm__vec_push(&s->uses);
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
    t->name = mm__arena_strndup(arena, b->name, b->name_len);
    t->space = shared_space(&s->spaces, arena, f->space);
    t->base = shared_base(&s->bases, f->base);
    t->dtype = copy_str(arena, f->dtype);
    t->op = b->op;
    t->offset = f->offset;
    t->size = f->size;
    t->shape = f->shape;
    t->shape_len = f->shape_len;
    t->start = b->line;
    t->end = b->end_line;
    t->slot_count = f->slot_count;
    t->slot_size = f->slot_size;
    t->slot_runtime = f->slot_runtime;
    t->slot_index = f->slot_count ? copy_str(arena, f->slot_index) : "";
    t->runtime_offset = f->runtime_offset.len ? copy_str(arena, f->runtime_offset) : NULL;
    if (!t->name || !t->space || !t->base || !t->dtype || !t->slot_index ||
        (f->runtime_offset.len && !t->runtime_offset))
      return SIZE_MAX;
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
static bool extend_by_reads(const mm_function_reading *r, tile_scratch *s, mm_tile *tiles,
                            size_t count) {
  uint64_t buckets[1024 / 64] = {0};
  for (size_t i = 0; i < count; i++) {
    uint32_t b = read_bucket(tiles[i].name, (uint32_t)strlen(tiles[i].name));
    buckets[b / 64] |= (uint64_t)1 << (b % 64);
  }
  const mm_read *reads = r->reads;
  for (size_t k = 0; k < r->read_count; k++) {
    const char *text = r->src + reads[k].start;
    uint32_t b = read_bucket(text, reads[k].len);
    if (!(buckets[b / 64] >> (b % 64) & 1)) continue;
    const mm_name_entry *e = mm__names_find(&s->by_name, text, reads[k].len);
    if (!e) continue;
    mm_tile *t = &tiles[e->value[0]];
    if (reads[k].line < t->start) t->start = reads[k].line;
    if (reads[k].line > t->end) t->end = reads[k].line;
    mm_use *use = mm__vec_push(&s->uses);
    if (!use) return false;
    *use = (mm_use){e->value[0], reads[k].line, reads[k].line};
  }
  return true;
}

bool mm__function_tiles(const mm_function_reading *r, mm_function *fn, mm_arena *arena) {
  uint32_t *order = breadth_first_order(r);
  mm_tile *merged = order ? mm__alloc((r->binding_count + 1) * sizeof *merged) : NULL;
  tile_scratch s = {0};
  mm__vec_init(&s.uses, sizeof(mm_use));
  size_t count = merged ? merge_bindings(r, order, &s, merged, arena) : SIZE_MAX;
  mm__dealloc(order);
  /* Merged one per binding (most bindings are not tiles, or name a tile
   * again); the model keeps the tiles alone. */
  mm_tile *tiles = count != SIZE_MAX ? mm__arena_copy(arena, merged, count, sizeof *tiles) : NULL;
  mm__dealloc(merged);
  if (!tiles) count = SIZE_MAX;
  bool ok = count != SIZE_MAX && extend_by_reads(r, &s, tiles, count) &&
            mm__tile_uses(tiles, count, s.uses.items, s.uses.len, arena);
  mm__names_free(&s.by_name);
  mm__names_free(&s.spaces);
  mm__names_free(&s.bases);
  mm__vec_free(&s.uses);
  fn->name = mm__arena_strndup(arena, r->name, r->name_len);
  fn->ftype = copy_str(arena, r->ftype);
  fn->src_start = r->first_line;
  fn->src_end = r->last_line;
  /* None: a function of one `...` line, say. */
  uint32_t *statements =
      mm__arena_copy(arena, r->statements, r->statement_count, sizeof *statements);
  fn->statements = statements;
  fn->statement_count = statements ? (uint32_t)r->statement_count : 0;
  fn->tiles = tiles;
  fn->tile_count = ok ? count : 0;
  mm_loop *loops = mm__arena_copy(arena, r->loops, r->loop_count, sizeof *loops);
  fn->loops = loops;
  fn->loop_count = loops ? r->loop_count : 0;
  mm_skipped *skipped = mm__arena_copy(arena, r->skipped, r->skipped_count, sizeof *skipped);
  fn->skipped = skipped;
  fn->skipped_count = skipped ? r->skipped_count : 0;
  mm_attr *attrs = mm__arena_copy(arena, r->attrs, r->attr_count, sizeof *attrs);
  fn->attrs = attrs;
  fn->attr_count = attrs ? r->attr_count : 0;
  return ok && fn->name && fn->ftype && fn->statements && fn->loops && fn->skipped && fn->attrs;
}

/* Where the function's lines are in the input and, as `keep` says, their
 * text for `source`: copied, since the model keeps no reference to the
 * caller's input (memory_map.h), unless the caller keeps it. */
bool mm__function_source(const mm_function_reading *r, mm_function *fn, mm_source_keep keep,
                         mm_arena *arena) {
  /* The lexer is past the function's last line by now: its next line's
   * start is known (or the file ends there). */
  const uint32_t *starts = r->line_starts->items;
  size_t known = r->line_starts->len;
  size_t begin = fn->src_start - 1 < known ? starts[fn->src_start - 1] : r->src_len;
  size_t end = fn->src_end < known ? starts[fn->src_end] : r->src_len;
  fn->source_offset = begin;
  fn->source_bytes = end - begin;
  if (keep == MM_SOURCE_NONE) return true;
  /* Borrowed, a 5 MB dump's lines are not copied again (a tenth of the
   * CLI's page faults); json_writer.c reads `source_len` bytes, no NUL. */
  fn->source = keep == MM_SOURCE_BORROW ? r->src + begin
                                        : mm__arena_strndup(arena, r->src + begin, end - begin);
  fn->source_len = end - begin;
  return fn->source != NULL;
}

uint32_t mm__statements_in(const mm_function *fn, uint32_t first, uint32_t last) {
  if (last < first) return 0;
  uint32_t end = last == UINT32_MAX
                     ? fn->statement_count
                     : (uint32_t)mm__lower_bound_u32(fn->statements, fn->statement_count, last + 1);
  return end - (uint32_t)mm__lower_bound_u32(fn->statements, fn->statement_count, first);
}

/* Whether a loop holds the line `inner` but not the line `outer`. */
static bool loop_separates(const mm_function *fn, uint32_t outer, uint32_t inner) {
  for (size_t i = 0; i < fn->loop_count; i++) {
    const mm_loop *l = &fn->loops[i];
    if (l->first <= inner && inner <= l->last && !(l->first <= outer && outer <= l->last))
      return true;
  }
  return false;
}

void mm__lifetime_points(const mm_function *fn, uint32_t start, uint32_t end, uint64_t *first,
                         uint64_t *last) {
  /* The statement holding `end`: the last to begin at or before it. */
  size_t k = mm__lower_bound_u32(fn->statements, fn->statement_count, end + 1);
  uint32_t statement = k ? fn->statements[k - 1] : end;
  *first = 2 * (uint64_t)start + 1;
  *last = 2 * (uint64_t)statement + (loop_separates(fn, start, statement) ? 1 : 0);
  if (*last < *first) *last = *first;
}
