/* cli_files.h: paths and files (cli_files.c): a dump found and read for a
 * model, and the outputs written where the arguments say. */
#ifndef MM_CLI_FILES_H
#define MM_CLI_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_args.h"
#include "memory_map.h"

/* `dir`/`name`, owned (NULL when out of memory); whether `path` is a folder. */
char *cli_join(const char *dir, const char *name);
bool cli_is_dir(const char *path);

/* The last component of `path`. */
const char *cli_basename(const char *path);

/* `dump` without its .py, then `suffix`, owned (NULL when out of memory):
 * where an output goes by default. */
char *cli_beside(const char *dump, const char *suffix);

/* Bytes read whole, owned: released with the cli_dump holding them. */
typedef struct text {
  char *data;
  size_t len;
  bool mapped; /* a dump file mapped (munmap), not read into the heap (free) */
} text;

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

/* Writes `len` bytes to `path` through a temporary file renamed into place;
 * false with the error said. */
bool cli_write_file(const char *path, const char *data, size_t len);

/* Writes `json` (--json) or the page holding it where the arguments say
 * (beside `dump` by default) and says so; 0, or 1 with the error said. */
int cli_write_output(const cli_args *args, const char *dump, const char *json, size_t json_len);

/* As cli_write_output with `model`'s JSON, written into a file as it is
 * made. */
int cli_write_model(const cli_args *args, const mm_model *model, const char *dump);

#endif
