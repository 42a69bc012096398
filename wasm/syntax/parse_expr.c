/* parse_expr.c: Python expressions, following the precedence levels of
 * CPython's grammar (expression, disjunction, ..., primary, atom). */
#include <stdio.h>
#include <string.h>

#include "syntax/parser_internal.h"

static mm_node *parse_atom(parser *p);
static mm_node *parse_factor(parser *p);
static mm_node *parse_star_named_expression(parser *p);
static mm_node *parse_lambda(parser *p);
static bool at_unsupported_node(const parser *p);

bool mm__parser_starts_expression(const parser *p) {
  const mm_token *t = p_peek(p);
  switch (t->kind) {
  case TK_NAME:
  case TK_NUMBER:
  case TK_STRING:
  case TK_KW_NONE:
  case TK_KW_TRUE:
  case TK_KW_FALSE:
  case TK_KW_NOT:
  case TK_KW_LAMBDA:
  case TK_KW_AWAIT: return true;
  case TK_OP:
    return t->op == OP_LPAR || t->op == OP_LSQB || t->op == OP_LBRACE || t->op == OP_MINUS ||
           t->op == OP_PLUS || t->op == OP_TILDE || t->op == OP_ELLIPSIS || t->op == OP_STAR ||
           (t->op == OP_LESS && at_unsupported_node(p));
  default: return false;
  }
}

static mm_node *binop(parser *p, mm_node *left, mm_node *right, int op) {
  if (!left || !right) return NULL;
  mm_node *node = mm__parser_node_at(p, N_BINOP, left);
  if (!node) return NULL;
  node->op = (uint8_t)op;
  size_t mark = mm__parser_mark(p);
  p_push(p, left);
  p_push(p, right);
  return mm__parser_finish(p, node, mark);
}

/* ----------------------------------------------------- binary operators */

/* Binding power of the binary operators from `|` to `*` (Python's grammar
 * levels bitwise_or .. term); 0 for anything else. */
static int binary_power(const mm_token *t) {
  if (t->kind != TK_OP) return 0;
  switch (t->op) {
  case OP_VBAR: return 1;
  case OP_CIRCUMFLEX: return 2;
  case OP_AMPER: return 3;
  case OP_LSHIFT:
  case OP_RSHIFT: return 4;
  case OP_PLUS:
  case OP_MINUS: return 5;
  case OP_STAR:
  case OP_SLASH:
  case OP_DSLASH:
  case OP_PERCENT:
  case OP_AT: return 6;
  default: return 0;
  }
}

/* Precedence climbing: one loop instead of a call per level; all these
 * operators are left-associative. Recursion is bounded by the six levels. */
static mm_node *parse_binary(parser *p, int min_power) {
  mm_node *left = parse_factor(p);
  int power;
  while (left && (power = binary_power(p_peek(p))) >= min_power) {
    int op = p_advance(p)->op;
    left = binop(p, left, parse_binary(p, power + 1), op);
  }
  return p_failed(p) ? NULL : left;
}

mm_node *mm__parse_bitwise_or(parser *p) { return parse_binary(p, 1); }

/* ------------------------------------------------------ unary and power */

static mm_node *parse_primary(parser *p);

static mm_node *parse_power(parser *p) {
  const mm_token *first = p_peek(p);
  mm_node *base;
  if (!p->parsed_primary && mm__parser_accept(p, TK_KW_AWAIT)) {
    mm_node *value = parse_primary(p);
    if (!value) return NULL;
    base = mm__parser_node(p, N_AWAIT, first);
    size_t mark = mm__parser_mark(p);
    p_push(p, value);
    base = mm__parser_finish(p, base, mark);
  } else {
    base = parse_primary(p);
  }
  const mm_token *power = p_peek(p);
  if (!base || !mm__parser_accept_op(p, OP_DSTAR)) return base;
  /* `a ** b ** ...` recurses to the right: a level each, as a sign is. */
  if (!mm__parser_enter(p, power)) return NULL;
  mm_node *exponent = parse_factor(p);
  p_leave(p);
  return binop(p, base, exponent, OP_DSTAR);
}

/* `-`, `+` or `~` in front of an operand. */
static bool is_unary_sign(const mm_token *t) {
  return t->kind == TK_OP && (t->op == OP_MINUS || t->op == OP_PLUS || t->op == OP_TILDE);
}

static mm_node *parse_factor(parser *p) {
  const mm_token *t = p_peek(p);
  if (!p->parsed_primary && is_unary_sign(t)) {
    if (!mm__parser_enter(p, t)) return NULL;
    p_advance(p);
    mm_node *operand = parse_factor(p);
    p_leave(p);
    if (!operand) return NULL;
    mm_node *node = mm__parser_node(p, N_UNARY, t);
    if (!node) return NULL;
    node->op = t->op;
    size_t mark = mm__parser_mark(p);
    p_push(p, operand);
    return mm__parser_finish(p, node, mark);
  }
  return parse_power(p);
}

/* ----------------------------------------------------- boolean levels */

static bool at_compare_op(parser *p, size_t *width) {
  const mm_token *t = p_peek(p);
  *width = 1;
  if (t->kind == TK_OP)
    return t->op == OP_EQEQ || t->op == OP_NOTEQ || t->op == OP_LESS || t->op == OP_LESSEQ ||
           t->op == OP_GREATER || t->op == OP_GREATEREQ;
  if (t->kind == TK_KW_IN) return true;
  if (t->kind == TK_KW_IS) {
    if (p_peek_at(p, 1)->kind == TK_KW_NOT) *width = 2;
    return true;
  }
  if (t->kind == TK_KW_NOT && p_peek_at(p, 1)->kind == TK_KW_IN) {
    *width = 2;
    return true;
  }
  return false;
}

static mm_node *parse_comparison(parser *p) {
  mm_node *left = mm__parse_bitwise_or(p);
  size_t width;
  if (!left || !at_compare_op(p, &width)) return left;
  mm_node *node = mm__parser_node_at(p, N_COMPARE, left);
  size_t mark = mm__parser_mark(p);
  p_push(p, left);
  while (!p_failed(p) && at_compare_op(p, &width)) {
    while (width--)
      p_advance(p);
    mm_node *right = mm__parse_bitwise_or(p);
    if (!right) return NULL;
    p_push(p, right);
  }
  return mm__parser_finish(p, node, mark);
}

