/* parse_stmt.c: Python statements, and the events the model listens to:
 * functions directly in top-level classes, their annotated parameters and
 * bindings, and reads. Statement depth follows Python's AST (an `elif` is an
 * `If` nested in the `orelse` of the one before; an `except` body sits
 * below its handler), because model.md orders bindings breadth-first. */
#include <stdio.h>
#include <string.h>

#include "syntax/parser_internal.h"
#include "syntax/syntax_errors.h"

typedef enum scope { SCOPE_MODULE, SCOPE_TOP_CLASS, SCOPE_OTHER } scope;

static void parse_statement(parser *p, uint32_t depth, scope sc);

/* Between statements: nodes and the tokens before this one are dropped
 * (nothing keeps a token of an earlier statement, only line numbers). */
static void statement_done(parser *p) {
  mm__arena_reset(p->arena);
  p->scratch->len = 0;
  mm__lexer_release(p->lx, p->pos);
}

static void block_expected(parser *p, uint32_t header_line, const char *what) {
  mm__diag_set(p->diag, MM_ERR_SYNTAX, p_peek(p)->line,
               "expected an indented block after %s on line %u", what, (unsigned)header_line);
}

/* `:` then either an indented block or simple statements on the same line. */
static void parse_block(parser *p, uint32_t depth, scope sc, uint32_t header_line,
                        const char *what);
/* The indented lines of a block, after its header's NEWLINE. */
static void parse_block_lines(parser *p, uint32_t depth, scope sc, uint32_t header_line,
                              const char *what);

/* ------------------------------------------------- simple statements */

static mm_node *parse_rhs(parser *p) {
  if (p_at(p, TK_KW_YIELD)) return mm__parse_yield_expression(p);
  return mm__parse_star_expressions(p);
}

/* A statement whose value is a call: told to the listener (windows). */
static void emit_call_statement(parser *p, const mm_node *target, const mm_node *value,
                                uint32_t line) {
  if (p->tracking && value && value->kind == N_CALL && !p_failed(p))
    p->events->call_statement(p->events->context, target, value, line);
}

/* Whether `value`, read after `E =` and followed by '=', starts with an
 * operand that something other than '=' follows (`E = a < b = ...`): the
 * leftmost operand of a comparison, boolean operation or tuple, and of a
 * conditional `a if c else b` its body `a`, which comes first. */
static bool starts_with_operand_then_operator(const mm_node *value) {
  const mm_node *n = value;
  while (!n->parenthesized && n->count &&
         (n->kind == N_COMPARE || n->kind == N_BOOLOP || n->kind == N_IFEXP || n->kind == N_TUPLE))
    n = n->kind == N_IFEXP ? n->kids[1] : n->kids[0];
  return n != value && !mm__parser_above_bitwise_or(n);
}

/* Reports the first target that cannot be bound in `first = ... = bad =`,
 * as CPython: as `E = x` mistyped for a comparison when that reading fits
 * (E the last element of `first`; `value` the expression after `first =`,
 * or NULL when `first` is `bad` and the current token follows its '='),
 * else naming the bad part of `bad`. */
static void report_bad_target(parser *p, const mm_node *first, const mm_node *value, mm_node *bad) {
  const mm_node *e = mm__parser_typo_target(p, first);
  bool typo = e && (value ? starts_with_operand_then_operator(value)
                          : mm__parser_operand_then_not_equal(p));
  if (p_failed(p)) return;
  if (!typo) {
    mm__parser_check_target(p, bad, TARGET_ASSIGN);
    return;
  }
  mm__parser_typo_error(p, e);
}

/* `(a).b` or `(a)[0]`: CPython's grammar takes `(a)` as the whole
 * annotated target (a parenthesized single target) and does not go back
 * for the longer one, so it refuses them ("illegal target for annotation");
 * `(f()).b` is read as the longer one. */
static bool starts_with_grouped_target(const mm_node *target) {
  const mm_node *n = mm__parser_chain_start(target);
  return n != target && n->parenthesized && mm__parser_is_single_target(n);
}

static bool is_bare_yield_or_starred(const mm_node *node) {
  return node->kind == N_STARRED || (node->kind == N_YIELD && !node->parenthesized);
}

/* A target that cannot be annotated, augmented or given to ':=', at the
 * operator `op`: CPython names it once what follows starts to read as a
 * value (its parser backtracks to that start), else it is invalid syntax
 * at `op`. `name_it` records the message naming the target. */
static void refuse_target(parser *p, const mm_token *op, bool starred_value, bool nameable,
                          void (*name_it)(parser *, const mm_node *, target_kind),
                          const mm_node *target, target_kind kind) {
  if (nameable && mm__parser_value_starts(p, starred_value)) {
    name_it(p, target, kind);
  } else if (!p_failed(p)) {
    mm__parser_error_at(p, op, "invalid syntax");
  }
}

static void name_bad_target(parser *p, const mm_node *target, target_kind kind) {
  mm__parser_check_target(p, (mm_node *)target, kind);
}

static void name_grouped_target(parser *p, const mm_node *target, target_kind kind) {
  (void)kind;
  mm__parser_error_node(p, target, "illegal target for annotation");
}

