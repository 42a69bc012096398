/* test_liveness.c: the live-bytes profile, peak live, fragmentation, peak
 * composition, conflict partners and the text reports, on hand-made dumps
 * whose figures can be worked out by hand (the comments do the sums). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "memory_map.h"
#include "model/model.h"

#define HEAD                                                                                       \
  "class P:\n"                                                                                     \
  "    @pl.function(type=pl.FunctionType.AIV)\n"                                                   \
  "    def k(self):\n"
#define TILE(name, base, offset, size, space, value)                                               \
  "        " name ": pl.Tile[[4], pl.FP32, pl.MemRef(" base ", " offset ", " size                  \
  "), pl.Mem." space "] = " value "\n"

static mm_model *parse(const char *dump) {
  mm_error error;
  mm_model *model = mm_model_new(dump, strlen(dump), NULL, &error);
  if (!model) fprintf(stderr, "parse failed: %s (line %u)\n", error.message, error.line);
  mm_error_clear(&error);
  return model;
}

static const mm_space_usage *space(const mm_model *model, const char *name) {
  const mm_function *fn = mm__vec_at(&model->functions, 0);
  for (size_t k = 0; k < fn->space_count; k++)
    if (strcmp(fn->spaces[k].space, name) == 0) return &fn->spaces[k];
  return NULL;
}

static const char *box_name(const mm_model *model, uint32_t index) {
  const mm_function *fn = mm__vec_at(&model->functions, 0);
  return index < fn->box_count ? fn->boxes[index].tile->name : "?";
}

/* Expects the profile to be exactly `n` steps of (line, bytes). */
static bool profile_is(const mm_space_usage *u, const uint32_t (*steps)[2], size_t n) {
  if (!u || u->profile_len != n) return false;
  for (size_t i = 0; i < n; i++)
    if (u->profile[i].line != steps[i][0] || u->profile[i].bytes != (int64_t)steps[i][1])
      return false;
  return true;
}

/* A 256-byte view inside its 1024-byte parent: live bytes stay 1024. */
static void test_view_counts_once(void) {
  mm_model *model = parse(HEAD TILE("p", "m", "0", "1024", "Vec", "f()")       /* 4 */
                          TILE("v", "m", "256", "256", "Vec", "tile.slice(p)") /* 5 */
                          "        g(v)\n"                                     /* 6 */
                          "        g(p)\n"                                     /* 7 */
                          "        return p\n");                               /* 8 */
  const mm_space_usage *u = model ? space(model, "Vec") : NULL;
  static const uint32_t steps[][2] = {{4, 1024}, {9, 0}};
  CHECK(u && u->hwm == 1024 && u->peak_live == 1024 && u->fragmentation == 0);
  CHECK(profile_is(u, steps, 2));
  CHECK(u && u->peak_line == 4 && u->peak_box_count == 1);
  CHECK(u && strcmp(box_name(model, u->peak_boxes[0]), "p") == 0);
  mm_model_free(model);
}

/* One slot used twice with a gap between: two boxes, the profile drops to
 * zero on the line between them. */
static void test_reuse(void) {
  mm_model *model = parse(HEAD TILE("a", "m", "0", "256", "Vec", "f()") /* 4 */
                          "        g(a)\n"                              /* 5 */
                          "        h()\n"                               /* 6 */
                          TILE("b", "m", "0", "256", "Vec", "f()")      /* 7 */
                          "        return b\n");                        /* 8 */
  const mm_space_usage *u = model ? space(model, "Vec") : NULL;
  static const uint32_t steps[][2] = {{4, 256}, {6, 0}, {7, 256}, {9, 0}};
  CHECK(u && u->tiles == 2 && u->peak_live == 256 && u->peak_line == 4);
  CHECK(profile_is(u, steps, 4));
  CHECK(u && u->fragmentation == 0);
  mm_model_free(model);
}

/* `a` [0, 256) dies on line 5, but `c` is placed at [512, 1024) above `b`
 * [256, 512) instead of in a's gap: hwm 1024, at most 768 live (line 6 on),
 * 256 bytes lost to fragmentation. Peak composition: c (512), b (256). */
static void test_gap_left_by_freed_tile(void) {
  mm_model *model = parse(HEAD TILE("a", "m1", "0", "256", "Vec", "f()") /* 4 */
                          TILE("b", "m2", "256", "256", "Vec", "f(a)")   /* 5 */
                          TILE("c", "m3", "512", "512", "Vec", "f()")    /* 6 */
                          "        g(b)\n"                               /* 7 */
                          "        g(c)\n"                               /* 8 */
                          "        return b, c\n");                      /* 9 */
  const mm_space_usage *u = model ? space(model, "Vec") : NULL;
  static const uint32_t steps[][2] = {{4, 256}, {5, 512}, {6, 768}, {10, 0}};
  CHECK(u && u->hwm == 1024 && u->peak_live == 768 && u->peak_line == 6);
  CHECK(u && u->fragmentation == 256);
  CHECK(profile_is(u, steps, 4));
  CHECK(u && u->peak_box_count == 2);
  CHECK(u && strcmp(box_name(model, u->peak_boxes[0]), "c") == 0 &&
        strcmp(box_name(model, u->peak_boxes[1]), "b") == 0);
  mm_model_free(model);
}

