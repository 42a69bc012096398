/* json_writer.c: the model and errors as JSON, written in one pass into
 * one buffer. Strings escape <, >, & and U+2028/U+2029 as well, so the
 * output can sit inside an HTML <script> element as it is. */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/anomalies.h"
#include "model/backends.h"
#include "model/function_tiles.h"
#include "model/liveness.h"
#include "model/pipes.h"
#include "model/uses.h"
#include "output/figures.h"
#include "output/json.h"
#include "output/ranking.h"

/* Reserved windows and imports are a few per dump: written by code built
 * for size, not inlined into the writer's hot loops. */
#if defined(__GNUC__)
#define RARE __attribute__((cold, noinline))
#else
#define RARE
#endif

/* Bytes that cannot go into a JSON string (or an HTML <script>) as they
 * are. 0xE2 may start U+2028/U+2029 and is checked further. */
static const uint8_t json_special[256] = {
    [0] = 1,   [1] = 1,   [2] = 1,    [3] = 1,    [4] = 1,    [5] = 1,    [6] = 1,
    [7] = 1,   [8] = 1,   [9] = 1,    [10] = 1,   [11] = 1,   [12] = 1,   [13] = 1,
    [14] = 1,  [15] = 1,  [16] = 1,   [17] = 1,   [18] = 1,   [19] = 1,   [20] = 1,
    [21] = 1,  [22] = 1,  [23] = 1,   [24] = 1,   [25] = 1,   [26] = 1,   [27] = 1,
    [28] = 1,  [29] = 1,  [30] = 1,   [31] = 1,   ['"'] = 1,  ['\\'] = 1, ['<'] = 1,
    ['>'] = 1, ['&'] = 1, [0x7F] = 1, [0xE2] = 1, [0xC0] = 1, /* C0 80: a NUL in a string value
                                                                 (tiles.c); never in UTF-8 input */
};

static void put_escape(mm_buf *out, unsigned code) {
  static const char hex[] = "0123456789abcdef";
  char u[6] = {
      '\\',           'u', hex[(code >> 12) & 0xF], hex[(code >> 8) & 0xF], hex[(code >> 4) & 0xF],
      hex[code & 0xF]};
  mm__buf_append(out, u, 6);
}

/* The first i' >= i with u[i'] maybe special (or len): the bytes before
 * it are plain. Sixteen bytes a step with SSE2 (every x86-64: the native
 * CLI writes a 5 MB dump's lines through here), else eight table look-ups
 * and one branch per eight bytes. A byte over 0x7F stops it too: the
 * caller checks it in the table. */
static size_t skip_plain(const unsigned char *u, size_t i, size_t len) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'),
                backslash = _mm_set1_epi8('\\'), lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'),
                amp = _mm_set1_epi8('&'), del = _mm_set1_epi8(0x7F);
  for (; i + 16 <= len; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(u + i));
    /* signed: below 0x20, or 0x80 and over */
    __m128i hit = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, quote));
    hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(v, backslash), _mm_cmpeq_epi8(v, lt)));
    hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, amp)));
    int mask = _mm_movemask_epi8(_mm_or_si128(hit, _mm_cmpeq_epi8(v, del)));
    if (mask) return i + (size_t)__builtin_ctz((unsigned)mask);
  }
#endif
  while (i + 8 <= len &&
         !(json_special[u[i]] | json_special[u[i + 1]] | json_special[u[i + 2]] |
           json_special[u[i + 3]] | json_special[u[i + 4]] | json_special[u[i + 5]] |
           json_special[u[i + 6]] | json_special[u[i + 7]]))
    i += 8;
  return i;
}

/* The bytes of s[0, len) escaped for a JSON string, quotes aside. With
 * `lines` > 0 the text is that many lines: each line end ('\n', "\r\n" or
 * a lone '\r') closes the string and opens the next, and the text stops
 * at the end of the last line. */
static void put_escaped(mm_buf *out, const char *s, size_t len, uint32_t lines) {
  size_t run = 0; /* start of the bytes copied as they are */
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < len; i++) {
    i = skip_plain(u, i, len); /* most bytes are plain */
    if (i >= len) break;
    unsigned char c = u[i];
    if (!json_special[c]) continue;
    bool separator =
        c == 0xE2 && i + 2 < len && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9);
    if (c == 0xE2 && !separator) continue;
    bool nul = c == 0xC0 && i + 1 < len && u[i + 1] == 0x80;
    if (c == 0xC0 && !nul) continue;
    mm__buf_append(out, s + run, i - run);
    if (lines && (c == '\n' || c == '\r')) { /* the next line: the next string */
      if (c == '\r' && i + 1 < len && u[i + 1] == '\n') i++;
      if (--lines == 0) return;
      mm__buf_append(out, "\",\"", 3);
    } else if (separator) {
      put_escape(out, 0x2028u + (u[i + 2] - 0xA8u));
      i += 2;
    } else if (nul) {
      put_escape(out, 0);
      i++;
    } else if (c == '"') {
      mm__buf_append(out, "\\\"", 2);
    } else if (c == '\\') {
      mm__buf_append(out, "\\\\", 2);
    } else if (c == '\n') {
      mm__buf_append(out, "\\n", 2);
    } else if (c == '\t') {
      mm__buf_append(out, "\\t", 2);
    } else if (c == '\r') {
      mm__buf_append(out, "\\r", 2);
    } else {
      put_escape(out, c);
    }
    run = i + 1;
  }
  mm__buf_append(out, s + run, len - run);
}