static void name_walrus_target(parser *p, const mm_node *target, target_kind kind) {
  (void)kind;
  char message[96];
  snprintf(message, sizeof message, "cannot use assignment expressions with %s",
           mm__parser_expr_name(p, target));
  mm__parser_error_node(p, target, message);
}

/* `target: annotation [= value]`. */
static void parse_annotated(parser *p, const mm_token *first, mm_node *lhs, uint32_t depth) {
  const mm_token *colon = p_advance(p);
  if (!mm__parser_is_single_target(lhs) || starts_with_grouped_target(lhs)) {
    refuse_target(p, colon, false, !is_bare_yield_or_starred(lhs),
                  mm__parser_is_single_target(lhs) ? name_grouped_target : name_bad_target, lhs,
                  TARGET_ANN);
    return;
  }
  mm_node *annotation = mm__parse_expression(p);
  if (!annotation || !mm__parser_check_target(p, lhs, TARGET_ANN)) return;
  mm_node *value = NULL;
  if (mm__parser_accept_op(p, OP_EQUAL)) value = parse_rhs(p);
  if (p_failed(p)) return;
  if (p->tracking && lhs->kind == N_NAME)
    p->events->binding(p->events->context, &(mm_binding_event){.name_start = lhs->start,
                                                               .name_len = lhs->len,
                                                               .line = first->line,
                                                               .end_line = p->prev_end_line,
                                                               .depth = depth,
                                                               .annotation = annotation,
                                                               .value = value});
  if (lhs->kind == N_NAME) emit_call_statement(p, lhs, value, first->line);
  mm__parser_emit_loads(p, lhs);
  mm__parser_emit_loads(p, annotation);
  mm__parser_emit_loads(p, value);
}

/* `target op= value`. */
static void parse_augmented(parser *p, mm_node *lhs) {
  const mm_token *op = p_advance(p);
  if (!mm__parser_is_single_target(lhs)) {
    refuse_target(p, op, true, !(lhs->kind == N_YIELD && !lhs->parenthesized), name_bad_target, lhs,
                  TARGET_AUG);
    return;
  }
  mm_node *value = parse_rhs(p);
  if (!value || !mm__parser_check_target(p, lhs, TARGET_AUG)) return;
  mm__parser_emit_loads(p, lhs);
  mm__parser_emit_loads(p, value);
}

/* `x := 1` as a statement is invalid syntax; CPython names any other
 * target of the ':=' (the last element of a tuple). */
static void refuse_walrus_statement(parser *p, const mm_node *lhs) {
  const mm_node *e = mm__parser_last_element(lhs);
  const mm_token *walrus = p_advance(p);
  refuse_target(p, walrus, false, e->kind != N_NAME && !is_bare_yield_or_starred(e),
                name_walrus_target, e, TARGET_ASSIGN);
}

static void parse_assignment_or_expression(parser *p, uint32_t depth) {
  const mm_token *first = p_peek(p);
  mm_node *lhs = parse_rhs(p);
  if (!lhs) return;
  const mm_token *t = p_peek(p);
  if (p_at_op(p, OP_COLON)) return parse_annotated(p, first, lhs, depth);
  if (t->kind == TK_OP && t->op >= OP_PLUSEQ && t->op <= OP_ATEQ) return parse_augmented(p, lhs);
  if (p_at_op(p, OP_WALRUS)) return refuse_walrus_statement(p, lhs);
  const mm_node *target = NULL, *after_target = NULL;
  while (!p_failed(p) && mm__parser_accept_op(p, OP_EQUAL)) {
    if (mm__parser_invalid_target(lhs, TARGET_ASSIGN)) {
      report_bad_target(p, target ? target : lhs, after_target, lhs);
      return;
    }
    mm__parser_check_target(p, lhs, TARGET_ASSIGN);
    mm__parser_emit_loads(p, lhs);
    if (!target) target = lhs;
    lhs = parse_rhs(p);
    if (!lhs) return;
    if (!after_target) after_target = lhs;
  }
  if (p_failed(p)) return;
  if (!target || target->kind == N_NAME) emit_call_statement(p, target, lhs, first->line);
  mm__parser_emit_loads(p, lhs);
}

static void parse_dotted_module(parser *p) {
  if (!mm__parser_accept(p, TK_NAME)) {
    mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a module name");
    return;
  }
  while (!p_failed(p) && mm__parser_accept_op(p, OP_DOT))
    if (!mm__parser_accept(p, TK_NAME))
      mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a name");
}

static void parse_as_name(parser *p) {
  if (mm__parser_accept(p, TK_KW_AS) && !mm__parser_accept(p, TK_NAME))
    mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a name after 'as'");
}

static void parse_import(parser *p) {
  do {
    parse_dotted_module(p);
    parse_as_name(p);
  } while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA));
}

