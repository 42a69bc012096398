/* cli_commands.h: the commands main runs: on one dump (cli_single.c),
 * --diff of two (cli_diff.c), and a build of many cases (cli_build.c). */
#ifndef MM_CLI_COMMANDS_H
#define MM_CLI_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_args.h"

/* Runs one dump (`args->path`): its page or JSON, --summary and --check,
 * --svg or --fit; the exit code. */
int cli_run_single(const cli_args *args);

/* Runs --diff: both sides read and modelled, compared, and the report,
 * the regressions, the JSON or the page written; the exit code. */
int cli_run_diff(const cli_args *args);

/* Whether `dir` is a case folder (passes_dump/, ptoas/ or dumps of its
 * own). */
bool cli_is_case(const char *dir);

/* A build's case folders, owned: release with cli_cases_free. */
typedef struct cli_cases {
  char **paths;
  size_t count, cap;
} cli_cases;

/* The case folders under `dir` in name order, when it is a build (none
 * when it is a case, a file or missing); false when out of memory. */
bool cli_find_cases(const char *dir, cli_cases *cases);
void cli_cases_free(cli_cases *cases);

/* Runs a build: every case of `cases`, or (NULL) the one dump, case or
 * standard input `args->path` names, into the core's build; the summary,
 * check, JSON or JUnit report; the exit code. */
int cli_run_build(const cli_args *args, const cli_cases *cases);

#endif
