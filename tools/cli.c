/* cli.c: the memory-map command line (docs/cli.md). Resolves a
 * dump from a file or folder, detects the backend from the case's ptoas/,
 * or reads standard input (-), runs the core, and writes the model as JSON
 * or as a self-contained page.
 * Built natively and for WASI (tools/memory-map runs that under Node). */
#include <dirent.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef __wasi__
#include <sys/mman.h>
#endif

#include "cli.h"

#define USAGE                                                                                      \
  "usage: memory-map <path> [-o OUTPUT] [-p PASS_NAME] [-b BACKEND] [--name NAME] [--json] "       \
  "[--check] [--summary] [--lifetimes]\n"                                                          \
  "       memory-map <build folder | case | dump> --check [--min-headroom SPACE=BYTES] "           \
  "[--max-usage SPACE=PERCENT] [--junit FILE] [--summary] [--json]\n"                              \
  "       memory-map --diff OLD NEW [-o OUTPUT] [-p PASS_NAME] [-b BACKEND] [--json] [--check]\n"  \
  "       memory-map <path> --svg FUNCTION [-o OUTPUT] [-p PASS_NAME] [-b BACKEND] [--name "       \
  "NAME]\n"

static int usage_error(const char *message, const char *detail) {
  fprintf(stderr, "%smemory-map: error: %s%s\n", USAGE, message, detail ? detail : "");
  return 2;
}