static mm_node *parse_inversion(parser *p) {
  const mm_token *t = p_peek(p);
  if (p->parsed_primary || t->kind != TK_KW_NOT) return parse_comparison(p);
  if (!mm__parser_enter(p, t)) return NULL;
  p_advance(p);
  mm_node *operand = parse_inversion(p);
  p_leave(p);
  if (!operand) return NULL;
  mm_node *node = mm__parser_node(p, N_UNARY, t);
  size_t mark = mm__parser_mark(p);
  p_push(p, operand);
  return mm__parser_finish(p, node, mark);
}

static mm_node *parse_boolop(parser *p, int keyword) {
  mm_node *first = keyword == TK_KW_OR ? parse_boolop(p, TK_KW_AND) : parse_inversion(p);
  if (!first || !p_at(p, keyword)) return first;
  mm_node *node = mm__parser_node_at(p, N_BOOLOP, first);
  size_t mark = mm__parser_mark(p);
  p_push(p, first);
  while (!p_failed(p) && mm__parser_accept(p, keyword)) {
    mm_node *next = keyword == TK_KW_OR ? parse_boolop(p, TK_KW_AND) : parse_inversion(p);
    if (!next) return NULL;
    p_push(p, next);
  }
  return mm__parser_finish(p, node, mark);
}

mm_node *mm__parse_disjunction(parser *p) { return parse_boolop(p, TK_KW_OR); }

/* Tokens that end an expression which is a bare primary. */
static bool ends_primary_expression(const mm_token *t) {
  if (t->kind == TK_NEWLINE) return true;
  if (t->kind != TK_OP) return false;
  switch (t->op) {
  case OP_COMMA:
  case OP_RPAR:
  case OP_RSQB:
  case OP_RBRACE:
  case OP_COLON:
  case OP_EQUAL:
  case OP_SEMI: return true;
  default: return false;
  }
}

/* Most expressions in a dump are one primary (`pl.INT64`, `pl.const(0)`,
 * `x__tile`): parse it first and go through the eight operator levels only
 * when an operator follows, handing them the primary. Same tree, same
 * errors, a fraction of the calls. */
static mm_node *parse_operand_chain(parser *p, const mm_token *first) {
  if (first->kind == TK_KW_NOT || first->kind == TK_KW_AWAIT || is_unary_sign(first))
    return mm__parse_disjunction(p);
  mm_node *primary = parse_primary(p);
  if (!primary || ends_primary_expression(p_peek(p))) return primary;
  p->parsed_primary = primary;
  mm_node *result = mm__parse_disjunction(p);
  /* The levels reach parse_primary, which takes it, before reading a token;
   * cleared anyway so that no later parse could be handed a stale node. */
  p->parsed_primary = NULL;
  return result;
}

mm_node *mm__parse_expression(parser *p) {
  const mm_token *first = p_peek(p);
  if (!mm__parser_enter(p, first)) return NULL;
  uint32_t outer_line = p->expression_line;
  p->expression_line = first->line;
  mm_node *result;
  if (first->kind == TK_KW_LAMBDA) {
    result = parse_lambda(p);
  } else {
    result = parse_operand_chain(p, first);
    if (result && mm__parser_accept(p, TK_KW_IF)) {
      mm_node *test = mm__parse_disjunction(p);
      mm_node *orelse = NULL;
      if (test && !mm__parser_accept(p, TK_KW_ELSE))
        mm__parser_error_at(p, p_peek(p), "expected 'else' after 'if' expression");
      else if (test)
        orelse = mm__parse_expression(p);
      mm_node *node = orelse ? mm__parser_node_at(p, N_IFEXP, result) : NULL;
      size_t mark = mm__parser_mark(p);
      if (node) {
        p_push(p, test);
        p_push(p, result);
        p_push(p, orelse);
      }
      result = mm__parser_finish(p, node, mark);
    }
  }
  p->expression_line = outer_line;
  p_leave(p);
  return p_failed(p) ? NULL : result;
}

/* A dict's `**` operand, which CPython reads at the level of `|` alone:
 * see expression_line. */
static mm_node *parse_bare_operand(parser *p) {
  uint32_t outer_line = p->expression_line;
  p->expression_line = 0;
  mm_node *operand = mm__parse_bitwise_or(p);
  p->expression_line = outer_line;
  return operand;
}

/* --------------------------------------- `E = x` typed for `E == x` */

bool mm__parser_above_bitwise_or(const mm_node *node) {
  if (node->parenthesized) return false;
  switch (node->kind) {
  case N_COMPARE:
  case N_BOOLOP:
  case N_IFEXP:
  case N_LAMBDA:
  case N_NAMEDEXPR:
  case N_STARRED:
  case N_YIELD: return true;
  case N_UNARY: return node->op == 0; /* not */
  default: return false;
  }
}

/* True, False or None (the other constants are numbers and `...`). */
static bool is_named_constant(const parser *p, const mm_node *node) {
  return mm__parser_node_text_is(p, node, "True") || mm__parser_node_text_is(p, node, "False") ||
         mm__parser_node_text_is(p, node, "None");
}

const mm_node *mm__parser_last_element(const mm_node *node) {
  return node->kind == N_TUPLE && !node->parenthesized && node->count ? node->kids[node->count - 1]
                                                                      : node;
}

const mm_node *mm__parser_typo_target(const parser *p, const mm_node *target) {
  const mm_node *e = mm__parser_last_element(target);
  if (mm__parser_above_bitwise_or(e)) return NULL;
  const mm_node *start = e;
  while (!start->parenthesized && start->count &&
         (start->kind == N_BINOP || start->kind == N_CALL || start->kind == N_ATTRIBUTE ||
          start->kind == N_SUBSCRIPT))
    start = start->kids[0];
  if (start->kind == N_TUPLE || start->kind == N_LIST) return NULL;
  if (start->kind == N_COMP && start->op == OP_LPAR) return NULL;
  if (start->kind == N_CONST && is_named_constant(p, start)) return NULL;
  return e;
}

bool mm__parser_operand_then_not_equal(parser *p) {
  mm_trial t;
  mm__trial_begin(p, &t);
  bool read = mm__parse_bitwise_or(p) != NULL;
  read = mm__trial_end(p, &t) && read;
  return read && !p_at_op(p, OP_EQUAL) && !p_at_op(p, OP_WALRUS);
}

