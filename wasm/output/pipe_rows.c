/* pipe_rows.c: a cross-core ring and its pipe's answers as a row of the
 * pipes tables. */
#include "output/pipe_rows.h"

#include <stdio.h>

#include "model/layout.h"
#include "model/pipes.h"

const char *const mm__ring_headers[MM_RING_COLUMNS] = {
    "pipe",  "ring",          "direction",  "consumer",       "space",
    "slots", "one more slot", "most slots", "pipe: one more", "pipe: most"};

static const mm_function *function_at(const mm_model *model, uint32_t index) {
  return index == MM_NONE ? NULL : mm__vec_at(&model->functions, index);
}

mm_ring_facts mm__ring_facts(const mm_model *model, const mm_pipe *p, const mm_ring *r) {
  const mm_function *first = function_at(model, p->first), *second = function_at(model, p->second);
  const mm_function *consumer = function_at(model, r->consumer);
  mm_ring_facts f = {.first = first ? first->name : NULL,
                     .second = second ? second->name : NULL,
                     .name = r->name,
                     .direction = mm__ring_direction(model, r),
                     .consumer = consumer ? consumer->name : NULL,
                     .max_slots = r->max_slots,
                     .pipe_max_slots = p->max_slots,
                     .pipe_one_more = p->one_more_fits};
  if (!consumer) { /* an import whose peer reserves no such window */
    f.missing_peer = function_at(model, r->producer)->imports[r->import].peer;
    return f;
  }
  const mm_window *w = &consumer->windows[r->window];
  const mm_space_usage *u = mm__function_space(consumer, w->space);
  f.space = w->space;
  f.slot_size = w->slot_size;
  f.slot_num = w->slot_num;
  f.grown_hwm = w->grown_hwm;
  f.limit = u && u->has_capacity ? u->limit : 0;
  return f;
}

/* `value`, or "-" when negative (unknown). */
static void put_count(char *cell, int64_t value) {
  if (value >= 0)
    snprintf(cell, MM_CELL, "%lld", (long long)value);
  else
    snprintf(cell, MM_CELL, "-");
}

void mm__ring_cells(char (*cells)[MM_CELL], const mm_ring_facts *r) {
  snprintf(cells[0], MM_CELL, "%.40s <-> %.40s", r->first ? r->first : "-",
           r->second ? r->second : "-");
  snprintf(cells[1], MM_CELL, "%.60s", r->name);
  snprintf(cells[2], MM_CELL, "%s", r->direction ? r->direction : "-");
  snprintf(cells[3], MM_CELL, "%.47s", r->consumer ? r->consumer : "-");
  snprintf(cells[4], MM_CELL, "%.47s", r->space ? r->space : "-");
  if (r->slot_size && r->slot_num)
    snprintf(cells[5], MM_CELL, "%lld x %lld B", (long long)r->slot_num, (long long)r->slot_size);
  else
    snprintf(cells[5], MM_CELL, "-");
  if (r->missing_peer)
    snprintf(cells[6], MM_CELL, "no such reserve_buffer in %.40s", r->missing_peer);
  else if (r->grown_hwm && r->limit)
    snprintf(cells[6], MM_CELL, "hwm %lld of %lld: %s", (long long)r->grown_hwm,
             (long long)r->limit, r->grown_hwm <= r->limit ? "fits" : "does not fit");
  else
    snprintf(cells[6], MM_CELL, "-");
  put_count(cells[7], r->max_slots);
  snprintf(cells[8], MM_CELL, "%s",
           r->pipe_one_more < 0 ? "-"
           : r->pipe_one_more   ? "fits"
                                : "does not fit");
  put_count(cells[9], r->pipe_max_slots);
}
