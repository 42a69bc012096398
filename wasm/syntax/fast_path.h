/* fast_path.h: the one hook between the general parser and the fast path
 * (syntax/fast/, which reads most statements of a dump straight from the
 * bytes): where a statement starts, the parser asks it first, and it
 * either reads the statement (or a run of them, a for header, a def's
 * parameters), handing the listener the same events the general way
 * would, or leaves it untouched. Built without it (cmake -DMM_FAST_PATH=OFF:
 * no_fast_path.c), it never reads one, and the model is the same. */
#ifndef MM_FAST_PATH_H
#define MM_FAST_PATH_H

#include <stdbool.h>
#include <stdint.h>

struct parser;

/* The fast path's state for one parse; NULL (built without it, or out of
 * memory) means none: the general way throughout. */
typedef struct mm_fast_path mm_fast_path;
mm_fast_path *mm__fast_path_new(void);
void mm__fast_path_free(mm_fast_path *fast);

/* At a simple statement: it and the ones after it in its block. */
bool mm__fast_statements(struct parser *p, uint32_t depth);
/* At `for`: the header through its colon, `*header_line` its line; the
 * lexer resumes on the block's first line. */
bool mm__fast_for_header(struct parser *p, uint32_t *header_line);
/* At a def's '(': its parameters, return annotation and colon, with the
 * parameter events when `own`. */
bool mm__fast_parameters(struct parser *p, bool own);

#endif
