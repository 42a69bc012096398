/* ranking.h: a dump's spaces, least headroom first (ranking.c). */
#ifndef MM_RANKING_H
#define MM_RANKING_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* One space of one function (its index in the model). */
typedef struct mm_ranked_space {
  uint32_t function;
  const char *space;
} mm_ranked_space;

/* Every space of every function of `model`, least headroom first, in the
 * order a build's rows take (figures.h mm__headroom_compare): an array
 * the caller frees with mm__dealloc, `*count` long; NULL when out of
 * memory. */
mm_ranked_space *mm__rank_by_headroom(const mm_model *model, size_t *count);

#endif
