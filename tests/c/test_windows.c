/* test_windows.c: reserved windows and uses in the model (windows.c,
 * uses.c), read through the public call and checked on the model's own
 * structures: each window's place, slots, conflicts and the ring's next
 * slot; each box's uses and idle span. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "memory_map.h"
#include "model/model.h"
#include "model/uses.h"

/* A dump of the given functions, each `type` then body lines (8 spaces). */
static char *dump(const char *const *parts) {
  static char text[8192];
  size_t n =
      (size_t)snprintf(text, sizeof text, "import pypto.language as pl\n\n@pl.program\nclass T:\n");
  for (size_t i = 0; parts[i]; i++) {
    if (strncmp(parts[i], "def ", 4) == 0)
      n += (size_t)snprintf(text + n, sizeof text - n,
                            "    @pl.function(type=pl.FunctionType.%s)\n    %s\n", parts[i + 1],
                            parts[i]);
    else if (i == 0 || strncmp(parts[i - 1], "def ", 4) != 0)
      n += (size_t)snprintf(text + n, sizeof text - n, "        %s\n", parts[i]);
  }
  return text;
}

#define VEC(name, base, offset, size)                                                              \
  name ": pl.Tile[[16, 64], pl.FP32, pl.MemRef(" base ", pl.const(" #offset ", pl.INT64), " #size  \
       "), pl.Mem.Vec] = pl.tile.load(x)"
#define MAT(name, base, offset, size)                                                              \
  name ": pl.Tile[[16, 64], pl.FP32, pl.MemRef(" base ", pl.const(" #offset ", pl.INT64), " #size  \
       "), pl.Mem.Mat] = pl.tile.load(x)"

static mm_model *parse(const char *text) {
  mm_error error;
  mm_model *m = mm_model_new(text, strlen(text), NULL, &error);
  if (!m) fprintf(stderr, "refused: %s (line %u)\n", error.message, error.line);
  mm_error_clear(&error);
  return m;
}

static const mm_function *function(const mm_model *m, size_t i) {
  return i < m->functions.len ? mm__vec_at(&m->functions, i) : NULL;
}

static const mm_space_usage *space(const mm_function *fn, const char *name) {
  for (size_t k = 0; k < fn->space_count; k++)
    if (strcmp(fn->spaces[k].space, name) == 0) return &fn->spaces[k];
  return NULL;
}

static const mm_box *box(const mm_function *fn, const char *name) {
  for (size_t i = 0; i < fn->box_count; i++)
    if (strcmp(fn->boxes[i].tile->name, name) == 0) return &fn->boxes[i];
  return NULL;
}

/* Keywords in any order, either quote, pl.const or a plain base; Vec in
 * AIV and InCore, Mat in AIC. */
static void test_reading(void) {
  const char *parts[] = {"def v(self):",
                         "AIV",
                         "r: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(size=4096, "
                         "base=pl.const(0, pl.INT64), name=\"ring_v\")",
                         VEC("t", "mem_vec_1", 4096, 1024),
                         "def c(self):",
                         "AIC",
                         "pl.system.reserve_buffer(base=0, name='ring_c', size=2048)",
                         MAT("u", "mem_mat_1", 2048, 1024),
                         "def i(self):",
                         "InCore",
                         "q = pl.system.reserve_buffer(name='ring_i', size=512, base=512)",
                         VEC("w", "mem_vec_1", 1024, 1024),
                         NULL};
  mm_model *m = parse(dump(parts));
  CHECK(m && m->functions.len == 3);
  if (!m) return;
  const char *names[] = {"ring_v", "ring_c", "ring_i"}, *spaces[] = {"Vec", "Mat", "Vec"};
  const int64_t bases[] = {0, 0, 512}, sizes[] = {4096, 2048, 512};
  for (size_t i = 0; i < 3; i++) {
    const mm_function *fn = function(m, i);
    CHECK(fn->window_count == 1);
    const mm_window *w = &fn->windows[0];
    CHECK(strcmp(w->name, names[i]) == 0);
    CHECK(strcmp(w->space, spaces[i]) == 0);
    CHECK(w->placed && w->base == bases[i] && w->size == sizes[i]);
    CHECK(w->partner_total == 0);
    const mm_space_usage *u = space(fn, spaces[i]);
    CHECK(u && u->reserved_bytes == sizes[i] && !u->reserved_only);
  }
  CHECK(function(m, 0)->windows[0].bound && strcmp(function(m, 0)->windows[0].bound, "r") == 0);
  CHECK(function(m, 1)->windows[0].bound == NULL); /* an expression statement */
  mm_model_free(m);
}

/* A window in a space with no tile gets a space of its own; liveness
 * counts it on every line; an unresolved base is listed, not placed. */
