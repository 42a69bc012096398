/* svg.c: one function's map as a standalone SVG document (mm_model_svg),
 * what the page's "Save SVG" and "Copy as PNG" and the CLI's --svg write:
 * the header of svg_notes.c (each space's usage, headroom and peak), then
 * the lanes on one byte scale with the boxes, reserved windows, live
 * profiles, peak ticks and line numbers, then the key of the names too
 * wide for their boxes. The geometry is the page's (web/layout.js): 18 px
 * per line, one px per byte factor for every lane, the narrowest lane at
 * least 72 px. Read on a PNG there is no hover: every name is shown, in
 * its box or by a number the key gives it by. */
#include <math.h> /* INFINITY */
#include <stdio.h>
#include <string.h>

#include "output/svg_notes.h"
#include "output/svg_text.h"
#include "output/svg_view.h"

enum { MIN_LANE = 72, MIN_WIDTH = 640, BADGE_H = 13 };
#define MIN_BOX 2.0
#define DEFAULT_MAP_WIDTH 960

static const svg_palette light = {"#ffffff", "#1d2127", "#5f6873", "#d9dde3",
                                  "#c62828", "#d97706", "#10151a"};
static const svg_palette dark = {"#14171b", "#e4e7eb", "#9aa4ae", "#2c333b",
                                 "#ef5350", "#f59e0b", "#f3f5f7"};

static const svg_font name_font = {11, mm__svg_semibold}, small_font = {10, mm__svg_regular},
                      more_font = {11, mm__svg_regular};

/* ----------------------------------------------------------- layout */

/* Whether `space` is in the comma-separated `list`. */
static bool listed(const char *list, const char *space) {
  size_t n = strlen(space);
  for (const char *p = list; p && *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && memcmp(p, space, n) == 0) return true;
    p = end ? end + 1 : NULL;
  }
  return false;
}

static void widen(svg_lane *l, int64_t offset, int64_t size) {
  int64_t hi = l->lo + l->span;
  if (offset < l->lo) l->lo = offset;
  if (offset + (size > 0 ? size : 0) > hi) hi = offset + size;
  l->span = hi - l->lo;
}

static void lane_extent(svg_lane *l, const mm_function *fn, bool axis_used) {
  const mm_space_usage *s = l->space;
  int64_t hi = axis_used ? s->hwm_all : s->limit;
  l->span = hi > 1 ? hi : 1;
  for (size_t b = 0; b < fn->box_count; b++)
    if (strcmp(fn->boxes[b].tile->space, s->space) == 0)
      widen(l, fn->boxes[b].tile->offset, fn->boxes[b].tile->size);
  for (size_t w = 0; w < fn->window_count; w++)
    if (fn->windows[w].placed && strcmp(fn->windows[w].space, s->space) == 0)
      widen(l, fn->windows[w].base, fn->windows[w].size);
}

/* The lanes' bytes (web/layout.js laneExtent) and the px per byte
 * (baseFactor, times the zoom). False when out of memory. */
static bool lay_out(svg_view *v, const mm_svg_options *o) {
  const mm_function *fn = v->fn;
  size_t lanes_size = (fn->space_count ? fn->space_count : 1) * sizeof *v->lanes;
  v->lanes = mm__alloc(lanes_size);
  if (!v->lanes) return false;
  memset(v->lanes, 0, lanes_size);
  for (size_t i = 0; i < fn->space_count; i++) {
    if (listed(o->hidden, fn->spaces[i].space)) continue;
    svg_lane *l = &v->lanes[v->lane_count++];
    l->space = &fn->spaces[i];
    lane_extent(l, fn, o->axis_used);
  }
  double total = 0, narrowest = INFINITY;
  for (size_t i = 0; i < v->lane_count; i++) {
    total += (double)v->lanes[i].span;
    if ((double)v->lanes[i].span < narrowest) narrowest = (double)v->lanes[i].span;
  }
  double available = o->map_width ? o->map_width : DEFAULT_MAP_WIDTH;
  double fit = total > 0 ? available / total : 1;
  double factor = v->lane_count && narrowest * fit < MIN_LANE ? MIN_LANE / narrowest : fit;
  v->factor = factor * (o->zoom > 0 ? o->zoom : 1);
  double left = 0;
  for (size_t i = 0; i < v->lane_count; i++) {
    v->lanes[i].left = left;
    v->lanes[i].width = (double)v->lanes[i].span * v->factor;
    left += v->lanes[i].width;
  }
  v->lanes_width = left;
  v->width = SVG_GUTTER + left + SVG_PAD;
  if (v->width < MIN_WIDTH) v->width = MIN_WIDTH;
  return true;
}

