/* svg_text.h: text for an SVG (svg_text.c): escaped for XML, measured
 * without the fonts, cut or wrapped to a width, in the page's colours,
 * and the numbers, a window's kind and a space's colour as the page
 * writes them. */
#ifndef MM_SVG_TEXT_H
#define MM_SVG_TEXT_H

#include "model/model.h"

enum { SVG_TEXT_ROW = 16 };

/* The page's colours (web/style.css) in one theme. */
typedef struct svg_palette {
  const char *bg, *fg, *muted, *line, *alert, *warn, *box_fg;
} svg_palette;

/* ------------------------------------------------------------- text */

/* Advances of ' ' to '~' in hundredths of an em. */
extern const uint8_t mm__svg_semibold[95], mm__svg_regular[95];

typedef struct svg_font {
  double px; /* font size */
  const uint8_t *advance;
} svg_font;

/* text[0, len) as XML character data or an attribute value. */
void mm__svg_text_n(mm_buf *out, const char *text, size_t len);
void mm__svg_text(mm_buf *out, const char *text);
/* How wide `text` is drawn, in px (an upper bound on common fonts). */
double mm__svg_text_px(const char *text, svg_font font);
/* `text` in at most `room` px: cut with an ellipsis when wider. */
void mm__svg_text_within(mm_buf *out, const char *text, double room, svg_font font);
/* ` key="value"`, the value escaped. */
void mm__svg_attr(mm_buf *out, const char *key, const char *value);
/* A coordinate, at most one decimal. */
void mm__svg_px(mm_buf *out, double v);
/* ` x=".." y=".." width=".." height=".."`: a box's attributes. */
void mm__svg_xywh(mm_buf *out, double x, double y, double w, double h);
/* `<rect x=".." y=".." width=".." height=".."` (left open for more). */
void mm__svg_rect(mm_buf *out, double x, double y, double w, double h);
/* 1536 -> "1.5 KB", as the page's formatBytes; `text` holds 48 bytes. */
const char *mm__svg_size(char *text, int64_t bytes);
void mm__svg_put_size(mm_buf *out, int64_t bytes);
/* "#rrggbb" of `a` mixed with `b`, `percent` of `a` (CSS color-mix in
 * srgb); `text` holds 8 bytes. */
const char *mm__svg_mix(char *text, const char *a, const char *b, int percent);

/* A paragraph: runs of styled text wrapped at spaces to `width` px, each
 * line a <text>. */
typedef enum svg_style { SVG_PLAIN, SVG_MUTED, SVG_BOLD, SVG_ALERT } svg_style;
typedef struct svg_run {
  const char *text;
  svg_style style;
  const char *colour; /* NULL: the style's */
} svg_run;
typedef struct svg_para {
  mm_buf *out;
  const svg_palette *palette;
  double x, y, width, px; /* px: where lines start, the first baseline, the room, font size */
  double at;              /* px used on the current line; < 0: no line open */
  bool space;             /* the last run ended in a space */
  svg_style style;        /* of the open <tspan> */
  const char *colour;
  uint32_t lines;
} svg_para;
void mm__svg_para_open(svg_para *p, mm_buf *out, const svg_palette *palette, double x, double y,
                       double width);
void mm__svg_para_run(svg_para *p, svg_run run);
/* Closes the paragraph; returns the y below its last line. */
double mm__svg_para_close(svg_para *p);

/* A space's colour, as web/style.css draws its lane. */
const char *mm__svg_colour(const char *space);
/* What a window holds, as the page's windowKind words it ("cross-core
 * ring, 4 × 8 KB"); `text` holds 128 bytes. */
const char *mm__svg_window_kind(char *text, const mm_window *w);

#endif
