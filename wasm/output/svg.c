/* svg.c: one function's map as a standalone SVG document (mm_model_svg),
 * what the page's "Save SVG" and "Copy as PNG" and the CLI's --svg write:
 * a header (function, dump, backend, each space's usage), then the lanes
 * on one byte scale with the boxes, reserved windows and line numbers.
 * The geometry is the page's (web/layout.js): 18 px per line, one px per
 * byte factor for every lane, the narrowest lane at least 72 px. */
#include <math.h> /* INFINITY */
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "output/json.h"

enum { ROW = 18, LANE_HEAD = 40, GUTTER = 56, PAD = 8, TITLE = 56, MIN_LANE = 72 };
#define MIN_BOX 2.0
#define DEFAULT_MAP_WIDTH 960

/* The page's light theme (web/style.css): the SVG is for pasting. */
static const struct {
  const char *space, *colour;
} space_colours[] = {
    {"Vec", "#3b82f6"},   {"Mat", "#8b5cf6"},        {"Left", "#16a34a"}, {"LeftScale", "#0d9488"},
    {"Right", "#ea580c"}, {"RightScale", "#ca8a04"}, {"Acc", "#db2777"},  {"Bias", "#78716c"},
};
#define ALERT "#c62828"
#define WARN "#d97706"
#define INK "#1d2127"
#define MUTED "#5f6873"

static const char *colour_of(const char *space) {
  for (size_t i = 0; i < sizeof space_colours / sizeof *space_colours; i++)
    if (strcmp(space_colours[i].space, space) == 0) return space_colours[i].colour;
  return "#64748b";
}

typedef struct lane {
  const mm_space_usage *space;
  int64_t lo, span;
  double left, width; /* px, from the lanes' left edge */
} lane;

typedef struct view {
  const mm_model *model;
  const mm_function *fn;
  uint32_t first, last; /* dump lines drawn */
  double factor;        /* px per byte, zoom included */
  lane *lanes;
  size_t lane_count;
  double lanes_width;
} view;

/* ------------------------------------------------------------- text */

/* text[0, len) as XML character data or an attribute value; characters
 * XML cannot hold (C0 controls) become U+FFFD. */
static void put_text_n(mm_buf *out, const char *text, size_t len) {
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '&')
      mm__buf_puts(out, "&amp;");
    else if (c == '<')
      mm__buf_puts(out, "&lt;");
    else if (c == '>')
      mm__buf_puts(out, "&gt;");
    else if (c == '"')
      mm__buf_puts(out, "&quot;");
    else if (c < 0x20 && c != '\t' && c != '\n')
      mm__buf_puts(out, "\xEF\xBF\xBD");
    else
      mm__buf_putc(out, (char)c);
  }
}

static void put_text(mm_buf *out, const char *text) { put_text_n(out, text, strlen(text)); }

/* Advances of ' ' to '~' in hundredths of an em, semi-bold (the names)
 * and regular (the rest), measured from DejaVu Sans, the widest common
 * sans-serif: an SVG carries no font metrics, and with these a label cut
 * to fit does not overflow on the fonts the page names. */
static const uint8_t ADVANCE_SEMIBOLD[95] = {
    35, 46,  53, 84, 70, 101, 88, 31,  46, 46, 53, 84, 38, 42,  38, 37, 70, 70,  70,
    70, 70,  70, 70, 70, 70,  70, 40,  40, 84, 84, 84, 58, 100, 78, 77, 74, 83,  69,
    69, 83,  84, 38, 38, 78,  64, 100, 84, 85, 74, 85, 77, 68,  71, 82, 78, 111, 78,
    73, 73,  46, 37, 46, 84,  50, 50,  68, 72, 60, 72, 68, 41,  72, 72, 35, 35,  67,
    35, 105, 72, 69, 72, 72,  50, 60,  48, 72, 66, 93, 65, 66,  59, 72, 37, 72,  84};
