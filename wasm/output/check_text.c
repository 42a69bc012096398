/* check_text.c: the anomalies written as `--check` lines, and the notes
 * of what the printer wrote that is not Python. */
#include "output/check_text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/layout.h"
#include "model/liveness.h"

static void put_box_label(mm_buf *out, const mm_box *box) {
  char text[96];
  const mm_tile *t = box->tile;
  mm__buf_puts(out, "'");
  mm__buf_puts(out, t->name);
  mm__buf_puts(out, "' (");
  for (const char *b = t->base; *b; b++) { /* a NUL in it (C0 80, tiles.c) as \0 */
    if ((unsigned char)b[0] == 0xC0 && (unsigned char)b[1] == 0x80) {
      mm__buf_puts(out, "\\0");
      b++;
    } else {
      mm__buf_putc(out, *b);
    }
  }
  snprintf(text, sizeof text, ", bytes %lld..%lld, lines %u-%u)", (long long)t->offset,
           (long long)(t->offset + t->size), box->start, box->end);
  mm__buf_puts(out, text);
}

void mm__check_location(mm_buf *out, const char *label, uint32_t line, const char *what,
                        const char *function) {
  char text[32];
  mm__buf_puts(out, label);
  snprintf(text, sizeof text, ":%u: ", line);
  mm__buf_puts(out, text);
  mm__buf_puts(out, what);
  mm__buf_puts(out, " in ");
  mm__buf_puts(out, function);
  mm__buf_puts(out, ": ");
}

static void put_window_label(mm_buf *out, const mm_window *w) {
  char text[96];
  mm__buf_puts(out, w->kind == MM_WINDOW_PINNED ? "pinned allocation '" : "reserved window '");
  mm__buf_puts(out, w->name);
  snprintf(text, sizeof text, "' (bytes %lld..%lld, line %u)", (long long)w->base,
           (long long)(w->base + w->size), w->line);
  mm__buf_puts(out, text);
}

/* What the space's reserved windows take of it, after a box over capacity:
 * their bytes, and the first few by name. */
static void put_reserved_share(mm_buf *out, const mm_function *fn, const mm_space_usage *u) {
  enum { NAMED = 3 };
  char text[96];
  if (!u || !u->reserved_bytes) return;
  snprintf(text, sizeof text,
           " (reserved windows take %lld B of it:", (long long)u->reserved_bytes);
  mm__buf_puts(out, text);
  size_t named = 0, more = 0;
  for (size_t i = 0; i < fn->window_count; i++) {
    if (!fn->windows[i].placed || fn->windows[i].space != u->space) continue;
    if (named++ >= NAMED) {
      more++;
      continue;
    }
    mm__buf_puts(out, " '");
    mm__buf_puts(out, fn->windows[i].name);
    mm__buf_puts(out, "'");
  }
  if (more) {
    snprintf(text, sizeof text, " and %zu more", more);
    mm__buf_puts(out, text);
  }
  mm__buf_puts(out, ")");
}

/* The lines of the check that are about windows alone: a note of more
 * tiles than listed, or two windows sharing bytes. */
static void put_window_entry(mm_buf *out, const char *label, const mm_function *fn,
                             const mm_anomaly *e) {
  char text[128];
  const mm_window *w = &fn->windows[e->other];
  if (e->kind == MM_ANOMALY_WINDOW_MORE) {
    snprintf(text, sizeof text,
             "  (and %u more tiles share the bytes of reserved window '%.40s')\n",
             w->partner_total - w->partner_count, w->name);
    mm__buf_puts(out, text);
    return;
  }
  mm__check_location(out, label, e->line, "conflict", fn->name);
  mm__buf_puts(out, w->space);
  mm__buf_puts(out, " ");
  put_window_label(out, w);
  mm__buf_puts(out, " shares bytes with ");
  put_window_label(out, &fn->windows[w->overlaps]);
  mm__buf_puts(out, "\n");
}

/* A space drawn by lifetime that no placement fits: its lower bound, and
 * the tiles live when it is reached (the first few). */
static void put_needs(mm_buf *out, const char *label, const mm_function *fn, const mm_anomaly *e) {
  enum { NAMED = 4 };
  char text[192];
  const mm_space_usage *u = &fn->spaces[e->other];
  mm__check_location(out, label, e->line, "over capacity", fn->name);
  snprintf(text, sizeof text,
           "%.40s needs at least %lld B at once on line %u, more than its capacity %lld: no "
           "placement fits (placed by ptoas; live then:",
           u->space, (long long)u->lower_bound, e->line, (long long)u->limit);
  mm__buf_puts(out, text);
  size_t named = 0, more = 0;
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *box = &fn->boxes[i];
    if (box->tile->space != u->space || box->tile->size <= 0 ||
        !mm__box_live_at(fn, box, u->lower_bound_at))
      continue;
    if (named++ >= NAMED) {
      more++;
      continue;
    }
    snprintf(text, sizeof text, "%s '%.60s' %lld B", named > 1 ? "," : "", box->tile->name,
             (long long)box->tile->size);
    mm__buf_puts(out, text);
  }
  if (u->reserved_bytes) {
    snprintf(text, sizeof text, "%s reserved windows %lld B", named ? "," : "",
             (long long)u->reserved_bytes);
    mm__buf_puts(out, text);
  }
  if (more) {
    snprintf(text, sizeof text, " and %zu more", more);
    mm__buf_puts(out, text);
  }
  mm__buf_puts(out, ")\n");
}

