/* diff.c: compares two models of one kernel: functions matched by name,
 * their spaces side by side, tiles matched by a name they share (a merged
 * alias too) and what moved, grew or lives longer in statements, and the
 * anomalies one side has and the other not. */
#include "compare/diff.h"

#include <string.h>

#include "base/names.h"
#include "model/backends.h"

#define ABSENT UINT32_MAX

int64_t mm__diff_hwm(const mm_space_usage *usage) { return usage ? usage->hwm_all : 0; }

static const mm_side_function *function_at(const mm_side *side, size_t i) {
  return &side->functions[i];
}

/* ------------------------------------------------------------- spaces */

static bool space_changed(const mm_space_usage *a, const mm_space_usage *b) {
  return !a || !b || a->hwm_all != b->hwm_all || a->peak_live != b->peak_live ||
         a->limit != b->limit || a->reserved_bytes != b->reserved_bytes;
}

static int space_order(const char *a, const char *b) {
  uint32_t ra = mm__space_rank(a), rb = mm__space_rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  return strcmp(a, b);
}

/* The union of both sides' spaces, in space order. */
static bool diff_spaces(mm_function_diff *d, mm_arena *arena) {
  const mm_side_function *old_fn = d->old_fn, *new_fn = d->new_fn;
  size_t most = (old_fn ? old_fn->space_count : 0) + (new_fn ? new_fn->space_count : 0);
  mm_space_diff *spaces = mm__arena_alloc(arena, (most ? most : 1) * sizeof *spaces);
  if (!spaces) return false;
  uint32_t n = 0;
  for (int side = 0; side < 2; side++) {
    const mm_side_function *fn = side ? new_fn : old_fn;
    for (size_t k = 0; fn && k < fn->space_count; k++) {
      const mm_space_usage *u = &fn->spaces[k];
      uint32_t at = 0;
      while (at < n && strcmp(spaces[at].space, u->space) != 0)
        at++;
      if (at == n) spaces[n++] = (mm_space_diff){u->space, NULL, NULL, false};
      if (side)
        spaces[at].new_usage = u;
      else
        spaces[at].old_usage = u;
    }
  }
  for (uint32_t i = 1; i < n; i++) /* a handful: insertion sort */
    for (uint32_t j = i; j > 0 && space_order(spaces[j - 1].space, spaces[j].space) > 0; j--) {
      mm_space_diff swap = spaces[j];
      spaces[j] = spaces[j - 1];
      spaces[j - 1] = swap;
    }
  for (uint32_t i = 0; i < n; i++) {
    mm_space_diff *s = &spaces[i];
    s->changed = space_changed(s->old_usage, s->new_usage);
    if (old_fn && new_fn && mm__diff_hwm(s->new_usage) > mm__diff_hwm(s->old_usage)) d->hwm_grew++;
  }
  d->spaces = spaces;
  d->space_count = n;
  return true;
}

/* -------------------------------------------------------------- tiles */

/* Every name of a side's boxes (a box's own, then its aliases), to its
 * box: the first box to hold a name keeps it. */
static bool index_names(const mm_side_function *fn, mm_names *names) {
  for (uint32_t i = 0; i < fn->box_count; i++) {
    const mm_side_box *box = &fn->boxes[i];
    for (uint32_t k = 0; k <= box->alias_count; k++) {
      const char *name = k ? box->aliases[k - 1] : box->name;
      bool added;
      mm_name_entry *e = mm__names_upsert(names, name, strlen(name), &added);
      if (!e) return false;
      if (added) e->value[0] = i + 1;
    }
  }
  return true;
}

/* The box of the other side holding one of `box`'s names (its own
 * first), or ABSENT. */
static uint32_t counterpart(const mm_names *names, const mm_side_box *box) {
  for (uint32_t k = 0; k <= box->alias_count; k++) {
    const char *name = k ? box->aliases[k - 1] : box->name;
    const mm_name_entry *e = mm__names_find(names, name, strlen(name));
    if (e) return e->value[0] - 1;
  }
  return ABSENT;
}

