/* diff_json.c: the comparison of two dumps as JSON (docs/model.md, "The
 * comparison"): per function its status, spaces old and new, the tiles
 * that changed, every matched pair, the anomalies that appeared or went. */
#include <string.h>

#include "compare/diff.h"
#include "output/check_text.h"
#include "output/json.h"

static const char *const status_names[] = {"unchanged", "changed", "added", "removed"};

static void put_usage(mm_buf *out, const char *key, const mm_space_usage *u) {
  mm__buf_puts(out, key);
  if (!u) {
    mm__buf_puts(out, "null");
    return;
  }
  mm__json_int(out, "{\"hwm\":", u->hwm);
  mm__json_int(out, ",\"hwm_with_reserved\":", u->hwm_all);
  mm__json_int(out, ",\"limit\":", u->limit);
  mm__json_int(out, ",\"peak_live\":", u->peak_live);
  mm__json_int(out, ",\"reserved_bytes\":", u->reserved_bytes);
  mm__json_int(out, ",\"tiles\":", u->tiles);
  mm__buf_putc(out, '}');
}

static void put_space(mm_buf *out, const mm_function_diff *d, const mm_space_diff *s) {
  mm__buf_puts(out, "{\"space\":");
  mm__json_string(out, s->space);
  put_usage(out, ",\"old\":", s->old_usage);
  put_usage(out, ",\"new\":", s->new_usage);
  mm__json_int(out, ",\"hwm_change\":", mm__diff_hwm(s->new_usage) - mm__diff_hwm(s->old_usage));
  mm__buf_puts(out, ",\"changed\":");
  mm__buf_puts(out, s->changed ? "true" : "false");
  mm__buf_puts(out, ",\"hwm_grew\":");
  bool grew = d->old_fn && d->new_fn && mm__diff_hwm(s->new_usage) > mm__diff_hwm(s->old_usage);
  mm__buf_puts(out, grew ? "true" : "false");
  mm__buf_putc(out, '}');
}

static void put_box_side(mm_buf *out, const char *key, const mm_side_function *fn, uint32_t index,
                         uint32_t statements) {
  mm__buf_puts(out, key);
  if (index == MM_NO_BOX) {
    mm__buf_puts(out, "null");
    return;
  }
  const mm_side_box *box = &fn->boxes[index];
  mm__buf_puts(out, "{\"name\":");
  mm__json_string(out, box->name);
  mm__buf_puts(out, ",\"space\":");
  mm__json_string(out, box->space);
  mm__buf_puts(out, ",\"base\":");
  mm__json_string(out, box->base);
  mm__json_int(out, ",\"offset\":", box->offset);
  mm__json_int(out, ",\"size\":", box->size);
  mm__json_int(out, ",\"start\":", box->start);
  mm__json_int(out, ",\"end\":", box->end);
  mm__json_int(out, ",\"statements\":", statements);
  mm__buf_putc(out, '}');
}

static void put_changes(mm_buf *out, uint32_t changes) {
  static const char *const names[] = {"moved", "resized", "longer", "shorter", "added", "removed"};
  mm__buf_puts(out, ",\"changes\":[");
  bool first = true;
  for (int bit = 0; bit < 6; bit++) {
    if (!(changes & (1u << bit))) continue;
    if (!first) mm__buf_putc(out, ',');
    mm__buf_putc(out, '"');
    mm__buf_puts(out, names[bit]);
    mm__buf_putc(out, '"');
    first = false;
  }
  mm__buf_putc(out, ']');
}

static void put_tile(mm_buf *out, const mm_function_diff *d, const mm_tile_diff *t) {
  const mm_side_function *fn = t->new_box != MM_NO_BOX ? d->new_fn : d->old_fn;
  const mm_side_box *box = &fn->boxes[t->new_box != MM_NO_BOX ? t->new_box : t->old_box];
  mm__buf_puts(out, "{\"name\":");
  mm__json_string(out, box->name);
  put_changes(out, t->changes);
  mm__json_int_or_null(out, ",\"old_box\":", t->old_box != UINT32_MAX, t->old_box);
  mm__json_int_or_null(out, ",\"new_box\":", t->new_box != UINT32_MAX, t->new_box);
  if (t->old_box != MM_NO_BOX && t->new_box != MM_NO_BOX)
    mm__buf_puts(out, t->by_kind ? ",\"matched_by\":\"kind\"" : ",\"matched_by\":\"name\"");
  put_box_side(out, ",\"old\":", d->old_fn, t->old_box, t->old_statements);
  put_box_side(out, ",\"new\":", d->new_fn, t->new_box, t->new_statements);
  mm__buf_putc(out, '}');
}