static const uint8_t ADVANCE_REGULAR[95] = {
    32, 41, 46, 84, 64, 95, 78, 28, 39,  39, 50, 84, 32, 37, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 34, 34, 84, 84, 84, 54, 100, 71, 69, 70, 77, 64, 58, 78, 76, 30, 30, 66, 56, 87, 75, 79,
    61, 79, 70, 64, 60, 74, 69, 99, 69,  62, 69, 39, 34, 39, 84, 50, 50, 62, 64, 56, 64, 62, 35, 64,
    64, 28, 28, 58, 28, 98, 64, 62, 64,  64, 40, 53, 40, 64, 60, 82, 60, 60, 53, 64, 34, 64, 84};

typedef struct label_font {
  double px; /* font size */
  const uint8_t *advance;
} label_font;

/* The advance of the character starting at text[0], in px; one em for any
 * other than ASCII and '·' (CJK names are about that wide). */
static double advance_px(const char *text, label_font font) {
  unsigned char c = (unsigned char)text[0];
  if (c >= 0x20 && c < 0x7F) return font.advance[c - 0x20] * font.px / 100;
  if (c == 0xC2 && (unsigned char)text[1] == 0xB7) return 0.38 * font.px; /* · */
  return font.px;
}

static double text_px(const char *text, label_font font) {
  double px = 0;
  for (const char *p = text; *p; p++)
    if (((unsigned char)*p & 0xC0) != 0x80) px += advance_px(p, font);
  return px;
}

/* `text` in at most `room` px: when wider, the longest start of it that
 * fits with an ellipsis after it (nothing when not even that fits), as
 * the page cuts a name. */
static void put_text_within(mm_buf *out, const char *text, double room, label_font font) {
  if (text_px(text, font) <= room) {
    put_text(out, text);
    return;
  }
  double used = font.px; /* the ellipsis, one em */
  if (used > room) return;
  size_t keep = 0;
  for (size_t i = 0; text[i]; i++) {
    if (((unsigned char)text[i] & 0xC0) == 0x80) continue; /* inside a character */
    used += advance_px(text + i, font);
    if (used > room) break;
    keep = i + 1;
    while (((unsigned char)text[keep] & 0xC0) == 0x80)
      keep++;
  }
  put_text_n(out, text, keep);
  mm__buf_puts(out, "\xE2\x80\xA6");
}

/* ` key="value"`, the value escaped. */
static void put_attr(mm_buf *out, const char *key, const char *value) {
  mm__buf_putc(out, ' ');
  mm__buf_puts(out, key);
  mm__buf_puts(out, "=\"");
  put_text(out, value);
  mm__buf_putc(out, '"');
}

/* A coordinate with at most one decimal (no libm: the core links none). */
static void put_px(mm_buf *out, double v) {
  long long tenths = (long long)(v < 0 ? v * 10 - 0.5 : v * 10 + 0.5);
  if (tenths < 0) {
    mm__buf_putc(out, '-');
    tenths = -tenths;
  }
  mm__buf_put_int(out, tenths / 10);
  if (tenths % 10) {
    mm__buf_putc(out, '.');
    mm__buf_putc(out, (char)('0' + tenths % 10));
  }
}

/* 1536 -> "1.5 KB", as the page's formatBytes; `text` holds 48 bytes. */
static const char *format_size(char *text, int64_t bytes) {
  static const char *const units[] = {"B", "KB", "MB", "GB"};
  double n = bytes < 0 ? -(double)bytes : (double)bytes;
  size_t unit = 0;
  while (n >= 1024 && unit < 3) {
    n /= 1024;
    unit++;
  }
  const char *sign = bytes < 0 ? "-" : "";
  if (unit == 0 || n == (double)(int64_t)n) {
    snprintf(text, 48, "%s%.0f %s", sign, n, units[unit]);
    return text;
  }
  snprintf(text, 48, n < 10 ? "%s%.2f" : "%s%.1f", sign, n);
  size_t len = strlen(text);
  while (text[len - 1] == '0')
    text[--len] = 0;
  if (text[len - 1] == '.') text[--len] = 0;
  snprintf(text + len, 48 - len, " %s", units[unit]);
  return text;
}

