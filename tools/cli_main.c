/* cli_main.c: the memory-map command line (docs/cli.md), built natively
 * and for WASI (tools/memory-map runs that under Node): its arguments
 * read, then the command they name run on one dump, two, or a build. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__ /* defined by the headers above */
#include <malloc.h>
#endif

#include "cli_args.h"
#include "cli_commands.h"

/* A build folder given nothing to do for all its cases, or --svg. */
static int build_usage(const cli_args *args, size_t cases) {
  if (args->svg)
    fprintf(stderr,
            "%smemory-map: error: %s is a build of %zu cases: --svg draws a function of "
            "one case; give its folder\n",
            CLI_USAGE, args->path, cases);
  else
    fprintf(stderr,
            "%smemory-map: error: %s is a build (%zu cases): give --summary, --check, --json or "
            "--junit for all of them, or one case's folder for its page\n",
            CLI_USAGE, args->path, cases);
  return 2;
}

/* A folder of cases, or thresholds or a JUnit report: the build's way;
 * else the one dump's. */
static int run_build_or_dump(const cli_args *args) {
  cli_cases cases = {0};
  if (strcmp(args->path, STDIN_PATH) != 0 && !cli_find_cases(args->path, &cases)) {
    cli_cases_free(&cases);
    fprintf(stderr, "error: out of memory\n");
    return 1;
  }
  bool reports = args->check || args->summary || args->json || args->junit;
  int status = cases.count && (args->svg || !reports) ? build_usage(args, cases.count)
               : cases.count || args->junit || args->limit_count
                   ? cli_run_build(args, cases.count ? &cases : NULL)
                   : cli_run_single(args);
  cli_cases_free(&cases);
  return status;
}

int main(int argc, char **argv) {
#ifdef __GLIBC__
  /* A short-lived process: keep freed memory for the next case rather
   * than hand it back and fault it in again (a build of 2,500 cases made
   * 5,600 brk calls and 2,500 maps, a sixth of its time). */
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  /* Setting one fixes the other, which would then map and unmap every
   * block from 128 KB: big blocks come from the heap up to 32 MB. */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
#ifdef __wasi__
  /* A WASI program starts in "/": the Node wrapper passes the shell's
   * working directory, so relative paths resolve, and read, as given. */
  const char *pwd = getenv("PWD");
  if (pwd && chdir(pwd) != 0) {
    fprintf(stderr, "error: %s: %s\n", pwd, strerror(errno));
    return 1;
  }
#endif
  cli_args args = {0};
  int parsed = cli_parse_args(argc, argv, &args);
  if (parsed == 3) {
    cli_print_help();
    return 0;
  }
  if (parsed == 4) {
    printf("%s\n", mm_generator());
    return 0;
  }
  return parsed ? parsed : args.diff_old ? cli_run_diff(&args) : run_build_or_dump(&args);
}
