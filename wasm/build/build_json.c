/* build_json.c: a build as JSON (docs/model.md, "A build"): its cases,
 * the summary's rows in order, the thresholds, and every problem. */
#include <stdio.h>

#include "build/build.h"
#include "output/figures.h"
#include "output/json.h"

static void put_string(mm_buf *out, const char *key, const char *value) {
  mm__buf_puts(out, key);
  if (value)
    mm__json_string(out, value);
  else
    mm__buf_puts(out, "null");
}

static void put_case(mm_buf *out, const mm_build_case *c) {
  put_string(out, "{\"name\":", c->name);
  put_string(out, ",\"dump\":", c->dump);
  put_string(out, ",\"backend\":", c->backend);
  mm__buf_puts(out,
               c->backend_detected ? ",\"backend_detected\":true" : ",\"backend_detected\":false");
  if (c->by_lifetime) mm__buf_puts(out, ",\"placed_by\":\"ptoas\"");
  mm__json_int(out, ",\"functions\":", c->function_count);
  mm__json_int(out, ",\"problems\":", c->problems);
  if (c->nothing_on_chip) put_string(out, ",\"nothing_on_chip\":", c->nothing_on_chip);
  mm__buf_puts(out, ",\"error\":");
  if (c->error) {
    put_string(out, "{\"status\":", c->error);
    put_string(out, ",\"message\":", c->error_message);
    mm__json_int(out, ",\"line\":", c->error_line);
    mm__buf_putc(out, '}');
  } else {
    mm__buf_puts(out, "null");
  }
  mm__buf_putc(out, '}');
}

static void put_row(mm_buf *out, const mm_build *b, const mm_build_row *row) {
  const mm_build_case *c = mm__vec_at(&b->cases, row->case_index);
  const mm_build_function *f = mm__vec_at(&b->functions, row->function_index);
  put_string(out, "{\"case\":", c->name);
  put_string(out, ",\"function\":", f->name);
  put_string(out, ",\"ftype\":", f->ftype);
  put_string(out, ",\"space\":", row->space);
  mm__json_int(out, ",\"hwm_with_reserved\":", row->hwm);
  mm__json_int(out, ",\"limit\":", row->limit);
  mm__json_int_or_null(out, ",\"headroom\":", row->has_capacity, row->limit - row->hwm);
  mm__json_int_or_null(out, ",\"usage_permille\":", row->has_capacity,
                       mm__usage_permille(row->hwm, row->limit));
  mm__json_int(out, ",\"reserved_bytes\":", row->reserved);
  mm__json_int(out, ",\"peak_live\":", row->peak_live);
  mm__json_int(out, ",\"peak_line\":", row->peak_line);
  mm__json_int(out, ",\"fragmentation\":", row->fragmentation);
  mm__json_int(out, ",\"tiles\":", row->tiles);
  mm__json_int(out, ",\"conflicts\":", row->conflicts);
  mm__json_int(out, ",\"over_capacity\":", row->over_capacity);
  mm__json_int(out, ",\"unplaced\":", row->unplaced);
  if (row->at_least) mm__buf_puts(out, ",\"at_least\":true");
  mm__buf_puts(out, ",\"hwm_set_by\":");
  if (row->set_by) {
    put_string(out, "{\"name\":", row->set_by);
    put_string(out, ",\"kind\":", row->set_by_end ? "tile" : "reserved");
    mm__json_int(out, ",\"start\":", row->set_by_line);
    mm__json_int(out, ",\"end\":", row->set_by_end ? row->set_by_end : row->set_by_line);
    mm__buf_putc(out, '}');
  } else {
    mm__buf_puts(out, "null");
  }
  mm__buf_putc(out, '}');
}

static void put_limit(mm_buf *out, const mm_limit *l) {
  char text[32];
  put_string(out, "{\"space\":", l->space);
  mm__json_int_or_null(out, ",\"min_headroom\":", l->min_headroom >= 0, l->min_headroom);
  mm__buf_puts(out, ",\"max_usage\":");
  if (l->max_usage >= 0) {
    snprintf(text, sizeof text, "%.17g", l->max_usage);
    mm__buf_puts(out, text);
  } else {
    mm__buf_puts(out, "null");
  }
  mm__buf_putc(out, '}');
}