static void put_string(mm_buf *out, const char *s, size_t len) {
  if ((out->len + len + 3 > out->cap || out->failed) && !mm__buf_reserve(out, len + 2)) return;
  /* Most strings are names: copied as they are checked, in one pass. */
  char *d = out->data + out->len + 1;
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < len && !json_special[u[i]]) {
    d[i] = s[i];
    i++;
  }
  out->data[out->len++] = '"';
  if (i < len) { /* something to escape: the general way from the start */
    put_escaped(out, s, len, 0);
    mm__buf_putc(out, '"');
    return;
  }
  d[len] = '"';
  out->len += len + 1;
  out->data[out->len] = 0;
}

static void put_cstring(mm_buf *out, const char *s) { put_string(out, s, strlen(s)); }

void mm__json_string(mm_buf *out, const char *s) { put_cstring(out, s); }
void mm__json_string_n(mm_buf *out, const char *s, size_t len) { put_string(out, s, len); }

static void put_bool(mm_buf *out, bool value) { mm__buf_puts(out, value ? "true" : "false"); }

void mm__json_int(mm_buf *out, const char *key, int64_t value) {
  mm__buf_puts(out, key);
  mm__buf_put_int(out, value);
}

/* A JSON array of numbers from `count` values, each read by `at`. */
static void put_int_list(mm_buf *out, const char *key, size_t count,
                         int64_t (*at)(const void *items, size_t i), const void *items) {
  mm__buf_puts(out, key);
  mm__buf_putc(out, '[');
  for (size_t i = 0; i < count; i++) {
    if (i) mm__buf_putc(out, ',');
    mm__buf_put_int(out, at(items, i));
  }
  mm__buf_putc(out, ']');
}

static int64_t u32_at(const void *items, size_t i) { return ((const uint32_t *)items)[i]; }
static int64_t i64_at(const void *items, size_t i) { return ((const int64_t *)items)[i]; }

/* `source`: each line between src_start and src_end, without its end. */
static void put_source(mm_buf *out, const mm_function *fn) {
  mm__buf_reserve(out, fn->source_len + 4);
  mm__buf_append(out, "[\"", 2);
  put_escaped(out, fn->source, fn->source_len, fn->src_end - fn->src_start + 1);
  mm__buf_append(out, "\"]", 2);
}

void mm__json_int_or_null(mm_buf *out, const char *key, bool known, int64_t value) {
  mm__buf_puts(out, key);
  if (known)
    mm__buf_put_int(out, value);
  else
    mm__buf_puts(out, "null");
}

/* The windows of `fn` placed in `space`, as indices. */
RARE static void put_space_windows(mm_buf *out, const mm_function *fn, const char *space) {
  mm__buf_puts(out, ",\"peak_reserved\":[");
  bool first = true;
  for (size_t i = 0; i < fn->window_count; i++) {
    if (!fn->windows[i].placed || fn->windows[i].space != space) continue;
    if (!first) mm__buf_putc(out, ',');
    first = false;
    mm__buf_put_int(out, (int64_t)i);
  }
  mm__buf_putc(out, ']');
}

/* A space's live profile: [[line, bytes], ...]. */
static void put_live(mm_buf *out, const mm_space_usage *u) {
  mm__buf_putc(out, '[');
  for (uint32_t i = 0; i < u->profile_len; i++) {
    if (i) mm__buf_putc(out, ',');
    mm__buf_putc(out, '[');
    mm__buf_put_int(out, u->profile[i].line);
    mm__buf_putc(out, ',');
    mm__buf_put_int(out, u->profile[i].bytes);
    mm__buf_putc(out, ']');
  }
  mm__buf_putc(out, ']');
}

