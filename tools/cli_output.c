/* cli_output.c: the command line's bytes written out: to a stream in
 * pieces WASI takes, or into output files written beside their place and
 * renamed into it when complete, the writes themselves made on a second
 * thread where there is one, while the next bytes are made. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_output.h"

/* Native builds write a big output on a thread of their own: a 5 MB
 * dump's page spent ~4 ms of its ~35 in write(2), which then overlaps
 * making the JSON (1.5 ms saved). A small one does not pay for the thread
 * and its buffers (1 ms of a 480 KB dump's 5). WASI has no threads: there
 * the bytes are written as they come. */
#if !defined(__wasi__)
#define CLI_WRITER_THREAD 1
#include <pthread.h>
#else
#define CLI_WRITER_THREAD 0
#endif

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

#define CHUNK_BYTES ((size_t)256 * 1024)
#define CHUNKS 4
#define THREADED_BYTES ((size_t)4 << 20)

struct cli_output {
  const char *path;
  char *tmp; /* `path`.partial, or NULL when `path` is written directly */
  FILE *f;
  bool ok;   /* every write so far succeeded */
  int error; /* errno of the first failure */
#if CLI_WRITER_THREAD
  bool threaded;
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  char *chunks[CHUNKS];
  size_t lens[CHUNKS];
  unsigned first, queued; /* the chunks to write: first, first + 1, ... */
  bool finished;          /* no more chunks will come */
  unsigned filling;       /* the chunk bytes go into now */
#endif
};

static void fail(cli_output *out) {
  if (out->ok) out->error = errno;
  out->ok = false;
}

#if CLI_WRITER_THREAD
/* The writer: each queued chunk written in turn, until none will come. */
static void *write_chunks(void *context) {
  cli_output *out = context;
  pthread_mutex_lock(&out->lock);
  for (;;) {
    while (!out->queued && !out->finished)
      pthread_cond_wait(&out->changed, &out->lock);
    if (!out->queued) break;
    unsigned i = out->first;
    bool ok = out->ok;
    pthread_mutex_unlock(&out->lock);
    int error = 0;
    if (ok && fwrite(out->chunks[i], 1, out->lens[i], out->f) != out->lens[i]) error = errno;
    pthread_mutex_lock(&out->lock);
    if (error) {
      errno = error;
      fail(out);
    }
    out->first = (out->first + 1) % CHUNKS;
    out->queued--;
    pthread_cond_broadcast(&out->changed);
  }
  pthread_mutex_unlock(&out->lock);
  return NULL;
}

/* Hands the chunk being filled to the writer; waits for a free one. */
static bool queue_chunk(cli_output *out) {
  pthread_mutex_lock(&out->lock);
  out->queued++;
  pthread_cond_broadcast(&out->changed);
  while (out->queued == CHUNKS)
    pthread_cond_wait(&out->changed, &out->lock);
  out->filling = (out->first + out->queued) % CHUNKS;
  out->lens[out->filling] = 0;
  bool ok = out->ok;
  pthread_mutex_unlock(&out->lock);
  return ok;
}

/* Sets `threaded` when the writer runs; else the bytes go out as they come. */
static void start_writer(cli_output *out) {
  for (int i = 0; i < CHUNKS; i++)
    if (!(out->chunks[i] = malloc(CHUNK_BYTES))) return;
  if (pthread_mutex_init(&out->lock, NULL) != 0) return;
  if (pthread_cond_init(&out->changed, NULL) != 0) {
    pthread_mutex_destroy(&out->lock);
    return;
  }
  if (pthread_create(&out->thread, NULL, write_chunks, out) != 0) {
    pthread_cond_destroy(&out->changed);
    pthread_mutex_destroy(&out->lock);
    return;
  }
  out->threaded = true;
}

/* The last chunk queued, the writer waited for and stopped. */
static void stop_writer(cli_output *out) {
  if (out->threaded) {
    if (out->lens[out->filling]) queue_chunk(out);
    pthread_mutex_lock(&out->lock);
    out->finished = true;
    pthread_cond_broadcast(&out->changed);
    pthread_mutex_unlock(&out->lock);
    pthread_join(out->thread, NULL);
    pthread_cond_destroy(&out->changed);
    pthread_mutex_destroy(&out->lock);
  }
  for (int i = 0; i < CHUNKS; i++)
    free(out->chunks[i]);
}
#endif

cli_output *cli_output_open(const char *path, size_t expected_bytes) {
  /* A device, a pipe or a socket (-o /dev/stdout) is written to, never
   * replaced by a file. */
  struct stat st;
  bool direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
  cli_output *out = calloc(1, sizeof *out);
  char *tmp = out && !direct ? malloc(strlen(path) + 10) : NULL;
  if (!out || (!direct && !tmp)) {
    free(out);
    fprintf(stderr, "error: cannot write %s: out of memory\n", path);
    return NULL;
  }
  out->path = path;
  out->tmp = tmp;
  if (tmp) sprintf(tmp, "%s.partial", path);
  out->ok = true;
  out->f = fopen(tmp ? tmp : path, "wb");
  if (!out->f) fail(out);
  (void)expected_bytes; /* WASI: written as they come */
#if CLI_WRITER_THREAD
  if (out->f && expected_bytes >= THREADED_BYTES) start_writer(out);
#endif
  return out;
}

bool cli_output_ok(cli_output *out) {
#if CLI_WRITER_THREAD
  if (out->threaded) { /* the writer sets it */
    pthread_mutex_lock(&out->lock);
    bool ok = out->ok;
    pthread_mutex_unlock(&out->lock);
    return ok;
  }
#endif
  return out->ok;
}

bool cli_output_write(void *context, const char *data, size_t len) {
  cli_output *out = context;
#if CLI_WRITER_THREAD
  if (out->threaded) { /* a failure shows when a chunk is handed over */
    while (len) {
      size_t *filled = &out->lens[out->filling];
      size_t n = CHUNK_BYTES - *filled < len ? CHUNK_BYTES - *filled : len;
      memcpy(out->chunks[out->filling] + *filled, data, n);
      *filled += n;
      data += n;
      len -= n;
      if (*filled == CHUNK_BYTES && !queue_chunk(out)) return false;
    }
    return true;
  }
#endif
  if (out->ok && !cli_write_all(out->f, data, len)) fail(out);
  return out->ok;
}

bool cli_output_close(cli_output *out, bool complete) {
#if CLI_WRITER_THREAD
  stop_writer(out);
#endif
  if (out->f && fclose(out->f) != 0) fail(out);
  /* The old output removed first: renamed over, ext4 writes the new one
   * out at once (its safeguard for files replaced so), ~5 ms of a 5 MB
   * dump's page, where otherwise it does so in the background. */
  if (out->ok && complete && out->tmp) {
    unlink(out->path); /* when it cannot be, rename says why */
    if (rename(out->tmp, out->path) != 0) fail(out);
  }
  bool ok = out->ok;
  if (!ok) fprintf(stderr, "error: cannot write %s: %s\n", out->path, strerror(out->error));
  if ((!ok || !complete) && out->tmp) remove(out->tmp);
  free(out->tmp);
  free(out);
  return ok && complete;
}