static void put_size(mm_buf *out, int64_t bytes) {
  char text[48];
  mm__buf_puts(out, format_size(text, bytes));
}

/* Usage floored to one decimal, coloured as the pills are: red from 95 %,
 * amber from 80 %. */
static void put_usage(mm_buf *out, const mm_space_usage *s) {
  char text[96];
  double fraction = s->limit > 0 ? (double)s->hwm_all / (double)s->limit : 0;
  const char *colour = fraction >= 0.95 ? ALERT : fraction >= 0.8 ? WARN : INK;
  snprintf(text, sizeof text, "<tspan fill=\"%s\">%.1f%%</tspan>", colour,
           (double)(int64_t)(fraction * 1000 + 1e-9) / 10);
  mm__buf_puts(out, text);
}

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

static void widen(lane *l, int64_t offset, int64_t size) {
  int64_t hi = l->lo + l->span;
  if (offset < l->lo) l->lo = offset;
  if (offset + (size > 0 ? size : 0) > hi) hi = offset + size;
  l->span = hi - l->lo;
}

/* The lanes' bytes (web/layout.js laneExtent) and the px per byte
 * (baseFactor, times the zoom). False when out of memory. */
static bool lay_out(view *v, const mm_svg_options *o) {
  const mm_function *fn = v->fn;
  size_t lanes_size = (fn->space_count ? fn->space_count : 1) * sizeof *v->lanes;
  v->lanes = mm__alloc(lanes_size);
  if (!v->lanes) return false;
  memset(v->lanes, 0, lanes_size);
  for (size_t i = 0; i < fn->space_count; i++) {
    const mm_space_usage *s = &fn->spaces[i];
    if (listed(o->hidden, s->space)) continue;
    lane *l = &v->lanes[v->lane_count++];
    l->space = s;
    int64_t hi = o->axis_used ? s->hwm_all : s->limit;
    l->span = hi > 1 ? hi : 1;
    for (size_t b = 0; b < fn->box_count; b++)
      if (strcmp(fn->boxes[b].tile->space, s->space) == 0)
        widen(l, fn->boxes[b].tile->offset, fn->boxes[b].tile->size);
    for (size_t w = 0; w < fn->window_count; w++)
      if (fn->windows[w].placed && strcmp(fn->windows[w].space, s->space) == 0)
        widen(l, fn->windows[w].base, fn->windows[w].size);
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
  return true;
}

static const lane *lane_of(const view *v, const char *space) {
  for (size_t i = 0; i < v->lane_count; i++)
    if (strcmp(v->lanes[i].space->space, space) == 0) return &v->lanes[i];
  return NULL;
}

static double x_of(const lane *l, int64_t offset) {
  return GUTTER + l->left + (double)(offset - l->lo) * ((double)l->width / (double)l->span);
}

static double y_of(const view *v, uint32_t line) {
  return TITLE + LANE_HEAD + (double)(line - v->first) * ROW;
}

/* ---------------------------------------------------------- drawing */

static void put_header(mm_buf *out, const view *v) {
  const mm_function *fn = v->fn;
  mm__buf_puts(out, "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"600\">");
  put_text(out, fn->name);
  mm__buf_puts(out, " <tspan font-weight=\"400\" fill=\"" MUTED "\">");
  put_text(out, fn->ftype);
  mm__buf_puts(out, " · ");
  put_text(out, v->model->dump);
  mm__buf_puts(out, " · ");
  put_text(out, v->model->backend->name);
  mm__buf_puts(out, " · lines ");
  mm__buf_put_int(out, v->first);
  mm__buf_puts(out, "–");
  mm__buf_put_int(out, v->last);
  mm__buf_puts(out, "</tspan></text>\n<text x=\"8\" y=\"42\">");
  for (size_t i = 0; i < fn->space_count; i++) {
    const mm_space_usage *s = &fn->spaces[i];
    /* SVG collapses spaces: a gap in px between spaces. */
    mm__buf_puts(out, i ? "<tspan dx=\"16\" font-weight=\"600\" fill=\""
                        : "<tspan font-weight=\"600\" fill=\"");
    mm__buf_puts(out, colour_of(s->space));
    mm__buf_puts(out, "\">");
    put_text(out, s->space);
    mm__buf_puts(out, "</tspan> ");
    put_usage(out, s);
    mm__buf_puts(out, " · ");
    put_size(out, s->hwm_all);
    mm__buf_puts(out, " / ");
    put_size(out, s->limit);
  }
  mm__buf_puts(out, "</text>\n");
}

static void put_rect(mm_buf *out, double x, double y, double w, double h) {
  mm__buf_puts(out, "<rect x=\"");
  put_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  put_px(out, y);
  mm__buf_puts(out, "\" width=\"");
  put_px(out, w);
  mm__buf_puts(out, "\" height=\"");
  put_px(out, h);
  mm__buf_puts(out, "\"");
}

static void put_lane(mm_buf *out, const view *v, const lane *l) {
  const char *colour = colour_of(l->space->space);
  double x = GUTTER + l->left, top = TITLE, bottom = y_of(v, v->last + 1);
  put_rect(out, x, top + LANE_HEAD, l->width, bottom - top - LANE_HEAD);
  mm__buf_puts(out, " class=\"lane\"");
  put_attr(out, "data-space", l->space->space);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, colour);
  mm__buf_puts(out, "\" fill-opacity=\"0.06\" stroke=\"#d9dde3\"/>\n");
  put_rect(out, x, top, l->width, 3);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, colour);
  mm__buf_puts(out, "\"/>\n<svg x=\"");
  put_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  put_px(out, top);
  mm__buf_puts(out, "\" width=\"");
  put_px(out, l->width);
  mm__buf_puts(out, "\" height=\""
                    "40"
                    "\"><text x=\"6\" y=\"22\"><tspan font-weight=\"600\">");
  put_text(out, l->space->space);
  mm__buf_puts(out, "</tspan><tspan fill=\"" MUTED "\" font-size=\"10\"> ");
  put_size(out, l->lo);
  mm__buf_puts(out, " … ");
  put_size(out, l->lo + l->span);
  mm__buf_puts(out, "</tspan></text></svg>\n");
  /* The high-water mark, and the capacity when a box is past it. */
  double hwm = x_of(l, l->space->hwm_all);
  mm__buf_puts(out, "<line x1=\"");
  put_px(out, hwm);
  mm__buf_puts(out, "\" x2=\"");
  put_px(out, hwm);
  mm__buf_puts(out, "\" y1=\"");
  put_px(out, top + LANE_HEAD);
  mm__buf_puts(out, "\" y2=\"");
  put_px(out, bottom);
  mm__buf_puts(out, "\" stroke=\"");
  mm__buf_puts(out, colour);
  mm__buf_puts(out, "\" stroke-dasharray=\"3 3\"/>\n");
  if (l->lo + l->span > l->space->limit && l->space->limit > 0) {
    double cap = x_of(l, l->space->limit);
    mm__buf_puts(out, "<line x1=\"");
    put_px(out, cap);
    mm__buf_puts(out, "\" x2=\"");
    put_px(out, cap);
    mm__buf_puts(out, "\" y1=\"");
    put_px(out, top);
    mm__buf_puts(out, "\" y2=\"");
    put_px(out, bottom);
    mm__buf_puts(out, "\" stroke=\"" ALERT "\" stroke-width=\"2\"/>\n");
  }
}