static const svg_lane *lane_of(const svg_view *v, const char *space) {
  for (size_t i = 0; i < v->lane_count; i++)
    if (strcmp(v->lanes[i].space->space, space) == 0) return &v->lanes[i];
  return NULL;
}

static double x_of(const svg_lane *l, int64_t offset) {
  return SVG_GUTTER + l->left + (double)(offset - l->lo) * ((double)l->width / (double)l->span);
}

static double y_of(const svg_view *v, uint32_t line) {
  return v->map_top + SVG_LANE_HEAD + (double)(line - v->first) * SVG_ROW;
}

static double box_width(const svg_view *v, const mm_tile *t) {
  double w = (double)(t->size > 0 ? t->size : 0) * v->factor;
  return w < MIN_BOX ? MIN_BOX : w;
}

/* The +N of merged aliases, as the label writes it ("" for none). */
static const char *more_text(char text[16], uint32_t more) {
  text[0] = 0;
  if (more) snprintf(text, 16, " +%u", (unsigned)more);
  return text;
}

/* Numbers each drawn window and box whose name does not fit it, in
 * drawing order: the key lists them. False when out of memory. */
static bool number_names(svg_view *v) {
  const mm_function *fn = v->fn;
  size_t count = fn->window_count + fn->box_count;
  uint32_t *refs = mm__alloc((count ? count : 1) * sizeof *refs);
  if (!refs) return false;
  memset(refs, 0, (count ? count : 1) * sizeof *refs);
  v->window_refs = refs;
  v->box_refs = refs + fn->window_count;
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (!w->placed || !lane_of(v, w->space)) continue;
    if (mm__svg_text_px(w->name, name_font) > (double)w->size * v->factor - 8)
      v->window_refs[i] = ++v->ref_count;
  }
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *b = &fn->boxes[i];
    if (!lane_of(v, b->tile->space) || b->end < v->first || b->start > v->last) continue;
    char more[16];
    double room =
        box_width(v, b->tile) - 6 - mm__svg_text_px(more_text(more, b->alias_count), more_font);
    if (mm__svg_text_px(b->tile->name, name_font) > room) v->box_refs[i] = ++v->ref_count;
  }
  return true;
}

/* Marks [x0, x1) × [y0, y1) as drawn over the boxes. */
static void take(svg_view *v, double x0, double y0, double x1, double y1) {
  if (v->taken_count >= v->taken_cap) return;
  double *r = v->taken[v->taken_count++];
  r[0] = x0, r[1] = y0, r[2] = x1, r[3] = y1;
}

static bool is_free(const svg_view *v, double x0, double y0, double x1, double y1) {
  for (size_t i = 0; i < v->taken_count; i++) {
    const double *r = v->taken[i];
    if (x0 < r[2] && r[0] < x1 && y0 < r[3] && r[1] < y1) return false;
  }
  return true;
}

/* ---------------------------------------------------------- drawing */

static void put_vline(mm_buf *out, double x, double y1, double y2, const char *stroke) {
  mm__buf_puts(out, "<line x1=\"");
  mm__svg_px(out, x);
  mm__buf_puts(out, "\" x2=\"");
  mm__svg_px(out, x);
  mm__buf_puts(out, "\" y1=\"");
  mm__svg_px(out, y1);
  mm__buf_puts(out, "\" y2=\"");
  mm__svg_px(out, y2);
  mm__buf_puts(out, "\" stroke=\"");
  mm__buf_puts(out, stroke);
  mm__buf_putc(out, '"');
}

