/* bench_core.c: native core throughput. For each file, `runs` times: the
 * page's call (mm_analyze_json without the source lines, as the WASM
 * columns measure it) and the CLI's (the whole JSON), interleaved so both
 * see the same machine; prints one JSON line per file with the medians
 * and spread, MB/s of the page's call, and the process's peak RSS. */
#define _POSIX_C_SOURCE 200809L
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "memory_map.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Peak resident memory of this process image in KB. VmHWM, not getrusage:
 * ru_maxrss keeps the peak of the process that forked us (Node, when the
 * benchmark spawns this). */
static long peak_rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) kb = atol(line + 6);
  if (f) fclose(f);
  if (kb < 0) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    kb = usage.ru_maxrss;
  }
  return kb;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = malloc(n > 0 ? (size_t)n : 1);
  *len = data ? fread(data, 1, (size_t)n, f) : 0;
  fclose(f);
  return data;
}

int main(int argc, char **argv) {
  /* --page-only: the page's call alone (for instruction counts). */
  bool page_only = argc > 1 && strcmp(argv[1], "--page-only") == 0;
  if (page_only) {
    argv++;
    argc--;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: mm_bench [--page-only] RUNS FILE...\n");
    return 2;
  }
  /* Keep freed memory in the process (as a WASM heap does): runs after the
   * first then measure the core, not the kernel handing out fresh pages
   * (a first touch costs ~10 us a page on this VM). The first run of each
   * file is reported apart, as the cold time. */
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  int runs = atoi(argv[1]);
  if (runs < 1 || runs > 1000) runs = 5;
  double *times = malloc(sizeof(double) * (size_t)runs);
  double *whole_times = calloc((size_t)runs, sizeof(double));
  for (int f = 2; f < argc && times && whole_times; f++) {
    size_t len;
    char *input = slurp(argv[f], &len);
    if (!input) {
      fprintf(stderr, "cannot read %s\n", argv[f]);
      return 1;
    }
    const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
    for (int r = 0; r < runs; r++) {
      for (int whole = 0; whole < (page_only ? 1 : 2); whole++) {
        double t0 = now_ms();
        size_t json_len = 0;
        char *json = mm_analyze_json(input, len, &(mm_options){.dump_name = name},
                                     whole ? 0 : MM_JSON_WITHOUT_SOURCE, &json_len);
        (whole ? whole_times : times)[r] = now_ms() - t0;
        if (!json || strncmp(json, "{\"error\"", 9) == 0) {
          fprintf(stderr, "%s: %.200s\n", argv[f], json ? json : "out of memory");
          return 1;
        }
        mm_free(json);
      }
    }
    double cold = times[0];
    /* Warm runs: all but the first (the first alone when there is one run). */
    int skip = runs > 1 ? 1 : 0, warm_runs = runs - skip;
    double *warm = times + skip, *whole_warm = whole_times + skip;
    qsort(warm, (size_t)warm_runs, sizeof *warm, compare_doubles);
    qsort(whole_warm, (size_t)warm_runs, sizeof *whole_warm, compare_doubles);
    double median = warm[warm_runs / 2];
    printf("{\"file\":\"%s\",\"bytes\":%zu,\"runs\":%d,\"cold_ms\":%.3f,"
           "\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"mb_per_s\":%.1f,"
           "\"whole_median_ms\":%.3f,\"peak_rss_kb\":%ld}\n",
           name, len, runs, cold, median, warm[0], warm[warm_runs - 1],
           median > 0 ? len / 1e6 / (median / 1e3) : 0.0, whole_warm[warm_runs / 2], peak_rss_kb());
    free(input);
  }
  free(times);
  free(whole_times);
  return 0;
}