/* Spaces are separate: a Mat tile never counts in Vec's profile. */
static void test_spaces_apart(void) {
  mm_model *model = parse(HEAD TILE("a", "m1", "0", "512", "Vec", "f()") /* 4 */
                          TILE("b", "m2", "0", "2048", "Mat", "f(a)")    /* 5 */
                          "        return b\n");                         /* 6 */
  const mm_space_usage *vec = model ? space(model, "Vec") : NULL;
  const mm_space_usage *mat = model ? space(model, "Mat") : NULL;
  CHECK(vec && vec->peak_live == 512 && mat && mat->peak_live == 2048);
  CHECK(mat && mat->peak_line == 5 && mat->peak_boxes[0] != vec->peak_boxes[0]);
  mm_model_free(model);
}

/* Two bases sharing bytes while live, and a Bias tile past 910B's 1 KB. */
static const char *anomalies_dump = HEAD TILE("a", "m1", "0", "512", "Vec", "f()") /* 4 */
    TILE("b", "m2", "256", "512", "Vec", "f(a)")                                   /* 5 */
    TILE("bias", "m3", "0", "2048", "Bias", "f(b)")                                /* 6 */
    "        return bias\n";                                                       /* 7 */

static void test_conflict_partners_and_check(void) {
  mm_model *model = parse(anomalies_dump);
  const mm_function *fn = model ? mm__vec_at(&model->functions, 0) : NULL;
  CHECK(fn && fn->box_count == 3);
  for (size_t i = 0; fn && i < fn->box_count; i++) {
    const mm_box *box = &fn->boxes[i];
    bool in_vec = strcmp(box->tile->space, "Vec") == 0;
    CHECK(box->conflict == in_vec && box->partner_total == (in_vec ? 1u : 0u));
    if (in_vec) CHECK(strcmp(box_name(model, box->partners[0]), box->tile->name) != 0);
  }
  size_t len = 0, anomalies = 0;
  char *text = model ? mm_model_check_text(model, "case.py", &len, &anomalies) : NULL;
  CHECK(text && anomalies == 2 && strlen(text) == len);
  CHECK(text && strstr(text, "case.py:5: conflict in k: Vec 'a' (m1, bytes 0..512, lines 4-5) "
                             "shares bytes with 'b' (m2, bytes 256..768, lines 5-6)"));
  CHECK(text && strstr(text, "case.py:6: over capacity in k: Bias 'bias'"));
  CHECK(text && strstr(text, "outside the capacity 0..1024"));
  CHECK(text && strstr(text, "2 problems"));
  mm_free(text);
  text = model ? mm_model_summary_text(model, &len) : NULL;
  CHECK(text && strncmp(text, "function  space", 15) == 0);
  /* Vec: hwm 768, 188416 capacity, 0.4 %, nothing reserved, 187648
   * left, peak 768 on line 5, no loss */
  CHECK(text &&
        strstr(text, "k         Vec     768    188416    0.4%         0    187648        768"
                     "              0          5\n"));
  mm_free(text);
  mm_model_free(model);
}

/* One big tile under ten others of other bases: ten pairs, each printed
 * once although `big` keeps only eight partners, and a note. */
static void test_check_past_the_kept_partners(void) {
  char dump[4096];
  size_t n =
      (size_t)snprintf(dump, sizeof dump, "%s", HEAD TILE("big", "m0", "0", "4096", "Vec", "f()"));
  for (int i = 1; i <= 10; i++)
    n +=
        (size_t)snprintf(dump + n, sizeof dump - n,
                         "        s%d: pl.Tile[[4], pl.FP32, pl.MemRef(m%d, %d, 64), pl.Mem.Vec] = "
                         "f(big)\n",
                         i, i, i * 256);
  snprintf(dump + n, sizeof dump - n,
           "        return big, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10\n");
  mm_model *model = parse(dump);
  size_t anomalies = 0;
  char *text = model ? mm_model_check_text(model, "x.py", NULL, &anomalies) : NULL;
  CHECK(text && anomalies == 10);
  size_t pairs = 0;
  for (const char *at = text; at && (at = strstr(at, ": conflict in k: ")); at++)
    pairs++;
  CHECK(pairs == 10);
  for (int i = 1; text && i <= 10; i++) {
    char name[16];
    snprintf(name, sizeof name, "'s%d' (", i);
    CHECK(strstr(text, name) != NULL);
  }
  CHECK(text && strstr(text, "  (and 2 more conflicts of 'big')\n"));
  mm_free(text);
  mm_model_free(model);
}

static void test_check_when_clean(void) {
  mm_model *model = parse(HEAD TILE("a", "m", "0", "64", "Vec", "f()") "        return a\n");
  size_t anomalies = 7;
  char *text = model ? mm_model_check_text(model, NULL, NULL, &anomalies) : NULL;
  CHECK(text && anomalies == 0 &&
        strstr(text, "no conflicts, no tile over capacity and no unplaced tile"));
  mm_free(text);
  mm_model_free(model);
}

int main(void) {
  test_view_counts_once();
  test_reuse();
  test_gap_left_by_freed_tile();
  test_spaces_apart();
  test_conflict_partners_and_check();
  test_check_past_the_kept_partners();
  test_check_when_clean();
  return check_report("test_liveness");
}