static void put_line_numbers(mm_buf *out, const view *v) {
  mm__buf_puts(out, "<g fill=\"" MUTED "\" font-size=\"10\" text-anchor=\"end\">\n");
  for (uint32_t line = v->first; line <= v->last && line >= v->first; line++) {
    mm__buf_puts(out, "<text x=\"");
    put_px(out, GUTTER - 6);
    mm__buf_puts(out, "\" y=\"");
    put_px(out, y_of(v, line) + 13);
    mm__buf_puts(out, "\">");
    mm__buf_put_int(out, line);
    mm__buf_puts(out, "</text>\n");
  }
  mm__buf_puts(out, "</g>\n");
}

/* A label in its box: the name cut with an ellipsis to fit beside the +N
 * of merged aliases (which stays); a nested <svg> clips what still would
 * overflow. */
static void put_label(mm_buf *out, double x, double y, double w, double h, const char *first,
                      uint32_t more, const mm_tile *t) {
  if (w < 12 || h < 14) return;
  const label_font name_font = {11, ADVANCE_SEMIBOLD}, more_font = {11, ADVANCE_REGULAR},
                   range_font = {10, ADVANCE_REGULAR};
  char more_text[16];
  snprintf(more_text, sizeof more_text, " +%u", (unsigned)more);
  double room = w - 6 - (more ? text_px(more_text, more_font) : 0);
  mm__buf_puts(out, "<svg x=\"");
  put_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  put_px(out, y);
  mm__buf_puts(out, "\" width=\"");
  put_px(out, w);
  mm__buf_puts(out, "\" height=\"");
  put_px(out, h);
  mm__buf_puts(out, "\"><text x=\"3\" y=\"12\" font-size=\"11\" font-weight=\"600\">");
  put_text_within(out, first, room, name_font);
  if (more) {
    mm__buf_puts(out, "<tspan font-weight=\"400\">");
    mm__buf_puts(out, more_text);
    mm__buf_puts(out, "</tspan>");
  }
  mm__buf_puts(out, "</text>");
  if (h >= 30 && t) {
    char size[48], range[160];
    snprintf(range, sizeof range, "[%lld, %lld) · %s", (long long)t->offset,
             (long long)(t->offset + t->size), format_size(size, t->size));
    mm__buf_puts(out, "<text x=\"3\" y=\"26\" font-size=\"10\">");
    put_text_within(out, range, w - 6, range_font);
    mm__buf_puts(out, "</text>");
  }
  mm__buf_puts(out, "</svg>\n");
}

