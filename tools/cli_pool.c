/* cli_pool.c: a job run over the indices 0..count-1 on worker threads,
 * its results handed to the calling thread in index order and released
 * by the thread that made them. */
#include <stdbool.h>
#include <stdlib.h>

#include "cli_pool.h"

#if !defined(__wasi__)
#include <pthread.h>
#include <unistd.h>
#define CLI_POOL_THREADS 1
#else
#define CLI_POOL_THREADS 0
#endif

/* At most this many workers, and this many results made ahead per
 * worker: a result may hold a whole model, so the window bounds memory
 * (the compiler's 2,520 dumps took as long with 2 as with 8). */
#define MAX_WORKERS 8
#define AHEAD_PER_WORKER 2

static void run_in_turn(const cli_pool_job *job, size_t count) {
  for (size_t i = 0; i < count; i++) {
    void *result = job->work(job->context, i);
    job->take(job->context, i, result);
    job->release(job->context, result);
  }
}

#if CLI_POOL_THREADS
typedef enum slot_state { SLOT_FREE, SLOT_WORKING, SLOT_READY, SLOT_TAKEN } slot_state;

typedef struct slot {
  slot_state state;
  unsigned maker; /* the worker that made the result, and releases it */
  void *result;
} slot;

typedef struct pool {
  const cli_pool_job *job;
  size_t count, window;
  pthread_mutex_t lock;
  pthread_cond_t ready, room; /* a result is ready; a slot came free */
  bool taker_waits;           /* signal `ready` only when someone waits */
  unsigned makers_wait;
  size_t next; /* the next index a worker claims */
  slot *slots;
} pool;

typedef struct worker {
  pool *pool;
  unsigned id;
} worker;

/* Releases the worker's results the taker is done with (frees stay with
 * the thread, and the malloc arena, that made them); how many. The lock
 * is let go for each release, so a result taken meanwhile may be missed:
 * callers scan again until a scan releases nothing, which holds the lock
 * throughout. Lock held. */
static size_t release_taken(pool *p, unsigned id) {
  size_t released = 0;
  for (size_t s = 0; s < p->window; s++) {
    if (p->slots[s].state != SLOT_TAKEN || p->slots[s].maker != id) continue;
    void *result = p->slots[s].result;
    pthread_mutex_unlock(&p->lock);
    p->job->release(p->job->context, result);
    pthread_mutex_lock(&p->lock);
    p->slots[s].state = SLOT_FREE;
    released++;
    if (p->makers_wait) pthread_cond_broadcast(&p->room);
  }
  return released;
}

/* Claims the next index when its slot is free, works it unlocked and
 * leaves the result there; false when it cannot claim one. Lock held. */
static bool make_next(pool *p, unsigned id) {
  if (p->next >= p->count) return false;
  slot *at = &p->slots[p->next % p->window];
  if (at->state != SLOT_FREE) return false;
  size_t index = p->next++;
  at->state = SLOT_WORKING;
  pthread_mutex_unlock(&p->lock);
  void *result = p->job->work(p->job->context, index);
  pthread_mutex_lock(&p->lock);
  *at = (slot){SLOT_READY, id, result};
  if (p->taker_waits) pthread_cond_signal(&p->ready);
  return true;
}

/* Whether a result the worker made is still to be taken or released. */
static bool holds_results(const pool *p, unsigned id) {
  for (size_t s = 0; s < p->window; s++)
    if (p->slots[s].maker == id &&
        (p->slots[s].state == SLOT_READY || p->slots[s].state == SLOT_TAKEN))
      return true;
  return false;
}

/* A worker thread: makes results until every index is claimed, then
 * stays to release its own as they are taken. */
static void *run_worker(void *arg) {
  const worker *self = arg;
  pool *p = self->pool;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    /* Waits only after a scan that released nothing: the state it saw
     * stays so until the wait lets go of the lock. */
    if (release_taken(p, self->id)) continue;
    if (make_next(p, self->id)) continue;
    if (p->next >= p->count && !holds_results(p, self->id)) break;
    p->makers_wait++;
    pthread_cond_wait(&p->room, &p->lock);
    p->makers_wait--;
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

/* The calling thread: takes each result in turn as it is ready, and
 * makes one itself rather than wait (maker `id`). */
static void take_in_order(pool *p, unsigned id) {
  pthread_mutex_lock(&p->lock);
  for (size_t i = 0; i < p->count;) {
    slot *at = &p->slots[i % p->window];
    if (at->state == SLOT_READY) {
      pthread_mutex_unlock(&p->lock);
      p->job->take(p->job->context, i, at->result);
      pthread_mutex_lock(&p->lock);
      at->state = SLOT_TAKEN;
      if (at->maker == id)
        while (release_taken(p, id))
          ;
      else if (p->makers_wait)
        pthread_cond_broadcast(&p->room);
      i++;
    } else if (!release_taken(p, id) && !make_next(p, id)) {
      p->taker_waits = true;
      pthread_cond_wait(&p->ready, &p->lock);
      p->taker_waits = false;
    }
  }
  pthread_mutex_unlock(&p->lock);
}

/* Threads to start beside the calling one, which works too. */
static size_t worker_count(size_t count) {
  if (count < 2) return 0;
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  size_t workers = online > 1 ? (size_t)online - 1 : 0;
  if (workers > MAX_WORKERS) workers = MAX_WORKERS;
  return workers < count ? workers : count - 1;
}

/* Runs the job on `workers` threads; false when they cannot be had (then
 * nothing was run). */
static bool run_threaded(const cli_pool_job *job, size_t count, size_t workers) {
  pool p = {.job = job, .count = count, .window = (workers + 1) * AHEAD_PER_WORKER};
  p.slots = calloc(p.window, sizeof *p.slots);
  if (!p.slots || pthread_mutex_init(&p.lock, NULL) != 0) {
    free(p.slots);
    return false;
  }
  if (pthread_cond_init(&p.ready, NULL) != 0) {
    pthread_mutex_destroy(&p.lock);
    free(p.slots);
    return false;
  }
  if (pthread_cond_init(&p.room, NULL) != 0) {
    pthread_cond_destroy(&p.ready);
    pthread_mutex_destroy(&p.lock);
    free(p.slots);
    return false;
  }
  pthread_t threads[MAX_WORKERS];
  worker selves[MAX_WORKERS];
  size_t started = 0;
  for (; started < workers; started++) {
    selves[started] = (worker){&p, (unsigned)started};
    if (pthread_create(&threads[started], NULL, run_worker, &selves[started]) != 0) break;
  }
  if (started) take_in_order(&p, (unsigned)started);
  for (size_t i = 0; i < started; i++)
    pthread_join(threads[i], NULL);
  /* Nothing is left to release (each worker stays for its own): this
   * only guards against a slot a worker could not see. */
  for (size_t s = 0; started && s < p.window; s++)
    if (p.slots[s].state == SLOT_TAKEN) job->release(job->context, p.slots[s].result);
  pthread_cond_destroy(&p.room);
  pthread_cond_destroy(&p.ready);
  pthread_mutex_destroy(&p.lock);
  free(p.slots);
  return started > 0;
}
#endif

void cli_pool_run(const cli_pool_job *job, size_t count) {
#if CLI_POOL_THREADS
  size_t workers = worker_count(count);
  if (workers && run_threaded(job, count, workers)) return;
#endif
  run_in_turn(job, count);
}