static void print_help(void) {
  printf(USAGE "\n"
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
static bool parse_bytes(const char *arg, int64_t *out) {
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
  bool ok = len && (headroom ? parse_bytes(eq + 1, &probe.min_headroom)
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

static int parse_args(int argc, char **argv, cli_args *args) {
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

/* ------------------------------------------------------------- paths */

char *cli_join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *path = malloc(a + b + 2);
  if (!path) return NULL;
  memcpy(path, dir, a);
  size_t n = a;
  if (a && dir[a - 1] != '/') path[n++] = '/';
  memcpy(path + n, name, b + 1);
  return path;
}

static char *copy_path(const char *path) {
  size_t n = strlen(path);
  char *copy = malloc(n + 1);
  if (copy) memcpy(copy, path, n + 1);
  return copy;
}

static char *dirname_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return copy_path(".");
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *dir = malloc(n + 1);
  if (!dir) return NULL;
  memcpy(dir, path, n);
  dir[n] = 0;
  return dir;
}

const char *cli_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

bool cli_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The names in `dir`, owned (free each and the array), `*count` of them;
 * NULL when it cannot be read. */
static char **list_names(const char *dir, size_t *count) {
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **names = NULL;
  size_t n = 0, cap = 0;
  bool ok = true;
  struct dirent *entry;
  while (ok && (entry = readdir(d)) != NULL) {
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      char **bigger = realloc(names, cap * sizeof *names);
      ok = bigger != NULL;
      if (ok) names = bigger;
    }
    if (ok) ok = (names[n++] = strdup(entry->d_name)) != NULL;
  }
  closedir(d);
  if (!ok) {
    for (size_t i = 0; i < n; i++)
      free(names[i]);
    free(names);
    return NULL;
  }
  *count = n;
  return names ? names : calloc(1, sizeof *names);
}

/* The dump of `dir` the core chooses for `pass` (mm_folder_choose), its
 * path owned, what the folder says in `*choice` and what to tell of it
 * in `*note` (owned, or NULL); NULL when there is none, with why (naming
 * `given`) in `why`. */
static char *find_dump(const char *dir, const char *pass, const char *given,
                       mm_folder_choice *choice, char **note, char *why, size_t why_len) {
  size_t count = 0;
  char **names = list_names(dir, &count);
  if (!names) {
    snprintf(why, why_len, "cannot read the folder %s", dir);
    return NULL;
  }
  *choice = mm_folder_choose((const char *const *)names, count, pass);
  char *path = choice->dump < count ? cli_join(dir, names[choice->dump]) : NULL;
  if (choice->dump >= count) {
    mm_folder_why(choice, (const char *const *)names, count, pass, given, why, why_len);
  } else {
    char told[1024];
    mm_folder_why(choice, (const char *const *)names, count, pass, dir, told, sizeof told);
    *note = *told ? strdup(told) : NULL;
  }
  for (size_t i = 0; i < count; i++)
    free(names[i]);
  free(names);
  return path;
}

/* ------------------------------------------------------------- files */

/* Reads all of `f` (named `path` in messages), at most `limit` bytes,
 * about `expected` of them (0: unknown); closes it unless it is standard
 * input. */
static bool read_stream(FILE *f, const char *path, size_t expected, text *out, size_t limit,
                        char *why, size_t why_len) {
  size_t cap = expected && expected < limit ? expected + 1 : 1 << 16, len = 0;
  char *data = malloc(cap);
  while (data) {
    size_t n = fread(data + len, 1, cap - len, f);
    len += n;
    if (len > limit) {
      snprintf(why, why_len, "%s is larger than %zu bytes (256 MiB), the largest dump accepted",
               path, limit);
      free(data);
      if (f != stdin) fclose(f);
      return false;
    }
    if (n == 0) break;
    if (len == cap) {
      char *bigger = realloc(data, cap * 2);
      if (!bigger) {
        free(data);
        data = NULL;
        break;
      }
      data = bigger;
      cap *= 2;
    }
  }
  bool ok = data && !ferror(f);
  if (f != stdin) fclose(f);
  if (!ok) {
    snprintf(why, why_len, "cannot read %s", path);
    free(data);
    return false;
  }
  data[len] = 0; /* the buffer grows whenever it fills, so len < cap here */
  out->data = data;
  out->len = len;
  out->mapped = false;
  return true;
}

/* A shell's pipe (`<(...)`) or another process's file descriptor: the
 * native build reads these; Node's WASI cannot open them. */
static bool names_descriptor(const char *path) {
  return strncmp(path, "/dev/fd/", 8) == 0 || strncmp(path, "/proc/self/fd/", 14) == 0 ||
         strcmp(path, "/dev/stdin") == 0;
}

/* Why `path` could not be opened or found, into `why`. */
static void cannot_open(const char *path, char *why, size_t why_len) {
  int error = errno;
#ifdef __wasi__
  if (names_descriptor(path)) {
    snprintf(why, why_len,
             "%s: the command line under Node (WASI) cannot open another process's file "
             "descriptors, such as a shell's <(...); give it on standard input instead "
             "(memory-map - --name NAME ... < file), or use the native build",
             path);
    return;
  }
#else
  (void)names_descriptor;
#endif
  snprintf(why, why_len, "%s: %s", path, strerror(error));
}

static bool read_file(const char *path, text *out, size_t limit, char *why, size_t why_len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    char reason[1024];
    cannot_open(path, reason, sizeof reason);
    snprintf(why, why_len, "cannot read %.900s", reason);
    return false;
  }
  return read_stream(f, path, 0, out, limit, why, why_len);
}

void cli_text_free(text *t) {
#ifndef __wasi__
  if (t->mapped) {
    if (t->data) munmap(t->data, t->len);
    t->data = NULL;
    return;
  }
#endif
  free(t->data);
  t->data = NULL;
}

/* Dumps this large are mapped, not read: their bytes are not copied into
 * fresh heap pages (reading 5 MB that way was a tenth of the CLI's time).
 * A smaller one is read: a map and an unmap cost more than the copy, and
 * a build of thousands of small dumps paid that for each. */
#define MAP_FROM_BYTES ((size_t)1 << 20)

/* Reads or maps the dump at `path` into `out` (no NUL needed at the end
 * of a mapped one: the core takes a length). */
static bool load_dump(const char *path, text *out, size_t limit, char *why, size_t why_len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    char reason[1024];
    cannot_open(path, reason, sizeof reason);
    snprintf(why, why_len, "cannot read %.900s", reason);
    return false;
  }
  struct stat st;
  bool sized = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size <= limit;
#ifndef __wasi__
  if (sized && (uintmax_t)st.st_size >= MAP_FROM_BYTES) {
#ifdef MAP_POPULATE
    int flags = MAP_PRIVATE | MAP_POPULATE; /* every page at once: no fault per page */
#else
    int flags = MAP_PRIVATE;
#endif
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fileno(f), 0);
    if (data != MAP_FAILED) {
      fclose(f);
      *out = (text){.data = data, .len = (size_t)st.st_size, .mapped = true};
      return true;
    }
  }
