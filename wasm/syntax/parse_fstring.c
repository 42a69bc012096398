/* parse_fstring.c: the `{...}` fields of f-strings. Only those parts are
 * code (model.md: they can read names); each is lexed again as if inside
 * brackets, at its own line, and parsed as an expression. */
#include <stdint.h>
#include <string.h>

#include "syntax/parser_internal.h"

void mm__parse_fstring_fields(parser *p, const mm_token *tok);

static size_t scan_literal_part(parser *p, size_t i, size_t end, uint32_t *line, bool raw,
                                int spec_depth);

/* Reading src[i + 1] is safe: every range here ends before the literal's
 * closing quote. */
static void count_lines(const char *src, size_t from, size_t to, uint32_t *line) {
  for (size_t i = from; i < to; i++)
    if (src[i] == '\n' || (src[i] == '\r' && src[i + 1] != '\n')) (*line)++;
}

/* Skips a string literal inside a field, from its opening quote. */
static size_t skip_inner_string(const char *src, size_t i, size_t end) {
  char quote = src[i];
  bool triple = i + 2 < end && src[i + 1] == quote && src[i + 2] == quote;
  i += triple ? 3 : 1;
  while (i < end) {
    if (src[i] == '\\') {
      i += 2;
    } else if (src[i] == quote) {
      if (!triple) return i + 1;
      if (i + 2 < end && src[i + 1] == quote && src[i + 2] == quote) return i + 3;
      i++;
    } else {
      i++;
    }
  }
  return end;
}

/* The end of a field's expression: the first '}', '!', ':' or '=' (the
 * debugging specifier) outside brackets and strings. */
static size_t find_expression_end(parser *p, size_t i, size_t end, uint32_t line) {
  const char *src = p->src;
  int depth = 0;
  while (i < end) {
    char c = src[i];
    if (c == '(' || c == '[' || c == '{') {
      depth++;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return i;
      depth--;
    } else if (c == '\'' || c == '"') {
      i = skip_inner_string(src, i, end);
      continue;
    } else if (c == '#') {
      mm__diag_set(p->diag, MM_ERR_SYNTAX, line, "f-string expression part cannot include '#'");
      return end;
    } else if (depth == 0 && c == '!' && !(i + 1 < end && src[i + 1] == '=')) {
      return i;
    } else if (depth == 0 && c == ':') {
      return i;
    } else if (depth == 0 && c == '=' && !(i + 1 < end && src[i + 1] == '=') &&
               !(i > 0 && strchr("=!<>", src[i - 1]))) {
      return i;
    }
    i++;
  }
  return i;
}

static mm_node *parse_field_expression(parser *p, size_t from, size_t to, uint32_t line) {
  bool blank = true;
  for (size_t i = from; i < to && blank; i++)
    blank = p->src[i] == ' ' || p->src[i] == '\t' || p->src[i] == '\n' || p->src[i] == '\r';
  if (blank) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, line, "f-string: empty expression not allowed");
    return NULL;
  }
  mm_lexer sub;
  mm__lexer_init(&sub, p->src, from, to, line, true, false, p->diag);
  mm__lexer_fill(&sub, SIZE_MAX); /* all of it: a tokenizer error in a field wins */
  if (p_failed(p)) {
    mm__lexer_free(&sub);
    return NULL;
  }
  parser inner = *p;
  inner.brackets++; /* CPython reads a field as if in parentheses */
  mm__parser_start(&inner, &sub);
  mm_node *value = p_at(&inner, TK_KW_YIELD) ? mm__parse_yield_expression(&inner)
                                             : mm__parse_star_expressions(&inner);
  mm__parser_accept(&inner, TK_NEWLINE);
  if (value && !p_at(&inner, TK_END))
    mm__parser_error_at(&inner, p_peek(&inner), "f-string: invalid syntax");
  mm__lexer_note_unstable_name(p->lx, &sub.unstable_name);
  mm__lexer_free(&sub);
  return p_failed(p) ? NULL : value;
}

/* Parses one field starting after its '{'; returns the index after '}'. */
static size_t parse_field(parser *p, size_t i, size_t end, uint32_t *line, bool raw,
                          int spec_depth) {
  size_t expr_end = find_expression_end(p, i, end, *line);
  if (p_failed(p)) return end;
  mm_node *value = parse_field_expression(p, i, expr_end, *line);
  if (!value) return end;
  count_lines(p->src, i, expr_end, line);
  mm_node *field = mm__parser_node_at(p, N_FORMATTED, value);
  size_t mark = mm__parser_mark(p);
  p_push(p, value);
  i = expr_end;
  if (i < end && p->src[i] == '=') i++;
  while (i < end && (p->src[i] == ' ' || p->src[i] == '\t'))
    i++;
  if (i < end && p->src[i] == '!') {
    if (i + 1 >= end || !strchr("rsa", p->src[i + 1])) {
      mm__diag_set(p->diag, MM_ERR_SYNTAX, *line,
                   "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      return end;
    }
    i += 2;
  }
  if (i < end && p->src[i] == ':') {
    mm_node *spec = mm__parser_node_at(p, N_JOINEDSTR, value);
    size_t spec_mark = mm__parser_mark(p);
    i = scan_literal_part(p, i + 1, end, line, raw, spec_depth + 1);
    spec = mm__parser_finish(p, spec, spec_mark);
    if (spec) p_push(p, spec);
  }
  if (p_failed(p)) return end;
  if (i >= end || p->src[i] != '}') {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, *line, "f-string: expecting '}'");
    return end;
  }
  field = mm__parser_finish(p, field, mark);
  if (field) p_push(p, field);
  return i + 1;
}

/* Literal text with fields in it. Inside a format spec (spec_depth > 0) it
 * stops at the '}' that closes the field. */
static size_t scan_literal_part(parser *p, size_t i, size_t end, uint32_t *line, bool raw,
                                int spec_depth) {
  const char *src = p->src;
  if (spec_depth > 2) {
    mm__diag_set(p->diag, MM_ERR_SYNTAX, *line, "f-string: expressions nested too deeply");
    return end;
  }
  while (i < end && !p_failed(p)) {
    char c = src[i];
    if (c == '\\' && !raw && i + 1 < end && src[i + 1] != '{' && src[i + 1] != '}') {
      count_lines(src, i + 1, i + 2, line);
      i += 2;
    } else if (c == '{') {
      if (spec_depth == 0 && i + 1 < end && src[i + 1] == '{') {
        i += 2;
      } else {
        i = parse_field(p, i + 1, end, line, raw, spec_depth);
      }
    } else if (c == '}') {
      if (spec_depth > 0) return i;
      if (i + 1 < end && src[i + 1] == '}') {
        i += 2;
      } else {
        mm__diag_set(p->diag, MM_ERR_SYNTAX, *line, "f-string: single '}' is not allowed");
        return end;
      }
    } else {
      count_lines(src, i, i + 1, line);
      i++;
    }
  }
  if (spec_depth > 0 && !p_failed(p))
    mm__diag_set(p->diag, MM_ERR_SYNTAX, *line, "f-string: expecting '}'");
  return i;
}

void mm__parse_fstring_fields(parser *p, const mm_token *tok) {
  size_t prefix = tok->flags >> 4;
  size_t quotes = (tok->flags & STR_TRIPLE) ? 3 : 1;
  size_t begin = tok->start + prefix + quotes, end = tok->start + tok->len - quotes;
  uint32_t line = tok->line;
  scan_literal_part(p, begin, end, &line, (tok->flags & STR_RAW) != 0, 0);
}
