/* test_oom.c: out of memory at every allocation of a whole run, SQLite
 * style: the Nth allocation and all after it fail, for every N. Each run
 * must give a model or an out-of-memory answer: no crash, no leak (ASan
 * build), never a partial model. */
#include <stdio.h>
#include <string.h>

#include "memory_map.h"

extern long mm__fault_at;
extern long mm__alloc_count;

static const char dump[] =
    "class P:\n"
    "    @pl.function(type=pl.FunctionType.AIV)\n"
    "    def k(self, p: pl.Tile[[4], pl.FP32, pl.MemRef(mp, 0, 64), pl.Mem.Vec]):\n"
    "        a: pl.Tile[[4], pl.FP32, pl.MemRef(\"m\\x61\", pl.const(64), 64), pl.Mem.Vec] = "
    "pl.tile.load(p)\n"
    "        if a:\n"
    "            b: pl.Tile[[4], pl.FP32, pl.MemRef(mb, 64, 128), pl.Mem.Vec] = f(f\"{a!r}\", "
    "*[a])\n"
    "        c: pl.Tile[[4], pl.FP32, pl.MemRef(mc, 0, 64), pl.Mem.Mat] = pl.yield_(b)\n"
    "        return [x for x in (a, b, c)]\n";

/* A second version: b moved; c removed; a new tile d over capacity, an
 * anomaly that appeared. */
static const char changed[] =
    "class P:\n"
    "    @pl.function(type=pl.FunctionType.AIV)\n"
    "    def k(self, p: pl.Tile[[4], pl.FP32, pl.MemRef(mp, 0, 64), pl.Mem.Vec]):\n"
    "        a: pl.Tile[[4], pl.FP32, pl.MemRef(\"m\\x61\", pl.const(64), 64), pl.Mem.Vec] = "
    "pl.tile.load(p)\n"
    "        if a:\n"
    "            b: pl.Tile[[4], pl.FP32, pl.MemRef(mb, 32, 128), pl.Mem.Vec] = f(a)\n"
    "        d: pl.Tile[[4], pl.FP32, pl.MemRef(md, 0, 600000), pl.Mem.Mat] = pl.yield_(b)\n"
    "        return [x for x in (a, b, d)]\n";

static char *analyze(size_t *len) {
  return mm_analyze_json(dump, sizeof dump - 1, &(mm_options){.dump_name = "d.py"}, 0, len);
}

static char *compare(size_t *len) {
  return mm_compare_json(dump, sizeof dump - 1, &(mm_options){.dump_name = "old.py"}, changed,
                         sizeof changed - 1, &(mm_options){.dump_name = "new.py"}, 0, len);
}

/* A comparison's side, its model split as the page reads it: bodies and
 * heads before a NUL. */
static char *side(size_t *len) {
  char *bytes = NULL;
  size_t bytes_len = 0;
  char *json =
      mm_analyze_json_side(dump, sizeof dump - 1, &(mm_options){.dump_name = "d.py"},
                           MM_JSON_SPLIT_BODIES | MM_JSON_SPLIT_HEADS, len, &bytes, &bytes_len);
  mm_free(bytes);
  return json;
}

static char *svg(size_t *len) {
  mm_svg_options view = {.axis_used = true, .hidden = "Mat", .zoom = 2.0, .map_width = 640};
  return mm_analyze_svg(dump, sizeof dump - 1, &(mm_options){.dump_name = "d.py"}, 0, &view, len);
}

/* Fails the Nth allocation of `call`, for every N: the complete answer,
 * the out-of-memory error, or NULL; never anything else. */
static int every_fault(const char *what, char *(*call)(size_t *)) {
  size_t len, full_len;
  mm__fault_at = -1;
  mm__alloc_count = 0;
  char *full = call(&full_len);
  long total = mm__alloc_count;
  if (!full || strstr(full, "\"error\"")) {
    fprintf(stderr, "%s did not run without faults: %s\n", what, full ? full : "(null)");
    return 1;
  }
  int failures = 0;
  for (long n = 0; n <= total; n++) {
    mm__fault_at = n;
    mm__alloc_count = 0;
    char *json = call(&len);
    /* By length: the split form holds a NUL. */
    bool same = json && len == full_len && memcmp(json, full, len) == 0;
    if (json && !same && !strstr(json, "\"error\":\"no_memory\"")) {
      fprintf(stderr, "%s: allocation %ld failing gave: %.200s\n", what, n, json);
      failures++;
    }
    mm_free(json);
  }
  mm_free(full);
  printf("test_oom: %s at %ld allocation points\n", what, total + 1);
  return failures;
}

int main(void) {
  int failures = every_fault("one dump", analyze) + every_fault("a comparison", compare) +
                 every_fault("a comparison's side", side) + every_fault("an SVG", svg);
  if (failures) return 1;
  printf("test_oom: all checks passed\n");
  return 0;
}
