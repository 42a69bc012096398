/* pipes.c: the cross-core pipes of a dump: each ring (a reserve_buffer
 * window in the function consuming it, an import_peer_buffer naming it in
 * the function producing into it) paired across functions, grouped by its
 * two functions, and what one more slot, and the most slots, mean for all
 * of a pipe's rings at once (one slot_num sizes them all). */
#include "model/pipes.h"

#include <string.h>

#include "base/arena.h"
#include "base/names.h"
#include "model/layout.h"

static const mm_function *function_at(const mm_model *model, uint32_t i) {
  return mm__vec_at(&model->functions, i);
}

const char *mm__ring_direction(const mm_model *model, const mm_ring *ring) {
  if (ring->producer == MM_NONE || ring->consumer == MM_NONE) return NULL;
  const char *from = function_at(model, ring->producer)->ftype;
  const char *to = function_at(model, ring->consumer)->ftype;
  if (strcmp(from, "AIC") == 0 && strcmp(to, "AIV") == 0) return "c2v";
  if (strcmp(from, "AIV") == 0 && strcmp(to, "AIC") == 0) return "v2c";
  return NULL;
}

/* The most slots the consumer's space takes with the rest laid out as it
 * is: with n slots the mark is max(grow_fixed, grow_moved + (n - slot_num)
 * * slot_size) (windows.c); -1 when the slot size or capacity is unknown. */
static int64_t max_slots(const mm_function *fn, const mm_window *w) {
  const mm_space_usage *u = mm__function_space(fn, w->space);
  if (!w->slot_size || !w->slot_num || !w->grown_hwm || !u || !u->has_capacity) return -1;
  if (w->grow_fixed > u->limit || w->grow_moved > u->limit + (w->slot_num - 1) * w->slot_size)
    return 0;
  return w->slot_num + (u->limit - w->grow_moved) / w->slot_size;
}

/* Every import, by its name and peer (`name` NUL `peer`): `next` chains
 * the imports of one key in dump order; each table entry holds the first
 * not yet paired and the last (index + 1). */
typedef struct import_ref {
  uint32_t function, import, next;
  bool taken;
} import_ref;

static const char *import_key(mm_arena *scratch, const char *name, const char *peer, size_t *len) {
  size_t a = strlen(name), b = strlen(peer);
  char *key = mm__arena_alloc(scratch, a + b + 2);
  if (!key) return NULL;
  memcpy(key, name, a);
  key[a] = 0;
  memcpy(key + a + 1, peer, b + 1);
  *len = a + 1 + b;
  return key;
}

static bool index_imports(const mm_model *model, mm_names *by_key, mm_vec *refs,
                          mm_arena *scratch) {
  for (uint32_t f = 0; f < model->functions.len; f++) {
    const mm_function *fn = function_at(model, f);
    for (uint32_t i = 0; i < fn->import_count; i++) {
      size_t len;
      const char *key = import_key(scratch, fn->imports[i].name, fn->imports[i].peer, &len);
      import_ref *r = key ? mm__vec_push(refs) : NULL;
      bool added;
      mm_name_entry *e = r ? mm__names_upsert(by_key, key, len, &added) : NULL;
      if (!e) return false;
      uint32_t k = (uint32_t)refs->len - 1;
      *r = (import_ref){f, i, MM_NONE, false};
      if (added)
        e->value[0] = k + 1;
      else
        ((import_ref *)mm__vec_at(refs, e->value[1] - 1))->next = k;
      e->value[1] = k + 1;
    }
  }
  return true;
}

/* The first import of `name` from `peer` not yet paired, taken; or NULL. */
static import_ref *take_import(mm_names *by_key, mm_vec *refs, mm_arena *scratch, const char *name,
                               const char *peer, bool *ok) {
  size_t len;
  const char *key = import_key(scratch, name, peer, &len);
  *ok = key != NULL;
  mm_name_entry *e = key ? (mm_name_entry *)mm__names_find(by_key, key, len) : NULL;
  if (!e || !e->value[0]) return NULL;
  import_ref *r = mm__vec_at(refs, e->value[0] - 1);
  e->value[0] = r->next == MM_NONE ? 0 : r->next + 1;
  r->taken = true;
  return r;
}

/* The rings: each reserve window and its importer, then the imports no
 * window matched. */