static void test_window_only_space_and_unresolved_base(void) {
  const char *parts[] = {"def c(self):",
                         "AIC",
                         "a = pl.system.reserve_buffer(name='ring', size=8192, base=0)",
                         "b = pl.system.reserve_buffer(name='later', size=8192, base=AUTO)",
                         "pl.system.aic_initialize_pipe(a, b, dir_mask=3, slot_size=2048)",
                         "x: pl.Tile[[16, 64], pl.FP32, pl.MemRef(mem_left_1, pl.const(0, "
                         "pl.INT64), 1024), pl.Mem.Left] = f()",
                         NULL};
  mm_model *m = parse(dump(parts));
  CHECK(m != NULL);
  if (!m) return;
  const mm_function *fn = function(m, 0);
  CHECK(fn->window_count == 2);
  CHECK(fn->windows[0].placed && fn->windows[0].slot_size == 2048 && fn->windows[0].slot_num == 4);
  CHECK(!fn->windows[1].placed && !fn->windows[1].base_known && fn->windows[1].size_known);
  CHECK(fn->windows[1].slot_size == 2048); /* named by the pipe too */
  const mm_space_usage *mat = space(fn, "Mat");
  CHECK(mat && mat->reserved_only && mat->reserved_bytes == 8192 && mat->hwm_all == 8192);
  CHECK(mat && mat->peak_live == 8192 && mat->fragmentation == 0 && mat->limit == 524288);
  CHECK(mat && mat->profile_len >= 1 && mat->profile[0].line == fn->src_start);
  CHECK(fn->windows[0].grown_hwm == 8192 + 2048);
  const mm_space_usage *left = space(fn, "Left");
  CHECK(left && !left->reserved_only && left->reserved_bytes == 0);
  mm_model_free(m);
}

/* A tile sharing a window's bytes is a conflict whatever its lines; the
 * one above it moves up with one more slot. */
static void test_conflict_and_ring_growth(void) {
  const char *parts[] = {"def v(self):",
                         "AIV",
                         "r = pl.system.reserve_buffer(name='ring', size=4096, base=0)",
                         "pl.system.aiv_initialize_pipe(r, dir_mask=1, slot_size=1024, slot_num=4)",
                         VEC("low", "mem_vec_1", 3072, 2048),
                         VEC("high", "mem_vec_2", 8192, 1024),
                         "y = high",
                         NULL};
  mm_model *m = parse(dump(parts));
  CHECK(m != NULL);
  if (!m) return;
  const mm_function *fn = function(m, 0);
  const mm_window *w = &fn->windows[0];
  CHECK(w->partner_total == 1 && fn->boxes[w->partners[0]].tile == box(fn, "low")->tile);
  CHECK(box(fn, "low")->window_partner_total == 1 && box(fn, "low")->window_partners[0] == 0);
  CHECK(box(fn, "high")->window_partner_total == 0);
  CHECK(!box(fn, "low")->conflict); /* model.md's conflict stays between boxes */
  CHECK(w->grown_hwm == 8192 + 1024 + 1024);
  size_t anomalies = 0, len;
  char *text = mm_model_check_text(m, "d.py", &len, &anomalies);
  CHECK(text && anomalies == 1 && strstr(text, "shares bytes with reserved window 'ring'"));
  mm_free(text);
  mm_model_free(m);
}

/* Uses: every line binding or reading a name, merged aliases together;
 * idle is the longest gap between two (none for a tile used on one line). */
static void test_uses_and_idle(void) {
  const char *parts[] = {
      "def v(self):",
      "AIV",
      VEC("once", "mem_vec_1", 0, 64), /* line 7 */
      VEC("a", "mem_vec_2", 64, 64),   /* line 8 */
      "y = f(a)",                      /* line 9 */
      "z = 1",                         /* 10 */
      "z = 2",                         /* 11 */
      VEC("b", "mem_vec_2", 64, 64),   /* line 12: same slot, touching a's lifetime? no */
      "w = g(a,",
      "      b)", /* lines 13-14: a read on 13, b on 14 */
      NULL};
  mm_model *m = parse(dump(parts));
  CHECK(m != NULL);
  if (!m) return;
  const mm_function *fn = function(m, 0);
  const mm_box *once = box(fn, "once");
  CHECK(once && once->use_count == 1 && once->uses[0] == 7 && once->idle_from == 0);
  const mm_box *a = box(fn, "a");
  CHECK(a && a->alias_count == 1 && strcmp(a->aliases[0], "b") == 0);
  const uint32_t expect[] = {8, 9, 12, 13, 14};
  CHECK(a && a->use_count == 5 && memcmp(a->uses, expect, sizeof expect) == 0);
  CHECK(a && a->idle_from == 10 && a->idle_to == 11);
  CHECK(a && a->uses[0] == a->start && a->uses[a->use_count - 1] == a->end);
  mm_model_free(m);
}

