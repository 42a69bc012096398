/* svg_text.c: text for mm_model_svg: escaped for XML, measured without
 * the fonts (an SVG carries no metrics), cut or wrapped to a width, and
 * the numbers, a window's kind and a space's colour as the page writes
 * them. */
#include <stdio.h>
#include <string.h>

#include "output/svg_text.h"

/* text[0, len) as XML character data or an attribute value; characters
 * XML cannot hold (C0 controls) become U+FFFD. */
void mm__svg_text_n(mm_buf *out, const char *text, size_t len) {
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

void mm__svg_text(mm_buf *out, const char *text) { mm__svg_text_n(out, text, strlen(text)); }

/* Advances of ' ' to '~' in hundredths of an em, semi-bold (the names)
 * and regular (the rest), measured from DejaVu Sans, the widest common
 * sans-serif: with these a label cut to fit does not overflow on the
 * fonts the page names. */
const uint8_t mm__svg_semibold[95] = {
    35, 46,  53, 84, 70, 101, 88, 31,  46, 46, 53, 84, 38, 42,  38, 37, 70, 70,  70,
    70, 70,  70, 70, 70, 70,  70, 40,  40, 84, 84, 84, 58, 100, 78, 77, 74, 83,  69,
    69, 83,  84, 38, 38, 78,  64, 100, 84, 85, 74, 85, 77, 68,  71, 82, 78, 111, 78,
    73, 73,  46, 37, 46, 84,  50, 50,  68, 72, 60, 72, 68, 41,  72, 72, 35, 35,  67,
    35, 105, 72, 69, 72, 72,  50, 60,  48, 72, 66, 93, 65, 66,  59, 72, 37, 72,  84};
const uint8_t mm__svg_regular[95] = {
    32, 41, 46, 84, 64, 95, 78, 28, 39,  39, 50, 84, 32, 37, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 34, 34, 84, 84, 84, 54, 100, 71, 69, 70, 77, 64, 58, 78, 76, 30, 30, 66, 56, 87, 75, 79,
    61, 79, 70, 64, 60, 74, 69, 99, 69,  62, 69, 39, 34, 39, 84, 50, 50, 62, 64, 56, 64, 62, 35, 64,
    64, 28, 28, 58, 28, 98, 64, 62, 64,  64, 40, 53, 40, 64, 60, 82, 60, 60, 53, 64, 34, 64, 84};

/* The advance of the character starting at text[0], in px; one em for any
 * other than ASCII, '·' and '–' (CJK names are about that wide). */
static double advance_px(const char *text, svg_font font) {
  unsigned char c = (unsigned char)text[0];
  if (c >= 0x20 && c < 0x7F) return font.advance[c - 0x20] * font.px / 100;
  if (c == 0xC2 && (unsigned char)text[1] == 0xB7) return 0.38 * font.px; /* · */
  if (c == 0xE2 && (unsigned char)text[1] == 0x80 && (unsigned char)text[2] == 0x93)
    return 0.5 * font.px; /* – */
  return font.px;
}

double mm__svg_text_px(const char *text, svg_font font) {
  double px = 0;
  for (const char *p = text; *p; p++)
    if (((unsigned char)*p & 0xC0) != 0x80) px += advance_px(p, font);
  return px;
}

/* `text` in at most `room` px: when wider, the longest start of it that
 * fits with an ellipsis after it (nothing when not even that fits). */
void mm__svg_text_within(mm_buf *out, const char *text, double room, svg_font font) {
  if (mm__svg_text_px(text, font) <= room) {
    mm__svg_text(out, text);
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
  mm__svg_text_n(out, text, keep);
  mm__buf_puts(out, "\xE2\x80\xA6");
}

void mm__svg_attr(mm_buf *out, const char *key, const char *value) {
  mm__buf_putc(out, ' ');
  mm__buf_puts(out, key);
  mm__buf_puts(out, "=\"");
  mm__svg_text(out, value);
  mm__buf_putc(out, '"');
}

/* A coordinate with at most one decimal (no libm: the core links none). */
void mm__svg_px(mm_buf *out, double v) {
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

void mm__svg_xywh(mm_buf *out, double x, double y, double w, double h) {
  mm__buf_puts(out, " x=\"");
  mm__svg_px(out, x);
  mm__buf_puts(out, "\" y=\"");
  mm__svg_px(out, y);
  mm__buf_puts(out, "\" width=\"");
  mm__svg_px(out, w);
  mm__buf_puts(out, "\" height=\"");
  mm__svg_px(out, h);
  mm__buf_puts(out, "\"");
}

void mm__svg_rect(mm_buf *out, double x, double y, double w, double h) {
  mm__buf_puts(out, "<rect");
  mm__svg_xywh(out, x, y, w, h);
}

const char *mm__svg_size(char *text, int64_t bytes) {
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

void mm__svg_put_size(mm_buf *out, int64_t bytes) {
  char text[48];
  mm__buf_puts(out, mm__svg_size(text, bytes));
}

static unsigned hex_digit(char c) {
  return c >= 'a'   ? (unsigned)(c - 'a' + 10)
         : c >= 'A' ? (unsigned)(c - 'A' + 10)
                    : (unsigned)(c - '0');
}

const char *mm__svg_mix(char *text, const char *a, const char *b, int percent) {
  unsigned mixed[3];
  for (int i = 0; i < 3; i++) {
    unsigned x = hex_digit(a[1 + 2 * i]) * 16 + hex_digit(a[2 + 2 * i]);
    unsigned y = hex_digit(b[1 + 2 * i]) * 16 + hex_digit(b[2 + 2 * i]);
    mixed[i] = (x * (unsigned)percent + y * (unsigned)(100 - percent) + 50) / 100;
  }
  snprintf(text, 8, "#%02x%02x%02x", mixed[0] & 0xFF, mixed[1] & 0xFF, mixed[2] & 0xFF);
  return text;
}

/* ----------------------------------------------------- paragraphs */

enum { PARA_PX = 12 };

static svg_font para_font(svg_style style) {
  return (svg_font){PARA_PX, style == SVG_BOLD ? mm__svg_semibold : mm__svg_regular};
}

static const char *style_colour(const svg_para *p, svg_style style, const char *colour) {
  if (colour) return colour;
  return style == SVG_MUTED   ? p->palette->muted
         : style == SVG_ALERT ? p->palette->alert
                              : p->palette->fg;
}

void mm__svg_para_open(svg_para *p, mm_buf *out, const svg_palette *palette, double x, double y,
                       double width) {
  *p = (svg_para){
      .out = out, .palette = palette, .x = x, .y = y, .width = width, .px = PARA_PX, .at = -1};
}

static void end_line(svg_para *p) {
  if (p->at < 0) return;
  mm__buf_puts(p->out, "</tspan></text>\n");
  p->at = -1;
  p->y += SVG_TEXT_ROW;
}

static void start_line(svg_para *p) {
  mm__buf_puts(p->out, "<text x=\"");
  mm__svg_px(p->out, p->x);
  mm__buf_puts(p->out, "\" y=\"");
  mm__svg_px(p->out, p->y);
  mm__buf_puts(p->out, "\"><tspan>");
  p->at = 0;
  p->style = SVG_PLAIN;
  p->colour = NULL;
  p->lines++;
}

static void set_style(svg_para *p, svg_style style, const char *colour) {
  const char *want = style_colour(p, style, colour);
  if (style == p->style && want == style_colour(p, p->style, p->colour)) return;
  mm__buf_puts(p->out, "</tspan><tspan fill=\"");
  mm__buf_puts(p->out, want);
  mm__buf_puts(p->out, style == SVG_BOLD ? "\" font-weight=\"600\">" : "\">");
  p->style = style;
  p->colour = colour;
}

/* One word (no space in it) and the space before it, on this line or
 * the next; a word wider than a whole line is cut to fit. */
static void put_word(svg_para *p, const char *word, size_t len, bool space, svg_run run) {
  char scratch[512];
  svg_font font = para_font(run.style);
  size_t n = len < sizeof scratch - 1 ? len : sizeof scratch - 1;
  memcpy(scratch, word, n);
  scratch[n] = 0;
  double w = mm__svg_text_px(scratch, font), gap = space ? 0.32 * PARA_PX : 0;
  if (p->at > 0 && p->at + gap + w > p->width) {
    end_line(p);
    space = false;
    gap = 0;
  }
  if (p->at < 0) start_line(p);
  if (space) mm__buf_putc(p->out, ' ');
  set_style(p, run.style, run.colour);
  mm__svg_text_within(p->out, scratch, p->width - p->at - gap, font);
  p->at += gap + w;
}

/* A run's words; a run that starts without a space (after one that ends
 * without one) joins the word before. */
void mm__svg_para_run(svg_para *p, svg_run run) {
  const char *text = run.text;
  bool space = p->space;
  while (*text) {
    while (*text == ' ') {
      space = true;
      text++;
    }
    if (!*text) break;
    size_t len = strcspn(text, " ");
    put_word(p, text, len, space && p->at > 0, run);
    text += len;
    space = false;
  }
  p->space = space; /* a run ending in a space: the next one starts a word */
}

double mm__svg_para_close(svg_para *p) {
  end_line(p);
  return p->y;
}

/* ------------------------------------------------ the page's words */

static const struct {
  const char *space, *colour;
} space_colours[] = {
    {"Vec", "#3b82f6"},   {"Mat", "#8b5cf6"},        {"Left", "#16a34a"}, {"LeftScale", "#0d9488"},
    {"Right", "#ea580c"}, {"RightScale", "#ca8a04"}, {"Acc", "#db2777"},  {"Bias", "#78716c"},
};

const char *mm__svg_colour(const char *space) {
  for (size_t i = 0; i < sizeof space_colours / sizeof *space_colours; i++)
    if (strcmp(space_colours[i].space, space) == 0) return space_colours[i].colour;
  return "#64748b";
}

/* What a window holds, as the page's windowKind words it; `text` holds
 * 128 bytes. */
const char *mm__svg_window_kind(char *text, const mm_window *w) {
  char slot[48];
  const char *what = w->kind == MM_WINDOW_PINNED ? "pinned allocation" : "cross-core ring";
  if (w->slot_size && w->slot_num)
    snprintf(text, 128, "%s, %lld × %s", what, (long long)w->slot_num,
             mm__svg_size(slot, w->slot_size));
  else if (w->slot_size && w->kind != MM_WINDOW_PINNED)
    snprintf(text, 128, "cross-core ring, slots of %s", mm__svg_size(slot, w->slot_size));
  else
    snprintf(text, 128, "%s", w->kind == MM_WINDOW_PINNED ? what : "reserved window");
  return text;
}