static uint32_t tile_changes(const mm_function_diff *d, mm_tile_diff *t) {
  const mm_side_box *a = &d->old_fn->boxes[t->old_box], *b = &d->new_fn->boxes[t->new_box];
  uint32_t changes = 0;
  if (strcmp(a->space, b->space) != 0 || strcmp(a->base, b->base) != 0 || a->offset != b->offset)
    changes |= MM_TILE_MOVED;
  if (a->size != b->size) changes |= MM_TILE_RESIZED;
  if (t->new_statements > t->old_statements) changes |= MM_TILE_LONGER;
  if (t->new_statements < t->old_statements) changes |= MM_TILE_SHORTER;
  return changes;
}

static uint32_t box_statements(const mm_side_function *fn, uint32_t box) {
  return fn->boxes[box].statements;
}

/* For each new box `match[j]`, its old box by a name they share, or
 * ABSENT; `matched[i]`: an old box a new one took. */
static void match_by_name(const mm_function_diff *d, const mm_names *names, uint32_t *match,
                          bool *matched) {
  for (uint32_t j = 0; j < d->new_fn->box_count; j++) {
    match[j] = d->old_fn ? counterpart(names, &d->new_fn->boxes[j]) : ABSENT;
    if (match[j] != ABSENT) matched[match[j]] = true;
  }
}

/* The new boxes no name matched, each to the first old box no one took
 * of its kind (mm_side_box.kind), in order: another build's compiler
 * counted its inlining and SSA versions otherwise. `by_kind[j]` says so. */
static void match_by_kind(const mm_function_diff *d, uint32_t *match, bool *matched,
                          bool *by_kind) {
  const mm_side_function *old_fn = d->old_fn, *new_fn = d->new_fn;
  for (uint32_t j = 0; old_fn && j < new_fn->box_count; j++) {
    if (match[j] != ABSENT) continue;
    const char *kind = new_fn->boxes[j].kind;
    for (uint32_t i = 0; kind && i < old_fn->box_count; i++) {
      if (matched[i] || !old_fn->boxes[i].kind || strcmp(old_fn->boxes[i].kind, kind) != 0)
        continue;
      match[j] = i;
      matched[i] = by_kind[j] = true;
      break;
    }
  }
}

/* An old box no new box matched whose names a new box holds (a run that
 * joined another, its tiles now aliases): the new box, else ABSENT. */
static uint32_t joined(const mm_function_diff *d, const mm_names *new_names, uint32_t old_box) {
  return d->new_fn ? counterpart(new_names, &d->old_fn->boxes[old_box]) : ABSENT;
}

/* Pairs (and lone boxes) in the new side's box order, then the old boxes
 * that joined a new box's run, then those no new box matched. */
static bool diff_tiles(mm_function_diff *d, mm_arena *arena, uint32_t *new_group) {
  const mm_side_function *old_fn = d->old_fn, *new_fn = d->new_fn;
  size_t old_count = old_fn ? old_fn->box_count : 0, new_count = new_fn ? new_fn->box_count : 0;
  mm_tile_diff *tiles = mm__arena_alloc(arena, (old_count + new_count + 1) * sizeof *tiles);
  bool *matched = mm__alloc(old_count + 1), *by_kind = mm__alloc(new_count + 1);
  uint32_t *match = mm__alloc((new_count + 1) * sizeof *match);
  mm_names names = {0}, new_names = {0};
  bool ok = tiles && matched && by_kind && match && (!old_fn || index_names(old_fn, &names)) &&
            (!new_fn || index_names(new_fn, &new_names));
  uint32_t n = 0;
  if (ok) memset(matched, 0, old_count + 1);
  if (ok && new_fn) {
    memset(by_kind, 0, new_count + 1);
    match_by_name(d, &names, match, matched);
    match_by_kind(d, match, matched, by_kind);
  }
  for (uint32_t j = 0; ok && j < new_count; j++) {
    uint32_t i = match[j];
    mm_tile_diff *t = &tiles[n++];
    *t =
        (mm_tile_diff){i == ABSENT ? MM_NO_BOX : i, j, 0, 0, box_statements(new_fn, j), by_kind[j]};
    new_group[j] = i == ABSENT ? (uint32_t)old_count + j : i;
    if (i == ABSENT) {
      t->changes = MM_TILE_ADDED;
      continue;
    }
    t->old_statements = box_statements(old_fn, i);
    t->changes = tile_changes(d, t);
  }
  for (uint32_t i = 0; ok && i < old_count; i++) {
    uint32_t j = matched[i] ? ABSENT : joined(d, &new_names, i);
    if (j == ABSENT) continue;
    matched[i] = true;
    mm_tile_diff *t = &tiles[n++];
    *t = (mm_tile_diff){i, j, 0, box_statements(old_fn, i), box_statements(new_fn, j), false};
    t->changes = tile_changes(d, t);
  }
  for (uint32_t i = 0; ok && i < old_count; i++)
    if (!matched[i])
      tiles[n++] =
          (mm_tile_diff){i, MM_NO_BOX, MM_TILE_REMOVED, box_statements(old_fn, i), 0, false};
  mm__names_free(&names);
  mm__names_free(&new_names);
  mm__dealloc(matched);
  mm__dealloc(by_kind);
  mm__dealloc(match);
  d->tiles = tiles;
  d->tile_count = ok ? n : 0;
  return ok;
}

