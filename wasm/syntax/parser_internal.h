/* parser_internal.h: state and helpers shared by the expression and
 * statement halves of the parser. Not part of the public API. */
#ifndef MM_PARSER_INTERNAL_H
#define MM_PARSER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/bytes.h"
#include "syntax/fast_path.h"
#include "syntax/parser.h"

/* CPython refuses deeper nesting too ("too complex"); the bound keeps the
 * recursion within a small stack for any input. */
#define MM_MAX_NESTING 1000

typedef struct parser {
  const char *src;
  mm_lexer *lx;            /* tokens on demand; those before a statement are released */
  size_t pos;              /* index of the current token */
  const mm_token *current; /* token `pos`: chunks do not move while kept */
  mm_arena *arena;         /* per-statement nodes */
  mm_vec *scratch;         /* mm_node* under construction */
  mm_vec *walk;            /* const mm_node*: stack for mm__parser_emit_loads */
  mm_diag *diag;
  const mm_parse_events *events;
  bool tracking;     /* inside a function the listener asked for */
  int nesting;       /* recursion guard */
  int brackets;      /* brackets open around the current token */
  bool index_failed; /* a subscript's index could not be read (parse_subscript) */
  /* Where the innermost expression being read starts; 0 in a dict's `**x`
   * operand, where CPython's "forgot a comma" rule does not apply. */
  uint32_t expression_line;
  bool fstring_failed;     /* an f-string's field could not be read: CPython raises it at once */
  mm_node *parsed_primary; /* mm__parse_expression's primary, handed to the operator levels */
  uint32_t prev_end_line;  /* end line of the last real token consumed */
  mm_fast_path *fast;      /* asked first at statements (fast_path.h); NULL: none */
} parser;

/* Tells the listener something the printer writes was read (parser.h). */
static inline void p_note(const parser *p, uint32_t line, const char *text) {
  if (p->events->note) p->events->note(p->events->context, line, text);
}

/* Tells the listener a statement of the tracked function begins. */
static inline void p_statement(const parser *p, uint32_t line) {
  if (p->tracking) p->events->statement(p->events->context, line);
}

/* Tells the listener a loop of the tracked function ended (its body's
 * last line is the last token's). */
static inline void p_loop(const parser *p, uint32_t header_line) {
  if (p->tracking && p->events->loop)
    p->events->loop(p->events->context, header_line, p->prev_end_line);
}

/* Tokens */
/* The current token always exists (p_advance makes the next one). */
static inline const mm_token *p_peek(const parser *p) { return p->current; }
static inline const mm_token *p_peek_at(const parser *p, size_t k) {
  size_t i = p->pos + k;
  if (i >= p->lx->count) mm__lexer_fill(p->lx, i);
  return mm__lexer_at(p->lx, i < p->lx->count ? i : p->lx->count - 1);
}
static inline bool p_failed(const parser *p) { return mm__diag_failed(p->diag); }
static inline bool p_at_op(const parser *p, int op) {
  return p_peek(p)->kind == TK_OP && p_peek(p)->op == op;
}
static inline bool p_at(const parser *p, int kind) { return p_peek(p)->kind == kind; }

/* After a bare '*' in parameters: CPython wants a named one next (not
 * `end`, a ',' then `end`, or ',' '**'), else "named arguments must follow
 * bare *" on the '*'. */
static inline bool p_bare_star_ends(const parser *p, int end) {
  const mm_token *next = p_peek_at(p, 1);
  return p_at_op(p, end) ||
         (p_at_op(p, OP_COMMA) && next->kind == TK_OP && (next->op == end || next->op == OP_DSTAR));
}
bool mm__parser_at_name(const parser *p, const char *word);
/* Starts reading at the lexer's first token. */
void mm__parser_start(parser *p, mm_lexer *lexer);

/* Resumes reading at byte `next`, after a statement read without tokens
 * that ended on `end_line`; `line_starts` (`count` of them) are the starts
 * of the lines it spanned after its first, for the lexer's table. The
 * current statement's nodes are released, its tokens kept (a `def`'s
 * line is still read). */
void mm__parser_resume_at(parser *p, size_t next, uint32_t end_line, const uint32_t *line_starts,
                          size_t count);
/* Consumes the current token and returns it (at TK_END, stays there).
 * Inline: it runs once per token. */
static inline const mm_token *p_advance(parser *p) {
  const mm_token *t = p->current;
  if (t->kind == TK_END) return t;
  if (++p->pos >= p->lx->count) mm__lexer_fill(p->lx, p->pos); /* t stays: chunks do not move */
  /* The next slot of the same chunk, unless a chunk starts here. */
  p->current = (p->pos - p->lx->first) % MM_TOKEN_CHUNK ? t + 1 : mm__lexer_at(p->lx, p->pos);
  if (t->kind != TK_NEWLINE && t->kind != TK_INDENT && t->kind != TK_DEDENT)
    p->prev_end_line = t->end_line;
  return t;
}
bool mm__parser_accept_op(parser *p, int op);
bool mm__parser_accept(parser *p, int kind);
bool mm__parser_expect_op(parser *p, int op, const char *what);
void mm__parser_error_at(parser *p, const mm_token *tok, const char *message);
void mm__parser_error_node(parser *p, const mm_node *node, const char *message);

