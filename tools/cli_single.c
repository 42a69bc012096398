/* cli_single.c: the commands on one dump: read and modelled, then its
 * --summary and --check, its page or JSON, one function's --svg, or a
 * --fit question answered. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_commands.h"
#include "cli_files.h"
#include "cli_output.h"

/* `error` on standard error as `error: <dump>:<line>: <message>`; 1. */
static int report_error(const mm_error *error, const char *dump) {
  if (!error->message)
    fprintf(stderr, "error: out of memory\n");
  else if (error->line)
    fprintf(stderr, "error: %s:%u: %s\n", dump, (unsigned)error->line, error->message);
  else if (error->status == MM_ERR_BACKEND) /* the option's fault, not the dump's */
    fprintf(stderr, "error: %s\n", error->message);
  else /* a refusal of the whole dump: which dump, still */
    fprintf(stderr, "error: %s: %s\n", dump, error->message);
  /* The core says it can be drawn anyway; how is the command line's to say. */
  if (error->status == MM_ERR_UNALLOCATED)
    fprintf(stderr, "note: give --lifetimes to draw it by size and lifetime\n");
  return 1;
}

/* A report on a dump that keeps nothing on chip: said, and nothing to fail. */
static int say_nothing_on_chip(const mm_error *error, const char *dump) {
  printf("%s: %s\n", dump, error->message);
  return 0;
}

/* What the printer wrote that is not Python, read anyway: on stderr, so
 * the output stays the model's. */
static void print_notes(const mm_model *model, const char *dump) {
  size_t len;
  char *notes = mm_model_notes_text(model, dump, &len);
  if (notes) fputs(notes, stderr);
  mm_free(notes);
}

/* --summary then --check on standard output; 3 when the check found
 * anything, 1 out of memory, else 0. */
static int print_reports(const cli_args *args, const mm_model *model, const char *dump) {
  size_t len = 0, anomalies = 0;
  if (args->summary) {
    char *table = mm_model_summary_text(model, &len);
    if (!table || !cli_write_all(stdout, table, len)) {
      mm_free(table);
      return 1;
    }
    mm_free(table);
  }
  if (args->check) {
    char *lines = mm_model_check_text(model, dump, &len, &anomalies);
    if (!lines || !cli_write_all(stdout, lines, len)) {
      mm_free(lines);
      return 1;
    }
    mm_free(lines);
  }
  return fflush(stdout) != 0 ? 1 : anomalies ? 3 : 0;
}

/* The function named NAME, or count with the names said on stderr. */
static size_t function_named(const mm_model *model, const char *name, const char *dump) {
  size_t count = mm_model_function_count(model), index = 0;
  while (index < count && strcmp(mm_model_function_name(model, index), name) != 0)
    index++;
  if (index == count) {
    fprintf(stderr, "error: %s: no compute function named %s; there are:", dump, name);
    for (size_t i = 0; i < count; i++)
      fprintf(stderr, " %s", mm_model_function_name(model, i));
    fprintf(stderr, "\n");
  }
  return index;
}

/* --svg FUNCTION: its map, written where -o says or beside the dump. */
static int write_svg(const cli_args *args, const mm_model *model, const char *dump) {
  size_t index = function_named(model, args->svg, dump);
  if (index == mm_model_function_count(model)) return 1;
  size_t len = 0;
  char *svg = mm_model_svg(model, index, NULL, &len);
  char *stem = args->output ? NULL : cli_beside(dump, "");
  size_t need = stem ? strlen(stem) + strlen(args->svg) + sizeof "..svg" : 0;
  char *named = need ? malloc(need) : NULL;
  if (named) snprintf(named, need, "%s.%s.svg", stem, args->svg);
  const char *path = args->output ? args->output : named;
  int status = 1;
  if (!svg || !path)
    fprintf(stderr, "error: out of memory\n");
  else if (cli_write_file(path, svg, len)) {
    printf("wrote %s\n", path);
    status = 0;
  }
  mm_free(svg);
  free(stem);
  free(named);
  return status;
}

/* --fit SPACE:BYTES:L1-L2 --function NAME: 0 when it fits, 3 when not. */
static int answer_fit(const cli_args *args, const mm_model *model, const char *dump) {
  char space[64];
  int64_t bytes = 0;
  unsigned first = 0, last = 0;
  const char *colon = strchr(args->fit, ':');
  const char *second = colon ? strchr(colon + 1, ':') : NULL;
  char size[32];
  size_t space_len = colon ? (size_t)(colon - args->fit) : 0;
  size_t size_len = second ? (size_t)(second - colon - 1) : 0;
  char tail;
  if (!space_len || space_len >= sizeof space || !size_len || size_len >= sizeof size ||
      sscanf(second + 1, "%u-%u%c", &first, &last, &tail) != 2 || !first || first > last) {
    fprintf(stderr,
            "%smemory-map: error: --fit needs SPACE:BYTES:L1-L2 (e.g. Vec:8K:120-140), "
            "not %s\n",
            CLI_USAGE, args->fit);
    return 2;
  }
  memcpy(space, args->fit, space_len);
  space[space_len] = 0;
  memcpy(size, colon + 1, size_len);
  size[size_len] = 0;
  if (!cli_parse_bytes(size, &bytes) || bytes <= 0) {
    fprintf(stderr,
            "%smemory-map: error: --fit needs SPACE:BYTES:L1-L2 (e.g. Vec:8K:120-140), "
            "not %s\n",
            CLI_USAGE, args->fit);
    return 2;
  }
  size_t index = function_named(model, args->function, dump);
  mm_fit fit;
  if (index == mm_model_function_count(model)) return 1;
  if (!mm_model_fit(model, index, space, bytes, first, last, &fit)) return 1;
  printf("%s: %lld B of %s live on lines %u-%u: the lowest gap free then is [%lld, %lld); the "
         "high-water mark would be %lld",
         args->function, (long long)bytes, space, first, last, (long long)fit.offset,
         (long long)(fit.offset + bytes), (long long)fit.hwm);
  if (fit.has_capacity)
    printf(" of %lld: %s\n", (long long)fit.limit, fit.fits ? "fits" : "does not fit");
  else
    printf(" (no capacity known)\n");
  return fit.fits ? 0 : 3;
}

static int run_model(const cli_args *args, const mm_model *model, const char *dump) {
  if (args->svg) return write_svg(args, model, dump);
  if (args->fit) return answer_fit(args, model, dump);
  bool reports = args->check || args->summary;
  int status = reports ? print_reports(args, model, dump) : 0;
  if (status == 1 || (reports && !args->output)) return status;
  int written = cli_write_model(args, model, dump);
  return written ? written : status;
}

/* The dump args->path names, read and modelled, and what the arguments ask
 * of it. */
int cli_run_single(const cli_args *args) {
  char why[1024] = "out of memory";
  cli_dump dump;
  if (!cli_dump_read(args, args->path, &dump, why, sizeof why)) {
    fprintf(stderr, "error: %s\n", why);
    return 1;
  }
  cli_dump_say_note(args, &dump);
  mm_options options = cli_dump_options(args, &dump);
  mm_error error;
  /* The model reads the source lines from the input: kept until it is freed. */
  mm_model *model = mm_model_new_borrowing(dump.input.data, dump.input.len, &options, &error);
  if (model) print_notes(model, dump.path);
  int status = model ? run_model(args, model, dump.path)
               : error.nothing_on_chip && (args->check || args->summary) && !args->output
                   ? say_nothing_on_chip(&error, dump.path)
                   : report_error(&error, dump.path);
  mm_model_free(model);
  mm_error_clear(&error);
  cli_dump_free(&dump);
  return status;
}
