/* cli_output.h: bytes written out (cli_output.c): to an open stream, or
 * into an output file that appears only when complete. */
#ifndef MM_CLI_OUTPUT_H
#define MM_CLI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes all of `data`, in pieces WASI can take. */
bool cli_write_all(FILE *f, const char *data, size_t len);

/* An output file being written: into `<path>.partial`, renamed into place
 * when complete, so a failure never leaves a partial output behind.
 * `expected_bytes`: about how many will be written (a big output is
 * written on a second thread). NULL (said on standard error) only when out
 * of memory; a file that cannot be made fails its writes and its close. */
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

#endif