/* Windows sharing bytes: their union is what they take, and the later
 * one (by base) is flagged; --check says so. */
static void test_overlapping_windows(void) {
  const char *parts[] = {"def v(self):",
                         "AIV",
                         "a = pl.system.reserve_buffer(name='a', size=32768, base=4096)",
                         "b = pl.system.reserve_buffer(name='b', size=32768, base=0)",
                         "c = pl.system.reserve_buffer(name='c', size=1024, base=65536)",
                         VEC("t", "mem_vec_1", 70000, 64),
                         NULL};
  mm_model *m = parse(dump(parts));
  CHECK(m != NULL);
  if (!m) return;
  const mm_function *fn = function(m, 0);
  const mm_space_usage *u = space(fn, "Vec");
  CHECK(u && u->reserved_bytes == 36864 + 1024 && u->hwm_all == 70064);
  CHECK(fn->windows[0].overlaps == 1 && fn->windows[1].overlaps == -1 &&
        fn->windows[2].overlaps == -1);
  size_t anomalies = 0, len;
  char *text = mm_model_check_text(m, "d.py", &len, &anomalies);
  CHECK(text && anomalies == 1 &&
        strstr(text, "conflict in v: Vec reserved window 'a' (bytes 4096..36864, line 7) shares "
                     "bytes with reserved window 'b'"));
  mm_free(text);
  mm_model_free(m);
}

/* Thousands of windows on thousands of tiles: the counts stay exact, the
 * lists short, the output and the time bounded. */
static void test_many_windows(void) {
  enum { N = 3000 };
  size_t cap = (size_t)N * 220 + 4096, n = 0;
  char *text = malloc(cap);
  n += (size_t)snprintf(text + n, cap - n,
                        "import pypto.language as pl\nclass T:\n    "
                        "@pl.function(type=pl.FunctionType.AIV)\n    def v(self):\n");
  for (int i = 0; i < N; i++)
    n += (size_t)snprintf(
        text + n, cap - n,
        "        w%d = pl.system.reserve_buffer(name='w%d', size=65536, base=0)\n", i, i);
  for (int i = 0; i < N; i++)
    n +=
        (size_t)snprintf(text + n, cap - n,
                         "        t%d: pl.Tile[[1], pl.FP32, pl.MemRef(m%d, %d, 16), pl.Mem.Vec] = "
                         "f()\n",
                         i, i, i * 16);
  mm_model *m = parse(text);
  CHECK(m != NULL);
  if (m) {
    const mm_function *fn = function(m, 0);
    CHECK(fn->windows[0].partner_total == N && fn->windows[0].partner_count == MM_BOX_PARTNERS);
    CHECK(fn->boxes[0].window_partner_total == N &&
          fn->boxes[0].window_partner_count == MM_BOX_PARTNERS);
    CHECK(space(fn, "Vec")->reserved_bytes == 65536);
    size_t len = 0;
    char *json = mm_model_to_json(m, &len);
    /* Linear: 360 B a statement, source included, and each window's
     * listed conflicts again in its anomalies. */
    CHECK(json && len < (size_t)N * 2000);
    mm_free(json);
    char *check = mm_model_check_text(m, "d.py", &len, NULL);
    CHECK(check && len < (size_t)N * 2000);
    mm_free(check);
  }
  mm_model_free(m);
  free(text);
}

/* bytes x idle lines stays within 2^53 (a JSON reader holds it exactly). */
static void test_idle_cost_saturates(void) {
  char text[4096];
  int n =
      snprintf(text, sizeof text,
               "import pypto.language as pl\nclass T:\n    "
               "@pl.function(type=pl.FunctionType.AIV)\n    def v(self):\n"
               "        t: pl.Tile[[1], pl.FP32, pl.MemRef(m, 0, 9007199254740992), pl.Mem.Vec] "
               "= f()\n");
  for (int i = 0; i < 40; i++)
    n += snprintf(text + n, sizeof text - (size_t)n, "        x = 1\n");
  snprintf(text + n, sizeof text - (size_t)n, "        y = t\n");
  mm_model *m = parse(text);
  CHECK(m != NULL);
  if (m) CHECK(mm__idle_cost(&function(m, 0)->boxes[0]) == (int64_t)1 << 53);
  mm_model_free(m);
}

int main(void) {
  test_reading();
  test_window_only_space_and_unresolved_base();
  test_conflict_and_ring_growth();
  test_uses_and_idle();
  test_overlapping_windows();
  test_many_windows();
  test_idle_cost_saturates();
  return check_report("test_windows");
}