static void put_lane_head(mm_buf *out, const svg_view *v, const svg_lane *l, double x) {
  const svg_palette *pal = v->palette;
  mm__svg_rect(out, x, v->map_top, l->width, 3);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, mm__svg_colour(l->space->space));
  mm__buf_puts(out, "\"/>\n<svg x=\"");
  mm__svg_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  mm__svg_px(out, v->map_top);
  mm__buf_puts(out, "\" width=\"");
  mm__svg_px(out, l->width);
  mm__buf_puts(out, "\" height=\"40\"><text x=\"6\" y=\"18\" font-weight=\"600\">");
  mm__svg_text_within(out, l->space->space, l->width - 8, name_font);
  mm__buf_puts(out, "</text><text x=\"6\" y=\"32\" font-size=\"10\" fill=\"");
  mm__buf_puts(out, pal->muted);
  mm__buf_puts(out, "\">");
  char lo[48], hi[48], range[112];
  snprintf(range, sizeof range, "%s … %s", mm__svg_size(lo, l->lo),
           mm__svg_size(hi, l->lo + l->span));
  mm__svg_text_within(out, range, l->width - 8, small_font);
  mm__buf_puts(out, "</text></svg>\n");
}

static void put_lane(mm_buf *out, const svg_view *v, const svg_lane *l) {
  const char *colour = mm__svg_colour(l->space->space);
  double x = SVG_GUTTER + l->left, top = v->map_top + SVG_LANE_HEAD, bottom = y_of(v, v->last + 1);
  mm__svg_rect(out, x, top, l->width, bottom - top);
  mm__buf_puts(out, " class=\"lane\"");
  mm__svg_attr(out, "data-space", l->space->space);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, colour);
  mm__buf_puts(out, "\" fill-opacity=\"0.06\" stroke=\"");
  mm__buf_puts(out, v->palette->line);
  mm__buf_puts(out, "\"/>\n");
  put_lane_head(out, v, l, x);
  /* The high-water mark, and the capacity when a box is past it. */
  put_vline(out, x_of(l, l->space->hwm_all), top, bottom, colour);
  mm__buf_puts(out, " stroke-dasharray=\"3 3\"/>\n");
  if (l->lo + l->span > l->space->limit && l->space->limit > 0) {
    put_vline(out, x_of(l, l->space->limit), v->map_top, bottom, v->palette->alert);
    mm__buf_puts(out, " stroke-width=\"2\"/>\n");
  }
}

static void put_line_numbers(mm_buf *out, const svg_view *v) {
  mm__buf_puts(out, "<g fill=\"");
  mm__buf_puts(out, v->palette->muted);
  mm__buf_puts(out, "\" font-size=\"10\" text-anchor=\"end\">\n");
  for (uint32_t line = v->first; line <= v->last && line >= v->first; line++) {
    mm__buf_puts(out, "<text x=\"");
    mm__svg_px(out, SVG_GUTTER - 6);
    mm__buf_puts(out, "\" y=\"");
    mm__svg_px(out, y_of(v, line) + 13);
    mm__buf_puts(out, "\">");
    mm__buf_put_int(out, line);
    mm__buf_puts(out, "</text>\n");
  }
  mm__buf_puts(out, "</g>\n");
}

/* A space's live profile (web/profile.js): on each line drawn, an edge at
 * the bytes live there, and a riser from the step before; dotted, in the
 * lane's colour darkened toward the text's. */
static void put_profile(mm_buf *out, const svg_view *v, const svg_lane *l) {
  const mm_space_usage *s = l->space;
  if (!s->profile_len) return;
  char colour[8];
  mm__buf_puts(out, "<path class=\"profile\"");
  mm__svg_attr(out, "data-space", s->space);
  mm__buf_puts(out, " d=\"");
  for (uint32_t i = 0; i < s->profile_len; i++) {
    uint32_t from = s->profile[i].line, to = i + 1 < s->profile_len ? s->profile[i + 1].line : from;
    if (s->profile[i].bytes <= 0 || to <= v->first || from > v->last) continue;
    from = from > v->first ? from : v->first;
    to = to - 1 < v->last ? to : v->last + 1;
    mm__buf_putc(out, 'M');
    mm__svg_px(out, x_of(l, i ? s->profile[i - 1].bytes : 0));
    mm__buf_putc(out, ' ');
    mm__svg_px(out, y_of(v, from));
    mm__buf_putc(out, 'H');
    mm__svg_px(out, x_of(l, s->profile[i].bytes));
    mm__buf_putc(out, 'V');
    mm__svg_px(out, y_of(v, to));
  }
  mm__buf_puts(out, "\" fill=\"none\" stroke=\"");
  mm__buf_puts(out, mm__svg_mix(colour, mm__svg_colour(s->space), v->palette->fg, 80));
  mm__buf_puts(out, "\" stroke-width=\"2\" stroke-dasharray=\"2 2\"/>\n");
}