static void parse_from_import(parser *p) {
  bool relative = false;
  while (mm__parser_accept_op(p, OP_DOT) || mm__parser_accept_op(p, OP_ELLIPSIS))
    relative = true;
  if (!relative || p_at(p, TK_NAME)) parse_dotted_module(p);
  if (p_failed(p)) return;
  if (!mm__parser_accept(p, TK_KW_IMPORT)) {
    mm__parser_error_at(p, p_peek(p), "invalid syntax: expected 'import'");
    return;
  }
  if (mm__parser_accept_op(p, OP_STAR)) return;
  bool paren = mm__parser_accept_op(p, OP_LPAR);
  do {
    if (paren && p_at_op(p, OP_RPAR)) break;
    if (!mm__parser_accept(p, TK_NAME)) {
      mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a name to import");
      return;
    }
    parse_as_name(p);
  } while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA));
  if (paren) mm__parser_expect_op(p, OP_RPAR, ")");
}

static void parse_simple_statement(parser *p, uint32_t depth) {
  const mm_token *t = p_peek(p);
  p_statement(p, t->line);
  switch (t->kind) {
  case TK_KW_PASS:
  case TK_KW_BREAK:
  case TK_KW_CONTINUE: p_advance(p); return;
  case TK_KW_RETURN:
    p_advance(p);
    if (mm__parser_starts_expression(p)) mm__parser_emit_loads(p, mm__parse_star_expressions(p));
    return;
  case TK_KW_RAISE:
    p_advance(p);
    if (mm__parser_starts_expression(p)) {
      mm__parser_emit_loads(p, mm__parse_expression(p));
      if (mm__parser_accept(p, TK_KW_FROM)) mm__parser_emit_loads(p, mm__parse_expression(p));
    }
    return;
  case TK_KW_GLOBAL:
  case TK_KW_NONLOCAL:
    p_advance(p);
    do {
      if (!mm__parser_accept(p, TK_NAME))
        mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a name");
    } while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA));
    return;
  case TK_KW_DEL: {
    p_advance(p);
    mm_node *targets = mm__parse_star_expressions(p);
    if (targets && mm__parser_check_target(p, targets, TARGET_DEL))
      mm__parser_emit_loads(p, targets);
    return;
  }
  case TK_KW_ASSERT:
    p_advance(p);
    mm__parser_emit_loads(p, mm__parse_expression(p));
    if (mm__parser_accept_op(p, OP_COMMA)) mm__parser_emit_loads(p, mm__parse_expression(p));
    return;
  case TK_KW_IMPORT:
    p_advance(p);
    parse_import(p);
    return;
  case TK_KW_FROM:
    p_advance(p);
    parse_from_import(p);
    return;
  default:
    if (!mm__parser_starts_expression(p) && t->kind != TK_KW_YIELD) {
      mm__parser_error_at(p, t, "invalid syntax");
      return;
    }
    parse_assignment_or_expression(p, depth);
  }
}

static void parse_simple_statements(parser *p, uint32_t depth) {
  for (;;) {
    parse_simple_statement(p, depth);
    if (p_failed(p)) return;
    if (!mm__parser_accept_op(p, OP_SEMI) || p_at(p, TK_NEWLINE)) break;
  }
  if (!mm__parser_accept(p, TK_NEWLINE)) mm__parser_error_at(p, p_peek(p), "invalid syntax");
}

static void parse_block(parser *p, uint32_t depth, scope sc, uint32_t header_line,
                        const char *what) {
  if (!mm__parser_expect_op(p, OP_COLON, ":")) return;
  statement_done(p);
  if (!mm__parser_accept(p, TK_NEWLINE)) {
    parse_simple_statements(p, depth);
    return;
  }
  parse_block_lines(p, depth, sc, header_line, what);
}

/* Whether the printer may write the block of `what` empty: a `with`
 * scope whose body is empty prints nothing (python_printer.cpp,
 * PrintStmtBlock), and older printers did so for loops and branches. */
static bool may_print_empty(const char *what) {
  static const char *const printed[] = {"'for' statement", "'while' statement", "'with' statement",
                                        "'if' statement",  "'elif' statement",  "'else' statement"};
  for (size_t i = 0; i < sizeof printed / sizeof *printed; i++)
    if (strcmp(what, printed[i]) == 0) return true;
  return false;
}

static void parse_block_lines(parser *p, uint32_t depth, scope sc, uint32_t header_line,
                              const char *what) {
  if (!mm__parser_accept(p, TK_INDENT)) {
    if (may_print_empty(what)) {
      p_note(p, header_line, "the printer wrote an empty block: read as `pass`");
      return;
    }
    block_expected(p, header_line, what);
    return;
  }
  while (!p_failed(p) && !p_at(p, TK_DEDENT) && !p_at(p, TK_END))
    parse_statement(p, depth, sc);
  mm__parser_accept(p, TK_DEDENT);
}

/* -------------------------------------------------- compound statements */

static void parse_if(parser *p, uint32_t depth) {
  const mm_token *header = p_advance(p);
  mm__parser_emit_loads(p, mm__parse_named_expression(p));
  parse_block(p, depth + 1, SCOPE_OTHER, header->line, "'if' statement");
  uint32_t elifs = 0;
  while (!p_failed(p) && p_at(p, TK_KW_ELIF)) {
    header = p_advance(p);
    elifs++;
    mm__parser_emit_loads(p, mm__parse_named_expression(p));
    parse_block(p, depth + 1 + elifs, SCOPE_OTHER, header->line, "'elif' statement");
  }
  if (!p_failed(p) && p_at(p, TK_KW_ELSE)) {
    header = p_advance(p);
    parse_block(p, depth + 1 + elifs, SCOPE_OTHER, header->line, "'else' statement");
  }
}

