/* cli_args.h: the command line's arguments as read (cli_args.c), and the
 * usage lines that say what they may be. */
#ifndef MM_CLI_ARGS_H
#define MM_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memory_map.h"

/* The path that means standard input, as for other Unix tools. */
#define STDIN_PATH "-"

/* Spaces a gate can name thresholds for, at most. */
#define CLI_MAX_LIMITS 32

#define CLI_USAGE                                                                                  \
  "usage: memory-map <path> [-o OUTPUT] [-p PASS_NAME] [-b BACKEND] [--name NAME] [--json] "       \
  "[--check] [--summary] [--lifetimes]\n"                                                          \
  "       memory-map <build folder | case | dump> --check [--min-headroom SPACE=BYTES] "           \
  "[--max-usage SPACE=PERCENT] [--junit FILE] [--summary] [--json]\n"                              \
  "       memory-map --diff OLD NEW [-o OUTPUT] [-p PASS_NAME] [-b BACKEND] [--json] [--check]\n"  \
  "       memory-map <path> --svg FUNCTION [-o OUTPUT] [-p PASS_NAME] [-b BACKEND] [--name "       \
  "NAME]\n"

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

/* Reads argv into `args` (zeroed by the caller): 0 when they make sense
 * together, 2 with the usage and the error said, 3 for --help, 4 for
 * --version. */
int cli_parse_args(int argc, char **argv, cli_args *args);

/* The usage lines and what every argument does, on standard output. */
void cli_print_help(void);

/* BYTES: digits, then K, M or G (KiB, MiB, GiB; a B after any is allowed). */
bool cli_parse_bytes(const char *arg, int64_t *out);

#endif
