/* syntax_errors.c: the tokenizer's error or the parser's, which one a
 * dump is refused with. */
#include "syntax/syntax_errors.h"

#include <string.h>

void mm__syntax_parser_failed(const char *src, size_t end, uint32_t stopped, mm_diag *diag) {
  if (strncmp(diag->message, "unexpected indent", 17) == 0) return;
  mm__lex_rest_errors(src, end, stopped > diag->line ? stopped : diag->line, diag);
}

bool mm__syntax_settle(const char *input, size_t len, const mm_lexer *lexer,
                       const mm_diag *lex_diag, size_t stopped_at, bool parsed, mm_diag *diag) {
  bool reached_end = lexer->count && stopped_at + 1 >= lexer->count;
  if (mm__diag_failed(lex_diag) && (parsed || reached_end || lex_diag->status != MM_ERR_SYNTAX)) {
    *diag = *lex_diag;
    if (mm__lex_error_is_parsers(diag)) mm__lex_rest_errors(input, len, diag->line, diag);
    return false;
  }
  if (parsed && lexer->unstable_name.status != MM_OK) {
    *diag = lexer->unstable_name;
    return false;
  }
  return parsed;
}
