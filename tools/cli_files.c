/* cli_files.c: paths and files, the bottom of the command line: a dump
 * found in a file or folder and read (with its case's .pto), and outputs
 * written where the arguments say, as JSON or a self-contained page. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifndef __wasi__
#include <sys/mman.h>
#endif

#include "cli_files.h"
#include "cli_output.h"
#include "cli_page.h"

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

/* `dump` without its .py, then `suffix`: where an output goes by default. */
char *cli_beside(const char *dump, const char *suffix) {
  size_t n = strlen(dump), s = strlen(suffix);
  if (n > 3 && strcmp(dump + n - 3, ".py") == 0) n -= 3;
  char *out = malloc(n + s + 1);
  if (!out) return NULL;
  memcpy(out, dump, n);
  memcpy(out + n, suffix, s + 1);
  return out;
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

/* ----------------------------------------------------------- reading */

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

/* `path` opened for reading, or NULL with why in `why`. */
static FILE *open_to_read(const char *path, char *why, size_t why_len) {
  FILE *f = fopen(path, "rb");
  int n = f ? 0 : snprintf(why, why_len, "cannot read ");
  if (n > 0 && (size_t)n < why_len) cannot_open(path, why + n, why_len - (size_t)n);
  return f;
}

static bool read_file(const char *path, text *out, size_t limit, char *why, size_t why_len) {
  FILE *f = open_to_read(path, why, why_len);
  if (!f) return false;
  return read_stream(f, path, 0, out, limit, why, why_len);
}

/* Releases `t`'s bytes; an empty text is allowed. */
static void text_free(text *t) {
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
  FILE *f = open_to_read(path, why, why_len);
  if (!f) return false;
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
static text read_pto(const char *dump_path) {
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

/* ------------------------------------------------------------- dumps */

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
  if (!args->backend && !from_stdin) dump->pto = read_pto(path);
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
  text_free(&dump->input);
  free(dump->pto.data);
  free(dump->path);
  free(dump->note);
  *dump = (cli_dump){0};
}

/* ----------------------------------------------------------- outputs */

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

static char *default_output(const char *dump) { return cli_beside(dump, ".memory_map.html"); }

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

/* About how many bytes of JSON a box takes, with its function's share of
 * source lines (870 in decode_fwd's dumps): an output's expected size. */
#define JSON_BYTES_PER_BOX 900

/* As cli_write_output with the model's JSON, but into a file the JSON
 * goes as it is written (mm_model_write_json), never whole in memory: for
 * a 5 MB dump that spared 7 MB of fresh pages, a tenth of the time. */
int cli_write_model(const cli_args *args, const mm_model *model, const char *dump) {
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