static void parse_else_clause(parser *p, uint32_t depth) {
  if (!p_failed(p) && p_at(p, TK_KW_ELSE)) {
    const mm_token *header = p_advance(p);
    parse_block(p, depth + 1, SCOPE_OTHER, header->line, "'else' statement");
  }
}

static void parse_while(parser *p, uint32_t depth) {
  uint32_t line = p_advance(p)->line; /* the body's statements release its token */
  mm__parser_emit_loads(p, mm__parse_named_expression(p));
  parse_block(p, depth + 1, SCOPE_OTHER, line, "'while' statement");
  p_loop(p, line);
  parse_else_clause(p, depth);
}

static void parse_for(parser *p, uint32_t depth) {
  uint32_t header_line;
  if (mm__fast_for_header(p, &header_line)) {
    parse_block_lines(p, depth + 1, SCOPE_OTHER, header_line, "'for' statement");
    p_loop(p, header_line);
    parse_else_clause(p, depth);
    return;
  }
  const mm_token *header = p_advance(p);
  mm_node *target = mm__parse_target_list(p, true);
  if (!target) return;
  if (!mm__parser_accept(p, TK_KW_IN)) {
    mm__parser_error_at(p, p_peek(p), "invalid syntax: expected 'in'");
    return;
  }
  mm_node *iter = mm__parse_star_expressions(p);
  mm__parser_emit_loads(p, target);
  mm__parser_emit_loads(p, iter);
  uint32_t line = header->line; /* the body's statements release its token */
  parse_block(p, depth + 1, SCOPE_OTHER, line, "'for' statement");
  p_loop(p, line);
  parse_else_clause(p, depth);
}

/* Whether `with (` opens parenthesized with-items: the matching `)` is
 * followed by the block's `:`. */
static bool with_items_parenthesized(const parser *p) {
  int level = 0;
  for (size_t k = 0;; k++) {
    const mm_token *t = p_peek_at(p, k);
    if (t->kind == TK_END || t->kind == TK_NEWLINE) return false;
    if (t->kind != TK_OP) continue;
    if (t->op == OP_LPAR || t->op == OP_LSQB || t->op == OP_LBRACE) level++;
    if (t->op == OP_RPAR || t->op == OP_RSQB || t->op == OP_RBRACE) {
      if (--level == 0) {
        const mm_token *next = p_peek_at(p, k + 1);
        return next->kind == TK_OP && next->op == OP_COLON;
      }
    }
  }
}

static void parse_with_item(parser *p) {
  mm__parser_emit_loads(p, mm__parse_expression(p));
  if (mm__parser_accept(p, TK_KW_AS)) mm__parser_emit_loads(p, mm__parse_target_list(p, false));
}

static void parse_with(parser *p, uint32_t depth) {
  const mm_token *header = p_advance(p);
  bool paren = p_at_op(p, OP_LPAR) && with_items_parenthesized(p);
  if (paren) p_advance(p);
  do {
    if (paren && p_at_op(p, OP_RPAR)) break;
    parse_with_item(p);
  } while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA));
  if (paren) mm__parser_expect_op(p, OP_RPAR, ")");
  parse_block(p, depth + 1, SCOPE_OTHER, header->line, "'with' statement");
}

static void parse_try(parser *p, uint32_t depth) {
  const mm_token *header = p_advance(p);
  parse_block(p, depth + 1, SCOPE_OTHER, header->line, "'try' statement");
  bool handlers = false, final = false;
  while (!p_failed(p) && p_at(p, TK_KW_EXCEPT)) {
    const mm_token *except = p_advance(p);
    handlers = true;
    mm__parser_accept_op(p, OP_STAR);
    if (!p_at_op(p, OP_COLON)) {
      mm_node *type = mm__parse_expression(p);
      if (type && p_at_op(p, OP_COMMA)) {
        mm__parser_error_node(p, type, "multiple exception types must be parenthesized");
        return;
      }
      mm__parser_emit_loads(p, type);
      if (mm__parser_accept(p, TK_KW_AS) && !mm__parser_accept(p, TK_NAME))
        mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a name after 'as'");
    }
    parse_block(p, depth + 2, SCOPE_OTHER, except->line, "'except' statement");
  }
  if (handlers) parse_else_clause(p, depth);
  if (!p_failed(p) && p_at(p, TK_KW_FINALLY)) {
    const mm_token *fin = p_advance(p);
    final = true;
    parse_block(p, depth + 1, SCOPE_OTHER, fin->line, "'finally' statement");
  }
  if (!p_failed(p) && !handlers && !final)
    mm__parser_error_at(p, p_peek(p), "expected 'except' or 'finally' block");
}

/* ------------------------------------------------------------- match */

static void parse_pattern(parser *p, mm_node *reads);

