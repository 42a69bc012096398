/* svg_notes.c: the words around mm_model_svg's map, as the page says
 * them: above it, the function and each space's pill (usage, high-water
 * mark, capacity, headroom), then each space's peak as the peak panel
 * gives it (web/panels.js) with its reserved windows; below it, the key of
 * the numbered names. A PNG of it has no hover: what the page's tooltips
 * and panels tell a reviewer is written out here. */
#include <stdio.h>
#include <string.h>

#include "output/figures.h"
#include "output/svg_notes.h"
#include "output/svg_text.h"
#include "output/svg_view.h"

static const svg_font pill_bold = {12, mm__svg_semibold}, pill_font = {12, mm__svg_regular};

/* ----------------------------------------------------------- header */

static void put_title(mm_buf *out, const svg_view *v) {
  const mm_function *fn = v->fn;
  mm__buf_puts(out, "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"600\">");
  mm__svg_text(out, fn->name);
  mm__buf_puts(out, " <tspan font-weight=\"400\" fill=\"");
  mm__buf_puts(out, v->palette->muted);
  mm__buf_puts(out, "\">");
  mm__svg_text(out, fn->ftype);
  mm__buf_puts(out, " · ");
  mm__svg_text(out, v->model->dump);
  mm__buf_puts(out, " · ");
  mm__svg_text(out, v->model->backend->name);
  mm__buf_puts(out, " · lines ");
  mm__buf_put_int(out, v->first);
  mm__buf_puts(out, "–");
  mm__buf_put_int(out, v->last);
  mm__buf_puts(out, "</tspan></text>\n");
}

/* A pill's parts (web/card-head.js): usage to one decimal, red from
 * 95.0 %, amber from 80.0 % (figures.h); the high-water mark of capacity;
 * headroom. */
typedef struct pill {
  char usage[16], bytes[112], free[64];
  const char *usage_colour, *free_colour;
  double width;
} pill;

static void pill_of(pill *p, const svg_view *v, const mm_space_usage *s) {
  const svg_palette *pal = v->palette;
  int64_t permille = mm__usage_permille(s->hwm_all, s->limit);
  p->usage_colour = permille >= MM_USAGE_ALERT_PERMILLE  ? pal->alert
                    : permille >= MM_USAGE_WARN_PERMILLE ? pal->warn
                                                         : pal->fg;
  snprintf(p->usage, sizeof p->usage, " %.1f%%", (double)permille / 10.0);
  char hwm[48], limit[48], room[48];
  snprintf(p->bytes, sizeof p->bytes, " · %s / %s", mm__svg_size(hwm, s->hwm_all),
           mm__svg_size(limit, s->limit));
  int64_t headroom = s->limit - s->hwm_all;
  p->free[0] = 0;
  if (s->has_capacity)
    snprintf(p->free, sizeof p->free, " · %s %s",
             mm__svg_size(room, headroom >= 0 ? headroom : -headroom),
             headroom >= 0 ? "free" : "over");
  p->free_colour = headroom >= 0 ? pal->muted : pal->alert;
  p->width = mm__svg_text_px(s->space, pill_bold) + mm__svg_text_px(p->usage, pill_font) +
             mm__svg_text_px(p->bytes, pill_font) + mm__svg_text_px(p->free, pill_font);
}

static void put_pill(mm_buf *out, const pill *p, const mm_space_usage *s, double x, double y) {
  mm__buf_puts(out, "<text x=\"");
  mm__svg_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  mm__svg_px(out, y);
  mm__buf_puts(out, "\"><tspan font-weight=\"600\" fill=\"");
  mm__buf_puts(out, mm__svg_colour(s->space));
  mm__buf_puts(out, "\">");
  mm__svg_text(out, s->space);
  mm__buf_puts(out, "</tspan><tspan fill=\"");
  mm__buf_puts(out, p->usage_colour);
  mm__buf_puts(out, "\">");
  mm__buf_puts(out, p->usage);
  mm__buf_puts(out, "</tspan>");
  mm__buf_puts(out, p->bytes);
  if (p->free[0]) {
    mm__buf_puts(out, "<tspan fill=\"");
    mm__buf_puts(out, p->free_colour);
    mm__buf_puts(out, "\">");
    mm__buf_puts(out, p->free);
    mm__buf_puts(out, "</tspan>");
  }
  mm__buf_puts(out, "</text>\n");
}

