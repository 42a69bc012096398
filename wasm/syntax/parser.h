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
#include "model/tiles.h"
#include "syntax/ast.h"
#include "syntax/lexer.h"

/* What the parser tells its listener. Names arrive as N_NAME nodes (their
 * text and line); all nodes are valid only during the call. */
typedef struct mm_parse_events {
  void *context;
  /* A `def` directly in the body of a top-level class. `first_line` is the
   * line of its first decorator, or of `def`. Return true to receive the
   * events of this function until function_end. */
  bool (*function_begin)(void *context, const mm_node *name, mm_node *const *decorators,
                         size_t decorator_count, uint32_t first_line);
  /* An annotated parameter of the function itself; lines span the name and
   * its annotation. */
  void (*parameter)(void *context, const mm_node *name, const mm_node *annotation, uint32_t line,
                    uint32_t end_line);
  /* `NAME: annotation [= value]` anywhere in the function; `depth` is the
   * statement's depth in Python's AST below the function (its body is 1). */
  void (*binding)(void *context, const mm_node *name, const mm_node *annotation,
                  const mm_node *value, uint32_t line, uint32_t end_line, uint32_t depth);
  /* A binding or (`is_param`) an annotated parameter of the function that
   * the fast path read (fast_path.h), when its annotation is a tile: what the
   * annotation and value say, already read. Instead of `binding` or
   * `parameter`, in the same order. */
  void (*tile_binding)(void *context, const mm_tile_binding *binding, uint32_t depth,
                       bool is_param);
  /* `NAME: annotation [= value]` the fast path read whose annotation is no
   * tile: its name (a span of the source) and lines. Instead of `binding`. */
  void (*other_binding)(void *context, uint32_t name_start, uint32_t name_len, uint32_t line,
                        uint32_t end_line);
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
