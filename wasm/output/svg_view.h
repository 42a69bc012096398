/* svg_view.h: what the map (svg.c, mm_model_svg) and the notes around
 * it (svg_notes.h) share: the view being drawn and its lanes. Their text
 * is svg_text.h's. */
#ifndef MM_SVG_VIEW_H
#define MM_SVG_VIEW_H

#include "model/model.h"
#include "output/svg_text.h"

enum { SVG_ROW = 18, SVG_LANE_HEAD = 40, SVG_GUTTER = 56, SVG_PAD = 8 };

typedef struct svg_lane {
  const mm_space_usage *space;
  int64_t lo, span;
  double left, width; /* px, from the lanes' left edge */
} svg_lane;

typedef struct svg_view {
  const mm_model *model;
  const mm_function *fn;
  const svg_palette *palette;
  uint32_t first, last; /* dump lines drawn */
  double factor;        /* px per byte, zoom included */
  svg_lane *lanes;
  size_t lane_count;
  double lanes_width, width; /* px: the lanes; the whole document */
  double map_top;            /* px: the lanes' header row */
  bool profile;
  /* The number each window and box carries in place of a name too wide
   * for it (the key lists it); 0: its name fits, or it is not drawn. */
  uint32_t *window_refs, *box_refs;
  uint32_t ref_count;
  /* What is drawn over the boxes so far (peak marks, numbers), as
   * {left, top, right, bottom}: a number outside its box avoids them. */
  double (*taken)[4];
  size_t taken_count, taken_cap;
} svg_view;

#endif