#endif
  /* Read straight into the buffer: no stdio buffer, nor its fstat. */
  if (sized) setvbuf(f, NULL, _IONBF, 0);
  return read_stream(f, path, sized ? (size_t)st.st_size : 0, out, limit, why, why_len);
}

static int compare_cstrings(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The texts of the case's ptoas/ *.pto files, concatenated in name order. */
text cli_read_pto(const char *dump_path) {
  text all = {0};
  /* "<dir>/../ptoas" holds for a relative "." as for a full path. */
  char *dump_dir = dirname_of(dump_path);
  char *ptoas = dump_dir ? cli_join(dump_dir, "../ptoas") : NULL;
  DIR *d = ptoas ? opendir(ptoas) : NULL;
  char **names = NULL;
  size_t count = 0, cap = 0;
  struct dirent *entry;
  while (d && (entry = readdir(d)) != NULL) {
    size_t n = strlen(entry->d_name);
    if (n < 5 || strcmp(entry->d_name + n - 4, ".pto") != 0) continue;
    if (count == cap) {
      cap = cap ? cap * 2 : 16;
      char **bigger = realloc(names, cap * sizeof *names);
      if (!bigger) break;
      names = bigger;
    }
    names[count++] = strdup(entry->d_name);
  }
  if (d) closedir(d);
  if (count) qsort(names, count, sizeof *names, compare_cstrings);
  for (size_t i = 0; i < count; i++) {
    char why[256];
    char *path = names[i] ? cli_join(ptoas, names[i]) : NULL;
    text one;
    if (path && read_file(path, &one, MM_MAX_INPUT_BYTES, why, sizeof why)) {
      char *bigger = realloc(all.data, all.len + one.len + 1);
      if (bigger) {
        all.data = bigger;
        memcpy(all.data + all.len, one.data, one.len);
        all.len += one.len;
        all.data[all.len++] = '\n';
      }
      free(one.data);
    }
    free(path);
    free(names[i]);
  }
  free(names);
  free(ptoas);
  free(dump_dir);
  return all;
}

/* Writes in 1 MiB pieces: Node 20's WASI crashes the whole process (a V8
 * fatal error or a segfault) on a single fd_write of some tens of MB. */
bool cli_write_all(FILE *f, const char *data, size_t len) {
  const size_t piece = (size_t)1 << 20;
  for (size_t done = 0; done < len;) {
    size_t n = len - done < piece ? len - done : piece;
    if (fwrite(data + done, 1, n, f) != n) return false;
    done += n;
  }
  return true;
}

/* Bytes to write, one piece of a file. */
typedef struct piece {
  const char *data;
  size_t len;
} piece;

/* Writes `pieces` one after the other into `path`. */
static bool write_file(const char *path, const piece *pieces, size_t count) {
  size_t total = 0;
  for (size_t i = 0; i < count; i++)
    total += pieces[i].len;
  cli_output *out = cli_output_open(path, total);
  if (!out) return false;
  for (size_t i = 0; i < count && cli_output_write(out, pieces[i].data, pieces[i].len); i++) {
  }
  return cli_output_close(out, true);
}

bool cli_write_file(const char *path, const char *data, size_t len) {
  piece whole = {data, len};
  return write_file(path, &whole, 1);
}

/* ------------------------------------------------------------ output */

/* The page template, and where the JSON goes in it (`*split`); NULL with
 * `why` set when it is missing or not a memory-map page. */
static char *read_template(size_t *len, size_t *split, char *why, size_t why_len) {
  text template_text;
  const char *path = cli_page_path();
  if (!read_file(path, &template_text, MM_MAX_INPUT_BYTES, why, why_len)) {
    snprintf(why, why_len,
             "the page template %s is missing: run `npm run build` first, or use --json", path);
    return NULL;
  }
  *split = cli_page_split(template_text.data, template_text.len, why, why_len);
  if (*split == SIZE_MAX) {
    free(template_text.data);
    return NULL;
  }
  *len = template_text.len;
  return template_text.data;
}

/* `dump` without its .py, then `suffix`: where an output goes by default. */
static char *beside(const char *dump, const char *suffix) {
  size_t n = strlen(dump), s = strlen(suffix);
  if (n > 3 && strcmp(dump + n - 3, ".py") == 0) n -= 3;
  char *out = malloc(n + s + 1);
  if (!out) return NULL;
  memcpy(out, dump, n);
  memcpy(out + n, suffix, s + 1);
  return out;
}

static char *default_output(const char *dump) { return beside(dump, ".memory_map.html"); }

int cli_report(const mm_error *error, const char *dump) {
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

static char *resolve_dump(const cli_args *args, const char *given, mm_folder_choice *choice,
                          char **note, char *why, size_t why_len) {
  char *path = copy_path(given);
  struct stat st;
  if (!path) return NULL;
  if (stat(path, &st) != 0) {
    cannot_open(given, why, why_len);
    free(path);
    return NULL;
  }
  if (!S_ISDIR(st.st_mode)) return path;
  char *passes = cli_join(path, "passes_dump");
  char *dump = NULL;
  if (passes)
    dump = find_dump(cli_is_dir(passes) ? passes : path, args->pass_name, given, choice, note, why,
                     why_len);
  free(passes);
  free(path);
  return dump;
}

int cli_write_output(const cli_args *args, const char *dump, const char *json, size_t json_len) {
  if (args->json && !args->output)
    return cli_write_all(stdout, json, json_len) && fflush(stdout) == 0 ? 0 : 1;
  char why[1024] = "out of memory";
  int status = 1;
  char *output = args->output ? copy_path(args->output) : default_output(dump);
  size_t len = 0, split = 0;
  char *page = args->json ? NULL : read_template(&len, &split, why, sizeof why);
  /* The page is the template with the JSON in its data element. */
  piece pieces[3] = {{page, split}, {json, json_len}, {page ? page + split : NULL, len - split}};
  if (!args->json && !page) {
    fprintf(stderr, "error: %s\n", why);
  } else if (output &&
             (args->json ? write_file(output, &pieces[1], 1) : write_file(output, pieces, 3))) {
    printf("wrote %s\n", args->output ? args->output : output);
    status = 0;
  }
  free(page);
  free(output);
  return status;
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
  char *stem = args->output ? NULL : beside(dump, "");
  size_t need = stem ? strlen(stem) + strlen(args->svg) + sizeof "..svg" : 0;
  char *named = need ? malloc(need) : NULL;
  if (named) snprintf(named, need, "%s.%s.svg", stem, args->svg);
  const char *path = args->output ? args->output : named;
  piece whole = {svg, len};
  int status = 1;
  if (!svg || !path)
    fprintf(stderr, "error: out of memory\n");
  else if (write_file(path, &whole, 1)) {
    printf("wrote %s\n", path);
    status = 0;
  }
  mm_free(svg);
  free(stem);
  free(named);
  return status;
}

/* About how many bytes of JSON a box takes, with its function's share of
 * source lines (870 in decode_fwd's dumps): an output's expected size. */
#define JSON_BYTES_PER_BOX 900

/* As cli_write_output with the model's JSON, but into a file the JSON
 * goes as it is written (mm_model_write_json), never whole in memory: for
 * a 5 MB dump that spared 7 MB of fresh pages, a tenth of the time. */
static int write_model(const cli_args *args, const mm_model *model, const char *dump) {
  if (args->json && !args->output) { /* standard output: all or nothing, as before */
    size_t json_len = 0;
    char *json = mm_model_to_json(model, &json_len);
    int written = json ? cli_write_output(args, dump, json, json_len) : 1;
    if (!json) fprintf(stderr, "error: out of memory\n");
    mm_free(json);
    return written;
  }
  char why[1024] = "out of memory";
  int status = 1;
  char *output = args->output ? copy_path(args->output) : default_output(dump);
  size_t len = 0, split = 0;
  char *page = args->json ? NULL : read_template(&len, &split, why, sizeof why);
  cli_output *out = NULL;
  if (!args->json && !page) {
    fprintf(stderr, "error: %s\n", why);
  } else if (output && (out = cli_output_open(output, len + JSON_BYTES_PER_BOX *
                                                                mm_model_box_count(model)))) {
    /* The page is the template with the JSON in its data element. */
    bool complete = (!page || cli_output_write(out, page, split)) &&
                    mm_model_write_json(model, 0, cli_output_write, out) &&
                    (!page || cli_output_write(out, page + split, len - split));
    bool out_of_memory = !complete && cli_output_ok(out);
    if (cli_output_close(out, complete)) {
      printf("wrote %s\n", args->output ? args->output : output);
      status = 0;
    } else if (out_of_memory) {
      fprintf(stderr, "error: out of memory\n");
    }
  }
  free(page);
  free(output);
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
            USAGE, args->fit);
    return 2;
  }
  memcpy(space, args->fit, space_len);
  space[space_len] = 0;
  memcpy(size, colon + 1, size_len);
  size[size_len] = 0;
  if (!parse_bytes(size, &bytes) || bytes <= 0) {
    fprintf(stderr,
            "%smemory-map: error: --fit needs SPACE:BYTES:L1-L2 (e.g. Vec:8K:120-140), "
            "not %s\n",
            USAGE, args->fit);
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
  int written = write_model(args, model, dump);
  return written ? written : status;
}

bool cli_dump_read(const cli_args *args, const char *given, cli_dump *dump, char *why,
                   size_t why_len) {
  *dump = (cli_dump){.folder = {SIZE_MAX, SIZE_MAX, MM_PLANNER_UNKNOWN, false, false}};
  bool from_stdin = strcmp(given, STDIN_PATH) == 0;
  if (from_stdin) {
    dump->path = copy_path(args->name ? args->name : "stdin");
  } else {
    dump->path = resolve_dump(args, given, &dump->folder, &dump->note, why, why_len);
  }
  text *input = &dump->input;
  const char *path = dump->path;
  bool ok =
      path && (from_stdin ? read_stream(stdin, path, 0, input, MM_MAX_INPUT_BYTES, why, why_len)
                          : load_dump(path, input, MM_MAX_INPUT_BYTES, why, why_len));
  if (!ok) {
    cli_dump_free(dump);
    return false;
  }
  if (!args->backend && !from_stdin) dump->pto = cli_read_pto(path);
  return true;
}

mm_options cli_dump_options(const cli_args *args, const cli_dump *dump) {
  /* --diff's sides: standard input is named by --name already. */
  const char *name = args->name && !args->diff_old ? args->name : cli_basename(dump->path);
  return (mm_options){.dump_name = name,
                      .backend = args->backend,
                      .pto_text = dump->pto.data,
                      .pto_len = dump->pto.len,
                      .lifetimes_only = args->lifetimes || dump->folder.by_lifetime,
                      .planner = (unsigned char)dump->folder.planner};
}

void cli_dump_say_note(const cli_args *args, const cli_dump *dump) {
  /* Drawn by lifetime because --lifetimes asked: nothing to tell. */
  if (!dump->note || (args->lifetimes && dump->folder.by_lifetime)) return;
  fprintf(stderr, "note: %s\n", dump->note);
}

void cli_dump_free(cli_dump *dump) {
  cli_text_free(&dump->input);
  free(dump->pto.data);
  free(dump->path);
  free(dump->note);
  *dump = (cli_dump){0};
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

/* A folder of cases, or thresholds or a JUnit report: the build's way. */
static int run_build_or_dump(const cli_args *args);

static int run(const cli_args *args) {
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
                   : cli_report(&error, dump.path);
  mm_model_free(model);
  mm_error_clear(&error);
  cli_dump_free(&dump);
  return status;
}

/* A build folder given nothing to do for all its cases, or --svg. */
static int build_usage(const cli_args *args, size_t cases) {
  if (args->svg)
    fprintf(stderr,
            "%smemory-map: error: %s is a build of %zu cases: --svg draws a function of "
            "one case; give its folder\n",
            USAGE, args->path, cases);
  else
    fprintf(stderr,
            "%smemory-map: error: %s is a build (%zu cases): give --summary, --check, --json or "
            "--junit for all of them, or one case's folder for its page\n",
            USAGE, args->path, cases);
  return 2;
}

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
                   : run(args);
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
  int parsed = parse_args(argc, argv, &args);
  if (parsed == 3) {
    print_help();
    return 0;
  }
  if (parsed == 4) {
    printf("%s\n", mm_generator());
    return 0;
  }
  return parsed ? parsed : args.diff_old ? cli_run_diff(&args) : run_build_or_dump(&args);
}