static void put_space(mm_buf *out, const mm_function *fn, const mm_space_usage *u, bool with_live) {
  mm__buf_puts(out, "{\"space\":");
  put_cstring(out, u->space);
  mm__json_int(out, ",\"hwm\":", u->hwm);
  mm__json_int(out, ",\"limit\":", u->limit);
  mm__json_int(out, ",\"tiles\":", u->tiles);
  mm__json_int(out, ",\"bases\":", u->bases);
  mm__json_int(out, ",\"rank\":", mm__space_rank(u->space));
  mm__json_int(out, ",\"over_capacity\":", u->over_capacity);
  mm__json_int(out, ",\"peak_live\":", u->peak_live);
  mm__json_int(out, ",\"peak_line\":", u->peak_line);
  mm__json_int(out, ",\"fragmentation\":", u->fragmentation);
  put_int_list(out, ",\"peak_boxes\":", u->peak_box_count, u32_at, u->peak_boxes);
  mm__json_int(out, ",\"reserved_bytes\":", u->reserved_bytes);
  mm__json_int(out, ",\"hwm_with_reserved\":", u->hwm_all);
  if (u->hwm_window) /* a window ends above every box */
    mm__json_int(out, ",\"hwm_set_by\":{\"reserved\":", u->hwm_window - 1);
  else if (u->hwm_box)
    mm__json_int(out, ",\"hwm_set_by\":{\"box\":", u->hwm_box - 1);
  if (u->hwm_window || u->hwm_box) mm__buf_putc(out, '}');
  if (u->what_if_box) {
    mm__json_int(out, ",\"what_if\":{\"box\":", u->what_if_box - 1);
    mm__json_int(out, ",\"moved\":", u->what_if_moved);
    mm__json_int(out, ",\"offset\":", u->what_if_offset);
    mm__json_int(out, ",\"hwm_with_reserved\":", u->what_if_hwm);
    mm__buf_puts(out, !u->has_capacity || u->what_if_hwm <= u->limit ? ",\"fits\":true}"
                                                                     : ",\"fits\":false}");
  }
  mm__json_int_or_null(out, ",\"headroom\":", u->has_capacity, u->limit - u->hwm_all);
  /* Drawn by lifetime, a function's usage is the least it needs. */
  mm__json_int_or_null(out, ",\"usage_permille\":", u->has_capacity,
                       mm__usage_permille(fn->by_lifetime ? u->lower_bound : u->hwm_all, u->limit));
  if (fn->by_lifetime) { /* no addresses: the least any placement needs */
    mm__json_int(out, ",\"lower_bound\":", u->lower_bound);
    mm__json_int(out, ",\"lower_bound_line\":", mm__lower_bound_line(fn, u));
    mm__json_int_or_null(out, ",\"headroom_above_lower_bound\":", u->has_capacity,
                         u->limit - u->lower_bound);
  }
  if (u->peak_live > 0 && u->reserved_bytes)
    put_space_windows(out, fn, u->space);
  else
    mm__buf_puts(out, ",\"peak_reserved\":[]");
  if (with_live) {
    mm__buf_puts(out, ",\"live\":");
    put_live(out, u);
  }
  mm__buf_putc(out, '}');
}

/* A box's uses and its longest idle span. */
static void put_uses(mm_buf *out, const mm_box *box) {
  put_int_list(out, ",\"uses\":", box->use_count, u32_at, box->uses);
  if (box->idle_from) {
    mm__json_int(out, ",\"idle\":[", box->idle_from);
    mm__json_int(out, ",", box->idle_to);
    mm__json_int(out, "],\"idle_bytes_lines\":", mm__idle_cost(box));
  } else {
    mm__buf_puts(out, ",\"idle\":null,\"idle_bytes_lines\":0");
  }
}

/* A tile in one slot of an N-slot allocation; with a runtime index, the
 * box covers all N. */
RARE static void put_slots(mm_buf *out, const mm_tile *t) {
  mm__json_int(out, ",\"slots\":{\"count\":", t->slot_count);
  mm__json_int(out, ",\"size\":", t->slot_size);
  mm__buf_puts(out, ",\"index\":");
  if (*t->slot_index)
    put_cstring(out, t->slot_index);
  else
    mm__buf_puts(out, "null");
  mm__buf_puts(out, ",\"runtime\":");
  put_bool(out, t->slot_runtime);
  mm__buf_putc(out, '}');
}

static void put_box(mm_buf *out, const mm_function *fn, const mm_box *box) {
  const mm_tile *t = box->tile;
  mm__buf_puts(out, "{\"name\":");
  put_cstring(out, t->name);
  mm__buf_puts(out, ",\"space\":");
  put_cstring(out, t->space);
  mm__buf_puts(out, ",\"base\":");
  put_cstring(out, t->base);
  mm__json_int(out, ",\"offset\":", t->offset);
  mm__json_int(out, ",\"size\":", t->size);
  put_int_list(out, ",\"shape\":", t->shape_len, i64_at, t->shape);
  mm__buf_puts(out, ",\"dtype\":");
  put_cstring(out, t->dtype);
  mm__buf_puts(out, ",\"op\":");
  put_cstring(out, t->op);
  mm__json_int(out, ",\"start\":", box->start);
  mm__json_int(out, ",\"end\":", box->end);
  mm__buf_puts(out, ",\"aliases\":[");
  for (uint32_t i = 0; i < box->alias_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_cstring(out, box->aliases[i]);
  }
  mm__buf_puts(out, "],\"view\":");
  put_bool(out, box->view);
  mm__buf_puts(out, ",\"conflict\":");
  put_bool(out, box->conflict);
  mm__buf_puts(out, ",\"over_capacity\":");
  put_bool(out, box->over_capacity);
  if (box->partner_total) {
    size_t listed = box->partner_total < MM_BOX_PARTNERS ? box->partner_total : MM_BOX_PARTNERS;
    put_int_list(out, ",\"conflicts_with\":", listed, u32_at, box->partners);
    mm__json_int(out, ",\"conflict_count\":", box->partner_total);
  }
  if (box->window_partner_total) {
    put_int_list(out, ",\"window_conflicts\":", box->window_partner_count, u32_at,
                 box->window_partners);
    mm__json_int(out, ",\"window_conflict_count\":", box->window_partner_total);
  }
  if (box->in_place_to) mm__json_int(out, ",\"in_place_to\":", box->in_place_to - 1);
  if (box->in_place_from) mm__json_int(out, ",\"in_place_from\":", box->in_place_from - 1);
  if (t->slot_count) put_slots(out, t);
  if (t->runtime_offset) {
    mm__buf_puts(out, ",\"runtime_offset\":");
    put_cstring(out, t->runtime_offset);
  }
  put_uses(out, box);
  mm__json_int(out, ",\"statements\":", mm__statements_in(fn, box->start, box->end));
  mm__buf_putc(out, '}');
}