/* Value patterns (`Color.RED`) and class patterns read their dotted name;
 * captures (`case x:`) bind it. The reads are kept as kids of `reads`. */
static void parse_name_pattern(parser *p, mm_node *reads) {
  bool dotted = p_peek_at(p, 1)->kind == TK_OP && p_peek_at(p, 1)->op == OP_DOT;
  bool is_class = p_peek_at(p, 1)->kind == TK_OP && p_peek_at(p, 1)->op == OP_LPAR;
  if (!dotted && !is_class) {
    p_advance(p); /* a capture or the wildcard */
    return;
  }
  mm_node *name = mm__parse_dotted_name_expr(p);
  if (!name) return;
  p_push(p, name);
  if (!mm__parser_accept_op(p, OP_LPAR)) return;
  while (!p_failed(p) && !p_at_op(p, OP_RPAR)) {
    if (p_at(p, TK_NAME) && p_peek_at(p, 1)->kind == TK_OP && p_peek_at(p, 1)->op == OP_EQUAL) {
      p_advance(p);
      p_advance(p);
    }
    parse_pattern(p, reads);
    if (!mm__parser_accept_op(p, OP_COMMA)) break;
  }
  mm__parser_expect_op(p, OP_RPAR, ")");
}

static void parse_literal_pattern(parser *p) {
  if (p_at(p, TK_STRING)) {
    while (mm__parser_accept(p, TK_STRING)) {
    }
    return;
  }
  mm__parser_accept_op(p, OP_MINUS);
  if (!mm__parser_accept(p, TK_NUMBER)) {
    mm__parser_error_at(p, p_peek(p), "invalid pattern");
    return;
  }
  if (mm__parser_accept_op(p, OP_PLUS) || mm__parser_accept_op(p, OP_MINUS))
    if (!mm__parser_accept(p, TK_NUMBER)) mm__parser_error_at(p, p_peek(p), "invalid pattern");
}

static void parse_mapping_pattern(parser *p, mm_node *reads) {
  while (!p_failed(p) && !p_at_op(p, OP_RBRACE)) {
    if (mm__parser_accept_op(p, OP_DSTAR)) {
      if (!mm__parser_accept(p, TK_NAME)) mm__parser_error_at(p, p_peek(p), "invalid pattern");
      mm__parser_accept_op(p, OP_COMMA);
      if (!p_failed(p) && !p_at_op(p, OP_RBRACE)) /* `**rest` comes last */
        mm__diag_set(p->diag, MM_ERR_SYNTAX, p_peek(p)->line, "invalid syntax");
      break;
    } else {
      if (p_at(p, TK_NAME)) {
        mm_node *key = mm__parse_dotted_name_expr(p);
        if (key && key->kind == N_NAME)
          mm__parser_error_node(p, key, "invalid pattern: mapping key");
        if (key) p_push(p, key);
      } else if (p_at(p, TK_KW_NONE) || p_at(p, TK_KW_TRUE) || p_at(p, TK_KW_FALSE)) {
        p_advance(p);
      } else {
        parse_literal_pattern(p);
      }
      if (mm__parser_expect_op(p, OP_COLON, ":")) parse_pattern(p, reads);
    }
    if (!mm__parser_accept_op(p, OP_COMMA)) break;
  }
  mm__parser_expect_op(p, OP_RBRACE, "}");
}

static void parse_closed_pattern(parser *p, mm_node *reads) {
  const mm_token *t = p_peek(p);
  if (!mm__parser_enter(p, t)) return;
  if (t->kind == TK_NAME) {
    parse_name_pattern(p, reads);
  } else if (t->kind == TK_KW_NONE || t->kind == TK_KW_TRUE || t->kind == TK_KW_FALSE) {
    p_advance(p);
  } else if (t->kind == TK_OP && t->op == OP_STAR) {
    p_advance(p);
    if (!mm__parser_accept(p, TK_NAME)) mm__parser_error_at(p, p_peek(p), "invalid pattern");
  } else if (t->kind == TK_OP && (t->op == OP_LPAR || t->op == OP_LSQB)) {
    int close = t->op == OP_LPAR ? OP_RPAR : OP_RSQB;
    p_advance(p);
    while (!p_failed(p) && !p_at_op(p, close)) {
      parse_pattern(p, reads);
      if (!mm__parser_accept_op(p, OP_COMMA)) break;
    }
    mm__parser_expect_op(p, close, close == OP_RPAR ? ")" : "]");
  } else if (t->kind == TK_OP && t->op == OP_LBRACE) {
    p_advance(p);
    parse_mapping_pattern(p, reads);
  } else {
    parse_literal_pattern(p);
  }
  p_leave(p);
}

static void parse_pattern(parser *p, mm_node *reads) {
  do {
    parse_closed_pattern(p, reads);
  } while (!p_failed(p) && mm__parser_accept_op(p, OP_VBAR));
  if (!p_failed(p) && mm__parser_accept(p, TK_KW_AS) && !mm__parser_accept(p, TK_NAME))
    mm__parser_error_at(p, p_peek(p), "invalid pattern target");
}

