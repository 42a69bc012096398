/* parse_base.c: token and node plumbing for the parser, assignment-target
 * rules, and the walk that reports reads of names. */
#include <stdio.h>
#include <string.h>

#include "syntax/parser_internal.h"

bool mm__parser_at_name(const parser *p, const char *word) {
  const mm_token *t = p_peek(p);
  return t->kind == TK_NAME && mm__span_is(p->src + t->start, t->len, word);
}

void mm__parser_start(parser *p, mm_lexer *lexer) {
  p->lx = lexer;
  p->pos = lexer->first;
  mm__lexer_fill(lexer, p->pos);
  p->current = mm__lexer_at(lexer, p->pos);
}

void mm__parser_resume_at(parser *p, size_t next, uint32_t end_line, const uint32_t *line_starts,
                          size_t count) {
  mm__lexer_resume_at(p->lx, p->pos, next, end_line + 1, line_starts, count);
  p->prev_end_line = end_line;
  mm__lexer_fill(p->lx, p->pos);
  p->current = mm__lexer_at(p->lx, p->pos);
  mm__arena_reset(p->arena);
  p->scratch->len = 0;
}

bool mm__parser_accept_op(parser *p, int op) {
  if (!p_at_op(p, op)) return false;
  p_advance(p);
  return true;
}

bool mm__parser_accept(parser *p, int kind) {
  if (!p_at(p, kind)) return false;
  p_advance(p);
  return true;
}

void mm__parser_error_at(parser *p, const mm_token *tok, const char *message) {
  if (tok->kind == TK_INDENT) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, tok->line, "unexpected indent");
  } else if (tok->kind == TK_DEDENT) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, tok->line, "%s (unexpected end of block)", message);
  } else if (tok->kind == TK_END) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, tok->line, "%s (unexpected end of file)", message);
  } else if (tok->kind == TK_NEWLINE) {
    mm__diag_set_at(p->diag, MM_ERR_SYNTAX, tok->line, tok->start, "%s (unexpected end of line)",
                    message);
  } else {
    /* Quote the token so the user can find it on the line; long tokens
     * (strings) are cut, and a cut never splits a UTF-8 sequence. */
    size_t n = tok->len;
    if (n > 40) {
      n = 40;
      while (n > 0 && ((unsigned char)p->src[tok->start + n] & 0xC0) == 0x80)
        n--;
    }
    mm__diag_set_at(p->diag, MM_ERR_SYNTAX, tok->line, tok->start, "%s at '%.*s%s'", message,
                    (int)n, p->src + tok->start, n < tok->len ? "..." : "");
  }
}

void mm__parser_error_node(parser *p, const mm_node *node, const char *message) {
  mm__diag_set(p->diag, MM_ERR_SYNTAX, node->line, "%s", message);
}

bool mm__parser_expect_op(parser *p, int op, const char *what) {
  if (mm__parser_accept_op(p, op)) return true;
  if (!p_failed(p)) {
    char message[64];
    snprintf(message, sizeof message, "invalid syntax: expected '%s'", what);
    mm__parser_error_at(p, p_peek(p), message);
  }
  return false;
}

/* A node of `kind` over the text [start, start + len) on lines line..end_line. */
static mm_node *node_over(parser *p, int kind, uint32_t start, uint32_t len, uint32_t line,
                          uint32_t end_line) {
  mm_node *node = mm__arena_alloc(p->arena, sizeof *node);
  if (!node) {
    mm__diag_set(p->diag, MM_ERR_NO_MEMORY, p_peek(p)->line, "out of memory");
    return NULL;
  }
  memset(node, 0, sizeof *node);
  node->kind = (uint8_t)kind;
  node->start = start;
  node->len = len;
  node->line = line;
  node->end_line = end_line;
  return node;
}

mm_node *mm__parser_node(parser *p, int kind, const mm_token *first) {
  return node_over(p, kind, first->start, first->len, first->line, first->end_line);
}

mm_node *mm__parser_node_at(parser *p, int kind, const mm_node *first) {
  return node_over(p, kind, first->start, first->len, first->line, first->end_line);
}

size_t mm__parser_mark(const parser *p) { return p->scratch->len; }

mm_node *mm__parser_finish(parser *p, mm_node *node, size_t mark) {
  if (!node || p_failed(p)) return NULL;
  size_t count = p->scratch->len - mark;
  if (count) {
    node->kids = mm__arena_alloc(p->arena, count * sizeof *node->kids);
    if (!node->kids) {
      mm__diag_set(p->diag, MM_ERR_NO_MEMORY, node->line, "out of memory");
      return NULL;
    }
    memcpy(node->kids, (mm_node **)p->scratch->items + mark, count * sizeof *node->kids);
  }
  node->count = (uint32_t)count;
  p->scratch->len = mark;
  if (p->prev_end_line > node->end_line) node->end_line = p->prev_end_line;
  return node;
}

bool mm__parser_enter(parser *p, const mm_token *at) {
  if (++p->nesting > MM_MAX_NESTING) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, at->line,
                 "expression nested too deeply (more than %d levels)", MM_MAX_NESTING);
    return false;
  }
  return true;
}

bool mm__parser_node_text_is(const parser *p, const mm_node *node, const char *word) {
  return mm__span_is(p->src + node->start, node->len, word);
}

