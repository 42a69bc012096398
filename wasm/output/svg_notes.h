/* svg_notes.h: the notes around an SVG map (svg_notes.c): each space's
 * figures above it, the key of numbered names below it. */
#ifndef MM_SVG_NOTES_H
#define MM_SVG_NOTES_H

#include "output/svg_view.h"

/* The header: title line, each space's pill and peak; sets map_top. */
void mm__svg_header(mm_buf *out, svg_view *v);
/* The key under the map from `top`: each numbered name, what and where
 * it is. Returns the y below it. */
double mm__svg_key(mm_buf *out, const svg_view *v, double top);

#endif