/* Where a space's peak is drawn: the profile's edge on the peak line;
 * false when it is not on a line drawn. */
static bool peak_at(const svg_view *v, const svg_lane *l, double *x, double *y) {
  const mm_space_usage *s = l->space;
  if (s->peak_live <= 0 || s->peak_line < v->first || s->peak_line > v->last) return false;
  *x = x_of(l, s->peak_live);
  *y = y_of(v, s->peak_line);
  return true;
}

/* The peak's tick at the profile's edge on the peak line and "peak"
 * beside it, on the side with room in the lane unless a number is there
 * (web/profile.js peakMark). */
static void put_peak(mm_buf *out, svg_view *v, const svg_lane *l) {
  const mm_space_usage *s = l->space;
  double x, y;
  if (!peak_at(v, l, &x, &y)) return;
  bool left = x - SVG_GUTTER - l->left > 0.55 * l->width;
  if (!is_free(v, left ? x - 37 : x + 5, y + 2, left ? x - 5 : x + 37, y + 16) &&
      is_free(v, left ? x + 5 : x - 37, y + 2, left ? x + 37 : x - 5, y + 16))
    left = !left;
  mm__buf_puts(out, "<g class=\"peak-mark\"><title>peak: ");
  mm__svg_put_size(out, s->peak_live);
  mm__buf_puts(out, " live on line ");
  mm__buf_put_int(out, s->peak_line);
  mm__buf_puts(out, "</title><path class=\"peak-tick\"");
  mm__svg_attr(out, "data-space", s->space);
  mm__buf_puts(out, " d=\"M");
  mm__svg_px(out, x - 5);
  mm__buf_putc(out, ' ');
  mm__svg_px(out, y + 3);
  mm__buf_putc(out, 'L');
  mm__svg_px(out, x + 5);
  mm__buf_putc(out, ' ');
  mm__svg_px(out, y + 9);
  mm__buf_putc(out, 'L');
  mm__svg_px(out, x - 5);
  mm__buf_putc(out, ' ');
  mm__svg_px(out, y + 15);
  mm__buf_puts(out, "Z\" fill=\"");
  mm__buf_puts(out, mm__svg_colour(s->space));
  mm__buf_puts(out, "\"/><text x=\"");
  mm__svg_px(out, left ? x - 7 : x + 7);
  mm__buf_puts(out, "\" y=\"");
  mm__svg_px(out, y + 13);
  mm__buf_puts(out, left ? "\" text-anchor=\"end\"" : "\"");
  mm__buf_puts(out, " font-size=\"10\" font-weight=\"600\" stroke=\"");
  mm__buf_puts(out, v->palette->bg);
  mm__buf_puts(
      out,
      "\" stroke-width=\"3\" stroke-opacity=\"0.75\" paint-order=\"stroke\">peak</text></g>\n");
}

/* Number `ref` in a small framed tag, its top left at (x, y). */
static void put_badge(mm_buf *out, const svg_view *v, double x, double y, uint32_t ref) {
  char text[16];
  int len = snprintf(text, sizeof text, "%u", (unsigned)ref);
  double w = len * 6.2 + 6;
  mm__buf_puts(out, "<g class=\"ref-badge\">");
  mm__svg_rect(out, x, y, w, BADGE_H);
  mm__buf_puts(out, " rx=\"3\" fill=\"");
  mm__buf_puts(out, v->palette->bg);
  mm__buf_puts(out, "\" stroke=\"");
  mm__buf_puts(out, v->palette->fg);
  mm__buf_puts(out, "\"/><text x=\"");
  mm__svg_px(out, x + w / 2);
  mm__buf_puts(out, "\" y=\"");
  mm__svg_px(out, y + 10);
  mm__buf_puts(out, "\" text-anchor=\"middle\" font-size=\"10\" font-weight=\"600\">");
  mm__buf_puts(out, text);
  mm__buf_puts(out, "</text></g>\n");
}