static void put_anomaly(mm_buf *out, const mm_anomaly_diff *a) {
  const mm_anomaly *e = &a->entry->anomaly;
  mm__buf_puts(out, "{\"change\":");
  mm__buf_puts(out, a->appeared ? "\"appeared\"" : "\"gone\"");
  mm__buf_puts(out, ",\"kind\":\"");
  mm__buf_puts(out, mm__anomaly_kind_name(e->kind));
  mm__json_int(out, "\",\"line\":", e->line);
  mm__json_int_or_null(out, ",\"box\":", e->box != UINT32_MAX, e->box);
  if (e->kind == MM_ANOMALY_PAIR) mm__json_int(out, ",\"other_box\":", e->other);
  if (e->kind == MM_ANOMALY_UNPLACED) {
    mm__buf_puts(out, ",\"tile\":");
    mm__json_string(out, a->entry->key_a);
  } else if (e->kind == MM_ANOMALY_NEEDS) {
    mm__buf_puts(out, ",\"space\":");
    mm__json_string(out, a->entry->key_a);
  } else if (e->kind != MM_ANOMALY_PAIR && e->kind != MM_ANOMALY_OVER) {
    mm__json_int(out, ",\"window\":", e->other);
  }
  /* The check's own line, as `--check` on that side would print it. */
  const char *text = a->entry->text;
  size_t len = strlen(text);
  mm__buf_puts(out, ",\"text\":");
  mm__json_string_n(out, text, len && text[len - 1] == '\n' ? len - 1 : len);
  mm__buf_putc(out, '}');
}

static void put_function(mm_buf *out, const mm_function_diff *d) {
  mm__buf_puts(out, "{\"name\":");
  mm__json_string(out, d->name);
  mm__buf_puts(out, ",\"ftype\":");
  mm__json_string(out, d->ftype);
  mm__buf_puts(out, ",\"status\":\"");
  mm__buf_puts(out, status_names[d->status]);
  mm__buf_putc(out, '"');
  mm__json_int_or_null(out, ",\"old\":", d->old_index != UINT32_MAX, d->old_index);
  mm__json_int_or_null(out, ",\"new\":", d->new_index != UINT32_MAX, d->new_index);
  mm__buf_puts(out, ",\"spaces\":[");
  for (uint32_t i = 0; i < d->space_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_space(out, d, &d->spaces[i]);
  }
  mm__buf_puts(out, "],\"tiles\":[");
  bool first = true;
  for (uint32_t i = 0; i < d->tile_count; i++) {
    if (!d->tiles[i].changes) continue;
    if (!first) mm__buf_puts(out, ",\n");
    put_tile(out, d, &d->tiles[i]);
    first = false;
  }
  mm__buf_puts(out, "],\"pairs\":[");
  first = true;
  for (uint32_t i = 0; i < d->tile_count; i++) {
    const mm_tile_diff *t = &d->tiles[i];
    if (t->old_box == MM_NO_BOX || t->new_box == MM_NO_BOX) continue;
    mm__json_int(out, first ? "[" : ",[", t->old_box);
    mm__json_int(out, ",", t->new_box);
    mm__buf_puts(out, t->by_kind ? ",\"kind\"]" : ",\"name\"]");
    first = false;
  }
  mm__buf_puts(out, "],\"anomalies\":[");
  for (uint32_t i = 0; i < d->anomaly_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_anomaly(out, &d->anomalies[i]);
  }
  mm__json_int(out, "],\"hwm_grew\":", d->hwm_grew);
  mm__buf_putc(out, '}');
}

static void put_counts(mm_buf *out, const mm_diff_counts *c) {
  mm__json_int(out, "{\"functions\":{\"changed\":", c->functions[MM_FUNCTION_CHANGED]);
  mm__json_int(out, ",\"unchanged\":", c->functions[MM_FUNCTION_UNCHANGED]);
  mm__json_int(out, ",\"added\":", c->functions[MM_FUNCTION_ADDED]);
  mm__json_int(out, ",\"removed\":", c->functions[MM_FUNCTION_REMOVED]);
  mm__json_int(out, "},\"tiles\":{\"moved\":", c->moved);
  mm__json_int(out, ",\"resized\":", c->resized);
  mm__json_int(out, ",\"longer\":", c->longer);
  mm__json_int(out, ",\"shorter\":", c->shorter);
  mm__json_int(out, ",\"added\":", c->added);
  mm__json_int(out, ",\"removed\":", c->removed);
  mm__json_int(out, ",\"matched_by_kind\":", c->by_kind);
  mm__json_int(out, "},\"anomalies\":{\"appeared\":", c->appeared);
  mm__json_int(out, ",\"gone\":", c->gone);
  mm__json_int(out, "},\"hwm\":{\"grew\":", c->hwm_grew);
  mm__json_int(out, ",\"shrank\":", c->hwm_shrank);
  mm__buf_puts(out, "}}");
}

void mm__diff_json(mm_buf *out, const mm_diff *diff) {
  mm__buf_putc(out, '{');
  mm__json_generator(out);
  mm__buf_puts(out, ",\"old\":{");
  mm__json_dump_fields(out, &diff->old_side->fields);
  mm__buf_puts(out, "},\"new\":{");
  mm__json_dump_fields(out, &diff->new_side->fields);
  mm__buf_puts(out, "},\n\"functions\":[\n");
  for (size_t f = 0; f < diff->function_count; f++) {
    if (f) mm__buf_puts(out, ",\n");
    put_function(out, &diff->functions[f]);
  }
  mm__buf_puts(out, "],\n\"counts\":");
  put_counts(out, &diff->counts);
  mm__json_int(out, ",\"regressions\":", mm__diff_regressions(diff));
  mm__buf_putc(out, '}');
}

char *mm_diff_to_json(const mm_diff *diff, size_t *out_len) {
  mm_buf out = {0};
  mm__diff_json(&out, diff);
  mm__buf_putc(&out, '\n');
  return mm__buf_finish(&out, out_len);
}
