/* window_calls.h: the calls reserved windows and allocations are read
 * from, by name: what windows.c and allocations.c read and the fast path
 * (skim*.c) leaves to the general parser. */
#ifndef MM_WINDOW_CALLS_H
#define MM_WINDOW_CALLS_H

#include <stddef.h>

/* What a call of `<...>.<name>(...)` says, by its callee's last part. */
typedef enum mm_window_call {
  MM_WINDOW_CALL_NONE,
  MM_WINDOW_CALL_RESERVE, /* reserve_buffer: a window of this function */
  MM_WINDOW_CALL_IMPORT,  /* import_peer_buffer: a peer's window */
  MM_WINDOW_CALL_PIPE,    /* aic_initialize_pipe, aiv_initialize_pipe: slot sizes */
  MM_WINDOW_CALL_ALLOC,   /* alloc: a base's allocation (allocations.c) */
  MM_WINDOW_CALL_ATTRS    /* func_attr: the function's attributes (collect.c) */
} mm_window_call;

/* The kind of call whose callee's last part is text[0, len). */
mm_window_call mm__window_call_kind(const char *text, size_t len);

#endif