static double badge_width(uint32_t ref) {
  char text[16];
  return snprintf(text, sizeof text, "%u", (unsigned)ref) * 6.2 + 6;
}

/* Where a number beside its box is clear of what is drawn over the
 * boxes: from `x` on, stepping past each mark in the way toward `step`'s
 * sign; a negative value when it leaves the lane. */
static double clear_from(const svg_view *v, const svg_lane *l, double x, double y, double bw,
                         double step) {
  double lane_left = SVG_GUTTER + l->left, lane_right = lane_left + l->width;
  for (int tries = 0; tries < 8 && x >= lane_left && x + bw <= lane_right; tries++) {
    size_t i = 0;
    while (i < v->taken_count) {
      const double *r = v->taken[i];
      if (x < r[2] && r[0] < x + bw && y < r[3] && r[1] < y + BADGE_H) break;
      i++;
    }
    if (i == v->taken_count) return x;
    x = step > 0 ? v->taken[i][2] + 2 : v->taken[i][0] - bw - 2;
  }
  return -1;
}

/* A box or band's number: inside its top left when it has room, else
 * the first clear place right of it, else left of it. */
static void place_badge(mm_buf *out, svg_view *v, const svg_lane *l, double x, double y, double w,
                        uint32_t ref) {
  double bw = badge_width(ref), at = x + 2;
  y += 2.5;
  if (w < bw + 4) {
    at = clear_from(v, l, x + w + 2, y, bw, 1);
    if (at < 0) at = clear_from(v, l, x - bw - 2, y, bw, -1);
    if (at < 0) at = x + w + 2;
  }
  take(v, at, y, at + bw, y + BADGE_H);
  put_badge(out, v, at, y, ref);
}

/* What a label holds: the name, cut with an ellipsis when there is room
 * for three characters, and the +N of merged aliases (a numbered box's
 * only where it fits: the key has it); a nested <svg> clips what would
 * still overflow. */
typedef struct label {
  const char *name;
  uint32_t more, ref;
  const mm_tile *tile; /* its bytes on a second line; NULL: none */
  const char *fill;
} label;

static void put_name(mm_buf *out, const label *lb, double room) {
  char more[16];
  more_text(more, lb->more);
  double more_px = mm__svg_text_px(more, more_font);
  bool keep_more = lb->more && (!lb->ref || more_px <= room); /* else the key says it */
  room -= keep_more ? more_px : 0;
  bool whole = mm__svg_text_px(lb->name, name_font) <= room;
  if (whole || room >= 3 * 0.72 * name_font.px + name_font.px)
    mm__svg_text_within(out, lb->name, room, name_font);
  if (keep_more) {
    mm__buf_puts(out, "<tspan font-weight=\"400\">");
    mm__buf_puts(out, more);
    mm__buf_puts(out, "</tspan>");
  }
}

/* The bytes and size when they fit, else the size alone when it does. */
static void put_bytes(mm_buf *out, const mm_tile *t, double room) {
  char size[48], range[160];
  snprintf(range, sizeof range, "[%lld, %lld) · %s", (long long)t->offset,
           (long long)(t->offset + t->size), mm__svg_size(size, t->size));
  const char *text = mm__svg_text_px(range, small_font) <= room ? range : size;
  if (mm__svg_text_px(text, small_font) > room) return;
  mm__buf_puts(out, "<text x=\"3\" y=\"26\" font-size=\"10\">");
  mm__svg_text(out, text);
  mm__buf_puts(out, "</text>");
}

