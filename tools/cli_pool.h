/* cli_pool.h: a job run over many indices on every processor (cli_pool.c). */
#ifndef MM_CLI_POOL_H
#define MM_CLI_POOL_H

#include <stddef.h>

/* A job for cli_pool_run: `work` makes index's result on a worker thread
 * (touching nothing another index's work touches), `take` has it on the
 * calling thread in index order, and `release` frees it afterwards on the
 * thread that made it. */
typedef struct cli_pool_job {
  void *(*work)(void *context, size_t index);
  void (*take)(void *context, size_t index, void *result);
  void (*release)(void *context, void *result);
  void *context;
} cli_pool_job;

/* Runs `job` over 0..count-1 on a thread per processor, or in turn where
 * there are no threads or one processor. */
void cli_pool_run(const cli_pool_job *job, size_t count);

#endif