/* The atom CPython's backtracking leaves of an expression: after its
 * prefix operators, the first atom read whole. */
/* Whether an atom reads whole at the current token, tried (consumes). */
static bool atom_reads(parser *p) {
  mm_trial t;
  mm__trial_begin(p, &t);
  bool read = parse_atom(p) != NULL;
  return mm__trial_end(p, &t) && read;
}

bool mm__parser_value_starts(parser *p, bool starred) {
  if (starred && p_at_op(p, OP_STAR)) p_advance(p);
  while (is_unary_sign(p_peek(p)) || p_at(p, TK_KW_NOT) || p_at(p, TK_KW_AWAIT))
    p_advance(p);
  mm_trial t;
  if (p_at(p, TK_KW_LAMBDA) || (starred && p_at(p, TK_KW_YIELD))) {
    mm__trial_begin(p, &t);
    bool read =
        (p_at(p, TK_KW_YIELD) ? mm__parse_yield_expression(p) : mm__parse_expression(p)) != NULL;
    return mm__trial_end(p, &t) && read;
  }
  if (!mm__parser_starts_expression(p) || p_at_op(p, OP_STAR)) return false;
  return atom_reads(p);
}

void mm__parser_typo_error(parser *p, const mm_node *e) {
  if (e->kind == N_NAME && !e->parenthesized) { /* CPython's `NAME '='` alternative */
    mm__parser_error_node(p, e, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    return;
  }
  char message[96];
  snprintf(message, sizeof message,
           "cannot assign to %s here. Maybe you meant '==' instead of '='?",
           mm__parser_expr_name(p, e));
  mm__parser_error_node(p, e, message);
}

/* A named expression. `E = x` (a comparison mistyped) and `expr := value`
 * with a target that is not a name get CPython's messages, except among a
 * call's arguments (`name_the_target` false), whose rules have neither:
 * there an '=' or ':=' is left to the caller, or invalid syntax. */
static mm_node *parse_named_expression(parser *p, bool name_the_target) {
  if (p_at(p, TK_NAME) && p_peek_at(p, 1)->kind == TK_OP && p_peek_at(p, 1)->op == OP_WALRUS) {
    mm_node *target = mm__parser_node(p, N_NAME, p_advance(p));
    p_advance(p);
    mm_node *value = mm__parse_expression(p);
    if (!target || !value) return NULL;
    target->ctx = CTX_STORE;
    mm_node *node = mm__parser_node_at(p, N_NAMEDEXPR, target);
    size_t mark = mm__parser_mark(p);
    p_push(p, target);
    p_push(p, value);
    return mm__parser_finish(p, node, mark);
  }
  mm_node *expr = mm__parse_expression(p);
  const mm_node *typo =
      expr && name_the_target && p_at_op(p, OP_EQUAL) ? mm__parser_typo_target(p, expr) : NULL;
  if (typo) {
    const mm_token *equal = p_advance(p);
    if (mm__parser_operand_then_not_equal(p))
      mm__parser_typo_error(p, typo);
    else
      mm__parser_error_at(p, equal, "invalid syntax");
    return NULL;
  }
  if (expr && p_at_op(p, OP_WALRUS)) {
    if (!name_the_target) {
      mm__parser_error_at(p, p_peek(p), "invalid syntax");
      return NULL;
    }
    const mm_token *walrus = p_advance(p);
    if (mm__parser_value_starts(p, false)) {
      char message[96];
      snprintf(message, sizeof message, "cannot use assignment expressions with %s",
               mm__parser_expr_name(p, expr));
      mm__parser_error_node(p, expr, message);
    } else {
      mm__parser_error_at(p, walrus, "invalid syntax");
    }
    return NULL;
  }
  return expr;
}

mm_node *mm__parse_named_expression(parser *p) { return parse_named_expression(p, true); }

/* At '*': `*` bitwise_or, a starred element. */
static mm_node *parse_starred(parser *p) {
  const mm_token *t = p_advance(p);
  mm_node *value = mm__parse_bitwise_or(p);
  if (!value) return NULL;
  mm_node *node = mm__parser_node(p, N_STARRED, t);
  size_t mark = mm__parser_mark(p);
  p_push(p, value);
  return mm__parser_finish(p, node, mark);
}

/* '*' bitwise_or, or a named expression (elements of displays). */
static mm_node *parse_star_named_expression(parser *p) {
  return p_at_op(p, OP_STAR) ? parse_starred(p) : mm__parse_named_expression(p);
}

static mm_node *parse_star_expression(parser *p) {
  if (p_at_op(p, OP_STAR)) return parse_star_named_expression(p);
  return mm__parse_expression(p);
}

/* A comma-separated sequence; a single element without a comma stays as
 * it is, otherwise a tuple. */
static mm_node *parse_sequence(parser *p, mm_node *(*element)(parser *)) {
  const mm_token *first_tok = p_peek(p);
  mm_node *first = element(p);
  if (!first || !p_at_op(p, OP_COMMA)) return first;
  mm_node *tuple = mm__parser_node(p, N_TUPLE, first_tok);
  size_t mark = mm__parser_mark(p);
  p_push(p, first);
  while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA)) {
    if (!mm__parser_starts_expression(p)) break;
    mm_node *next = element(p);
    if (!next) return NULL;
    p_push(p, next);
  }
  return mm__parser_finish(p, tuple, mark);
}

mm_node *mm__parse_star_expressions(parser *p) { return parse_sequence(p, parse_star_expression); }

mm_node *mm__parse_star_named_expressions_tuple(parser *p) {
  return parse_sequence(p, parse_star_named_expression);
}

mm_node *mm__parse_yield_expression(parser *p) {
  const mm_token *t = p_advance(p); /* 'yield' */
  mm_node *value = NULL;
  if (mm__parser_accept(p, TK_KW_FROM))
    value = mm__parse_expression(p);
  else if (mm__parser_starts_expression(p))
    value = mm__parse_star_expressions(p);
  if (p_failed(p)) return NULL;
  mm_node *node = mm__parser_node(p, N_YIELD, t);
  size_t mark = mm__parser_mark(p);
  if (value) p_push(p, value);
  return mm__parser_finish(p, node, mark);
}