/* ---------------------------------------------------------- anomalies */

/* An anomaly as both sides can name it: boxes by their group (an old box's
 * index; a new box's matched old index, or past the old ones), windows
 * by name. */
typedef struct anomaly_key {
  uint8_t kind;
  uint32_t a, b;                /* groups of the boxes (ABSENT: none) */
  const char *wa, *wb;          /* the side's key_a, key_b (NULL: none) */
  const mm_side_anomaly *entry; /* on its side */
} anomaly_key;

static int compare_names(const char *a, const char *b) {
  if (!a || !b) return (a != NULL) - (b != NULL);
  return strcmp(a, b);
}

static int compare_keys(const anomaly_key *x, const anomaly_key *y) {
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  if (x->a != y->a) return x->a < y->a ? -1 : 1;
  if (x->b != y->b) return x->b < y->b ? -1 : 1;
  int c = compare_names(x->wa, y->wa);
  return c ? c : compare_names(x->wb, y->wb);
}

#define MM_SORT_NAME sort_keys
#define MM_SORT_TYPE anomaly_key
#define MM_SORT_COMPARE compare_keys
#include "base/sort_impl.h"

static anomaly_key key_of(const mm_side_anomaly *a, const uint32_t *group) {
  const mm_anomaly *e = &a->anomaly;
  anomaly_key k = {e->kind, ABSENT, ABSENT, a->key_a, a->key_b, a};
  if (e->box != MM_NO_BOX) k.a = group ? group[e->box] : e->box;
  if (e->kind == MM_ANOMALY_PAIR) {
    uint32_t other = group ? group[e->other] : e->other;
    k.b = other < k.a ? k.a : other;
    k.a = other < k.a ? other : k.a;
  }
  return k;
}

/* The side's anomalies as keys, sorted; NULL when out of memory. */
static anomaly_key *side_keys(const mm_side_function *fn, const uint32_t *group, size_t *count) {
  *count = 0;
  if (!fn) return mm__alloc(1);
  anomaly_key *keys = mm__alloc((fn->anomaly_count + 1) * sizeof *keys);
  if (!keys) return NULL;
  for (uint32_t i = 0; i < fn->anomaly_count; i++)
    keys[(*count)++] = key_of(&fn->anomalies[i], group);
  if (!sort_keys(keys, *count)) {
    mm__dealloc(keys);
    return NULL;
  }
  return keys;
}

static int compare_lines(const mm_anomaly_diff *x, const mm_anomaly_diff *y) {
  if (x->appeared != y->appeared) return x->appeared ? -1 : 1;
  const mm_anomaly *a = &x->entry->anomaly, *b = &y->entry->anomaly;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  return a->box < b->box ? -1 : a->box > b->box;
}

#define MM_SORT_NAME sort_anomaly_diffs
#define MM_SORT_TYPE mm_anomaly_diff
#define MM_SORT_COMPARE compare_lines
#include "base/sort_impl.h"

/* Merges the two sorted key lists: a key on one side only changed. */
static uint32_t merge_keys(const anomaly_key *old_keys, size_t old_n, const anomaly_key *new_keys,
                           size_t new_n, mm_anomaly_diff *out) {
  size_t i = 0, j = 0;
  uint32_t n = 0;
  while (i < old_n || j < new_n) {
    int c = i == old_n ? 1 : j == new_n ? -1 : compare_keys(&old_keys[i], &new_keys[j]);
    if (c == 0) {
      i++, j++;
    } else if (c < 0) {
      out[n++] = (mm_anomaly_diff){old_keys[i++].entry, false};
    } else {
      out[n++] = (mm_anomaly_diff){new_keys[j++].entry, true};
    }
  }
  return n;
}