/* Nodes */
mm_node *mm__parser_node(parser *p, int kind, const mm_token *first);
mm_node *mm__parser_node_at(parser *p, int kind, const mm_node *first);
size_t mm__parser_mark(const parser *p);
/* Adds a kid to the node under construction (see mm__parser_finish). */
static inline void p_push(parser *p, mm_node *kid) {
  if (!mm__vec_push_ptr(p->scratch, kid))
    mm__diag_set(p->diag, MM_ERR_NO_MEMORY, p_peek(p)->line, "out of memory");
}
/* Moves the kids pushed since `mark` into `node` and ends it at the last
 * token consumed. */
mm_node *mm__parser_finish(parser *p, mm_node *node, size_t mark);
bool mm__parser_enter(parser *p, const mm_token *at);
static inline void p_leave(parser *p) { p->nesting--; }

/* Expressions (parse_expr.c) */
mm_node *mm__parse_expression(parser *p);
mm_node *mm__parse_named_expression(parser *p);
mm_node *mm__parse_star_expressions(parser *p);
mm_node *mm__parse_star_named_expressions_tuple(parser *p);
mm_node *mm__parse_bitwise_or(parser *p);
mm_node *mm__parse_disjunction(parser *p);
mm_node *mm__parse_yield_expression(parser *p);
mm_node *mm__parse_target_list(parser *p, bool allow_tuple);
mm_node *mm__parse_dotted_name_expr(parser *p);
/* At '(': the arguments of a call of `func` (also a class's bases). */
mm_node *mm__parse_call_tail(parser *p, mm_node *func);
bool mm__parser_starts_expression(const parser *p);

/* Targets */
typedef enum target_kind {
  TARGET_ASSIGN,
  TARGET_AUG,
  TARGET_ANN,
  TARGET_DEL,
  TARGET_FOR
} target_kind;
/* Marks `node` as bound (or deleted) by a statement of `kind`; if it cannot
 * be, records CPython's message for it and returns false. */
bool mm__parser_check_target(parser *p, mm_node *node, target_kind kind);
/* The first part of `node` that cannot be bound (or deleted); NULL if none.
 * A starred part can be bound (in a sequence), never deleted. */
mm_node *mm__parser_invalid_target(mm_node *node, target_kind kind);
/* Whether `node`'s text is exactly `word`. */
bool mm__parser_node_text_is(const parser *p, const mm_node *node, const char *word);
/* A name, attribute or subscript: what one assignment binds. */
bool mm__parser_is_single_target(const mm_node *node);
/* Where a chain of attributes, calls and subscripts starts (`a` of
 * `a.b(c)[d]`); a parenthesized link ends it. */
const mm_node *mm__parser_chain_start(const mm_node *node);
/* What CPython's messages call the expression ("function call", "True",
 * "list comprehension", ...). */
const char *mm__parser_expr_name(const parser *p, const mm_node *node);

/* --- `E = x` typed for `E == x`: CPython tries this reading before naming
 * a bad assignment target or an unexpected '='. --- */

/* Not at the level of CPython's `bitwise_or` unless in parentheses. */
bool mm__parser_above_bitwise_or(const mm_node *node);
/* `node`, or the last element of it as an unparenthesized tuple (`a, b`):
 * the one CPython's invalid rules look at before '=' or ':='. */
const mm_node *mm__parser_last_element(const mm_node *node);
/* The E CPython would consider in `target = ...` (the last element of an
 * unparenthesized tuple): at the `bitwise_or` level and not starting with a
 * tuple, a list, a generator, True, None or False. NULL when none. */
const mm_node *mm__parser_typo_target(const parser *p, const mm_node *target);
/* CPython's `bitwise_or !('=' | ':=')` at the current token. Consumes
 * tokens: only for choosing the message of an error already certain. A
 * tokenizer error met on the way is kept (it wins in CPython too). */
bool mm__parser_operand_then_not_equal(parser *p);
/* Records the message for `e = x` read as a mistyped comparison. */
void mm__parser_typo_error(parser *p, const mm_node *e);
/* A reading tried only to choose CPython's message: its errors go to
 * `trial`, except those CPython raises wherever they are met (out of
 * memory, an f-string field's), which mm__trial_end keeps. */
typedef struct mm_trial {
  mm_diag *diag; /* the parser's own */
  mm_diag trial;
} mm_trial;
void mm__trial_begin(parser *p, mm_trial *t);
/* Whether the tried reading succeeded. */
bool mm__trial_end(parser *p, mm_trial *t);
/* Whether the expression at the current token has a start CPython's
 * grammar reads (its parser backtracks to the longest one: `g(1 +)`
 * starts with `g`). Consumes tokens, for a message only. */
bool mm__parser_value_starts(parser *p, bool starred);
/* In brackets, after `before`: an expression starting next is CPython's
 * "invalid syntax. Perhaps you forgot a comma?" on `before`'s line. */
void mm__parser_missing_comma(parser *p, const mm_node *before);
/* Hands every Name read in `node` to the listener (when tracking). */
void mm__parser_emit_loads(parser *p, const mm_node *node);

#endif
