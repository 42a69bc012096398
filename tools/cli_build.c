/* cli_build.c: a build (a folder of `build_output/<case>/` folders), or one
 * dump checked against thresholds or for a JUnit report: each case read,
 * modelled and added to the core's build one at a time, then its summary,
 * check, JSON or JUnit XML (docs/cli.md, "A whole build"). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Folders deeper than this under the build are not searched for cases. */
#define MAX_DEPTH 3

/* Whether `dir` holds a pass dump of any pass. */
static bool holds_dumps(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return false;
  bool found = false;
  struct dirent *entry;
  while (!found && (entry = readdir(d)) != NULL) {
    size_t n = strlen(entry->d_name);
    found = n > 3 && strcmp(entry->d_name + n - 3, ".py") == 0 && strstr(entry->d_name, "_after_");
  }
  closedir(d);
  return found;
}

/* A case folder: it has passes_dump/ or ptoas/ (a case built without
 * dumps is still a case, reported as not read), or dumps of its own. */
bool cli_is_case(const char *dir) {
  char *passes = cli_join(dir, "passes_dump"), *ptoas = cli_join(dir, "ptoas");
  bool is_case = (passes && cli_is_dir(passes)) || (ptoas && cli_is_dir(ptoas)) || holds_dumps(dir);
  free(passes);
  free(ptoas);
  return is_case;
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_path(cli_cases *list, char *path) {
  if (list->count == list->cap) {
    size_t cap = list->cap ? list->cap * 2 : 32;
    char **bigger = realloc(list->paths, cap * sizeof *bigger);
    if (!bigger) return false;
    list->paths = bigger;
    list->cap = cap;
  }
  list->paths[list->count++] = path;
  return true;
}

/* The case folders under `dir`, depth first. */
static bool find_cases(const char *dir, int depth, cli_cases *list) {
  DIR *d = opendir(dir);
  if (!d) return true;
  bool ok = true;
  struct dirent *entry;
  while (ok && (entry = readdir(d)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    char *sub = cli_join(dir, entry->d_name);
    ok = sub != NULL;
    if (!ok || !cli_is_dir(sub)) {
      free(sub);
      continue;
    }
    if (cli_is_case(sub)) {
      ok = add_path(list, sub);
      if (!ok) free(sub);
      continue;
    }
    if (depth + 1 < MAX_DEPTH) ok = find_cases(sub, depth + 1, list);
    free(sub);
  }
  closedir(d);
  return ok;
}

bool cli_find_cases(const char *dir, cli_cases *cases) {
  if (!cli_is_dir(dir) || cli_is_case(dir)) return true;
  if (!find_cases(dir, 0, cases)) return false;
  if (cases->count) qsort(cases->paths, cases->count, sizeof *cases->paths, compare_paths);
  return true;
}

void cli_cases_free(cli_cases *cases) {
  for (size_t i = 0; i < cases->count; i++)
    free(cases->paths[i]);
  free(cases->paths);
  *cases = (cli_cases){0};
}

/* The case's name: its folder below the build (`a/b`), or, for one dump,
 * the folder holding its passes_dump/ (else the dump's own name). */
static const char *case_name(const char *build, const char *path, char *buf, size_t len) {
  size_t n = build ? strlen(build) : 0;
  if (build && strncmp(path, build, n) == 0 && path[n] == '/') return path + n + 1;
  if (build && strncmp(path, build, n) == 0 && n && build[n - 1] == '/') return path + n;
  snprintf(buf, len, "%s", path);
  char *slash;
  while ((slash = strrchr(buf, '/')) && !slash[1]) /* trailing slashes */
    *slash = 0;
  char *passes = strstr(buf, "/passes_dump/");
  if (passes) *passes = 0;
  const char *base = cli_basename(buf);
  return *base ? base : path;
}

/* Reads and models one case into the build; false only out of memory. */
static bool add_case(const cli_args *args, mm_build *build, const char *name, const char *given) {
  char why[1024] = "out of memory";
  cli_dump dump;
  if (!cli_dump_read(args, given, &dump, why, sizeof why)) {
    mm_error error = {.status = MM_OK, .message = why};
    return mm_build_add_error(build, name, given, &error);
  }
  mm_options options = cli_dump_options(args, &dump);
  options.without_source = true;
  mm_error error = {0};
  mm_model *model = mm_model_new_borrowing(dump.input.data, dump.input.len, &options, &error);
  bool ok = model ? mm_build_add_model(build, name, dump.path, model)
                  : mm_build_add_error(build, name, dump.path, &error);
  mm_model_free(model);
  mm_error_clear(&error);
  cli_dump_free(&dump);
  return ok;
}

/* Writes `data` to `path` (or standard output when NULL), saying so. */
static bool put_output(const char *path, char *data, size_t len) {
  if (!data) {
    fprintf(stderr, "error: out of memory\n");
    return false;
  }
  bool ok;
  if (!path) {
    ok = cli_write_all(stdout, data, len) && fflush(stdout) == 0;
  } else {
    ok = cli_write_file(path, data, len);
    if (ok) printf("wrote %s\n", path);
  }
  mm_free(data);
  return ok;
}

static bool write_reports(const cli_args *args, const mm_build *build) {
  size_t len = 0;
  bool ok = true;
  char *report;
  if (args->summary) {
    report = mm_build_summary_text(build, &len);
    ok = put_output(NULL, report, len);
  }
  if (ok && args->check) {
    report = mm_build_check_text(build, &len);
    ok = put_output(NULL, report, len);
  }
  if (ok && args->json) {
    report = mm_build_to_json(build, &len);
    ok = put_output(args->output, report, len);
  }
  if (ok && args->junit) {
    report = mm_build_junit(build, &len);
    ok = put_output(args->junit, report, len);
  }
  return ok;
}

int cli_run_build(const cli_args *args, const cli_cases *cases) {
  cli_cases one = {0}; /* the dump, case or standard input args->path names */
  char *path = cases ? NULL : malloc(strlen(args->path) + 1);
  bool ok = cases || (path && add_path(&one, strcpy(path, args->path)));
  if (!ok) free(path);
  const cli_cases *list = cases ? cases : &one;
  mm_build *build = ok ? mm_build_new(args->limits, args->limit_count) : NULL;
  char name[1024];
  for (size_t i = 0; build && i < list->count && ok; i++) {
    const char *at = list->paths[i];
    const char *label = strcmp(at, STDIN_PATH) == 0
                            ? (args->name ? args->name : "stdin")
                            : case_name(cases ? args->path : NULL, at, name, sizeof name);
    ok = add_case(args, build, label, at);
  }
  /* A gate cannot vouch for a case it could not read; an overview lists it. */
  bool gate = args->check || args->junit;
  int status = 1;
  if (!build || !ok)
    fprintf(stderr, "error: out of memory\n");
  else if (write_reports(args, build))
    status = !gate ? 0 : mm_build_errors(build) ? 1 : mm_build_failures(build) ? 3 : 0;
  mm_build_free(build);
  cli_cases_free(&one);
  return status;
}