const char *mm__parser_expr_name(const parser *p, const mm_node *node) {
  switch (node->kind) {
  case N_NAME: return "name";
  case N_ATTRIBUTE: return "attribute";
  case N_SUBSCRIPT: return "subscript";
  case N_STARRED: return "starred";
  case N_TUPLE: return "tuple";
  case N_LIST: return "list";
  case N_CALL: return "function call";
  case N_COMP:
    return node->op == OP_LPAR    ? "generator expression"
           : node->op == OP_LSQB  ? "list comprehension"
           : node->op == OP_COLON ? "dict comprehension"
                                  : "set comprehension";
  case N_CONST:
    if (mm__parser_node_text_is(p, node, "True")) return "True";
    if (mm__parser_node_text_is(p, node, "False")) return "False";
    if (mm__parser_node_text_is(p, node, "None")) return "None";
    if (mm__parser_node_text_is(p, node, "...")) return "ellipsis";
    return "literal";
  case N_INT:
  case N_STR:
  case N_BYTES: return "literal";
  case N_COMPARE: return "comparison";
  case N_LAMBDA: return "lambda";
  case N_IFEXP: return "conditional expression";
  case N_NAMEDEXPR: return "named expression";
  case N_DICT: return "dict literal";
  case N_SET: return "set display";
  case N_YIELD: return "yield expression";
  case N_AWAIT: return "await expression";
  case N_JOINEDSTR:
  case N_FORMATTED: return "f-string expression";
  default: return "expression";
  }
}

bool mm__parser_is_single_target(const mm_node *node) {
  return node->kind == N_NAME || node->kind == N_ATTRIBUTE || node->kind == N_SUBSCRIPT;
}

const mm_node *mm__parser_chain_start(const mm_node *node) {
  while (!node->parenthesized && node->count &&
         (node->kind == N_ATTRIBUTE || node->kind == N_CALL || node->kind == N_SUBSCRIPT))
    node = node->kids[0];
  return node;
}

mm_node *mm__parser_invalid_target(mm_node *node, target_kind kind) {
  for (;;) {
    if (mm__parser_is_single_target(node)) return NULL;
    if (node->kind == N_STARRED && kind != TARGET_DEL) {
      node = node->kids[0];
      continue;
    }
    if (node->kind != N_TUPLE && node->kind != N_LIST) return node;
    for (uint32_t i = 0; i < node->count; i++) {
      mm_node *bad = mm__parser_invalid_target(node->kids[i], kind);
      if (bad) return bad;
    }
    return NULL;
  }
}

static void set_context(mm_node *node, mm_ctx ctx) {
  node->ctx = ctx;
  if (node->kind == N_STARRED || node->kind == N_TUPLE || node->kind == N_LIST)
    for (uint32_t i = 0; i < node->count; i++)
      set_context(node->kids[i], ctx);
}

/* One annotated or augmented target: CPython names the whole expression. */
static bool refuse_single_target(parser *p, mm_node *node, target_kind kind) {
  char message[96];
  if (kind == TARGET_ANN && (node->kind == N_TUPLE || node->kind == N_LIST))
    snprintf(message, sizeof message, "only single target (not %s) can be annotated",
             mm__parser_expr_name(p, node));
  else if (kind == TARGET_ANN)
    snprintf(message, sizeof message, "illegal target for annotation");
  else
    snprintf(message, sizeof message, "'%s' is an illegal expression for augmented assignment",
             mm__parser_expr_name(p, node));
  mm__parser_error_node(p, node, message);
  return false;
}

bool mm__parser_check_target(parser *p, mm_node *node, target_kind kind) {
  if (mm__parser_is_single_target(node)) {
    node->ctx = kind == TARGET_DEL ? CTX_DEL : CTX_STORE;
    return true;
  }
  if (kind == TARGET_ANN || kind == TARGET_AUG) return refuse_single_target(p, node, kind);
  const mm_node *bad = mm__parser_invalid_target(node, kind);
  if (!bad) {
    set_context(node, kind == TARGET_DEL ? CTX_DEL : CTX_STORE);
    return true;
  }
  char message[96];
  snprintf(message, sizeof message, "cannot %s %s", kind == TARGET_DEL ? "delete" : "assign to",
           mm__parser_expr_name(p, bad));
  mm__parser_error_node(p, bad, message);
  return false;
}

void mm__parser_emit_loads(parser *p, const mm_node *node) {
  if (!p->tracking || !node || p_failed(p)) return;
  /* Iterative: chains such as a + b + ... nest as deep as they are long. */
  p->walk->len = 0;
  if (!mm__vec_push_ptr(p->walk, node)) goto oom;
  while (p->walk->len) {
    const mm_node *n = ((const mm_node **)p->walk->items)[--p->walk->len];
    if (n->kind == N_NAME && n->ctx == CTX_LOAD) p->events->load(p->events->context, n);
    for (uint32_t i = 0; i < n->count; i++)
      if (!mm__vec_push_ptr(p->walk, n->kids[i])) goto oom;
  }
  return;
oom:
  mm__diag_set(p->diag, MM_ERR_NO_MEMORY, node->line, "out of memory");
}

void mm__trial_begin(parser *p, mm_trial *t) {
  t->diag = p->diag;
  memset(&t->trial, 0, sizeof t->trial);
  p->diag = &t->trial;
}

bool mm__trial_end(parser *p, mm_trial *t) {
  p->diag = t->diag;
  if (t->trial.status == MM_ERR_NO_MEMORY || (t->trial.status != MM_OK && p->fstring_failed))
    *t->diag = t->trial;
  return t->trial.status == MM_OK;
}