static void put_label(mm_buf *out, double x, double y, double w, double h, const label *lb) {
  if (w < 12 || h < 14) return;
  double indent = lb->ref && w >= badge_width(lb->ref) + 4 ? badge_width(lb->ref) + 3 : 0;
  mm__buf_puts(out, "<svg");
  mm__svg_xywh(out, x, y, w, h);
  mm__buf_puts(out, "><text x=\"");
  mm__svg_px(out, 3 + indent);
  mm__buf_puts(out, "\" y=\"12\" font-size=\"11\" font-weight=\"600\" fill=\"");
  mm__buf_puts(out, lb->fill);
  mm__buf_puts(out, "\">");
  put_name(out, lb, w - 6 - indent);
  mm__buf_puts(out, "</text>");
  if (h >= 30 && lb->tile) put_bytes(out, lb->tile, w - 6);
  mm__buf_puts(out, "</svg>\n");
}

static void put_box_title(mm_buf *out, const mm_box *b) {
  const mm_tile *t = b->tile;
  mm__buf_puts(out, "<title>");
  mm__svg_text(out, t->name);
  mm__buf_puts(out, " · ");
  mm__svg_text(out, t->space);
  mm__buf_puts(out, " [");
  mm__buf_put_int(out, t->offset);
  mm__buf_puts(out, ", ");
  mm__buf_put_int(out, t->offset + t->size);
  mm__buf_puts(out, ") · lines ");
  mm__buf_put_int(out, b->start);
  mm__buf_puts(out, "–");
  mm__buf_put_int(out, b->end);
  mm__buf_puts(out, "</title>");
}

static void put_box(mm_buf *out, const svg_view *v, size_t index) {
  const mm_box *b = &v->fn->boxes[index];
  const mm_tile *t = b->tile;
  const svg_lane *l = lane_of(v, t->space);
  if (!l || b->end < v->first || b->start > v->last) return;
  uint32_t from = b->start > v->first ? b->start : v->first;
  uint32_t to = b->end < v->last ? b->end : v->last;
  double x = x_of(l, t->offset), w = box_width(v, t);
  double y = y_of(v, from), h = (double)(to - from + 1) * SVG_ROW;
  const char *colour = mm__svg_colour(t->space);
  mm__buf_puts(out, "<g class=\"box");
  if (b->view) mm__buf_puts(out, " view");
  if (b->conflict) mm__buf_puts(out, " conflict");
  if (b->over_capacity) mm__buf_puts(out, " over");
  mm__buf_putc(out, '"');
  mm__svg_attr(out, "data-tile", t->name);
  mm__svg_attr(out, "data-space", t->space);
  mm__buf_puts(out, " data-start=\"");
  mm__buf_put_int(out, b->start);
  if (v->box_refs[index]) {
    mm__buf_puts(out, "\" data-ref=\"");
    mm__buf_put_int(out, v->box_refs[index]);
  }
  mm__buf_puts(out, "\">");
  put_box_title(out, b);
  char fill[8]; /* opaque, as the page's: what is under a box stays under it */
  mm__svg_rect(out, x, y, w, h);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, mm__svg_mix(fill, colour, v->palette->bg, b->view ? 22 : 45));
  mm__buf_puts(out, "\" stroke=\"");
  mm__buf_puts(out, b->conflict || b->over_capacity ? v->palette->alert : colour);
  mm__buf_puts(out, b->conflict ? "\" stroke-width=\"2\"" : "\"");
  if (b->view) mm__buf_puts(out, " stroke-dasharray=\"4 2\"");
  mm__buf_puts(out, "/>\n");
  label lb = {t->name, b->alias_count, v->box_refs[index], t, v->palette->box_fg};
  put_label(out, x, y, w, h, &lb);
  mm__buf_puts(out, "</g>\n");
}

/* The band's label, over a wash of the background: the name and, muted,
 * what it holds, cut as one line (web/reserved.js windowBand). */