/* `note` of a window that is not drawn. */
RARE static const char *window_note(const mm_window *w) {
  if (!w->base_known) return "not drawn: its base is not assigned yet (AUTO)";
  if (!w->size_known) return "not drawn: its size is not an integer";
  if (w->base < 0) return "not drawn: its base is not assigned yet (negative)";
  return "not drawn: it has no bytes";
}

RARE static void put_window(mm_buf *out, const mm_window *w) {
  mm__buf_puts(out, "{\"name\":");
  put_cstring(out, w->name);
  mm__buf_puts(out, w->kind == MM_WINDOW_PINNED ? ",\"kind\":\"pinned\"" : ",\"kind\":\"ring\"");
  mm__buf_puts(out, ",\"space\":");
  put_cstring(out, w->space);
  mm__json_int_or_null(out, ",\"base\":", w->base_known, w->base);
  mm__json_int_or_null(out, ",\"size\":", w->size_known, w->size);
  mm__json_int(out, ",\"line\":", w->line);
  if (w->bound) {
    mm__buf_puts(out, ",\"bound\":");
    put_cstring(out, w->bound);
  }
  if (w->slot_size) mm__json_int(out, ",\"slot_size\":", w->slot_size);
  if (w->slot_num) mm__json_int(out, ",\"slot_num\":", w->slot_num);
  mm__buf_puts(out, ",\"placed\":");
  put_bool(out, w->placed);
  if (!w->placed) {
    mm__buf_puts(out, ",\"note\":");
    put_cstring(out, window_note(w));
  }
  mm__buf_puts(out, ",\"over_capacity\":");
  put_bool(out, w->over_capacity);
  put_int_list(out, ",\"conflicts_with\":", w->partner_count, u32_at, w->partners);
  mm__json_int(out, ",\"conflict_count\":", w->partner_total);
  if (w->overlaps >= 0) mm__json_int(out, ",\"overlaps_reserved\":", w->overlaps);
  if (w->grown_hwm) {
    mm__json_int(out, ",\"one_more_slot_hwm\":", w->grown_hwm);
    if (w->one_more_fits >= 0) {
      mm__buf_puts(out, ",\"one_more_slot_fits\":");
      put_bool(out, w->one_more_fits);
    }
  }
  mm__buf_putc(out, '}');
}

RARE static void put_skipped(mm_buf *out, const mm_skipped *s) {
  mm__buf_puts(out, "{\"name\":");
  put_cstring(out, s->name);
  mm__buf_puts(out, ",\"space\":");
  put_cstring(out, s->space);
  mm__json_int(out, ",\"line\":", s->line);
  mm__buf_puts(out, ",\"reason\":");
  put_cstring(out, s->reason);
  mm__buf_putc(out, '}');
}

RARE static void put_allocation(mm_buf *out, const mm_allocation *a) {
  mm__buf_puts(out, "{\"name\":");
  put_cstring(out, a->name);
  mm__buf_puts(out, ",\"space\":");
  put_cstring(out, a->space);
  mm__json_int_or_null(out, ",\"size\":", a->size_known, a->size);
  mm__buf_puts(out, ",\"pinned\":");
  put_bool(out, a->pinned);
  mm__json_int(out, ",\"line\":", a->line);
  mm__json_int_or_null(out, ",\"offset\":", a->offset_known, a->offset);
  mm__json_int(out, ",\"tiles\":", a->tiles);
  if (a->slot_count) {
    mm__json_int(out, ",\"slots\":{\"count\":", a->slot_count);
    mm__json_int(out, ",\"size\":", a->slot_size);
    mm__buf_putc(out, '}');
  }
  mm__buf_putc(out, '}');
}

RARE static void put_import(mm_buf *out, const mm_import *imp) {
  mm__buf_puts(out, "{\"name\":");
  put_cstring(out, imp->name);
  mm__buf_puts(out, ",\"peer\":");
  put_cstring(out, imp->peer);
  mm__json_int(out, ",\"line\":", imp->line);
  mm__buf_putc(out, '}');
}

