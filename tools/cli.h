/* cli.h: what the command line's files share (cli.c reads and writes
 * single dumps, cli_diff.c compares two, cli_page.c finds the page). */
#ifndef MM_CLI_H
#define MM_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "memory_map.h"

/* The path that means standard input, as for other Unix tools. */
#define STDIN_PATH "-"

/* Spaces a gate can name thresholds for, at most. */
#define CLI_MAX_LIMITS 32

typedef struct cli_args {
  const char *path, *output, *pass_name, *backend;
  const char *name;     /* the dump's name for the model and messages (--name) */
  const char *diff_old; /* --diff OLD: compare it with `path` */
  const char *svg;      /* --svg FUNCTION: that function's map as SVG */
  bool json;
  bool check, summary;  /* reports on standard output; a page only with -o */
  bool lifetimes;       /* no addresses in the dump: draw by size and lifetime */
  const char *junit;    /* --junit FILE: the check as JUnit XML */
  const char *fit;      /* --fit SPACE:BYTES:L1-L2: where such a tile fits */
  const char *function; /* --function NAME: the function --fit asks about */
  /* --min-headroom and --max-usage, one entry per space named */
  mm_limit limits[CLI_MAX_LIMITS];
  size_t limit_count;
} cli_args;

/* Bytes read whole, owned: release with cli_text_free. */
typedef struct text {
  char *data;
  size_t len;
  bool mapped; /* a dump file mapped (munmap), not read into the heap (free) */
} text;

/* Releases `t`'s bytes; an empty text is allowed. */
void cli_text_free(text *t);

/* A dump read for a model: its path (owned), its bytes, the case's .pto
 * text, what its folder says of the build (a file or standard input is
 * a lone dump: MM_PLANNER_UNKNOWN) and what to tell of that choice (owned,
 * NULL for nothing: mm_folder_why). Release with cli_dump_free. */
typedef struct cli_dump {
  char *path, *note;
  text input, pto;
  mm_folder_choice folder;
} cli_dump;

/* Reads the dump at `given` (a file, a passes_dump/ or case folder
 * resolved with the arguments' pass, or - for standard input), and the
 * case's .pto unless -b names the backend. False with `why` set. */
bool cli_dump_read(const cli_args *args, const char *given, cli_dump *dump, char *why,
                   size_t why_len);

/* The options `dump` is modelled with: its name (--name, else its file's),
 * the backend, the .pto text, who placed the build, and whether it is
 * drawn by lifetime (--lifetimes, or a ptoas build's folder). */
mm_options cli_dump_options(const cli_args *args, const cli_dump *dump);

/* Says on standard error what the folder's choice of `dump` needs told:
 * a ptoas build's, drawn by size and lifetime (unless --lifetimes asked),
 * or a later pass opened for a missing AllocateMemoryAddr dump. */
void cli_dump_say_note(const cli_args *args, const cli_dump *dump);

void cli_dump_free(cli_dump *dump);

/* `dir`/`name`, owned (NULL when out of memory); whether `path` is a folder. */
char *cli_join(const char *dir, const char *name);
bool cli_is_dir(const char *path);

/* Writes `len` bytes to `path` through a temporary file renamed into place;
 * false with the error said. */
bool cli_write_file(const char *path, const char *data, size_t len);

/* A job for cli_pool_run: `work` makes index's result on a worker thread
 * (touching nothing another index's work touches), `take` has it on the
 * calling thread in index order, and `release` frees it afterwards on the
 * thread that made it. */
typedef struct cli_pool_job {
  void *(*work)(void *context, size_t index);
  void (*take)(void *context, size_t index, void *result);
  void (*release)(void *context, void *result);
  void *context;
} cli_pool_job;

/* Runs `job` over 0..count-1 on a thread per processor, or in turn where
 * there are no threads or one processor. */
void cli_pool_run(const cli_pool_job *job, size_t count);

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

/* The last component of `path`. */
const char *cli_basename(const char *path);

/* `error` on standard error as `error: <dump>:<line>: <message>`; 1. */
int cli_report(const mm_error *error, const char *dump);

/* Writes all of `data`, in pieces WASI can take. */
bool cli_write_all(FILE *f, const char *data, size_t len);

/* An output file being written (cli_output.c): into `<path>.partial`,
 * renamed into place when complete, so a failure never leaves a partial
 * output behind. `expected_bytes`: about how many will be written (a big
 * output is written on a second thread). NULL (said on standard error)
 * only when out of memory; a file that cannot be made fails its writes
 * and its close. */
typedef struct cli_output cli_output;
cli_output *cli_output_open(const char *path, size_t expected_bytes);
/* An mm_sink (`context` the cli_output): the next bytes; false once a
 * write failed. */
bool cli_output_write(void *context, const char *data, size_t len);
/* Whether every write so far succeeded. */
bool cli_output_ok(cli_output *out);
/* Closes and frees `out`, renaming it into place when `complete` and every
 * write succeeded, else removing it; a write error is said here,
 * `complete`'s own failure by the caller. */
bool cli_output_close(cli_output *out, bool complete);

/* Writes `json` (--json) or the page holding it where the arguments say
 * (beside `dump` by default) and says so; 0, or 1 with the error said. */
int cli_write_output(const cli_args *args, const char *dump, const char *json, size_t json_len);

/* Runs --diff: both sides read and modelled, compared, and the report,
 * the regressions, the JSON or the page written; the exit code. */
int cli_run_diff(const cli_args *args);

/* The page template's path, and where the JSON goes in it (cli_page.c). */
const char *cli_page_path(void);
size_t cli_page_split(const char *page, size_t len, char *why, size_t why_len);

#endif