static void put_window_label(mm_buf *out, const svg_view *v, const mm_window *w, double x, double y,
                             double width) {
  char kind[128], rest[136];
  snprintf(rest, sizeof rest, " · %s", mm__svg_window_kind(kind, w));
  double room = width - 8, name = mm__svg_text_px(w->name, name_font);
  mm__buf_puts(out, "<svg x=\"");
  mm__svg_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  mm__svg_px(out, y);
  mm__buf_puts(out, "\" width=\"");
  mm__svg_px(out, width);
  mm__buf_puts(out, "\" height=\"18\">");
  mm__svg_rect(out, 0, 0, width, 18);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, v->palette->bg);
  mm__buf_puts(
      out, "\" fill-opacity=\"0.8\"/><text x=\"4\" y=\"13\" font-size=\"11\" font-weight=\"600\">");
  mm__svg_text(out, w->name);
  mm__buf_puts(out, "<tspan font-weight=\"400\" fill=\"");
  mm__buf_puts(out, v->palette->muted);
  mm__buf_puts(out, "\">");
  mm__svg_text_within(out, rest, room - name, more_font);
  mm__buf_puts(out, "</tspan></text></svg>\n");
}

static void put_window_title(mm_buf *out, const mm_window *w) {
  char kind[128];
  mm__buf_puts(out, "><title>");
  mm__svg_text(out, w->name);
  mm__buf_puts(out, " · reserved ");
  mm__svg_put_size(out, w->size);
  mm__buf_puts(out, " of ");
  mm__svg_text(out, w->space);
  mm__buf_puts(out, " for the whole function · ");
  mm__buf_puts(out, mm__svg_window_kind(kind, w));
  mm__buf_puts(out, "</title>");
}

static void put_window(mm_buf *out, const svg_view *v, size_t index) {
  const mm_window *w = &v->fn->windows[index];
  const svg_lane *l = w->placed ? lane_of(v, w->space) : NULL;
  if (!l) return;
  const char *colour = mm__svg_colour(w->space);
  double x = x_of(l, w->base), width = (double)w->size * v->factor;
  double y = y_of(v, v->first), h = (double)(v->last - v->first + 1) * SVG_ROW;
  mm__buf_puts(out, "<g class=\"window\"");
  mm__svg_attr(out, "data-window", w->name);
  if (v->window_refs[index]) {
    mm__buf_puts(out, " data-ref=\"");
    mm__buf_put_int(out, v->window_refs[index]);
    mm__buf_putc(out, '"');
  }
  put_window_title(out, w);
  mm__svg_rect(out, x, y, width < MIN_BOX ? MIN_BOX : width, h);
  mm__buf_puts(out, " fill=\"url(#reserved-");
  mm__buf_put_int(out, (int64_t)(l - v->lanes));
  mm__buf_puts(out, ")\" stroke=\"");
  mm__buf_puts(out, w->over_capacity || w->partner_total || w->overlaps >= 0 ? v->palette->alert
                                                                             : colour);
  mm__buf_puts(out, "\"/>\n");
  if (!v->window_refs[index]) put_window_label(out, v, w, x, y, width);
  mm__buf_puts(out, "</g>\n");
}

/* The numbers of the names too wide for their boxes, over everything. */
static void put_badges(mm_buf *out, svg_view *v) {
  const mm_function *fn = v->fn;
  for (size_t i = 0; i < fn->window_count; i++) {
    const mm_window *w = &fn->windows[i];
    if (!v->window_refs[i]) continue;
    const svg_lane *l = lane_of(v, w->space);
    place_badge(out, v, l, x_of(l, w->base), y_of(v, v->first), (double)w->size * v->factor,
                v->window_refs[i]);
  }
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *b = &fn->boxes[i];
    if (!v->box_refs[i]) continue;
    const svg_lane *l = lane_of(v, b->tile->space);
    uint32_t from = b->start > v->first ? b->start : v->first;
    place_badge(out, v, l, x_of(l, b->tile->offset), y_of(v, from), box_width(v, b->tile),
                v->box_refs[i]);
  }
}

/* Hatching for each lane's windows, in its colour (the page's bands). */
static void put_defs(mm_buf *out, const svg_view *v) {
  mm__buf_puts(out, "<defs>");
  for (size_t i = 0; i < v->lane_count; i++) {
    const char *colour = mm__svg_colour(v->lanes[i].space->space);
    mm__buf_puts(out, "<pattern id=\"reserved-");
    mm__buf_put_int(out, (int64_t)i);
    mm__buf_puts(out, "\" width=\"9\" height=\"9\" patternUnits=\"userSpaceOnUse\" "
                      "patternTransform=\"rotate(45)\"><rect width=\"9\" height=\"9\" fill=\"");
    mm__buf_puts(out, colour);
    mm__buf_puts(out, "\" fill-opacity=\"0.1\"/><rect width=\"3\" height=\"9\" fill=\"");
    mm__buf_puts(out, colour);
    mm__buf_puts(out, "\" fill-opacity=\"0.28\"/></pattern>");
  }
  mm__buf_puts(out, "</defs>\n");
}

