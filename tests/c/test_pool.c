/* test_pool.c: the command line's worker pool (tools/cli_pool.c) under
 * interleavings made likely: results made and released with small random
 * pauses, many runs over a few indices. Every index is taken once, in
 * order, every result released by the thread that made it; a lost
 * wake-up (a thread waiting for work that never comes) trips the alarm. */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../tools/cli_pool.h"
#include "check.h"

typedef struct run {
  pthread_mutex_t lock;
  size_t taken, released, wrong_order, wrong_thread;
  unsigned seed;
} run;

typedef struct result {
  size_t index;
  pthread_t maker;
} result;

static void pause_a_little(run *r) {
  pthread_mutex_lock(&r->lock);
  unsigned us = (unsigned)(rand_r(&r->seed) % 40);
  pthread_mutex_unlock(&r->lock);
  if (us) usleep(us);
}

static void *work(void *context, size_t index) {
  pause_a_little(context);
  result *made = malloc(sizeof *made);
  if (made) *made = (result){index, pthread_self()};
  return made;
}

static void take(void *context, size_t index, void *made) {
  run *r = context;
  const result *res = made;
  if (!res || res->index != index || index != r->taken) r->wrong_order++;
  r->taken++;
}

static void release(void *context, void *made) {
  run *r = context;
  pause_a_little(r);
  const result *res = made;
  pthread_mutex_lock(&r->lock);
  if (res && !pthread_equal(res->maker, pthread_self())) r->wrong_thread++;
  r->released++;
  pthread_mutex_unlock(&r->lock);
  free(made);
}

static void test_many_runs(void) {
  for (unsigned k = 0; k < 400; k++) {
    run r = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, k + 1};
    size_t count = 2 + k % 23;
    cli_pool_job job = {work, take, release, &r};
    cli_pool_run(&job, count);
    CHECK(r.taken == count && r.released == count);
    CHECK(r.wrong_order == 0 && r.wrong_thread == 0);
    pthread_mutex_destroy(&r.lock);
  }
}

int main(void) {
  alarm(20); /* a deadlock fails here instead of hanging the suite */
  test_many_runs();
  return check_report("pool");
}