/* model.md's spaces, or (`reserved_only`) the spaces of windows only;
 * `with_live`: with their live profiles. */
static void put_spaces(mm_buf *out, const mm_function *fn, bool reserved_only, bool with_live) {
  bool first = true;
  for (size_t i = 0; i < fn->space_count; i++) {
    if (fn->spaces[i].reserved_only != reserved_only) continue;
    if (!first) mm__buf_putc(out, ',');
    first = false;
    put_space(out, fn, &fn->spaces[i], with_live);
  }
}

/* The live profiles of `fn`'s spaces, in the order put_spaces writes
 * them: the spaces, then those of windows only. */
static void put_lives(mm_buf *out, const mm_function *fn) {
  mm__buf_puts(out, ",\"live\":[");
  bool first = true;
  for (int reserved_only = 0; reserved_only < 2; reserved_only++) {
    for (size_t i = 0; i < fn->space_count; i++) {
      if (fn->spaces[i].reserved_only != (bool)reserved_only) continue;
      if (!first) mm__buf_putc(out, ',');
      first = false;
      put_live(out, &fn->spaces[i]);
    }
  }
  mm__buf_putc(out, ']');
}

/* The keys a closed card needs: all but `allocations` and `boxes`. */
/* `fn`'s anomalies as `--check` lists them (mm__function_anomalies), for
 * the page to draw: {"kind", "line", "box", "other"}, `box` null for a
 * window's or a tile's own, `other` the partner box, the window, the
 * unplaced tile or the space, as the kind says (model/anomalies.h). */
static void put_anomalies(mm_buf *out, const mm_function *fn) {
  size_t count = 0;
  mm_anomaly *list = mm__function_anomalies(fn, &count);
  out->failed |= !list;
  mm__buf_puts(out, ",\"anomalies\":[");
  for (size_t i = 0; list && i < count; i++) {
    const mm_anomaly *a = &list[i];
    bool has_other = a->kind != MM_ANOMALY_OVER && a->kind != MM_ANOMALY_MORE;
    mm__buf_puts(out, i ? ",{\"kind\":\"" : "{\"kind\":\"");
    mm__buf_puts(out, mm__anomaly_kind_name(a->kind));
    mm__json_int(out, "\",\"line\":", a->line);
    mm__json_int_or_null(out, ",\"box\":", a->box != MM_NO_BOX, a->box);
    mm__json_int_or_null(out, ",\"other\":", has_other, a->other);
    mm__buf_putc(out, '}');
  }
  mm__buf_putc(out, ']');
  mm__dealloc(list);
}

static void put_function_head(mm_buf *out, const mm_function *fn, unsigned flags) {
  mm__buf_puts(out, "{\"name\":");
  put_cstring(out, fn->name);
  mm__buf_puts(out, ",\"ftype\":");
  put_cstring(out, fn->ftype);
  mm__json_int(out, ",\"src_start\":", fn->src_start);
  mm__json_int(out, ",\"src_end\":", fn->src_end);
  mm__json_int(out, ",\"statements\":", fn->statement_count);
  if (fn->by_lifetime) mm__buf_puts(out, ",\"planned\":false");
  mm__buf_puts(out, ",\"attrs\":{");
  for (size_t i = 0; i < fn->attr_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_cstring(out, fn->attrs[i].key);
    mm__buf_putc(out, ':');
    put_cstring(out, fn->attrs[i].value);
  }
  mm__buf_putc(out, '}');
  if (!(flags & MM_JSON_WITHOUT_SOURCE) && fn->source) {
    mm__buf_puts(out, ",\"source\":");
    put_source(out, fn);
  }
  bool with_live = !(flags & MM_JSON_SPLIT_BODIES);
  mm__buf_puts(out, ",\"spaces\":[");
  put_spaces(out, fn, false, with_live);
  mm__buf_puts(out, "],\"reserved_only_spaces\":[");
  put_spaces(out, fn, true, with_live);
  mm__buf_puts(out, "],\"reserved\":[");
  for (size_t i = 0; i < fn->window_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_window(out, &fn->windows[i]);
  }
  mm__buf_puts(out, "],\"imports\":[");
  for (size_t i = 0; i < fn->import_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_import(out, &fn->imports[i]);
  }
  mm__buf_putc(out, ']');
  put_anomalies(out, fn);
}

static void put_allocations(mm_buf *out, const mm_function *fn) {
  mm__buf_puts(out, "\"allocations\":[");
  for (size_t i = 0; i < fn->allocation_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_allocation(out, &fn->allocations[i]);
  }
  mm__buf_putc(out, ']');
}

static void put_skipped_list(mm_buf *out, const mm_function *fn) {
  mm__buf_puts(out, ",\"skipped\":[");
  for (size_t i = 0; i < fn->skipped_count; i++) {
    if (i) mm__buf_putc(out, ',');
    put_skipped(out, &fn->skipped[i]);
  }
  mm__buf_putc(out, ']');
}