static bool diff_anomalies(mm_function_diff *d, mm_arena *arena, const uint32_t *new_group) {
  size_t old_n, new_n;
  anomaly_key *old_keys = side_keys(d->old_fn, NULL, &old_n);
  anomaly_key *new_keys = side_keys(d->new_fn, new_group, &new_n);
  mm_anomaly_diff *out =
      old_keys && new_keys ? mm__arena_alloc(arena, (old_n + new_n + 1) * sizeof *out) : NULL;
  if (out) {
    d->anomaly_count = merge_keys(old_keys, old_n, new_keys, new_n, out);
    d->anomalies = out;
  }
  bool ok = out && sort_anomaly_diffs(out, d->anomaly_count);
  mm__dealloc(old_keys);
  mm__dealloc(new_keys);
  return ok;
}

/* ---------------------------------------------------------- functions */

static bool diff_function(mm_function_diff *d, mm_arena *arena) {
  const mm_side_function *fn = d->new_fn ? d->new_fn : d->old_fn;
  d->name = fn->name;
  d->ftype = fn->ftype;
  size_t new_count = d->new_fn ? d->new_fn->box_count : 0;
  uint32_t *new_group = mm__alloc((new_count + 1) * sizeof *new_group);
  bool ok = new_group && diff_spaces(d, arena) && diff_tiles(d, arena, new_group) &&
            diff_anomalies(d, arena, new_group);
  mm__dealloc(new_group);
  if (!d->old_fn || !d->new_fn) {
    d->status = d->old_fn ? MM_FUNCTION_REMOVED : MM_FUNCTION_ADDED;
    return ok;
  }
  bool changed = d->anomaly_count > 0;
  for (uint32_t i = 0; i < d->space_count; i++)
    changed |= d->spaces[i].changed;
  for (uint32_t i = 0; i < d->tile_count; i++)
    changed |= d->tiles[i].changes != 0;
  d->status = changed ? MM_FUNCTION_CHANGED : MM_FUNCTION_UNCHANGED;
  return ok;
}

/* Each new function's old one of the same name (the first not taken), in
 * `old_of[new index]`; `taken[old index]` marks them. */
static bool match_functions(const mm_side *old_side, const mm_side *new_side, uint32_t *old_of,
                            bool *taken) {
  size_t old_n = old_side->function_count, new_n = new_side->function_count;
  uint32_t *next = mm__alloc((old_n + 1) * sizeof *next); /* the next old one of a name */
  mm_names names = {0};
  bool ok = next != NULL;
  for (size_t i = old_n; ok && i-- > 0;) { /* from the last: each name's chain runs forward */
    const char *name = function_at(old_side, i)->name;
    bool added;
    mm_name_entry *e = mm__names_upsert(&names, name, strlen(name), &added);
    ok = e != NULL;
    if (!ok) break;
    next[i] = added ? ABSENT : e->value[0] - 1;
    e->value[0] = (uint32_t)i + 1;
  }
  for (size_t j = 0; ok && j < new_n; j++) {
    const char *name = function_at(new_side, j)->name;
    const mm_name_entry *e = mm__names_find(&names, name, strlen(name));
    uint32_t i = e ? e->value[0] - 1 : ABSENT;
    while (i != ABSENT && taken[i])
      i = next[i];
    old_of[j] = i;
    if (i != ABSENT) taken[i] = true;
  }
  mm__names_free(&names);
  mm__dealloc(next);
  return ok;
}

/* The new side's order; a removed function goes after the function that
 * came before it on the old side (or first). */