/* Under the boxes, as on the page: windows, profiles. Over them, as a
 * still image needs: the numbers, clear of the peak ticks, then the peak
 * marks, their words clear of the numbers where a side is. */
static void put_map(mm_buf *out, svg_view *v) {
  for (size_t i = 0; i < v->lane_count; i++)
    put_lane(out, v, &v->lanes[i]);
  put_line_numbers(out, v);
  for (size_t i = 0; i < v->fn->window_count; i++)
    put_window(out, v, i);
  for (size_t i = 0; v->profile && i < v->lane_count; i++)
    put_profile(out, v, &v->lanes[i]);
  for (size_t i = 0; i < v->fn->box_count; i++)
    put_box(out, v, i);
  for (size_t i = 0; v->profile && i < v->lane_count; i++) {
    double x, y;
    if (peak_at(v, &v->lanes[i], &x, &y)) take(v, x - 5, y + 3, x + 5, y + 15);
  }
  put_badges(out, v);
  for (size_t i = 0; v->profile && i < v->lane_count; i++)
    put_peak(out, v, &v->lanes[i]);
}

static void put_document(mm_buf *out, svg_view *v) {
  mm_buf body = {0};
  put_defs(&body, v);
  mm__svg_header(&body, v);
  put_map(&body, v);
  double height = mm__svg_key(&body, v, y_of(v, v->last + 1)) + SVG_PAD;
  mm__buf_puts(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
  mm__svg_px(out, v->width);
  mm__buf_puts(out, "\" height=\"");
  mm__svg_px(out, height);
  mm__buf_puts(out, "\" viewBox=\"0 0 ");
  mm__svg_px(out, v->width);
  mm__buf_puts(out, " ");
  mm__svg_px(out, height);
  mm__buf_puts(out, "\" font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\" "
                    "font-size=\"12\" fill=\"");
  mm__buf_puts(out, v->palette->fg);
  mm__buf_puts(out, "\">\n<metadata>");
  mm__buf_puts(out, mm_generator());
  mm__buf_puts(out, "</metadata>\n");
  mm__svg_rect(out, 0, 0, v->width, height);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, v->palette->bg);
  mm__buf_puts(out, "\"/>\n");
  if (body.failed) out->failed = true;
  if (body.len) mm__buf_append(out, body.data, body.len);
  mm__buf_free(&body);
  mm__buf_puts(out, "</svg>\n");
}

/* Room to note each peak mark (tick and label) and each number. */
static bool make_room(svg_view *v) {
  v->taken_cap = 2 * v->lane_count + v->ref_count + 1;
  v->taken = mm__alloc(v->taken_cap * sizeof *v->taken);
  return v->taken != NULL;
}

char *mm_model_svg(const mm_model *model, size_t function, const mm_svg_options *options,
                   size_t *out_len) {
  if (!model || function >= model->functions.len) return NULL;
  static const mm_svg_options defaults = {0};
  const mm_svg_options *o = options ? options : &defaults;
  svg_view v = {.model = model,
                .fn = mm__vec_at(&model->functions, function),
                .palette = o->dark ? &dark : &light,
                .profile = !o->hide_profile};
  v.first = o->first_line > v.fn->src_start ? o->first_line : v.fn->src_start;
  v.last = o->last_line && o->last_line < v.fn->src_end ? o->last_line : v.fn->src_end;
  if (v.last < v.first) v.last = v.first;
  mm_buf out = {0};
  if (!lay_out(&v, o) || !number_names(&v) || !make_room(&v))
    out.failed = true;
  else
    put_document(&out, &v);
  mm__dealloc(v.lanes);
  mm__dealloc(v.window_refs);
  mm__dealloc(v.taken);
  return mm__buf_finish(&out, out_len);
}