static void put_boxes(mm_buf *out, const mm_function *fn) {
  mm__buf_puts(out, ",\"boxes\":[");
  for (size_t i = 0; i < fn->box_count; i++) {
    if (i) mm__buf_puts(out, ",\n");
    put_box(out, fn, &fn->boxes[i]);
  }
  mm__buf_putc(out, ']');
}

static void put_function(mm_buf *out, const mm_function *fn, unsigned flags) {
  put_function_head(out, fn, flags);
  mm__buf_putc(out, ',');
  put_allocations(out, fn);
  put_skipped_list(out, fn);
  put_boxes(out, fn);
  mm__buf_putc(out, '}');
}

/* Each box's first line, name and aliases, a line a box, space-separated,
 * as one string: a search reads every function's, and one string parses
 * many times faster than an array of arrays. */
static void put_search_names(mm_buf *out, const mm_function *fn) {
  mm__buf_putc(out, '"');
  for (size_t i = 0; i < fn->box_count; i++) {
    const mm_box *box = &fn->boxes[i];
    if (i) mm__buf_append(out, "\\n", 2);
    mm__buf_put_int(out, box->start);
    mm__buf_putc(out, ' ');
    put_escaped(out, box->tile->name, strlen(box->tile->name), 0);
    for (uint32_t a = 0; a < box->alias_count; a++) {
      mm__buf_putc(out, ' ');
      put_escaped(out, box->aliases[a], strlen(box->aliases[a]), 0);
    }
  }
  mm__buf_putc(out, '"');
}

/* The split form's head of `fn` (MM_JSON_SPLIT_BODIES): what a closed card
 * and a search need, and where its source lines and its body are (the
 * body: {"allocations", "boxes", "live"}, at `body_at`, `body_len` long). */
static void put_function_split(mm_buf *out, const mm_function *fn, unsigned flags, size_t body_at,
                               size_t body_len) {
  put_function_head(out, fn, flags);
  put_skipped_list(out, fn);
  mm__json_int(out, ",\"box_count\":", (int64_t)fn->box_count);
  mm__json_int(out, ",\"source_bytes\":[", (int64_t)fn->source_offset);
  mm__json_int(out, ",", (int64_t)fn->source_bytes);
  mm__json_int(out, "],\"body\":[", (int64_t)body_at);
  mm__json_int(out, ",", (int64_t)body_len);
  mm__buf_puts(out, "],\"names\":");
  put_search_names(out, fn);
  mm__buf_putc(out, '}');
}

/* The JSON's size, roughly: the source lines plus about 400 bytes a box;
 * reserving it once spares the copies of a doubling buffer. */
size_t mm__json_size_guess(const mm_model *model, unsigned flags) {
  size_t size = 4096;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (!(flags & MM_JSON_WITHOUT_SOURCE)) size += fn->source_len + fn->source_len / 8;
    size += fn->box_count * 460 + 256;
  }
  return size;
}

char *mm_model_to_json(const mm_model *model, size_t *out_len) {
  return mm_model_to_json_with(model, 0, out_len);
}

void mm__json_generator(mm_buf *out) {
  mm__buf_puts(out, "\"generator\":");
  put_cstring(out, mm_generator());
}

mm_dump_fields mm__model_dump_fields(const mm_model *model) {
  return (mm_dump_fields){model->dump, model->pass_name, model->backend->name, model->backend->arch,
                          model->detected};
}

void mm__json_dump_fields(mm_buf *out, const mm_dump_fields *fields) {
  mm__buf_puts(out, "\"dump\":");
  put_cstring(out, fields->dump);
  mm__buf_puts(out, ",\"pass_name\":");
  put_cstring(out, fields->pass_name);
  mm__buf_puts(out, ",\"backend\":{\"name\":");
  put_cstring(out, fields->backend_name);
  mm__buf_puts(out, ",\"arch\":");
  put_cstring(out, fields->backend_arch);
  mm__buf_puts(out, ",\"detected\":");
  put_bool(out, fields->detected);
  mm__buf_putc(out, '}');
}

/* What the printer wrote that is not Python, read anyway (parser.h). */
static void put_notes(mm_buf *out, const mm_model *model) {
  mm__buf_puts(out, ",\"notes\":[");
  for (size_t i = 0; i < model->notes.len; i++) {
    const mm_note *n = mm__vec_at(&model->notes, i);
    mm__json_int(out, i ? ",{\"line\":" : "{\"line\":", n->line);
    mm__buf_puts(out, ",\"text\":");
    put_cstring(out, n->text);
    mm__buf_putc(out, '}');
  }
  mm__json_int(out, "],\"note_count\":", (int64_t)model->note_count);
}

/* A function's body in the split form: what a closed card does not need. */
static void put_body(mm_buf *out, const mm_function *fn) {
  mm__buf_putc(out, '{');
  put_allocations(out, fn);
  put_boxes(out, fn);
  put_lives(out, fn);
  mm__buf_putc(out, '}');
}

/* The split form's parts before the NUL (memory_map.h): each function's
 * body (MM_JSON_SPLIT_BODIES) or, given the bodies' offsets `body_at`, its
 * head (MM_JSON_SPLIT_HEADS), each followed by a newline. Returns their
 * offsets in `out` and, last, the end of the last (owned by the caller:
 * mm__dealloc), NULL when out of memory. */
