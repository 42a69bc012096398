/* parser.h: a recursive-descent parser for Python source, statement by
 * statement, reporting what the model needs as events: the functions
 * defined directly in top-level classes, their parameters, annotated
 * bindings and every read of a name. It accepts exactly what Python's own
 * parser accepts for the constructs dumps use, and stops at the first
 * syntax error with its line; three things only PyPTO's printer writes
 * are read too, each told as a note (`<unsupported IRNode type>` as an
 * unknown value, an empty block of a loop, `if` or `with` as `pass`, a
 * keyword after a dot as a name). Statements of the form most of a dump is
 * made of are read by the fast path instead (fast_path.h), when they are
 * in its subset: the events are the same. */
#ifndef MM_PARSER_H
#define MM_PARSER_H

#include <stdbool.h>

#include "base/diag.h"
#include "syntax/ast.h"
#include "syntax/lexer.h"

/* A tile the fast path read straight from the bytes (tile_rules.h
 * decided it): spans index the source; a base is a plain name or a
 * string without escapes; `shape` is valid during the event only. */
typedef struct mm_tile_read {
  uint32_t space_start, space_len;
  uint32_t base_start, base_len;
  int64_t offset, size;
  const int64_t *shape;
  uint32_t shape_len;
  uint32_t dtype_start, dtype_len; /* dtype_len 0: none */
  uint32_t op_start, op_len;       /* the value's called dotted name, without `pl.` */
} mm_tile_read;

/* `NAME: annotation [= value]` anywhere in the function, or (`is_param`)
 * an annotated parameter of the function itself. The general parser hands
 * the annotation and value as nodes; the fast path, which reads no nodes,
 * hands what the annotation says instead: the tile it read, or (`tile`
 * NULL too) that it is no tile. */
typedef struct mm_binding_event {
  uint32_t name_start, name_len; /* the bound name, in the source */
  uint32_t line, end_line;       /* the statement's; a parameter's name through its annotation */
  uint32_t depth; /* in Python's AST below the function (its body 1, a parameter 0) */
  bool is_param;
  const mm_node *annotation, *value; /* the general parser's; value NULL: none */
  const mm_tile_read *tile; /* the fast path's (annotation NULL): the tile, or NULL: none */
} mm_binding_event;

/* What the parser tells its listener. Names arrive as N_NAME nodes (their
 * text and line); all nodes are valid only during the call. */
typedef struct mm_parse_events {
  void *context;
  /* A `def` directly in the body of a top-level class. `first_line` is the
   * line of its first decorator, or of `def`. Return true to receive the
   * events of this function until function_end. */
  bool (*function_begin)(void *context, const mm_node *name, mm_node *const *decorators,
                         size_t decorator_count, uint32_t first_line);
  /* An annotated name bound (mm_binding_event), by either reader, in
   * source order (parameters in Python's ast order). */
  void (*binding)(void *context, const mm_binding_event *binding);
  /* A statement whose whole value is a call, anywhere in the function:
   * `f(...)` alone (`target` NULL), `NAME = f(...)` or `NAME: annotation
   * = f(...)` (`target` the first name bound). Reserved windows are read
   * from these (windows.c). */
  void (*call_statement)(void *context, const mm_node *target, const mm_node *call, uint32_t line);
  /* A statement of the function begins on `line`: each simple statement
   * (both of `a; b`) and each compound statement's header, nested ones
   * too, in source order. Lifetimes are compared in statements across
   * dumps whose line numbers differ (diff.c). */
  void (*statement)(void *context, uint32_t line);
  /* A `for` or `while` loop of the function: its header's line and the
   * last line of its body (an `else` clause, run once, is not in it). An
   * in-place handoff never reaches a loop's next turn (layout.c). May be
   * NULL. */
  void (*loop)(void *context, uint32_t header_line, uint32_t last_line);
  /* A read of a name (a Name node with Load context). */
  void (*load)(void *context, const mm_node *name);
  /* The function ended; `last_line` is the last line of its last statement. */
  void (*function_end)(void *context, uint32_t last_line);
  /* Something the compiler's printer writes that is not Python, read
   * anyway (anywhere in the dump): `text` (static storage) says what and
   * how it was read. May be NULL. */
  void (*note)(void *context, uint32_t line, const char *text);
} mm_parse_events;

/* Parses the tokens `lexer` makes from `source`, asking for them as it
 * goes and releasing each statement's once done. False on a syntax error,
 * with `diag` filled and `*stopped_at` (when non-NULL) set to the index of
 * the token where parsing stopped. */
bool mm__parse(const char *source, mm_lexer *lexer, const mm_parse_events *events, mm_diag *diag,
               size_t *stopped_at);

/* As mm__parse; `fast_path` false reads every statement the general way
 * (tests compare the two). */
bool mm__parse_with(const char *source, mm_lexer *lexer, const mm_parse_events *events,
                    mm_diag *diag, size_t *stopped_at, bool fast_path);

#endif