/* The pills in a row, wrapped to the width; returns the y below them. */
static double put_pills(mm_buf *out, const svg_view *v, double y) {
  double x = 8;
  for (size_t i = 0; i < v->fn->space_count; i++) {
    pill p;
    pill_of(&p, v, &v->fn->spaces[i]);
    if (x > 8 && x + p.width > v->width - 8) {
      x = 8;
      y += SVG_TEXT_ROW + 2;
    }
    put_pill(out, &p, &v->fn->spaces[i], x, y);
    x += p.width + 20;
  }
  return y + SVG_TEXT_ROW + 6;
}

static void run(svg_para *p, const char *text, svg_style style) {
  mm__svg_para_run(p, (svg_run){text, style, NULL});
}

/* "High-water mark …; … (fragmentation)." (web/panels.js peakSection). */
static void put_mark_figures(svg_para *p, const mm_space_usage *s) {
  char text[512], hwm[48], limit[48], reserved[96] = "", room[64] = "; ", frag[48], n[48];
  if (s->reserved_bytes)
    snprintf(reserved, sizeof reserved, ", %s of it reserved windows",
             mm__svg_size(n, s->reserved_bytes));
  if (s->has_capacity)
    snprintf(room, sizeof room, ", %s headroom; ", mm__svg_size(n, s->limit - s->hwm_all));
  snprintf(text, sizeof text,
           " High-water mark %s of %s%s%s%s of the address space below it is unused at the peak "
           "(fragmentation).",
           mm__svg_size(hwm, s->hwm_all), mm__svg_size(limit, s->limit), reserved, room,
           mm__svg_size(frag, s->fragmentation));
  run(p, text, SVG_MUTED);
}

/* "The mark is the end of …" (web/panels.js markSetter). */
static void put_mark_setter(svg_para *p, const mm_function *fn, const mm_space_usage *s) {
  char text[160];
  if (s->hwm_window && s->hwm_window <= fn->window_count) {
    const mm_window *w = &fn->windows[s->hwm_window - 1];
    run(p, " The mark is the end of reserved window ", SVG_PLAIN);
    run(p, w->name, SVG_BOLD);
    snprintf(text, sizeof text, " at [%lld, %lld).", (long long)w->base,
             (long long)(w->base + w->size));
    run(p, text, SVG_PLAIN);
  } else if (s->hwm_box && s->hwm_box <= fn->box_count) {
    const mm_box *b = &fn->boxes[s->hwm_box - 1];
    bool at_peak = false;
    for (uint32_t i = 0; i < s->peak_box_count; i++)
      at_peak = at_peak || s->peak_boxes[i] == s->hwm_box - 1;
    run(p, " The mark is the end of ", SVG_PLAIN);
    run(p, b->tile->name, SVG_BOLD);
    snprintf(text, sizeof text, " at [%lld, %lld), lines %u–%u%s", (long long)b->tile->offset,
             (long long)(b->tile->offset + b->tile->size), (unsigned)b->start, (unsigned)b->end,
             at_peak ? "." : ", not live on the peak line.");
    run(p, text, SVG_PLAIN);
  }
}

/* A window of the space: what it holds, its bytes, what one more slot
 * would do (web/panels.js windowRows, web/reserved.js oneMoreSlot). */
