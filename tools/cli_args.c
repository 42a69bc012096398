/* cli_args.c: the command line's arguments read into cli_args and checked
 * together, and the help that tells them (docs/cli.md). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"

static int usage_error(const char *message, const char *detail) {
  fprintf(stderr, "%smemory-map: error: %s%s\n", CLI_USAGE, message, detail ? detail : "");
  return 2;
}

void cli_print_help(void) {
  printf(CLI_USAGE
         "\n"
         "Render the on-chip memory layout of a PyPTO pass dump.\n\n"
         "  <path>                a dump (.../passes_dump/NN_after_Pass.py), a passes_dump/\n"
         "                        folder, a build_output/<case>/ folder, or - for\n"
         "                        standard input; a build_output/ folder of cases for\n"
         "                        --summary, --check, --json or --junit over all\n"
         "  -o, --output OUTPUT   where to write (default: <dump>.memory_map.html beside\n"
         "                        the dump; with --json, standard output)\n"
         "  -p, --pass-name NAME  pass to pick inside a folder (default AllocateMemoryAddr)\n"
         "  -b, --backend NAME    Ascend910B or Ascend950 (default: detected from the\n"
         "                        case's ptoas/*.pto, else Ascend910B, assumed)\n"
         "  --name NAME           the dump's file name in the model (its pass name) and,\n"
         "                        for standard input, in messages (default: stdin)\n"
         "  --json                write the model as JSON instead of a page\n"
         "  --check               print every conflict and tile over capacity; exit 3\n"
         "                        when there is any, 0 otherwise (writes no page\n"
         "                        unless -o is given)\n"
         "  --summary             print per function and space: high-water mark,\n"
         "                        capacity, usage, reserved bytes, headroom, peak live\n"
         "                        bytes, fragmentation, peak line; then the reserved\n"
         "                        windows and the tiles held longest while idle\n"
         "  --lifetimes           for a dump without addresses (memory planned by\n"
         "                        ptoas): pack each function's buffers by lifetime\n"
         "                        and show the least any placement needs\n"
         "  --diff OLD            compare OLD (a dump or folder, like <path>) with\n"
         "                        <path>: print what changed per function, space and\n"
         "                        tile; with --json the comparison as JSON, with -o a\n"
         "                        page of both, with --check the regressions (exit 3)\n"
         "  --min-headroom SPACE=BYTES  with --check: fail when SPACE keeps less than\n"
         "                        BYTES (8192, 8K, 1M) free above its high-water mark;\n"
         "                        SPACE * for every space; repeatable\n"
         "  --max-usage SPACE=PERCENT  with --check: fail when SPACE's high-water mark\n"
         "                        takes more than PERCENT of its capacity; repeatable\n"
         "  --junit FILE          write the check as a JUnit XML report (exit 3 on a\n"
         "                        problem, as --check)\n"
         "  --svg FUNCTION        write FUNCTION's map as an SVG image (default:\n"
         "                        <dump>.<FUNCTION>.svg beside the dump)\n"
         "  -h, --help            show this help\n"
         "  --version             print the version (memory-map X.Y.Z)\n");
}

/* Matches `-o X`, `-oX`, `--output X` and `--output=X`. */
static int option_value(int argc, char **argv, int *i, const char *short_name,
                        const char *long_name, const char **out) {
  const char *arg = argv[*i];
  size_t long_len = strlen(long_name);
  const char *value = NULL;
  if ((short_name && strcmp(arg, short_name) == 0) || strcmp(arg, long_name) == 0) {
    if (*i + 1 >= argc) return -1;
    value = argv[++*i];
  } else if (short_name && strncmp(arg, short_name, 2) == 0 && arg[1] != '-' && arg[2]) {
    value = arg + 2;
  } else if (strncmp(arg, long_name, long_len) == 0 && arg[long_len] == '=') {
    value = arg + long_len + 1;
  } else {
    return 0;
  }
  *out = value;
  return 1;
}

/* The entry for `space` (a new one when it has none), or NULL when full. */
static mm_limit *limit_of(cli_args *args, const char *space, size_t len) {
  for (size_t i = 0; i < args->limit_count; i++)
    if (strlen(args->limits[i].space) == len && strncmp(args->limits[i].space, space, len) == 0)
      return &args->limits[i];
  if (args->limit_count == CLI_MAX_LIMITS) return NULL;
  mm_limit *l = &args->limits[args->limit_count++];
  *l = (mm_limit){space, -1, -1};
  return l;
}

/* BYTES: digits, then K, M or G (KiB, MiB, GiB; a B after any is allowed). */
bool cli_parse_bytes(const char *arg, int64_t *out) {
  char *end;
  if (*arg < '0' || *arg > '9') return false;
  unsigned long long n = strtoull(arg, &end, 10);
  int shift = *end == 'K' || *end == 'k'   ? 10
              : *end == 'M' || *end == 'm' ? 20
              : *end == 'G' || *end == 'g' ? 30
                                           : 0;
  if (shift)
    end += end[1] == 'i' && end[2] == 'B' ? 3 : end[1] == 'B' ? 2 : 1;
  else if (*end == 'B')
    end++;
  if (*end || n > ((unsigned long long)1 << 53) >> shift) return false;
  *out = (int64_t)(n << shift);
  return true;
}

/* PERCENT: a number, a % after it allowed. */
static bool parse_percent(const char *arg, double *out) {
  char *end;
  if ((*arg < '0' || *arg > '9') && *arg != '.') return false;
  double v = strtod(arg, &end);
  if (*end == '%') end++;
  if (*end || !(v >= 0) || v > 1e6) return false;
  *out = v;
  return true;
}

