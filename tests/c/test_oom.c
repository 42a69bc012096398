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

int main(void) {
  size_t len;
  mm__fault_at = -1;
  mm__alloc_count = 0;
  char *full = mm_analyze_json(dump, sizeof dump - 1, "d.py", NULL, NULL, 0, 0, &len);
  long total = mm__alloc_count;
  if (!full || strstr(full, "\"error\"")) {
    fprintf(stderr, "the dump did not model without faults: %s\n", full ? full : "(null)");
    return 1;
  }
  int failures = 0;
  for (long n = 0; n <= total; n++) {
    mm__fault_at = n;
    mm__alloc_count = 0;
    char *json = mm_analyze_json(dump, sizeof dump - 1, "d.py", NULL, NULL, 0, 0, &len);
    /* NULL (not even the error fits), the out-of-memory error, or the
     * complete model: never anything else. */
    if (json && strcmp(json, full) != 0 && !strstr(json, "\"error\":\"no_memory\"")) {
      fprintf(stderr, "allocation %ld failing gave: %.200s\n", n, json);
      failures++;
    }
    mm_free(json);
  }
  mm_free(full);
  if (failures) return 1;
  printf("test_oom: all checks passed (%ld allocation points)\n", total + 1);
  return 0;
}