static void put_window_line(svg_para *p, const mm_window *w, const mm_space_usage *s) {
  char text[400], kind[128], size[48], grown[48], limit[48];
  run(p, w->name, SVG_BOLD);
  snprintf(text, sizeof text, " · %s · %s [%lld, %lld)", mm__svg_window_kind(kind, w),
           mm__svg_size(size, w->size), (long long)w->base, (long long)(w->base + w->size));
  run(p, text, SVG_PLAIN);
  if (!w->grown_hwm) return;
  snprintf(text, sizeof text, " · one more slot: high-water mark %s (%lld B) of %s%s",
           mm__svg_size(grown, w->grown_hwm), (long long)w->grown_hwm,
           mm__svg_size(limit, s->limit),
           w->one_more_fits < 0 ? ""
           : w->one_more_fits   ? ": fits"
                                : ": does not fit");
  run(p, text, w->one_more_fits == 0 ? SVG_ALERT : SVG_MUTED);
}

/* One space's peak: its figures, what sets the mark, its windows. */
static double put_space_peak(mm_buf *out, const svg_view *v, const mm_space_usage *s, double y) {
  const mm_function *fn = v->fn;
  mm__svg_rect(out, 8, y - 9, 8, 8);
  mm__buf_puts(out, " rx=\"2\" fill=\"");
  mm__buf_puts(out, mm__svg_colour(s->space));
  mm__buf_puts(out, "\"/>\n");
  char heading[160], size[48];
  snprintf(heading, sizeof heading, "Peak of %.64s: %s live on line %u.", s->space,
           mm__svg_size(size, s->peak_live), (unsigned)s->peak_line);
  svg_para p;
  mm__svg_para_open(&p, out, v->palette, 22, y, v->width - 30);
  run(&p, heading, SVG_BOLD);
  put_mark_figures(&p, s);
  put_mark_setter(&p, fn, s);
  y = mm__svg_para_close(&p);
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (!w->placed || strcmp(w->space, s->space) != 0) continue;
    mm__svg_para_open(&p, out, v->palette, 34, y, v->width - 42);
    put_window_line(&p, w, s);
    y = mm__svg_para_close(&p);
  }
  return y + 4;
}

/* A function drawn by lifetime: the addresses are a packing's, not
 * ptoas's; the least any placement needs (web/card-head.js). */
static double put_lifetime_notice(mm_buf *out, const svg_view *v, double y) {
  svg_para p;
  mm__svg_para_open(&p, out, v->palette, 8, y, v->width - 16);
  run(&p, "No addresses in this dump (ptoas assigns them): ", SVG_BOLD);
  run(&p,
      "each buffer is drawn packed by when it lives, its tiles at their offsets in it. The least "
      "any placement needs:",
      SVG_PLAIN);
  for (size_t i = 0; i < v->fn->space_count; i++) {
    const mm_space_usage *s = &v->fn->spaces[i];
    char text[200], need[48], room[48], free[80] = "";
    if (s->has_capacity)
      snprintf(free, sizeof free, ", %s free above it",
               mm__svg_size(room, s->limit - s->peak_live));
    snprintf(text, sizeof text, "%s %.64s %s%s", i ? ";" : "", s->space,
             mm__svg_size(need, s->peak_live), free);
    run(&p, text, SVG_PLAIN);
  }
  run(&p, ".", SVG_PLAIN);
  return mm__svg_para_close(&p) + 4;
}

void mm__svg_header(mm_buf *out, svg_view *v) {
  put_title(out, v);
  double y = put_pills(out, v, 42);
  if (v->fn->by_lifetime) y = put_lifetime_notice(out, v, y);
  for (size_t i = 0; i < v->fn->space_count; i++)
    y = put_space_peak(out, v, &v->fn->spaces[i], y);
  v->map_top = y - 6;
}

/* -------------------------------------------------------------- key */

typedef struct key_entry {
  uint32_t ref;
  char rest[400]; /* after the number and the name */
  const char *name;
  double width;
} key_entry;

static const svg_font key_font = {11, mm__svg_regular}, key_bold = {11, mm__svg_semibold};

static void entry_of_box(key_entry *e, const mm_box *b, uint32_t ref) {
  const mm_tile *t = b->tile;
  char more[16] = "", size[48];
  if (b->alias_count) snprintf(more, sizeof more, " +%u", (unsigned)b->alias_count);
  snprintf(e->rest, sizeof e->rest, "%s · %.64s [%lld, %lld) · %s · lines %u–%u", more, t->space,
           (long long)t->offset, (long long)(t->offset + t->size), mm__svg_size(size, t->size),
           (unsigned)b->start, (unsigned)b->end);
  e->ref = ref;
  e->name = t->name;
}

