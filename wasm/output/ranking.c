/* ranking.c: a dump's spaces, least headroom first (model.md §14,
 * "by_headroom"), in the order a build's rows take (figures.h): the
 * question "which space of which function is fullest" answered once. */
#include <string.h>

#include "model/backends.h"
#include "output/figures.h"
#include "output/ranking.h"

typedef struct ranked {
  mm_headroom_key key;
  const char *space;
} ranked;

static int compare_ranked(const ranked *a, const ranked *b) {
  return mm__headroom_compare(&a->key, &b->key);
}

#define MM_SORT_NAME sort_ranked
#define MM_SORT_TYPE ranked
#define MM_SORT_COMPARE compare_ranked
#include "base/sort_impl.h"

mm_ranked_space *mm__rank_by_headroom(const mm_model *model, size_t *count) {
  size_t n = 0;
  for (size_t i = 0; i < model->functions.len; i++)
    n += ((const mm_function *)mm__vec_at(&model->functions, i))->space_count;
  ranked *all = mm__alloc((n + 1) * sizeof *all);
  mm_ranked_space *out = mm__alloc((n + 1) * sizeof *out);
  size_t k = 0;
  for (size_t i = 0; all && i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    for (size_t s = 0; s < fn->space_count; s++) {
      const mm_space_usage *u = &fn->spaces[s];
      int64_t mark = fn->by_lifetime ? u->lower_bound : u->hwm_all;
      all[k++] = (ranked){
          {u->has_capacity, u->limit - mark, 0, (uint32_t)i, mm__space_rank(u->space), u->space},
          u->space};
    }
  }
  if (!all || !out || !sort_ranked(all, n)) {
    mm__dealloc(all);
    mm__dealloc(out);
    return NULL;
  }
  for (size_t j = 0; j < n; j++)
    out[j] = (mm_ranked_space){all[j].key.function, all[j].space};
  mm__dealloc(all);
  *count = n;
  return out;
}