/* ---------------------------------------------------------- targets */

static mm_node *parse_target_element(parser *p) {
  return p_at_op(p, OP_STAR) ? parse_starred(p) : mm__parse_bitwise_or(p);
}

/* Targets of `for` and comprehensions stop before `in`, so they are parsed
 * at the level of `|`, then checked as assignment targets. */
mm_node *mm__parse_target_list(parser *p, bool allow_tuple) {
  mm_node *target = allow_tuple ? parse_sequence(p, parse_target_element) : parse_target_element(p);
  if (target && !mm__parser_check_target(p, target, TARGET_FOR)) return NULL;
  return target;
}

/* ---------------------------------------------------- comprehensions */

static bool at_comprehension(const parser *p) {
  return p_at(p, TK_KW_FOR) || (p_at(p, TK_KW_ASYNC) && p_peek_at(p, 1)->kind == TK_KW_FOR);
}

/* Pushes one N_GENERATOR per `for` clause. */
static void parse_generators(parser *p) {
  while (!p_failed(p) && at_comprehension(p)) {
    const mm_token *t = p_peek(p);
    mm__parser_accept(p, TK_KW_ASYNC);
    p_advance(p); /* for */
    mm_node *target = mm__parse_target_list(p, true);
    if (!target) return;
    if (!mm__parser_accept(p, TK_KW_IN)) {
      mm__parser_error_at(p, p_peek(p), "invalid syntax: expected 'in'");
      return;
    }
    mm_node *iter = mm__parse_disjunction(p);
    if (!iter) return;
    mm_node *gen = mm__parser_node(p, N_GENERATOR, t);
    size_t mark = mm__parser_mark(p);
    p_push(p, target);
    p_push(p, iter);
    while (!p_failed(p) && mm__parser_accept(p, TK_KW_IF))
      p_push(p, mm__parse_disjunction(p));
    gen = mm__parser_finish(p, gen, mark);
    if (gen) p_push(p, gen);
  }
}

/* `bracket`: OP_LPAR (generator), OP_LSQB, OP_LBRACE (set), OP_COLON (dict). */
static mm_node *comprehension(parser *p, const mm_token *open, mm_node *elt, mm_node *value,
                              int bracket) {
  mm_node *node = mm__parser_node(p, N_COMP, open);
  if (!node) return NULL;
  node->op = (uint8_t)bracket; /* which kind, for messages */
  size_t mark = mm__parser_mark(p);
  p_push(p, elt);
  if (value) p_push(p, value);
  parse_generators(p);
  return mm__parser_finish(p, node, mark);
}

/* ------------------------------------------------------------ atoms */

static mm_node *parse_group_or_tuple(parser *p) {
  const mm_token *open = p_advance(p);
  if (mm__parser_accept_op(p, OP_RPAR)) {
    mm_node *empty = mm__parser_node(p, N_TUPLE, open);
    empty = mm__parser_finish(p, empty, mm__parser_mark(p));
    if (empty) empty->parenthesized = 1;
    return empty;
  }
  mm_node *first;
  if (p_at(p, TK_KW_YIELD)) {
    first = mm__parse_yield_expression(p);
    if (first && mm__parser_expect_op(p, OP_RPAR, ")")) first->parenthesized = 1;
    return p_failed(p) ? NULL : first;
  }
  first = parse_star_named_expression(p);
  if (!first) return NULL;
  if (at_comprehension(p)) {
    mm_node *gen = comprehension(p, open, first, NULL, OP_LPAR);
    return mm__parser_expect_op(p, OP_RPAR, ")") ? gen : NULL;
  }
  if (p_at_op(p, OP_COMMA)) {
    mm_node *tuple = mm__parser_node(p, N_TUPLE, open);
    size_t mark = mm__parser_mark(p);
    p_push(p, first);
    while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA)) {
      if (p_at_op(p, OP_RPAR)) break;
      mm_node *item = parse_star_named_expression(p);
      p_push(p, item);
      if (!p_failed(p)) mm__parser_missing_comma(p, item);
    }
    if (p_failed(p) || !mm__parser_expect_op(p, OP_RPAR, ")")) return NULL;
    tuple = mm__parser_finish(p, tuple, mark);
    if (tuple) tuple->parenthesized = 1;
    return tuple;
  }
  mm__parser_missing_comma(p, first);
  if (p_failed(p) || !mm__parser_expect_op(p, OP_RPAR, ")")) return NULL;
  if (first->kind == N_STARRED) {
    mm__parser_error_node(p, first, "cannot use starred expression here");
    return NULL;
  }
  first->parenthesized = 1;
  return first;
}

static mm_node *parse_list(parser *p) {
  const mm_token *open = p_advance(p);
  mm_node *list = mm__parser_node(p, N_LIST, open);
  size_t mark = mm__parser_mark(p);
  if (mm__parser_accept_op(p, OP_RSQB)) return mm__parser_finish(p, list, mark);
  mm_node *first = parse_star_named_expression(p);
  if (!first) return NULL;
  if (at_comprehension(p)) {
    mm_node *comp = comprehension(p, open, first, NULL, OP_LSQB);
    return mm__parser_expect_op(p, OP_RSQB, "]") ? comp : NULL;
  }
  p_push(p, first);
  mm__parser_missing_comma(p, first);
  while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA)) {
    if (p_at_op(p, OP_RSQB)) break;
    mm_node *item = parse_star_named_expression(p);
    p_push(p, item);
    if (!p_failed(p)) mm__parser_missing_comma(p, item);
  }
  if (p_failed(p) || !mm__parser_expect_op(p, OP_RSQB, "]")) return NULL;
  return mm__parser_finish(p, list, mark);
}

/* Dict kids are pushed as (key or NULL, value) pairs, then laid out as
 * Python's AST has them: all keys, then all values. */
static mm_node *finish_dict(parser *p, mm_node *dict, size_t mark) {
  if (p_failed(p)) return NULL;
  size_t n = p->scratch->len - mark;
  mm_node **pairs = (mm_node **)p->scratch->items + mark;
  mm_node **ordered = mm__arena_alloc(p->arena, (n ? n : 1) * sizeof *ordered);
  if (!ordered) {
    mm__diag_set(p->diag, MM_ERR_NO_MEMORY, dict->line, "out of memory");
    return NULL;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i += 2)
    if (pairs[i]) ordered[k++] = pairs[i];
  for (size_t i = 1; i < n; i += 2)
    ordered[k++] = pairs[i];
  memcpy(pairs, ordered, k * sizeof *ordered);
  p->scratch->len = mark + k;
  return mm__parser_finish(p, dict, mark);
}

