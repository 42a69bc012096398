/* pipes.h: the cross-core pipes of a model (model.md, "Pipes"), the
 * stage after every function is read. */
#ifndef MM_PIPES_H
#define MM_PIPES_H

#include <stdbool.h>

#include "model/model.h"

/* Pairs each reserve_buffer window with the import_peer_buffer naming it
 * from its peer, groups the rings by their two functions, and answers
 * one more slot and the most slots for each pipe. False when out of
 * memory. */
bool mm__model_pipes(mm_model *model);

/* The direction of a ring, "c2v" (AIC to AIV) or "v2c"; NULL otherwise. */
const char *mm__ring_direction(const mm_model *model, const mm_ring *ring);

#endif