void mm__anomaly_put(mm_buf *out, const char *label, const mm_function *fn, const mm_anomaly *e) {
  char text[96];
  if (e->kind == MM_ANOMALY_NEEDS) {
    put_needs(out, label, fn, e);
    return;
  }
  if (e->kind == MM_ANOMALY_UNPLACED) {
    const mm_skipped *s = &fn->skipped[e->other];
    mm__check_location(out, label, e->line, "unplaced tile", fn->name);
    mm__buf_puts(out, s->space);
    mm__buf_puts(out, " '");
    mm__buf_puts(out, s->name);
    mm__buf_puts(out, "' is not drawn and not counted: ");
    mm__buf_puts(out, s->reason);
    mm__buf_puts(out, "\n");
    return;
  }
  if (e->kind == MM_ANOMALY_WINDOW_MORE || e->kind == MM_ANOMALY_WINDOW_OVERLAP) {
    put_window_entry(out, label, fn, e);
    return;
  }
  if (e->kind == MM_ANOMALY_WINDOW_OVER) {
    const mm_window *w = &fn->windows[e->other];
    mm__check_location(out, label, e->line, "over capacity", fn->name);
    mm__buf_puts(out, w->space);
    mm__buf_puts(out, " ");
    put_window_label(out, w);
    const mm_space_usage *u = mm__function_space(fn, w->space);
    snprintf(text, sizeof text, " lies outside the capacity 0..%lld\n",
             (long long)(u ? u->limit : 0));
    mm__buf_puts(out, text);
    return;
  }
  const mm_box *box = &fn->boxes[e->box];
  if (e->kind == MM_ANOMALY_MORE) {
    snprintf(text, sizeof text, "  (and %u more conflicts of '%.40s')\n",
             box->partner_total - MM_BOX_PARTNERS, box->tile->name);
    mm__buf_puts(out, text);
    return;
  }
  mm__check_location(out, label, e->line, e->kind == MM_ANOMALY_OVER ? "over capacity" : "conflict",
                     fn->name);
  mm__buf_puts(out, box->tile->space);
  mm__buf_puts(out, " ");
  put_box_label(out, box);
  if (e->kind == MM_ANOMALY_OVER) {
    const mm_space_usage *u = mm__function_space(fn, box->tile->space);
    snprintf(text, sizeof text, " lies outside the capacity 0..%lld",
             (long long)(u ? u->limit : 0));
    mm__buf_puts(out, text);
    put_reserved_share(out, fn, u);
    mm__buf_puts(out, "\n");
  } else if (e->kind == MM_ANOMALY_WINDOW) {
    mm__buf_puts(out, " shares bytes with ");
    put_window_label(out, &fn->windows[e->other]);
    mm__buf_puts(out, ", reserved for the whole function\n");
  } else {
    mm__buf_puts(out, " shares bytes with ");
    put_box_label(out, &fn->boxes[e->other]);
    mm__buf_puts(out, " while both are live\n");
  }
}

/* The function's anomalies in line order; returns how many (notes aside),
 * or SIZE_MAX when out of memory. */
static size_t check_function(mm_buf *out, const char *label, const mm_function *fn) {
  size_t n, found = 0;
  mm_anomaly *entries = mm__function_anomalies(fn, &n);
  if (!entries) return SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    mm__anomaly_put(out, label, fn, &entries[i]);
    found += !mm__anomaly_is_note(&entries[i]);
  }
  mm__dealloc(entries);
  return found;
}

char *mm_model_check_text(const mm_model *model, const char *label, size_t *out_len,
                          size_t *anomalies) {
  mm_buf out = {0};
  size_t found = 0;
  label = label ? label : model->dump;
  for (size_t i = 0; i < model->functions.len; i++) {
    size_t n = check_function(&out, label, mm__vec_at(&model->functions, i));
    if (n == SIZE_MAX) {
      mm__buf_free(&out);
      return NULL;
    }
    found += n;
  }
  char text[128];
  if (found)
    snprintf(text, sizeof text, "%zu problem%s: conflicts, tiles over capacity or unplaced tiles\n",
             found, found == 1 ? "" : "s");
  else
    snprintf(text, sizeof text,
             "no conflicts, no tile over capacity and no unplaced tile in %zu function%s\n",
             model->functions.len, model->functions.len == 1 ? "" : "s");
  mm__buf_puts(&out, text);
  if (anomalies) *anomalies = found;
  return mm__buf_finish(&out, out_len);
}

char *mm_model_notes_text(const mm_model *model, const char *label, size_t *out_len) {
  mm_buf out = {0};
  char text[64];
  label = label ? label : model->dump;
  mm__buf_puts(&out, "");
  const mm_note *notes = model->notes.items;
  for (size_t i = 0; i < model->notes.len; i++) {
    /* One line per kind: its first line and how many (texts are static). */
    bool told = false;
    for (size_t k = 0; k < i && !told; k++)
      told = notes[k].text == notes[i].text;
    if (told) continue;
    size_t times = 0;
    for (size_t k = i; k < model->notes.len; k++)
      times += notes[k].text == notes[i].text;
    mm__buf_puts(&out, "note: ");
    mm__buf_puts(&out, label);
    snprintf(text, sizeof text, ":%u: ", notes[i].line);
    mm__buf_puts(&out, text);
    mm__buf_puts(&out, notes[i].text);
    if (times > 1) {
      snprintf(text, sizeof text, " (%zu times from here on)", times);
      mm__buf_puts(&out, text);
    }
    mm__buf_putc(&out, '\n');
  }
  if (model->note_count > model->notes.len) {
    snprintf(text, sizeof text, "note: ... and %zu more\n", model->note_count - model->notes.len);
    mm__buf_puts(&out, text);
  }
  return mm__buf_finish(&out, out_len);
}