/* A dict's value after its key's ':', or NULL. CPython's invalid_kvpair
 * names a key with no ':' after it on the key's first line, and a ':'
 * with no value (a '}' or ',' next) on the colon's line. */
static mm_node *parse_dict_value(parser *p, const mm_node *key) {
  if (!p_at_op(p, OP_COLON)) {
    if (!p_failed(p))
      mm__diag_set(p->diag, MM_ERR_SYNTAX, key->line, "':' expected after dictionary key");
    return NULL;
  }
  const mm_token *colon = p_advance(p);
  if (p_at_op(p, OP_RBRACE) || p_at_op(p, OP_COMMA)) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, colon->line,
                 "expression expected after dictionary key and ':'");
    return NULL;
  }
  return mm__parse_expression(p);
}

static bool parse_dict_entry(parser *p) {
  if (mm__parser_accept_op(p, OP_DSTAR)) {
    p_push(p, NULL);
    p_push(p, parse_bare_operand(p));
    return !p_failed(p);
  }
  mm_node *key = mm__parse_expression(p);
  mm_node *value = key ? parse_dict_value(p, key) : NULL;
  if (!value) return false;
  p_push(p, key);
  p_push(p, value);
  return true;
}

static mm_node *parse_brace(parser *p) {
  const mm_token *open = p_advance(p);
  if (mm__parser_accept_op(p, OP_RBRACE)) {
    mm_node *dict = mm__parser_node(p, N_DICT, open);
    return mm__parser_finish(p, dict, mm__parser_mark(p));
  }
  bool is_dict = p_at_op(p, OP_DSTAR);
  mm_node *first = NULL;
  if (!is_dict) {
    first = parse_star_named_expression(p);
    if (!first) return NULL;
    is_dict = p_at_op(p, OP_COLON);
  }
  mm_node *node = mm__parser_node(p, is_dict ? N_DICT : N_SET, open);
  size_t mark = mm__parser_mark(p);
  if (is_dict && first) {
    mm_node *value = parse_dict_value(p, first);
    if (!value) return NULL;
    if (at_comprehension(p)) {
      mm_node *comp = comprehension(p, open, first, value, OP_COLON);
      return mm__parser_expect_op(p, OP_RBRACE, "}") ? comp : NULL;
    }
    p_push(p, first);
    p_push(p, value);
  } else if (is_dict) {
    if (!parse_dict_entry(p)) return NULL;
  } else {
    if (at_comprehension(p)) {
      mm_node *comp = comprehension(p, open, first, NULL, OP_LBRACE);
      return mm__parser_expect_op(p, OP_RBRACE, "}") ? comp : NULL;
    }
    p_push(p, first);
  }
  while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA)) {
    if (p_at_op(p, OP_RBRACE)) break;
    if (is_dict)
      parse_dict_entry(p);
    else
      p_push(p, parse_star_named_expression(p));
  }
  if (!mm__parser_expect_op(p, OP_RBRACE, "}")) return NULL;
  return is_dict ? finish_dict(p, node, mark) : mm__parser_finish(p, node, mark);
}

/* ---------------------------------------------------------- strings */

/* Parses the `{...}` fields of one f-string literal (CPython 3.11 rules:
 * a field cannot reuse the literal's quote) and pushes them. */
void mm__parse_fstring_fields(parser *p, const mm_token *tok);

/* What CPython refuses in a literal's text that the tokens let through:
 * a non-ASCII character in bytes, and (the core has no Unicode name
 * table) a \N{...} escape in a str; NULL when it is fine. */
static const char *literal_problem(const parser *p, const mm_token *t) {
  const unsigned char *text = (const unsigned char *)p->src + t->start;
  bool bytes = (t->flags & STR_BYTES) != 0, raw = (t->flags & STR_RAW) != 0;
  for (size_t i = 0; i < t->len; i++) {
    if (bytes && text[i] >= 0x80) return "bytes can only contain ASCII literal characters";
    if (text[i] == '\\' && !raw && i + 1 < t->len) {
      if (!bytes && text[i + 1] == 'N')
        return "\\N{...} escapes are not supported (the core has no Unicode name table)";
      i++; /* the escaped character */
    }
  }
  return NULL;
}

/* Two expressions in a row inside brackets (`f(a\n b)`): CPython's "invalid
 * syntax. Perhaps you forgot a comma?", on the first one's line (but not
 * for a name then a string, as `print "x"`). The second must read whole
 * (`expression_without_invalid`); when it does not (`(0 not)`), the error
 * is plain, where CPython's first pass stopped: at the second's first
 * token, or the one after a `not` (it looked for `not in`). Consumes
 * tokens: the error is certain here. */
void mm__parser_missing_comma(parser *p, const mm_node *before) {
  const mm_token *next = p_peek(p);
  if (!before || p_at_op(p, OP_COMMA) || !mm__parser_starts_expression(p) ||
      (before->kind == N_NAME && next->kind == TK_STRING) || next->kind == TK_KW_FOR ||
      next->kind == TK_KW_IF || next->kind == TK_KW_ELSE || next->kind == TK_KW_ASYNC)
    return;
  mm_token stop = next->kind == TK_KW_NOT ? *p_peek_at(p, 1) : *next;
  mm_trial t;
  mm__trial_begin(p, &t);
  bool read = mm__parse_expression(p) != NULL;
  read = mm__trial_end(p, &t) && read;
  if (p_failed(p)) return;
  if (read)
    mm__diag_set(p->diag, MM_ERR_SYNTAX, before->line,
                 "invalid syntax. Perhaps you forgot a comma?");
  else
    mm__parser_error_at(p, &stop, "invalid syntax");
}