static bool order_functions(mm_diff *diff, const uint32_t *old_of, const bool *taken) {
  const mm_side *old_side = diff->old_side, *new_side = diff->new_side;
  size_t old_n = old_side->function_count, new_n = new_side->function_count;
  uint32_t *new_of = mm__alloc((old_n + 1) * sizeof *new_of);
  diff->functions = mm__arena_alloc(&diff->arena, (old_n + new_n + 1) * sizeof *diff->functions);
  if (!new_of || !diff->functions) {
    mm__dealloc(new_of);
    return false;
  }
  for (size_t i = 0; i < old_n; i++)
    new_of[i] = ABSENT;
  for (size_t j = 0; j < new_n; j++)
    if (old_of[j] != ABSENT) new_of[old_of[j]] = (uint32_t)j;
  size_t n = 0, i = 0;
  for (size_t j = 0; j <= new_n; j++) {
    /* the removed ones before the old counterpart of j (all left, at the end) */
    size_t until = j < new_n && old_of[j] != ABSENT ? old_of[j] : (j == new_n ? old_n : i);
    for (; i < until; i++)
      if (!taken[i])
        diff->functions[n++] = (mm_function_diff){
            .old_fn = function_at(old_side, i), .old_index = (uint32_t)i, .new_index = ABSENT};
    if (j == new_n) break;
    if (old_of[j] != ABSENT && i <= old_of[j]) i = old_of[j] + 1;
    diff->functions[n++] =
        (mm_function_diff){.old_fn = old_of[j] != ABSENT ? function_at(old_side, old_of[j]) : NULL,
                           .new_fn = function_at(new_side, j),
                           .old_index = old_of[j],
                           .new_index = (uint32_t)j};
  }
  diff->function_count = n;
  mm__dealloc(new_of);
  return true;
}

static void count(mm_diff *diff) {
  mm_diff_counts *c = &diff->counts;
  for (size_t f = 0; f < diff->function_count; f++) {
    const mm_function_diff *d = &diff->functions[f];
    c->functions[d->status]++;
    c->hwm_grew += d->hwm_grew;
    for (uint32_t i = 0; d->old_fn && d->new_fn && i < d->space_count; i++)
      c->hwm_shrank += mm__diff_hwm(d->spaces[i].new_usage) < mm__diff_hwm(d->spaces[i].old_usage);
    for (uint32_t i = 0; i < d->tile_count; i++) {
      uint32_t ch = d->tiles[i].changes;
      c->moved += (ch & MM_TILE_MOVED) != 0;
      c->resized += (ch & MM_TILE_RESIZED) != 0;
      c->longer += (ch & MM_TILE_LONGER) != 0;
      c->shorter += (ch & MM_TILE_SHORTER) != 0;
      c->added += (ch & MM_TILE_ADDED) != 0;
      c->removed += (ch & MM_TILE_REMOVED) != 0;
      c->by_kind += d->tiles[i].by_kind;
    }
    for (uint32_t i = 0; i < d->anomaly_count; i++)
      *(d->anomalies[i].appeared ? &c->appeared : &c->gone) += 1;
  }
}

mm_diff *mm_diff_new(const mm_model *old_model, const mm_model *new_model) {
  mm_side *old_side = mm__side_of(old_model);
  mm_side *new_side = old_side ? mm__side_of(new_model) : NULL;
  if (!new_side) {
    mm__side_free(old_side);
    return NULL;
  }
  return mm__diff_of_sides(old_side, new_side);
}

mm_diff *mm__diff_of_sides(mm_side *old_side, mm_side *new_side) {
  mm_diff *diff = mm__alloc(sizeof *diff);
  if (!diff) {
    mm__side_free(old_side);
    mm__side_free(new_side);
    return NULL;
  }
  memset(diff, 0, sizeof *diff);
  mm__arena_init(&diff->arena);
  diff->old_side = old_side;
  diff->new_side = new_side;
  size_t old_n = old_side->function_count, new_n = new_side->function_count;
  uint32_t *old_of = mm__alloc((new_n + 1) * sizeof *old_of);
  bool *taken = mm__alloc(old_n + 1);
  bool ok = old_of && taken;
  if (ok) memset(taken, 0, old_n + 1);
  ok = ok && match_functions(old_side, new_side, old_of, taken) &&
       order_functions(diff, old_of, taken);
  for (size_t f = 0; ok && f < diff->function_count; f++)
    ok = diff_function(&diff->functions[f], &diff->arena);
  mm__dealloc(old_of);
  mm__dealloc(taken);
  if (!ok) {
    mm_diff_free(diff);
    return NULL;
  }
  count(diff);
  return diff;
}

void mm_diff_free(mm_diff *diff) {
  if (!diff) return;
  mm__side_free(diff->old_side);
  mm__side_free(diff->new_side);
  mm__arena_free(&diff->arena);
  mm__dealloc(diff);
}
