/* check.h: the C tests' one assertion: report the failed condition with
 * its place and keep going, so one run lists every failure. */
#ifndef MM_TEST_CHECK_H
#define MM_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, __func__, #cond);       \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

/* The end of main: the verdict tests/core/c.test.mjs looks for. */
static int check_report(const char *suite) {
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("%s: all checks passed\n", suite);
  return 0;
}

#endif