static mm_node *parse_strings(parser *p) {
  const mm_token *first = p_peek(p);
  int bytes = -1;
  bool format = false;
  size_t mark = mm__parser_mark(p);
  const mm_token *last = first;
  while (!p_failed(p) && p_at(p, TK_STRING)) {
    const mm_token *t = p_advance(p);
    int is_bytes = (t->flags & STR_BYTES) != 0;
    if (bytes >= 0 && is_bytes != bytes) {
      mm__parser_error_at(p, t, "cannot mix bytes and nonbytes literals");
      return NULL;
    }
    bytes = is_bytes;
    const char *problem = literal_problem(p, t);
    if (problem) {
      mm__diag_set(p->diag, MM_ERR_SYNTAX, t->line, "%s", problem);
      return NULL;
    }
    if (t->flags & STR_FORMAT) {
      format = true;
      mm__parse_fstring_fields(p, t);
      if (p_failed(p)) p->fstring_failed = true;
    }
    last = t;
  }
  if (p_failed(p)) return NULL;
  mm_node *node = mm__parser_node(p, format ? N_JOINEDSTR : bytes ? N_BYTES : N_STR, first);
  if (!node) return NULL;
  node->len = last->start + last->len - first->start;
  return mm__parser_finish(p, node, mark);
}

static bool is_integer_literal(const char *text, size_t len) {
  if (len > 1 && text[0] == '0' && strchr("xXoObB", text[1])) return true;
  for (size_t i = 0; i < len; i++)
    if (!(text[i] >= '0' && text[i] <= '9') && text[i] != '_') return false;
  return true;
}

/* `<unsupported IRNode type>`: what PyPTO's printer writes for a node it
 * cannot print (python_printer.cpp, `Print`), a TileView field's value in
 * dumps of 2026. */
static bool at_unsupported_node(const parser *p) {
  static const char *const words[] = {"unsupported", "IRNode", "type"};
  for (size_t k = 0; k < 3; k++) {
    const mm_token *w = p_peek_at(p, k + 1);
    if (w->kind != TK_NAME || w->len != strlen(words[k]) ||
        memcmp(p->src + w->start, words[k], w->len) != 0)
      return false;
  }
  const mm_token *close = p_peek_at(p, 4);
  return close->kind == TK_OP && close->op == OP_GREATER;
}

/* The five tokens as one unknown value (no read): its text is all of it. */
static mm_node *unsupported_node(parser *p) {
  const mm_token *open = p_peek(p);
  uint32_t start = open->start;
  for (int k = 0; k < 4; k++)
    p_advance(p);
  const mm_token *close = p_advance(p);
  mm_node *node = mm__parser_node(p, N_CONST, open);
  if (!node) return NULL;
  node->len = close->start + close->len - start;
  p_note(p, open->line,
         "the printer wrote `<unsupported IRNode type>` for a value: read as unknown");
  return node;
}

static mm_node *parse_atom(parser *p) {
  const mm_token *t = p_peek(p);
  switch (t->kind) {
  case TK_NAME: p_advance(p); return mm__parser_node(p, N_NAME, t);
  case TK_NUMBER:
    p_advance(p);
    return mm__parser_node(p, is_integer_literal(p->src + t->start, t->len) ? N_INT : N_CONST, t);
  case TK_STRING: return parse_strings(p);
  case TK_KW_TRUE:
  case TK_KW_FALSE:
  case TK_KW_NONE: p_advance(p); return mm__parser_node(p, N_CONST, t);
  case TK_OP:
    if (t->op == OP_LPAR || t->op == OP_LSQB || t->op == OP_LBRACE) {
      if (!mm__parser_enter(p, t)) return NULL;
      p->brackets++;
      mm_node *node = t->op == OP_LPAR   ? parse_group_or_tuple(p)
                      : t->op == OP_LSQB ? parse_list(p)
                                         : parse_brace(p);
      p->brackets--;
      p_leave(p);
      return node;
    }
    if (t->op == OP_ELLIPSIS) {
      p_advance(p);
      return mm__parser_node(p, N_CONST, t);
    }
    if (t->op == OP_LESS && at_unsupported_node(p)) return unsupported_node(p);
    break;
  default: break;
  }
  mm__parser_error_at(p, t, "invalid syntax");
  return NULL;
}

/* ---------------------------------------------------------- primary */

/* `f(name=x for y in z)`: CPython reads a comparison typed with '=' once
 * the `for` clauses read; else the error is theirs. */