static void put_box(mm_buf *out, const view *v, const mm_box *b) {
  const mm_tile *t = b->tile;
  const lane *l = lane_of(v, t->space);
  if (!l || b->end < v->first || b->start > v->last) return;
  uint32_t from = b->start > v->first ? b->start : v->first;
  uint32_t to = b->end < v->last ? b->end : v->last;
  double x = x_of(l, t->offset), w = (double)(t->size > 0 ? t->size : 0) * v->factor;
  if (w < MIN_BOX) w = MIN_BOX;
  double y = y_of(v, from), h = (double)(to - from + 1) * ROW;
  const char *colour = colour_of(t->space);
  mm__buf_puts(out, "<g class=\"box");
  if (b->view) mm__buf_puts(out, " view");
  if (b->conflict) mm__buf_puts(out, " conflict");
  if (b->over_capacity) mm__buf_puts(out, " over");
  mm__buf_putc(out, '"');
  put_attr(out, "data-tile", t->name);
  put_attr(out, "data-space", t->space);
  mm__buf_puts(out, " data-start=\"");
  mm__buf_put_int(out, b->start);
  mm__buf_puts(out, "\"><title>");
  put_text(out, t->name);
  mm__buf_puts(out, " · ");
  put_text(out, t->space);
  mm__buf_puts(out, " [");
  mm__buf_put_int(out, t->offset);
  mm__buf_puts(out, ", ");
  mm__buf_put_int(out, t->offset + t->size);
  mm__buf_puts(out, ") · lines ");
  mm__buf_put_int(out, b->start);
  mm__buf_puts(out, "–");
  mm__buf_put_int(out, b->end);
  mm__buf_puts(out, "</title>");
  put_rect(out, x, y, w, h);
  mm__buf_puts(out, " fill=\"");
  mm__buf_puts(out, colour);
  mm__buf_puts(out, b->view ? "\" fill-opacity=\"0.22\"" : "\" fill-opacity=\"0.45\"");
  mm__buf_puts(out, " stroke=\"");
  mm__buf_puts(out, b->conflict || b->over_capacity ? ALERT : colour);
  mm__buf_puts(out, b->conflict ? "\" stroke-width=\"2\"" : "\"");
  if (b->view) mm__buf_puts(out, " stroke-dasharray=\"4 2\"");
  mm__buf_puts(out, "/>\n");
  put_label(out, x, y, w, h, t->name, b->alias_count, t);
  mm__buf_puts(out, "</g>\n");
}