static void entry_of_window(key_entry *e, const mm_window *w, uint32_t ref) {
  char kind[128], size[48];
  snprintf(e->rest, sizeof e->rest, " · %s · %.64s [%lld, %lld) · %s", mm__svg_window_kind(kind, w),
           w->space, (long long)w->base, (long long)(w->base + w->size),
           mm__svg_size(size, w->size));
  e->ref = ref;
  e->name = w->name;
}

/* The next numbered entry after `*at` (windows, then boxes: the order
 * numbers are given in), or false. */
static bool next_entry(key_entry *e, const svg_view *v, size_t *at) {
  const mm_function *fn = v->fn;
  for (; *at < fn->window_count + fn->box_count; ++*at) {
    size_t i = *at;
    if (i < fn->window_count && v->window_refs[i]) {
      entry_of_window(e, &fn->windows[i], v->window_refs[i]);
      return ++*at, true;
    }
    if (i >= fn->window_count && v->box_refs[i - fn->window_count]) {
      entry_of_box(e, &fn->boxes[i - fn->window_count], v->box_refs[i - fn->window_count]);
      return ++*at, true;
    }
  }
  return false;
}

static double entry_width(const key_entry *e) {
  char number[16];
  snprintf(number, sizeof number, "%u ", (unsigned)e->ref);
  return mm__svg_text_px(number, key_bold) + mm__svg_text_px(e->name, key_bold) +
         mm__svg_text_px(e->rest, key_font);
}

static void put_entry(mm_buf *out, const svg_view *v, const key_entry *e, double x, double y,
                      double room) {
  char number[16];
  snprintf(number, sizeof number, "%u", (unsigned)e->ref);
  mm__buf_puts(out, "<text x=\"");
  mm__svg_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  mm__svg_px(out, y);
  mm__buf_puts(out, "\" font-size=\"11\"><tspan font-weight=\"600\">");
  mm__buf_puts(out, number);
  mm__buf_puts(out, " ");
  room -= mm__svg_text_px(number, key_bold) + 4;
  double name = mm__svg_text_px(e->name, key_bold);
  mm__svg_text_within(out, e->name, room, key_bold);
  mm__buf_puts(out, "</tspan><tspan fill=\"");
  mm__buf_puts(out, v->palette->muted);
  mm__buf_puts(out, "\">");
  if (name <= room) mm__svg_text_within(out, e->rest, room - name, key_font);
  mm__buf_puts(out, "</tspan></text>\n");
}

/* The widest entry, for the columns. */
static double widest_entry(const svg_view *v) {
  double widest = 0;
  key_entry e;
  for (size_t at = 0; next_entry(&e, v, &at);)
    if (entry_width(&e) > widest) widest = entry_width(&e);
  return widest;
}

double mm__svg_key(mm_buf *out, const svg_view *v, double top) {
  if (!v->ref_count) return top;
  double room = v->width - 16, column = widest_entry(v) + 24;
  if (column > room) column = room;
  size_t columns = (size_t)((room + 24) / column), rows;
  if (columns < 1) columns = 1;
  rows = (v->ref_count + columns - 1) / columns;
  double y = top + 22;
  mm__buf_puts(out, "<g class=\"key\"><text x=\"8\"");
  mm__buf_puts(out, " y=\"");
  mm__svg_px(out, y);
  mm__buf_puts(out, "\" font-weight=\"600\">Names too long for their boxes, by number</text>\n");
  key_entry e;
  for (size_t at = 0; next_entry(&e, v, &at);) {
    size_t col = (e.ref - 1) / rows, row = (e.ref - 1) % rows;
    put_entry(out, v, &e, 8 + (double)col * column, y + SVG_TEXT_ROW * (double)(row + 1),
              column - 12);
  }
  mm__buf_puts(out, "</g>\n");
  return y + SVG_TEXT_ROW * (double)rows + 4;
}
