/* pipe_rows.h: a cross-core ring as the pipes tables print it: a dump's
 * --summary (summary.c) and a build's (build/), from one set of facts. */
#ifndef MM_PIPE_ROWS_H
#define MM_PIPE_ROWS_H

#include <stdint.h>

#include "model/model.h"
#include "output/text_table.h"

/* What a row says of a ring and its pipe; NULL or 0 where unknown. */
typedef struct mm_ring_facts {
  const char *first, *second;                      /* the pipe's functions */
  const char *name, *direction, *consumer, *space; /* the ring's */
  const char *missing_peer;                        /* no consumer: the peer its import names */
  int64_t slot_size, slot_num, grown_hwm, limit;   /* limit 0: no capacity */
  int64_t max_slots, pipe_max_slots;               /* -1: unknown */
  int8_t pipe_one_more;                            /* 1, 0, -1: unknown */
} mm_ring_facts;

/* Ring `r` of pipe `p`, its strings the model's. */
mm_ring_facts mm__ring_facts(const mm_model *model, const mm_pipe *p, const mm_ring *r);

/* The table's columns, and a row's cells (MM_RING_COLUMNS of them). */
enum { MM_RING_COLUMNS = 10 };
extern const char *const mm__ring_headers[MM_RING_COLUMNS];
void mm__ring_cells(char (*cells)[MM_CELL], const mm_ring_facts *r);

#endif