static void put_window(mm_buf *out, const view *v, const mm_window *w) {
  const lane *l = w->placed ? lane_of(v, w->space) : NULL;
  if (!l) return;
  double x = x_of(l, w->base), width = (double)w->size * v->factor;
  double y = y_of(v, v->first), h = (double)(v->last - v->first + 1) * ROW;
  mm__buf_puts(out, "<g class=\"window\"");
  put_attr(out, "data-window", w->name);
  mm__buf_puts(out, "><title>");
  put_text(out, w->name);
  mm__buf_puts(out, " · reserved ");
  put_size(out, w->size);
  mm__buf_puts(out, " of ");
  put_text(out, w->space);
  mm__buf_puts(out, " for the whole function</title>");
  put_rect(out, x, y, width < MIN_BOX ? MIN_BOX : width, h);
  mm__buf_puts(out, " fill=\"url(#reserved)\" stroke=\"");
  mm__buf_puts(out, colour_of(w->space));
  mm__buf_puts(out, "\" stroke-dasharray=\"2 2\"/>\n");
  put_label(out, x, y, width, h > 18 ? 18 : h, w->name, 0, NULL);
  mm__buf_puts(out, "</g>\n");
}

static void put_document(mm_buf *out, const view *v) {
  double width = GUTTER + v->lanes_width + PAD, height = y_of(v, v->last + 1) + PAD;
  mm__buf_puts(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
  put_px(out, width);
  mm__buf_puts(out, "\" height=\"");
  put_px(out, height);
  mm__buf_puts(out, "\" viewBox=\"0 0 ");
  put_px(out, width);
  mm__buf_puts(out, " ");
  put_px(out, height);
  mm__buf_puts(out, "\" font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\" "
                    "font-size=\"12\" fill=\"" INK "\">\n"
                    "<defs><pattern id=\"reserved\" width=\"8\" height=\"8\" "
                    "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                    "<rect width=\"8\" height=\"8\" fill=\"#94a3b8\" fill-opacity=\"0.15\"/>"
                    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#64748b\" "
                    "stroke-opacity=\"0.5\" stroke-width=\"2\"/></pattern></defs>\n");
  put_rect(out, 0, 0, width, height);
  mm__buf_puts(out, " fill=\"#ffffff\"/>\n");
  put_header(out, v);
  for (size_t i = 0; i < v->lane_count; i++)
    put_lane(out, v, &v->lanes[i]);
  put_line_numbers(out, v);
  for (size_t i = 0; i < v->fn->window_count; i++)
    put_window(out, v, &v->fn->windows[i]);
  for (size_t i = 0; i < v->fn->box_count; i++)
    put_box(out, v, &v->fn->boxes[i]);
  mm__buf_puts(out, "</svg>\n");
}

char *mm_model_svg(const mm_model *model, size_t function, const mm_svg_options *options,
                   size_t *out_len) {
  if (!model || function >= model->functions.len) return NULL;
  static const mm_svg_options defaults = {0};
  const mm_svg_options *o = options ? options : &defaults;
  view v = {.model = model, .fn = mm__vec_at(&model->functions, function)};
  v.first = o->first_line > v.fn->src_start ? o->first_line : v.fn->src_start;
  v.last = o->last_line && o->last_line < v.fn->src_end ? o->last_line : v.fn->src_end;
  if (v.last < v.first) v.last = v.first;
  mm_buf out = {0};
  if (!lay_out(&v, o))
    out.failed = true;
  else
    put_document(&out, &v);
  mm__dealloc(v.lanes);
  return mm__buf_finish(&out, out_len);
}