/* `match` is a soft keyword: a statement when the logical line ends with
 * ':' (no other statement starting `match x` does). Whatever follows, an
 * indented `case` or not, is then read as its block: CPython's parser
 * goes that far before it fails. */
static bool at_match_statement(const parser *p) {
  if (!mm__parser_at_name(p, "match")) return false;
  const mm_token *next = p_peek_at(p, 1);
  if (next->kind == TK_NEWLINE ||
      (next->kind == TK_OP && next->op != OP_LPAR && next->op != OP_LSQB && next->op != OP_LBRACE &&
       next->op != OP_MINUS && next->op != OP_STAR && next->op != OP_TILDE && next->op != OP_PLUS))
    return false;
  size_t k = 1;
  while (p_peek_at(p, k)->kind != TK_NEWLINE && p_peek_at(p, k)->kind != TK_END)
    k++;
  const mm_token *colon = p_peek_at(p, k - 1);
  return colon->kind == TK_OP && colon->op == OP_COLON;
}

static void parse_match(parser *p, uint32_t depth) {
  uint32_t header_line = p_advance(p)->line;
  mm__parser_emit_loads(p, mm__parse_star_named_expressions_tuple(p));
  if (!mm__parser_expect_op(p, OP_COLON, ":")) return;
  statement_done(p);
  mm__parser_accept(p, TK_NEWLINE);
  if (!mm__parser_accept(p, TK_INDENT)) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, p_peek(p)->line,
                 "expected an indented block after 'match' statement on line %u",
                 (unsigned)header_line);
    return;
  }
  while (!p_failed(p) && !p_at(p, TK_DEDENT) && !p_at(p, TK_END)) {
    if (!mm__parser_at_name(p, "case")) {
      mm__parser_error_at(p, p_peek(p), "invalid syntax: expected 'case'");
      return;
    }
    const mm_token *case_tok = p_advance(p);
    mm_node *reads = mm__parser_node(p, N_PATTERN, case_tok);
    size_t mark = mm__parser_mark(p);
    if (p_at_op(p, OP_COLON) || p_at(p, TK_KW_IF)) /* `case:`: no pattern */
      mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a pattern");
    while (!p_failed(p)) { /* a trailing comma ends the sequence: `case 1,:` */
      parse_pattern(p, reads);
      if (p_failed(p) || !mm__parser_accept_op(p, OP_COMMA) || p_at_op(p, OP_COLON) ||
          p_at(p, TK_KW_IF))
        break;
    }
    reads = mm__parser_finish(p, reads, mark);
    mm__parser_emit_loads(p, reads);
    if (!p_failed(p) && mm__parser_accept(p, TK_KW_IF))
      mm__parser_emit_loads(p, mm__parse_named_expression(p));
    parse_block(p, depth + 2, SCOPE_OTHER, case_tok->line, "'case' statement");
  }
  if (!p_failed(p) && !mm__parser_accept(p, TK_DEDENT))
    block_expected(p, header_line, "'match' statement");
}

/* ---------------------------------------------------- def and class */

typedef struct decorators {
  mm_node **items;
  size_t count;
  uint32_t first_line; /* 0 when there are none */
} decorators;

/* A parameter told to the listener later: Python's ast lists *args and
 * **kwargs after the keyword-only ones, and so does upstream's count of
 * which parameter comes first in a slot. */
typedef struct later_parameter {
  mm_node *name, *annotation;
  uint32_t line, end_line;
} later_parameter;

static void tell_parameter(parser *p, const later_parameter *param) {
  if (param->name)
    p->events->binding(p->events->context, &(mm_binding_event){.name_start = param->name->start,
                                                               .name_len = param->name->len,
                                                               .line = param->line,
                                                               .end_line = param->end_line,
                                                               .is_param = true,
                                                               .annotation = param->annotation});
}

/* `later`: where a *args or **kwargs parameter waits; NULL: told now. */
static void parse_parameter(parser *p, bool own, bool allow_annotation, bool *seen_default,
                            bool keyword_only, later_parameter *later) {
  const mm_token *name_tok = p_peek(p);
  if (!mm__parser_accept(p, TK_NAME)) {
    mm__parser_error_at(p, name_tok, "invalid syntax: expected a parameter name");
    return;
  }
  mm_node *annotation = NULL;
  if (allow_annotation && mm__parser_accept_op(p, OP_COLON)) {
    annotation = mm__parse_expression(p);
    if (!p_at_op(p, OP_EQUAL)) mm__parser_missing_comma(p, annotation);
  }
  if (p_failed(p)) return;
  uint32_t end_line = p->prev_end_line;
  if (mm__parser_accept_op(p, OP_EQUAL)) {
    mm_node *value = mm__parse_expression(p);
    mm__parser_missing_comma(p, value);
    mm__parser_emit_loads(p, value);
    *seen_default = true;
  } else if (*seen_default && !keyword_only) {
    mm__parser_error_at(p, name_tok, "non-default argument follows default argument");
    return;
  }
  if (annotation) {
    if (own) {
      mm_node *name = mm__parser_node(p, N_NAME, name_tok);
      if (!name) return;
      name->ctx = CTX_STORE;
      later_parameter param = {name, annotation, name_tok->line, end_line};
      if (later)
        *later = param;
      else
        tell_parameter(p, &param);
    }
    mm__parser_emit_loads(p, annotation);
  }
}

