/* cli_diff.c: `--diff OLD NEW`: both dumps read (each folder resolved, each
 * case's own .pto), modelled and compared; then the report, the
 * regressions (--check, exit 3), the comparison as JSON, or a page that
 * shows both (-o). */
#include <stdlib.h>
#include <string.h>

#include "cli_commands.h"
#include "cli_files.h"
#include "cli_output.h"

typedef struct side {
  const char *what; /* "old" or "new" */
  char *dump;       /* its path */
  mm_model *model;
} side;

/* Reads and models one side; false with the reason said (naming the side). */
static bool model_side(const cli_args *args, const char *given, side *s) {
  char why[1024] = "out of memory";
  cli_dump dump;
  if (!cli_dump_read(args, given, &dump, why, sizeof why)) {
    fprintf(stderr, "error: %s (the %s side of --diff)\n", why, s->what);
    return false;
  }
  cli_dump_say_note(args, &dump);
  mm_options options = cli_dump_options(args, &dump);
  mm_error error;
  s->model = mm_model_new(dump.input.data, dump.input.len, &options, &error);
  s->dump = dump.path;
  dump.path = NULL; /* the side keeps it */
  cli_dump_free(&dump);
  if (!s->model) {
    if (error.line)
      fprintf(stderr, "error: %s:%u: %s (the %s side of --diff)\n", s->dump, (unsigned)error.line,
              error.message, s->what);
    else
      fprintf(stderr, "error: %s: %s (the %s side of --diff)\n", s->dump,
              error.message ? error.message : "out of memory", s->what);
  }
  mm_error_clear(&error);
  return s->model != NULL;
}

/* Writes `text` to standard output; false when it could not be. */
static bool print(char *output, size_t len) {
  bool ok = output && cli_write_all(stdout, output, len) && fflush(stdout) == 0;
  if (!output) fprintf(stderr, "error: out of memory\n");
  mm_free(output);
  return ok;
}

/* {"old": model, "new": model, "diff": comparison}: what a compare page
 * shows. NULL when out of memory. */
static char *page_json(const side *old_side, const side *new_side, const mm_diff *diff,
                       size_t *len) {
  size_t lens[3] = {0, 0, 0};
  char *parts[3] = {mm_model_to_json(old_side->model, &lens[0]),
                    mm_model_to_json(new_side->model, &lens[1]), mm_diff_to_json(diff, &lens[2])};
  static const char *const keys[3] = {"{\"old\":", ",\"new\":", ",\"diff\":"};
  char *json = parts[0] && parts[1] && parts[2] ? malloc(lens[0] + lens[1] + lens[2] + 32) : NULL;
  *len = 0;
  for (int i = 0; i < 3 && json; i++) {
    memcpy(json + *len, keys[i], strlen(keys[i]));
    *len += strlen(keys[i]);
    memcpy(json + *len, parts[i], lens[i]);
    *len += lens[i];
  }
  if (json) {
    memcpy(json + *len, "}\n", 3);
    *len += 2;
  }
  for (int i = 0; i < 3; i++)
    mm_free(parts[i]);
  return json;
}

/* The outputs the arguments ask for: the regressions (--check), the JSON
 * (--json, to -o or standard output), the page (-o), else the report.
 * Returns the exit code. */
static int write_comparison(const cli_args *args, const side *old_side, const side *new_side,
                            const mm_diff *diff) {
  size_t len = 0, regressions = 0;
  int status = 0;
  if (args->check) {
    char *lines = mm_diff_check_text(diff, &len, &regressions);
    if (!print(lines, len)) return 1;
    status = regressions ? 3 : 0;
  }
  if (!args->json && !args->output) {
    if (args->check) return status;
    char *report = mm_diff_report_text(diff, &len);
    return print(report, len) ? 0 : 1;
  }
  char *json = args->json ? mm_diff_to_json(diff, &len) : page_json(old_side, new_side, diff, &len);
  int written = json ? cli_write_output(args, new_side->dump, json, len) : 1;
  if (!json) fprintf(stderr, "error: out of memory\n");
  mm_free(json);
  return written ? written : status;
}

int cli_run_diff(const cli_args *args) {
  side old_side = {"old", NULL, NULL}, new_side = {"new", NULL, NULL};
  int status = 1;
  if (model_side(args, args->diff_old, &old_side) && model_side(args, args->path, &new_side)) {
    mm_diff *diff = mm_diff_new(old_side.model, new_side.model);
    if (diff)
      status = write_comparison(args, &old_side, &new_side, diff);
    else
      fprintf(stderr, "error: out of memory\n");
    mm_diff_free(diff);
  }
  mm_model_free(old_side.model);
  mm_model_free(new_side.model);
  free(old_side.dump);
  free(new_side.dump);
  return status;
}
