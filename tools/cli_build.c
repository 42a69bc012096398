/* cli_build.c: a build (a folder of `build_output/<case>/` folders), or one
 * dump checked against thresholds or for a JUnit report: each case read,
 * modelled and added to the core's build one at a time, then its summary,
 * check, JSON or JUnit XML (docs/cli.md, "A whole build"). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cli_commands.h"
#include "cli_files.h"
#include "cli_output.h"
#include "cli_pool.h"

/* Whether the entry `name` of `dir` is a folder: from the listing when
 * the file system says (no stat per entry in a build of thousands). */
static bool entry_is_dir(const char *dir, const struct dirent *entry) {
#ifdef DT_DIR
  if (entry->d_type == DT_DIR) return true;
  if (entry->d_type != DT_UNKNOWN && entry->d_type != DT_LNK) return false;
#endif
  char *path = cli_join(dir, entry->d_name);
  bool is_dir = path && cli_is_dir(path);
  free(path);
  return is_dir;
}

/* A case folder: an entry of it makes it one (mm_entry_makes_case: the
 * core's rule, which the page asks too). One listing of the folder
 * decides. */
bool cli_is_case(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return false;
  bool found = false;
  struct dirent *entry;
  while (!found && (entry = readdir(d)) != NULL) {
    const char *name = entry->d_name;
    bool folder = strcmp(name, "passes_dump") == 0 || strcmp(name, "ptoas") == 0;
    found = mm_entry_makes_case(name, folder && entry_is_dir(dir, entry));
  }
  closedir(d);
  return found;
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
    if (entry->d_name[0] == '.' || !entry_is_dir(dir, entry)) continue;
    char *sub = cli_join(dir, entry->d_name);
    ok = sub != NULL;
    if (!ok) continue;
    if (cli_is_case(sub)) {
      ok = add_path(list, sub);
      if (!ok) free(sub);
      continue;
    }
    if (depth + 1 < MM_CASE_DEPTH) ok = find_cases(sub, depth + 1, list);
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

/* One case read and modelled (on a worker), waiting to join the build. */
typedef struct read_case {
  bool read;     /* its dump was read; else `why` says why not */
  cli_dump dump; /* the model may borrow its bytes until it is freed */
  mm_model *model;
  mm_error error; /* why there is no model */
  char why[1024];
} read_case;

/* The build being made from a list of cases, and whether memory held. */
typedef struct build_run {
  const cli_args *args;
  const cli_cases *list;
  bool from_folder; /* the cases were found under args->path */
  mm_build *build;
  bool ok;
} build_run;

/* Reads and models case `index` (a worker's job): NULL out of memory. */
static void *read_one_case(void *context, size_t index) {
  const build_run *run = context;
  read_case *one = calloc(1, sizeof *one);
  if (!one) return NULL;
  snprintf(one->why, sizeof one->why, "out of memory");
  one->read =
      cli_dump_read(run->args, run->list->paths[index], &one->dump, one->why, sizeof one->why);
  if (!one->read) return one;
  mm_options options = cli_dump_options(run->args, &one->dump);
  options.without_source = true;
  one->model =
      mm_model_new_borrowing(one->dump.input.data, one->dump.input.len, &options, &one->error);
  return one;
}

/* Adds case `index` to the build, in order. */
static void add_case(void *context, size_t index, void *result) {
  build_run *run = context;
  read_case *one = result;
  const char *at = run->list->paths[index];
  char name[1024];
  const char *label =
      strcmp(at, STDIN_PATH) == 0
          ? (run->args->name ? run->args->name : "stdin")
          : case_name(run->from_folder ? run->args->path : NULL, at, name, sizeof name);
  if (!one) {
    run->ok = false;
    return;
  }
  mm_error unread = {.status = MM_OK, .message = one->why};
  if (run->ok && !one->read)
    run->ok = mm_build_add_error(run->build, label, at, &unread);
  else if (run->ok)
    run->ok = one->model ? mm_build_add_model(run->build, label, one->dump.path, one->model)
                         : mm_build_add_error(run->build, label, one->dump.path, &one->error);
}

/* Frees a case read, once the build has it. */
static void free_case(void *context, void *result) {
  (void)context;
  read_case *one = result;
  if (!one) return;
  mm_model_free(one->model);
  mm_error_clear(&one->error);
  cli_dump_free(&one->dump);
  free(one);
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
  build_run run = {
      .args = args, .list = list, .from_folder = cases != NULL, .build = build, .ok = ok};
  cli_pool_job job = {read_one_case, add_case, free_case, &run};
  if (build && ok) cli_pool_run(&job, list->count);
  ok = run.ok;
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