static void parse_parameters(parser *p, bool own) {
  bool seen_default = false, seen_star = false, seen_slash = false;
  later_parameter args = {0}, kwargs = {0};
  while (!p_failed(p) && !p_at_op(p, OP_RPAR)) {
    if (mm__parser_accept_op(p, OP_SLASH)) {
      if (seen_slash || seen_star)
        mm__parser_error_at(p, p_peek(p), "invalid syntax: misplaced '/'");
      seen_slash = true;
    } else if (p_at_op(p, OP_STAR)) {
      const mm_token *star = p_advance(p);
      if (seen_star) mm__parser_error_at(p, p_peek(p), "* argument may appear only once");
      seen_star = true;
      if (p_at(p, TK_NAME))
        parse_parameter(p, own, true, &seen_default, true, &args);
      else if (p_bare_star_ends(p, OP_RPAR))
        mm__diag_set(p->diag, MM_ERR_SYNTAX, star->line, "named arguments must follow bare *");
    } else if (mm__parser_accept_op(p, OP_DSTAR)) {
      parse_parameter(p, own, true, &seen_default, true, &kwargs);
      mm__parser_accept_op(p, OP_COMMA);
      if (!p_at_op(p, OP_RPAR))
        mm__parser_error_at(p, p_peek(p), "arguments cannot follow var-keyword argument");
      break;
    } else {
      parse_parameter(p, own, true, &seen_default, seen_star, NULL);
    }
    if (!mm__parser_accept_op(p, OP_COMMA)) break;
  }
  if (!p_failed(p)) {
    tell_parameter(p, &args);
    tell_parameter(p, &kwargs);
  }
  mm__parser_expect_op(p, OP_RPAR, ")");
}

static void parse_def(parser *p, uint32_t depth, scope sc, const decorators *decs) {
  bool is_async = mm__parser_accept(p, TK_KW_ASYNC);
  const mm_token *def_tok = p_advance(p); /* 'def' */
  const mm_token *name_tok = p_peek(p);
  if (!mm__parser_accept(p, TK_NAME)) {
    mm__parser_error_at(p, name_tok, "invalid syntax: expected a function name");
    return;
  }
  bool own = false;
  if (sc == SCOPE_TOP_CLASS && !is_async && !p->tracking) {
    mm_node *name = mm__parser_node(p, N_NAME, name_tok);
    if (!name) return;
    name->ctx = CTX_STORE;
    own = p->events->function_begin(p->events->context, name, decs->items, decs->count,
                                    decs->count ? decs->first_line : def_tok->line);
    p->tracking = own;
  }
  for (size_t i = 0; i < decs->count; i++)
    mm__parser_emit_loads(p, decs->items[i]);
  if (mm__fast_parameters(p, own)) {
    parse_block_lines(p, own ? 1 : depth + 1, SCOPE_OTHER, def_tok->line, "function definition");
  } else {
    if (!mm__parser_expect_op(p, OP_LPAR, "(")) return;
    p->brackets++;
    parse_parameters(p, own);
    p->brackets--;
    if (!p_failed(p) && mm__parser_accept_op(p, OP_ARROW))
      mm__parser_emit_loads(p, mm__parse_expression(p));
    if (p_failed(p)) return;
    parse_block(p, own ? 1 : depth + 1, SCOPE_OTHER, def_tok->line, "function definition");
  }
  if (own && !p_failed(p)) {
    p->events->function_end(p->events->context, p->prev_end_line);
    p->tracking = false;
  }
}

static void parse_class(parser *p, uint32_t depth, scope sc, const decorators *decs) {
  const mm_token *class_tok = p_advance(p);
  const mm_token *name_tok = p_peek(p);
  if (!mm__parser_accept(p, TK_NAME)) {
    mm__parser_error_at(p, name_tok, "invalid syntax: expected a class name");
    return;
  }
  for (size_t i = 0; i < decs->count; i++)
    mm__parser_emit_loads(p, decs->items[i]);
  if (p_at_op(p, OP_LPAR)) {
    mm_node *name = mm__parser_node(p, N_NAME, name_tok);
    if (!name) return;
    mm_node *bases = mm__parse_call_tail(p, name);
    if (bases) {
      name->ctx = CTX_STORE; /* the class name itself is no read */
      mm__parser_emit_loads(p, bases);
    }
  }
  if (p_failed(p)) return;
  parse_block(p, depth + 1, sc == SCOPE_MODULE ? SCOPE_TOP_CLASS : SCOPE_OTHER, class_tok->line,
              "class definition");
}