/* --min-headroom SPACE=BYTES or --max-usage SPACE=PERCENT into `args`. */
static int parse_limit(cli_args *args, const char *option, const char *value) {
  const char *eq = strchr(value, '=');
  size_t len = eq ? (size_t)(eq - value) : 0;
  bool headroom = strcmp(option, "--min-headroom") == 0;
  mm_limit probe = {0};
  bool ok = len && (headroom ? cli_parse_bytes(eq + 1, &probe.min_headroom)
                             : parse_percent(eq + 1, &probe.max_usage));
  if (!ok) {
    char message[160];
    snprintf(message, sizeof message, "%s needs SPACE=%s (e.g. %s), not ", option,
             headroom ? "BYTES" : "PERCENT", headroom ? "Vec=8K" : "Vec=90");
    return usage_error(message, value);
  }
  mm_limit *l = limit_of(args, value, len);
  if (!l) return usage_error("too many spaces given thresholds: at most 32", NULL);
  /* The entry keeps the argument's own bytes: the space is `value`'s
   * prefix, cut where the '=' is. */
  ((char *)value)[len] = 0;
  if (headroom)
    l->min_headroom = probe.min_headroom;
  else
    l->max_usage = probe.max_usage;
  return 0;
}

int cli_parse_args(int argc, char **argv, cli_args *args) {
  static const struct {
    const char *short_name, *long_name;
    size_t field;
  } options[] = {
      {"-o", "--output", offsetof(cli_args, output)},
      {"-p", "--pass-name", offsetof(cli_args, pass_name)},
      {"-b", "--backend", offsetof(cli_args, backend)},
      {NULL, "--name", offsetof(cli_args, name)},
      {NULL, "--diff", offsetof(cli_args, diff_old)},
      {NULL, "--svg", offsetof(cli_args, svg)},
      {NULL, "--junit", offsetof(cli_args, junit)},
      {NULL, "--fit", offsetof(cli_args, fit)},
      {NULL, "--function", offsetof(cli_args, function)},
  };
  bool options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!options_done && arg[0] == '-' && arg[1]) {
      if (strcmp(arg, "--") == 0) {
        options_done = true;
        continue;
      }
      if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) return 3;
      if (strcmp(arg, "--version") == 0) return 4;
      bool *flag = strcmp(arg, "--json") == 0        ? &args->json
                   : strcmp(arg, "--check") == 0     ? &args->check
                   : strcmp(arg, "--summary") == 0   ? &args->summary
                   : strcmp(arg, "--lifetimes") == 0 ? &args->lifetimes
                                                     : NULL;
      if (flag) {
        *flag = true;
        continue;
      }
      const char *limit = NULL;
      int limit_matched = option_value(argc, argv, &i, NULL, "--min-headroom", &limit);
      const char *option = "--min-headroom";
      if (!limit_matched) {
        limit_matched = option_value(argc, argv, &i, NULL, "--max-usage", &limit);
        option = "--max-usage";
      }
      if (limit_matched < 0) return usage_error("argument needs a value: ", arg);
      if (limit_matched) {
        int bad = parse_limit(args, option, limit);
        if (bad) return bad;
        continue;
      }
      int matched = 0;
      for (size_t k = 0; k < sizeof options / sizeof *options && !matched; k++) {
        const char **slot = (const char **)((char *)args + options[k].field);
        matched = option_value(argc, argv, &i, options[k].short_name, options[k].long_name, slot);
        if (matched < 0) return usage_error("argument needs a value: ", arg);
      }
      if (!matched) return usage_error("unrecognized argument: ", arg);
    } else if (!args->path) {
      args->path = arg;
    } else {
      return usage_error("unrecognized argument: ", arg);
    }
  }
  if (!args->path) return usage_error("the following arguments are required: path", NULL);
  if (args->diff_old && args->summary)
    return usage_error("--summary does not apply to --diff: run it on each dump", NULL);
  if (args->diff_old && strcmp(args->diff_old, STDIN_PATH) == 0 &&
      strcmp(args->path, STDIN_PATH) == 0)
    return usage_error("--diff reads standard input for one side at most", NULL);
  if (args->json && !args->output && (args->check || args->summary))
    return usage_error("--json with --check or --summary needs -o: both would go to standard "
                       "output",
                       NULL);
  if (args->svg && (args->json || args->check || args->summary || args->diff_old))
    return usage_error("--svg writes one image: not with --json, --check, --summary or --diff",
                       NULL);
  if (args->svg && strcmp(args->path, STDIN_PATH) == 0 && !args->output)
    return usage_error("reading standard input (-), give -o OUTPUT for the SVG", NULL);
  if (!args->diff_old && strcmp(args->path, STDIN_PATH) == 0 && !args->output && !args->json &&
      !args->check && !args->summary)
    return usage_error("reading standard input (-), give -o OUTPUT for the page, or --json, "
                       "--check or --summary",
                       NULL);
  if (!args->fit != !args->function)
    return usage_error("--fit SPACE:BYTES:L1-L2 and --function NAME go together", NULL);
  if (args->fit &&
      (args->json || args->check || args->summary || args->svg || args->diff_old || args->junit))
    return usage_error("--fit answers one question: not with other outputs", NULL);
  if (args->limit_count && !args->check && !args->junit)
    return usage_error("--min-headroom and --max-usage are thresholds of --check or --junit", NULL);
  if ((args->limit_count || args->junit) && (args->svg || args->diff_old))
    return usage_error("--min-headroom, --max-usage and --junit do not apply to --svg or --diff",
                       NULL);
  if (!args->pass_name) args->pass_name = "AllocateMemoryAddr";
  return 0;
}