static void put_problem(mm_buf *out, const mm_build *b, const mm_build_problem *p) {
  const mm_build_case *c = mm__vec_at(&b->cases, p->case_index);
  put_string(out, "{\"case\":", c->name);
  const mm_build_function *f =
      p->function_index < b->functions.len ? mm__vec_at(&b->functions, p->function_index) : NULL;
  put_string(out, ",\"function\":", f ? f->name : NULL);
  put_string(out, ",\"kind\":", p->kind);
  put_string(out, ",\"space\":", p->space);
  mm__json_int(out, ",\"line\":", p->line);
  put_string(out, ",\"text\":", p->text);
  mm__buf_putc(out, '}');
}

static void put_ring(mm_buf *out, const mm_build *b, const mm_build_ring *ring) {
  const mm_build_case *c = mm__vec_at(&b->cases, ring->case_index);
  const mm_ring_facts *r = &ring->facts;
  put_string(out, "{\"case\":", c->name);
  put_string(out, ",\"functions\":[", r->first);
  put_string(out, ",", r->second);
  put_string(out, "],\"name\":", r->name);
  put_string(out, ",\"direction\":", r->direction);
  put_string(out, ",\"consumer\":", r->consumer);
  put_string(out, ",\"space\":", r->space);
  mm__json_int_or_null(out, ",\"slot_size\":", r->slot_size > 0, r->slot_size);
  mm__json_int_or_null(out, ",\"slot_num\":", r->slot_num > 0, r->slot_num);
  mm__json_int_or_null(out, ",\"one_more_slot_hwm\":", r->grown_hwm > 0, r->grown_hwm);
  mm__json_int_or_null(out, ",\"max_slots\":", r->max_slots >= 0, r->max_slots);
  mm__buf_puts(out, ",\"pipe_one_more_slot_fits\":");
  mm__buf_puts(out, r->pipe_one_more < 0 ? "null" : r->pipe_one_more ? "true" : "false");
  mm__json_int_or_null(out, ",\"pipe_max_slots\":", r->pipe_max_slots >= 0, r->pipe_max_slots);
  mm__buf_putc(out, '}');
}

char *mm_build_to_json(const mm_build *b, size_t *out_len) {
  mm_buf out = {0};
  uint32_t *order = mm__build_order(b);
  if (!order) return NULL;
  mm__buf_putc(&out, '{');
  mm__json_generator(&out);
  mm__buf_puts(&out, ",\"cases\":[");
  for (size_t i = 0; i < b->cases.len; i++) {
    mm__buf_puts(&out, i ? ",\n" : "\n");
    put_case(&out, mm__vec_at(&b->cases, i));
  }
  mm__buf_puts(&out, "],\"rows\":[");
  for (size_t i = 0; i < b->rows.len; i++) {
    mm__buf_puts(&out, i ? ",\n" : "\n");
    put_row(&out, b, mm__vec_at(&b->rows, order[i]));
  }
  mm__dealloc(order);
  mm__buf_puts(&out, "],\"rings\":[");
  for (size_t i = 0; i < b->rings.len; i++) {
    mm__buf_puts(&out, i ? ",\n" : "\n");
    put_ring(&out, b, mm__vec_at(&b->rings, i));
  }
  mm__buf_puts(&out, "],\"limits\":[");
  for (size_t i = 0; i < b->limit_count; i++) {
    if (i) mm__buf_putc(&out, ',');
    put_limit(&out, &b->limits[i]);
  }
  mm__buf_puts(&out, "],\"problems\":[");
  size_t n = 0;
  for (size_t i = 0; i < b->problems.len; i++) {
    const mm_build_problem *p = mm__vec_at(&b->problems, i);
    if (p->note) continue;
    mm__buf_puts(&out, n++ ? ",\n" : "\n");
    put_problem(&out, b, p);
  }
  mm__json_int(&out, "],\"failures\":", (int64_t)b->failures);
  mm__json_int(&out, ",\"errors\":", (int64_t)b->errors);
  mm__buf_puts(&out, "}\n");
  return mm__buf_finish(&out, out_len);
}
