/* parser_internal.h: state and helpers shared by the expression and
 * statement halves of the parser. Not part of the public API. */
#ifndef MM_PARSER_INTERNAL_H
#define MM_PARSER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "parser.h"

/* CPython refuses deeper nesting too ("too complex"); the bound keeps the
 * recursion within a small stack for any input. */
#define MM_MAX_NESTING 400

typedef struct parser {
  const char *src;
  const mm_token *toks;
  size_t count, pos;
  mm_arena *arena; /* per-statement nodes */
  mm_vec *scratch; /* mm_node* under construction */
  mm_vec *walk;    /* const mm_node*: stack for p_emit_loads */
  mm_diag *diag;
  const mm_parse_events *events;
  bool tracking;          /* inside a function the listener asked for */
  int nesting;            /* recursion guard */
  uint32_t prev_end_line; /* end line of the last real token consumed */
} parser;

/* Tokens */
static inline const mm_token *p_peek(const parser *p) { return &p->toks[p->pos]; }
static inline const mm_token *p_peek_at(const parser *p, size_t k) {
  size_t i = p->pos + k;
  return &p->toks[i < p->count ? i : p->count - 1];
}
static inline bool p_failed(const parser *p) { return mm_diag_failed(p->diag); }
static inline bool p_at_op(const parser *p, int op) {
  return p_peek(p)->kind == TK_OP && p_peek(p)->op == op;
}
static inline bool p_at(const parser *p, int kind) { return p_peek(p)->kind == kind; }
bool p_at_name(const parser *p, const char *word);
const mm_token *p_advance(parser *p);
bool p_accept_op(parser *p, int op);
bool p_accept(parser *p, int kind);
bool p_expect_op(parser *p, int op, const char *what);
void p_error_at(parser *p, const mm_token *tok, const char *message);
void p_error_node(parser *p, const mm_node *node, const char *message);

/* Nodes */
mm_node *p_node(parser *p, int kind, const mm_token *first);
mm_node *p_node_at(parser *p, int kind, const mm_node *first);
size_t p_mark(const parser *p);
void p_push(parser *p, mm_node *kid);
/* Moves the kids pushed since `mark` into `node` and ends it at the last
 * token consumed. */
mm_node *p_finish(parser *p, mm_node *node, size_t mark);
bool p_enter(parser *p, const mm_token *at);
static inline void p_leave(parser *p) { p->nesting--; }

/* Expressions (parse_expr.c) */
mm_node *parse_expression(parser *p);
mm_node *parse_named_expression(parser *p);
mm_node *parse_star_expressions(parser *p);
mm_node *parse_star_named_expressions_tuple(parser *p);
mm_node *parse_bitwise_or(parser *p);
mm_node *parse_disjunction(parser *p);
mm_node *parse_yield_expression(parser *p);
mm_node *parse_target_list(parser *p, bool allow_tuple);
mm_node *parse_dotted_name_expr(parser *p);
/* At '(': the arguments of a call of `func` (also a class's bases). */
mm_node *parse_call_tail(parser *p, mm_node *func);
bool starts_expression(const parser *p);

/* Targets */
typedef enum target_kind {
  TARGET_ASSIGN,
  TARGET_AUG,
  TARGET_ANN,
  TARGET_DEL,
  TARGET_FOR
} target_kind;
bool check_target(parser *p, mm_node *node, target_kind kind);

/* Hands every Name read in `node` to the listener (when tracking). */
void p_emit_loads(parser *p, const mm_node *node);

#endif