static size_t *json_parts(mm_buf *out, const mm_model *model, unsigned flags,
                          const size_t *body_at) {
  size_t n = model->functions.len;
  size_t *at = mm__alloc((n + 1) * sizeof *at);
  if (!at) {
    out->failed = true;
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    at[i] = mm__buf_position(out);
    if (body_at)
      put_function_split(out, fn, flags, body_at[i], body_at[i + 1] - body_at[i]);
    else
      put_body(out, fn);
    mm__buf_putc(out, '\n');
  }
  at[n] = mm__buf_position(out);
  return at;
}

static void put_function_ref(mm_buf *out, const char *key, const mm_model *model, uint32_t index) {
  mm__buf_puts(out, key);
  if (index == MM_NONE)
    mm__buf_puts(out, "null");
  else
    put_cstring(out, ((const mm_function *)mm__vec_at(&model->functions, index))->name);
}

static void put_ring(mm_buf *out, const mm_model *model, const mm_ring *r) {
  mm__buf_puts(out, "{\"name\":");
  put_cstring(out, r->name);
  const char *direction = mm__ring_direction(model, r);
  mm__buf_puts(out, ",\"direction\":");
  if (direction)
    put_cstring(out, direction);
  else
    mm__buf_puts(out, "null");
  put_function_ref(out, ",\"consumer\":", model, r->consumer);
  mm__json_int_or_null(out, ",\"window\":", r->window != MM_NONE, r->window);
  put_function_ref(out, ",\"producer\":", model, r->producer);
  mm__json_int_or_null(out, ",\"import\":", r->import != MM_NONE, r->import);
  if (r->consumer != MM_NONE) {
    const mm_function *fn = mm__vec_at(&model->functions, r->consumer);
    const mm_window *w = &fn->windows[r->window];
    mm__buf_puts(out, ",\"space\":");
    put_cstring(out, w->space);
    mm__json_int(out, ",\"slot_size\":", w->slot_size);
    mm__json_int(out, ",\"slot_num\":", w->slot_num);
  }
  if (r->producer != MM_NONE) {
    const mm_function *fn = mm__vec_at(&model->functions, r->producer);
    const mm_import *imp = &fn->imports[r->import];
    mm__json_int_or_null(out, ",\"producer_slot_size\":", imp->slot_size > 0, imp->slot_size);
    mm__json_int_or_null(out, ",\"producer_slot_num\":", imp->slot_num > 0, imp->slot_num);
  }
  mm__json_int_or_null(out, ",\"max_slots\":", r->max_slots >= 0, r->max_slots);
  mm__buf_putc(out, '}');
}

/* The cross-core pipes (pipes.c): each with its two functions, its rings
 * and what one more slot, and the most slots, mean for them all. */
static void put_pipes(mm_buf *out, const mm_model *model) {
  mm__buf_puts(out, ",\n\"pipes\":[");
  for (size_t i = 0; i < model->pipe_count; i++) {
    const mm_pipe *p = &model->pipes[i];
    mm__buf_puts(out, i ? ",\n" : "");
    put_function_ref(out, "{\"functions\":[", model, p->first);
    put_function_ref(out, ",", model, p->second);
    mm__buf_puts(out, "],\"rings\":[");
    for (uint32_t k = 0; k < p->ring_count; k++) {
      if (k) mm__buf_putc(out, ',');
      put_ring(out, model, &p->rings[k]);
    }
    mm__buf_puts(out, "],\"one_more_slot_fits\":");
    mm__buf_puts(out, p->one_more_fits < 0 ? "null" : p->one_more_fits ? "true" : "false");
    mm__json_int_or_null(out, ",\"max_slots\":", p->max_slots >= 0, p->max_slots);
    mm__buf_putc(out, '}');
  }
  mm__buf_putc(out, ']');
}

/* The model's `,"by_headroom":[[function, "space"], ...]`: every space of
 * every function, least headroom first (ranking.c). */
static void put_ranking(mm_buf *out, const mm_model *model) {
  size_t count = 0;
  mm_ranked_space *ranked = mm__rank_by_headroom(model, &count);
  out->failed |= !ranked;
  mm__buf_puts(out, ",\"by_headroom\":[");
  for (size_t j = 0; ranked && j < count; j++) {
    mm__json_int(out, j ? ",[" : "[", ranked[j].function);
    mm__buf_putc(out, ',');
    put_cstring(out, ranked[j].space);
    mm__buf_putc(out, ']');
  }
  mm__buf_putc(out, ']');
  mm__dealloc(ranked);
}

/* The model's JSON, its heads pointing at the bodies at `at` (NULL: the
 * whole model), or, with `heads_at`, listing where its heads are. */