static void keyword_generator(parser *p, const mm_token *name) {
  mm_trial t;
  mm__trial_begin(p, &t);
  parse_generators(p);
  bool read = mm__trial_end(p, &t);
  if (p_failed(p)) return;
  if (read)
    mm__diag_set(p->diag, MM_ERR_SYNTAX, name->line,
                 "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
  else
    *p->diag = t.trial;
}

static bool parse_call_arguments(parser *p, mm_node *call) {
  /* Positional arguments go before keywords, as in Python's AST, whatever
   * their order in the source (f(a=1, *b) is valid). */
  size_t mark = mm__parser_mark(p);
  mm_vec keywords;
  mm__vec_init(&keywords, sizeof(mm_node *));
  bool seen_keyword = false, seen_unpack = false;
  const char *out_of_order = NULL; /* a positional argument after a keyword one */
  while (!p_failed(p) && !p_at_op(p, OP_RPAR)) {
    const mm_token *t = p_peek(p);
    mm_node *arg = NULL, *keyword = NULL;
    if (mm__parser_accept_op(p, OP_STAR)) {
      if (seen_unpack) {
        mm__parser_error_at(p, t, "iterable argument unpacking follows keyword argument unpacking");
        break;
      }
      mm_node *value = mm__parse_expression(p);
      if (value && (arg = mm__parser_node(p, N_STARRED, t))) {
        size_t m = mm__parser_mark(p);
        p_push(p, value);
        arg = mm__parser_finish(p, arg, m);
      }
    } else if (mm__parser_accept_op(p, OP_DSTAR) ||
               (t->kind == TK_NAME && p_peek_at(p, 1)->kind == TK_OP &&
                p_peek_at(p, 1)->op == OP_EQUAL)) {
      bool unpack = t->kind == TK_OP;
      if (!unpack) {
        p_advance(p);
        p_advance(p);
      }
      mm_node *value = mm__parse_expression(p);
      if (value && !unpack && at_comprehension(p)) {
        keyword_generator(p, t);
        break;
      }
      if (value && (keyword = mm__parser_node(p, N_KEYWORD, t))) {
        if (unpack) keyword->len = 0;
        size_t m = mm__parser_mark(p);
        p_push(p, value);
        keyword = mm__parser_finish(p, keyword, m);
      }
      seen_keyword = true;
      seen_unpack |= unpack;
    } else {
      arg = parse_named_expression(p, false);
      if (arg && at_comprehension(p)) {
        /* f(x for x in y): only as the sole argument */
        arg = comprehension(p, t, arg, NULL, OP_LPAR);
        if (arg && (p->scratch->len > mark || keywords.len || !p_at_op(p, OP_RPAR)))
          mm__parser_error_node(p, arg, "Generator expression must be parenthesized");
      }
      if (arg && seen_keyword && !out_of_order)
        out_of_order = seen_unpack ? "positional argument follows keyword argument unpacking"
                                   : "positional argument follows keyword argument";
    }
    if (p_failed(p)) break;
    mm__parser_missing_comma(p, arg ? arg : keyword ? keyword->kids[0] : NULL);
    if (p_failed(p)) break;
    if (arg) p_push(p, arg);
    if (keyword) {
      mm_node **slot = mm__vec_push(&keywords);
      if (!slot)
        mm__diag_set(p->diag, MM_ERR_NO_MEMORY, t->line, "out of memory");
      else
        *slot = keyword;
    }
    if (!mm__parser_accept_op(p, OP_COMMA)) break;
  }
  /* CPython reads the rest of the arguments, then reports it where they
   * stop (after the last one and its comma). */
  if (out_of_order) mm__diag_set(p->diag, MM_ERR_SYNTAX, p_peek(p)->line, "%s", out_of_order);
  call->positional = (uint32_t)(p->scratch->len - mark);
  for (size_t i = 0; i < keywords.len && !p_failed(p); i++)
    p_push(p, ((mm_node **)keywords.items)[i]);
  mm__vec_free(&keywords);
  return mm__parser_expect_op(p, OP_RPAR, ")");
}

/* `tile_view=` or `tensor_view=` inside a type's brackets: how printers
 * before 2026-03-12 wrote a tile's or tensor's view (hw-native-sys/pypto
 * #465 made it positional). Consumed, with a note; the value is the
 * element. */
static void skip_view_keyword(parser *p) {
  const mm_token *name = p_peek(p), *eq = p_peek_at(p, 1);
  const char *text = p->src + name->start;
  bool view = name->kind == TK_NAME && (mm__span_is(text, name->len, "tile_view") ||
                                        mm__span_is(text, name->len, "tensor_view"));
  if (!view || eq->kind != TK_OP || eq->op != OP_EQUAL) return;
  p_advance(p);
  p_advance(p);
  p_note(p, name->line,
         "the printer wrote `tile_view=` (or `tensor_view=`) inside a type's "
         "brackets: read as its value");
}

static mm_node *parse_slice(parser *p) {
  skip_view_keyword(p);
  const mm_token *t = p_peek(p);
  mm_node *lower = NULL;
  if (p_at_op(p, OP_STAR)) return parse_star_named_expression(p);
  if (!p_at_op(p, OP_COLON)) {
    lower = mm__parse_named_expression(p);
    if (!lower || !p_at_op(p, OP_COLON)) return lower;
    if (lower->kind == N_NAMEDEXPR && !lower->parenthesized) {
      mm__parser_error_node(p, lower, "invalid syntax");
      return NULL;
    }
  }
  mm_node *slice = mm__parser_node(p, N_SLICE, t);
  size_t mark = mm__parser_mark(p);
  if (lower) p_push(p, lower);
  p_advance(p); /* ':' */
  for (int part = 0; part < 2 && !p_failed(p); part++) {
    if (!p_at_op(p, OP_COLON) && !p_at_op(p, OP_COMMA) && !p_at_op(p, OP_RSQB))
      p_push(p, mm__parse_expression(p));
    if (part == 0 && !mm__parser_accept_op(p, OP_COLON)) break;
  }
  return mm__parser_finish(p, slice, mark);
}

/* The index of `value[...]`, through its ']'. */
static mm_node *parse_index(parser *p) {
  const mm_token *first_tok = p_peek(p);
  mm_node *index = parse_slice(p);
  if (index && p_at_op(p, OP_COMMA)) {
    mm_node *tuple = mm__parser_node(p, N_TUPLE, first_tok);
    size_t mark = mm__parser_mark(p);
    p_push(p, index);
    while (!p_failed(p) && mm__parser_accept_op(p, OP_COMMA)) {
      if (p_at_op(p, OP_RSQB)) break;
      p_push(p, parse_slice(p));
    }
    index = mm__parser_finish(p, tuple, mark);
  }
  return index && mm__parser_expect_op(p, OP_RSQB, "]") ? index : NULL;
}

/* Goes back to the token at `pos`, inside the statement being read. */
static void rewind_to(parser *p, size_t pos, uint32_t prev_end_line) {
  p->pos = pos;
  p->current = mm__lexer_at(p->lx, pos);
  p->prev_end_line = prev_end_line;
}

/* Whether CPython's "forgot a comma" rule may start at `value`: not at a
 * soft keyword (`_`, `match`, `case`), as its grammar says. */
static bool may_miss_a_comma(const parser *p, const mm_node *value) {
  const mm_node *start = mm__parser_chain_start(value);
  return start->kind != N_NAME || start->parenthesized ||
         !(mm__parser_node_text_is(p, start, "_") || mm__parser_node_text_is(p, start, "match") ||
           mm__parser_node_text_is(p, start, "case"));
}

/* Reads the tokens from the '[' at `open` again as a list display: whether
 * they are one (CPython's backtracking takes that start of an expression).
 * Consumes them; the caller reports an error either way. */
static bool reread_as_list(parser *p, size_t open, uint32_t prev_end_line) {
  rewind_to(p, open, prev_end_line);
  return atom_reads(p);
}

/* `value[...]`. In brackets, CPython reads `x` and a `[...]` that is no
 * index but is an expression as two elements with a comma missing (`[a]`
 * then `[b for b in c]`). Tried once, at the innermost failing subscript
 * (the outer ones fail with it: p->index_failed), so it costs one more
 * reading of the statement's rest at most. */
static mm_node *parse_subscript(parser *p, mm_node *value) {
  size_t open = p->pos, scratch = p->scratch->len;
  uint32_t before = p->prev_end_line;
  int brackets = p->brackets, nesting = p->nesting;
  p->brackets++;
  p_advance(p);
  mm_trial t;
  mm__trial_begin(p, &t);
  mm_node *index = parse_index(p);
  bool read = mm__trial_end(p, &t);
  p->brackets = brackets;
  if (p_failed(p)) return NULL; /* out of memory, or an f-string's error */
  if (read) {
    mm_node *node = mm__parser_node_at(p, N_SUBSCRIPT, value);
    size_t mark = mm__parser_mark(p);
    p_push(p, value);
    p_push(p, index);
    return mm__parser_finish(p, node, mark);
  }
  bool first_failure = !p->index_failed;
  p->index_failed = true;
  p->nesting = nesting;
  p->scratch->len = scratch;
  uint32_t element_line = p->expression_line; /* CPython's rule names the element's start */
  if (first_failure && t.trial.status == MM_ERR_SYNTAX && brackets > 0 && element_line &&
      may_miss_a_comma(p, value)) {
    size_t failed_at = p->pos;
    uint32_t failed_line = p->prev_end_line;
    if (reread_as_list(p, open, before)) {
      mm__diag_set(p->diag, MM_ERR_SYNTAX, element_line,
                   "invalid syntax. Perhaps you forgot a comma?");
      return NULL;
    }
    if (p_failed(p)) return NULL;
    rewind_to(p, failed_at, failed_line); /* where the first reading stopped */
  }
  *p->diag = t.trial;
  return NULL;
}

mm_node *mm__parse_call_tail(parser *p, mm_node *func) {
  p_advance(p); /* '(' */
  p->brackets++;
  mm_node *call = mm__parser_node_at(p, N_CALL, func);
  size_t mark = mm__parser_mark(p);
  p_push(p, func);
  bool read = call && parse_call_arguments(p, call);
  p->brackets--;
  if (!read) return NULL;
  call = mm__parser_finish(p, call, mark);
  if (call) call->positional++; /* func itself comes first */
  return call;
}

/* At '.': `value.NAME`, the attribute's text being NAME. */
static mm_node *parse_attribute(parser *p, mm_node *value) {
  p_advance(p); /* '.' */
  const mm_token *name = p_peek(p);
  if (name->kind >= TK_KW_FALSE && name->kind <= TK_KW_YIELD) {
    /* `pl.tensor.and(...)`: printers before 2026-07-31 named ops by keywords. */
    p_note(p, name->line,
           "the printer wrote a keyword after a dot (an op named `and`, `or`, "
           "`not`, ...): read as a name");
  } else if (name->kind != TK_NAME) {
    mm__parser_error_at(p, name, "invalid syntax: expected an attribute name");
    return NULL;
  }
  p_advance(p);
  mm_node *attr = mm__parser_node_at(p, N_ATTRIBUTE, value);
  if (!attr) return NULL;
  attr->start = name->start;
  attr->len = name->len;
  size_t mark = mm__parser_mark(p);
  p_push(p, value);
  return mm__parser_finish(p, attr, mark);
}

static mm_node *parse_primary(parser *p) {
  if (p->parsed_primary) { /* parsed already by mm__parse_expression's fast path */
    mm_node *parsed = p->parsed_primary;
    p->parsed_primary = NULL;
    return parsed;
  }
  mm_node *node = parse_atom(p);
  while (node && !p_failed(p)) {
    const mm_token *t = p_peek(p);
    if (t->kind != TK_OP) break;
    if (t->op == OP_DOT) {
      node = parse_attribute(p, node);
    } else if (t->op == OP_LPAR) {
      if (!mm__parser_enter(p, t)) return NULL;
      node = mm__parse_call_tail(p, node);
      p_leave(p);
    } else if (t->op == OP_LSQB) {
      if (!mm__parser_enter(p, t)) return NULL;
      node = parse_subscript(p, node);
      p_leave(p);
    } else {
      break;
    }
  }
  return p_failed(p) ? NULL : node;
}

/* A dotted name as an expression (decorators before Python 3.9 and class
 * patterns use it). */
mm_node *mm__parse_dotted_name_expr(parser *p) {
  const mm_token *t = p_peek(p);
  if (t->kind != TK_NAME) {
    mm__parser_error_at(p, t, "invalid syntax: expected a name");
    return NULL;
  }
  mm_node *node = mm__parser_node(p, N_NAME, p_advance(p));
  while (node && p_at_op(p, OP_DOT))
    node = parse_attribute(p, node);
  return node;
}

/* ----------------------------------------------------------- lambda */

static mm_node *parse_lambda(parser *p) {
  const mm_token *t = p_advance(p); /* 'lambda' */
  mm_node *node = mm__parser_node(p, N_LAMBDA, t);
  size_t mark = mm__parser_mark(p);
  bool seen_default = false, seen_star = false;
  while (!p_failed(p) && !p_at_op(p, OP_COLON)) {
    if (mm__parser_accept_op(p, OP_SLASH)) {
      seen_star = true;
    } else if (p_at_op(p, OP_STAR)) {
      const mm_token *star = p_advance(p);
      seen_star = true;
      if (p_at(p, TK_NAME))
        p_advance(p);
      else if (p_bare_star_ends(p, OP_COLON))
        mm__diag_set(p->diag, MM_ERR_SYNTAX, star->line, "named arguments must follow bare *");
    } else if (mm__parser_accept_op(p, OP_DSTAR)) {
      if (!mm__parser_accept(p, TK_NAME))
        mm__parser_error_at(p, p_peek(p), "invalid syntax: expected a name");
    } else if (mm__parser_accept(p, TK_NAME)) {
      if (mm__parser_accept_op(p, OP_EQUAL)) {
        p_push(p, mm__parse_expression(p));
        seen_default = true;
      } else if (seen_default && !seen_star) {
        mm__parser_error_at(p, p_peek(p), "non-default argument follows default argument");
      }
    } else {
      mm__parser_error_at(p, p_peek(p), "invalid syntax in lambda parameters");
    }
    if (!mm__parser_accept_op(p, OP_COMMA)) break;
  }
  if (!mm__parser_expect_op(p, OP_COLON, ":")) return NULL;
  p_push(p, mm__parse_expression(p));
  return mm__parser_finish(p, node, mark);
}