static bool find_rings(const mm_model *model, mm_vec *rings) {
  mm_names by_key = {0};
  mm_arena scratch;
  mm__arena_init(&scratch);
  mm_vec refs;
  mm__vec_init(&refs, sizeof(import_ref));
  bool ok = index_imports(model, &by_key, &refs, &scratch);
  for (uint32_t f = 0; ok && f < model->functions.len; f++) {
    const mm_function *fn = function_at(model, f);
    for (uint32_t w = 0; ok && w < fn->window_count; w++) {
      if (fn->windows[w].kind != MM_WINDOW_RESERVE) continue;
      const char *name = fn->windows[w].name;
      import_ref *match = take_import(&by_key, &refs, &scratch, name, fn->name, &ok);
      mm_ring *ring = ok ? mm__vec_push(rings) : NULL;
      ok = ring != NULL;
      if (ok)
        *ring = (mm_ring){name,
                          f,
                          w,
                          match ? match->function : MM_NONE,
                          match ? match->import : MM_NONE,
                          max_slots(fn, &fn->windows[w])};
    }
  }
  for (size_t k = 0; ok && k < refs.len; k++) {
    const import_ref *r = mm__vec_at(&refs, k);
    if (r->taken) continue;
    mm_ring *ring = mm__vec_push(rings);
    ok = ring != NULL;
    if (ok)
      *ring = (mm_ring){function_at(model, r->function)->imports[r->import].name,
                        MM_NONE,
                        MM_NONE,
                        r->function,
                        r->import,
                        -1};
  }
  mm__names_free(&by_key);
  mm__vec_free(&refs);
  mm__arena_free(&scratch);
  return ok;
}

/* The pipe's two functions, the AIC one first, else in dump order. */
static void sides(const mm_model *model, const mm_ring *ring, uint32_t *first, uint32_t *second) {
  uint32_t a = ring->consumer, b = ring->producer;
  if (a == MM_NONE || (b != MM_NONE && b < a)) {
    uint32_t swap = a;
    a = b;
    b = swap;
  }
  if (a != MM_NONE && b != MM_NONE && strcmp(function_at(model, b)->ftype, "AIC") == 0 &&
      strcmp(function_at(model, a)->ftype, "AIC") != 0) {
    uint32_t swap = a;
    a = b;
    b = swap;
  }
  *first = a;
  *second = b;
}

/* One more slot in every ring of the pipe: fits when each ring's does. */
static void answer(const mm_model *model, mm_pipe *pipe) {
  pipe->one_more_fits = 1;
  pipe->max_slots = -1;
  for (uint32_t i = 0; i < pipe->ring_count; i++) {
    const mm_ring *r = &pipe->rings[i];
    int8_t fits = -1;
    if (r->consumer != MM_NONE) {
      const mm_function *fn = function_at(model, r->consumer);
      fits = fn->windows[r->window].one_more_fits;
    }
    if (fits < 0 && pipe->one_more_fits == 1) pipe->one_more_fits = -1;
    if (fits == 0) pipe->one_more_fits = 0;
    if (r->max_slots < 0) {
      pipe->max_slots = -2; /* unknown for good */
    } else if (pipe->max_slots != -2 && (pipe->max_slots < 0 || r->max_slots < pipe->max_slots)) {
      pipe->max_slots = r->max_slots;
    }
  }
  if (pipe->max_slots == -2) pipe->max_slots = -1;
}

/* A ring with its pipe's two functions, for grouping. */
typedef struct ring_ref {
  uint32_t first, second, index;
} ring_ref;

static int compare_refs(const ring_ref *x, const ring_ref *y) {
  if (x->first != y->first) return x->first < y->first ? -1 : 1;
  if (x->second != y->second) return x->second < y->second ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

#define MM_SORT_NAME sort_refs
#define MM_SORT_TYPE ring_ref
#define MM_SORT_COMPARE compare_refs
#include "base/sort_impl.h"

/* Rings of the same two functions make a pipe, in the order of those. */
static bool group(mm_model *model, const mm_vec *rings, ring_ref *refs, mm_pipe *pipes,
                  mm_ring *kept) {
  size_t n = rings->len, count = 0;
  for (size_t i = 0; i < n; i++) {
    refs[i].index = (uint32_t)i;
    sides(model, mm__vec_at(rings, i), &refs[i].first, &refs[i].second);
  }
  if (!sort_refs(refs, n)) return false;
  for (size_t i = 0; i < n; i++) {
    kept[i] = *(const mm_ring *)mm__vec_at(rings, refs[i].index);
    if (i && refs[i].first == refs[i - 1].first && refs[i].second == refs[i - 1].second) {
      pipes[count - 1].ring_count++;
      continue;
    }
    pipes[count++] = (mm_pipe){refs[i].first, refs[i].second, &kept[i], 1, -1, -1};
  }
  for (size_t p = 0; p < count; p++)
    answer(model, &pipes[p]);
  model->pipes = pipes;
  model->pipe_count = count;
  return true;
}

bool mm__model_pipes(mm_model *model) {
  mm_vec rings;
  mm__vec_init(&rings, sizeof(mm_ring));
  bool ok = find_rings(model, &rings);
  size_t n = rings.len;
  mm_pipe *pipes = ok ? mm__arena_alloc(&model->arena, (n ? n : 1) * sizeof *pipes) : NULL;
  mm_ring *kept = ok ? mm__arena_alloc(&model->arena, (n ? n : 1) * sizeof *kept) : NULL;
  ring_ref *refs = ok ? mm__alloc((n ? n : 1) * sizeof *refs) : NULL;
  ok = pipes && kept && refs && group(model, &rings, refs, pipes, kept);
  mm__dealloc(refs);
  mm__vec_free(&rings);
  return ok;
}