static void json_model_at(mm_buf *out, const mm_model *model, unsigned flags, const size_t *at,
                          const size_t *heads_at) {
  mm__buf_putc(out, '{');
  mm__json_generator(out);
  mm__buf_putc(out, ',');
  mm_dump_fields fields = mm__model_dump_fields(model);
  mm__json_dump_fields(out, &fields);
  put_notes(out, model);
  mm__buf_puts(out, ",\n\"functions\":[\n");
  for (size_t i = 0; i < model->functions.len; i++) {
    if (i) mm__buf_puts(out, ",\n");
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (heads_at) {
      mm__json_int(out, "[", (int64_t)heads_at[i]);
      mm__json_int(out, ",", (int64_t)(heads_at[i + 1] - heads_at[i]));
      mm__buf_putc(out, ']');
    } else if (at)
      put_function_split(out, fn, flags, at[i], at[i + 1] - at[i]);
    else
      put_function(out, fn, flags);
  }
  mm__buf_putc(out, ']');
  put_pipes(out, model);
  put_ranking(out, model);
  mm__buf_putc(out, '}');
}

void mm__json_model(mm_buf *out, const mm_model *model, unsigned flags) {
  if (!out->flush) mm__buf_reserve(out, mm__json_size_guess(model, flags));
  size_t *at = NULL;       /* the split form's body offsets */
  size_t *heads_at = NULL; /* and its heads', with MM_JSON_SPLIT_HEADS */
  if (flags & MM_JSON_SPLIT_BODIES) {
    at = json_parts(out, model, flags, NULL);
    if (!at) return;
    if (flags & MM_JSON_SPLIT_HEADS) heads_at = json_parts(out, model, flags, at);
    mm__buf_putc(out, '\0');
  }
  if (!out->failed) json_model_at(out, model, flags, at, heads_at);
  mm__dealloc(heads_at);
  mm__dealloc(at);
}

char *mm_model_to_json_with(const mm_model *model, unsigned flags, size_t *out_len) {
  mm_buf out = {0};
  mm__json_model(&out, model, flags);
  mm__buf_putc(&out, '\n');
  return mm__buf_finish(&out, out_len);
}

/* The streaming buffer's size: the page's JSON is about 7 MB for a 5 MB
 * dump; written through 128 KB, its pages are not faulted in one by one
 * and it stays in the cache until written. */
#define STREAM_BUFFER ((size_t)128 * 1024)

bool mm_model_write_json(const mm_model *model, unsigned flags, mm_sink sink, void *context) {
  mm_buf out = {0};
  if (mm__buf_reserve(&out, STREAM_BUFFER - 1)) { /* -1: the NUL's byte */
    out.flush = sink;
    out.flush_context = context;
    mm__json_model(&out, model, flags);
    mm__buf_putc(&out, '\n');
    mm__buf_flush(&out);
  }
  bool ok = !out.failed;
  mm__buf_free(&out);
  return ok;
}

void mm__json_error_fields(mm_buf *out, const mm_error *error) {
  mm__buf_puts(out, "\"error\":");
  put_cstring(out, mm_status_name(error->status));
  mm__buf_puts(out, ",\"message\":");
  put_cstring(out, error->message ? error->message : "");
  if (error->line) {
    mm__json_int(out, ",\"line\":", error->line);
  }
  if (error->column) {
    mm__json_int(out, ",\"column\":", error->column);
  }
  if (error->nothing_on_chip) mm__buf_puts(out, ",\"nothing_on_chip\":true");
  if (error->function_count) {
    mm__buf_puts(out, ",\"functions\":[");
    for (size_t i = 0; i < error->function_count; i++) {
      if (i) mm__buf_putc(out, ',');
      put_cstring(out, error->functions[i]);
    }
    mm__buf_putc(out, ']');
  }
}

char *mm_error_to_json(const mm_error *error, size_t *out_len) {
  mm_buf out = {0};
  mm__buf_putc(&out, '{');
  mm__json_error_fields(&out, error);
  mm__buf_puts(&out, "}\n");
  return mm__buf_finish(&out, out_len);
}

char *mm_backends_json(size_t *out_len) {
  mm_buf out = {0};
  mm__buf_putc(&out, '[');
  for (size_t i = 0; i < mm_backend_count(); i++) {
    const mm_backend *b = mm_backend_at(i);
    if (i) mm__buf_putc(&out, ',');
    mm__buf_puts(&out, "{\"name\":");
    put_cstring(&out, b->name);
    mm__buf_puts(&out, ",\"arch\":");
    put_cstring(&out, b->arch);
    mm__buf_puts(&out, ",\"capacities\":{");
    bool first = true;
    for (size_t s = 0; mm__space_at(s); s++) {
      const char *space = mm__space_at(s);
      uint64_t capacity = mm_backend_capacity(b, space, strlen(space));
      if (!capacity) continue;
      if (!first) mm__buf_putc(&out, ',');
      first = false;
      put_cstring(&out, space);
      mm__buf_putc(&out, ':');
      mm__buf_put_int(&out, (int64_t)capacity);
    }
    mm__buf_puts(&out, "}}");
  }
  mm__buf_puts(&out, "]");
  return mm__buf_finish(&out, out_len);
}