static void parse_decorated(parser *p, uint32_t depth, scope sc) {
  decorators decs = {NULL, 0, 0};
  size_t mark = mm__parser_mark(p);
  while (!p_failed(p) && mm__parser_accept_op(p, OP_AT)) {
    mm_node *expr = mm__parse_named_expression(p);
    if (!expr) return;
    /* Where the expression starts, as Python's ast says: `@(` and a call
     * on the next line is that line. */
    if (!decs.first_line) decs.first_line = expr->line;
    p_push(p, expr);
    if (!mm__parser_accept(p, TK_NEWLINE)) {
      mm__parser_error_at(p, p_peek(p), "invalid syntax");
      return;
    }
  }
  decs.count = p->scratch->len - mark;
  decs.items = mm__arena_alloc(p->arena, (decs.count ? decs.count : 1) * sizeof *decs.items);
  if (!decs.items) {
    mm__diag_set(p->diag, MM_ERR_NO_MEMORY, p_peek(p)->line, "out of memory");
    return;
  }
  memcpy(decs.items, (mm_node **)p->scratch->items + mark, decs.count * sizeof *decs.items);
  p->scratch->len = mark;
  p_statement(p, p_peek(p)->line);
  if (p_at(p, TK_KW_DEF) || (p_at(p, TK_KW_ASYNC) && p_peek_at(p, 1)->kind == TK_KW_DEF))
    parse_def(p, depth, sc, &decs);
  else if (p_at(p, TK_KW_CLASS))
    parse_class(p, depth, sc, &decs);
  else
    mm__parser_error_at(p, p_peek(p),
                        "invalid syntax: expected 'def' or 'class' after a decorator");
}

/* A compound statement starts at `t`, on its line as Python's AST counts
 * it (a decorated one tells its `def` or `class` line; the fast path and
 * simple statements tell their own). */
static bool starts_compound(const parser *p, const mm_token *t) {
  switch (t->kind) {
  case TK_KW_DEF:
  case TK_KW_CLASS:
  case TK_KW_IF:
  case TK_KW_WHILE:
  case TK_KW_FOR:
  case TK_KW_TRY:
  case TK_KW_WITH:
  case TK_KW_ASYNC: return true;
  case TK_NAME: return at_match_statement(p);
  default: return false;
  }
}

static void parse_statement(parser *p, uint32_t depth, scope sc) {
  static const decorators none = {NULL, 0, 0};
  statement_done(p);
  const mm_token *t = p_peek(p);
  if (starts_compound(p, t)) p_statement(p, t->line);
  switch (t->kind) {
  case TK_OP:
    if (t->op == OP_AT) {
      parse_decorated(p, depth, sc);
      return;
    }
    break;
  case TK_KW_DEF: parse_def(p, depth, sc, &none); return;
  case TK_KW_CLASS: parse_class(p, depth, sc, &none); return;
  case TK_KW_IF: parse_if(p, depth); return;
  case TK_KW_WHILE: parse_while(p, depth); return;
  case TK_KW_FOR: parse_for(p, depth); return;
  case TK_KW_TRY: parse_try(p, depth); return;
  case TK_KW_WITH: parse_with(p, depth); return;
  case TK_KW_ASYNC: {
    int next = p_peek_at(p, 1)->kind;
    if (next == TK_KW_DEF) {
      parse_def(p, depth, sc, &none);
    } else if (next == TK_KW_FOR || next == TK_KW_WITH) {
      p_advance(p);
      if (next == TK_KW_FOR)
        parse_for(p, depth);
      else
        parse_with(p, depth);
    } else {
      mm__parser_error_at(p, t, "invalid syntax");
    }
    return;
  }
  case TK_INDENT: mm__parser_error_at(p, t, "unexpected indent"); return;
  case TK_KW_RETURN:
    if (mm__fast_statements(p, depth)) return;
    break;
  case TK_NAME:
    if (mm__fast_statements(p, depth)) return;
    if (at_match_statement(p)) {
      parse_match(p, depth);
      return;
    }
    break;
  default: break;
  }
  parse_simple_statements(p, depth);
}

bool mm__parse(const char *source, mm_lexer *lexer, const mm_parse_events *events, mm_diag *diag,
               size_t *stopped_at) {
  return mm__parse_with(source, lexer, events, diag, stopped_at, true);
}

bool mm__parse_with(const char *source, mm_lexer *lexer, const mm_parse_events *events,
                    mm_diag *diag, size_t *stopped_at, bool fast_path) {
  mm_arena arena;
  mm_vec scratch, walk;
  mm__arena_init(&arena);
  mm__vec_init(&scratch, sizeof(mm_node *));
  mm__vec_init(&walk, sizeof(const mm_node *));
  parser p;
  memset(&p, 0, sizeof p);
  p.fast = fast_path ? mm__fast_path_new() : NULL;
  p.src = source;
  mm__parser_start(&p, lexer);
  p.arena = &arena;
  p.scratch = &scratch;
  p.walk = &walk;
  p.diag = diag;
  p.events = events;
  while (!p_failed(&p) && !p_at(&p, TK_END))
    parse_statement(&p, 0, SCOPE_MODULE);
  if (p_failed(&p) && diag->status == MM_ERR_SYNTAX)
    mm__syntax_parser_failed(p.src, p.lx->end, p_peek(&p)->line, diag);
  if (stopped_at) *stopped_at = p.pos;
  mm__arena_free(&arena);
  mm__vec_free(&scratch);
  mm__vec_free(&walk);
  mm__fast_path_free(p.fast);
  return !p_failed(&p);
}
