/* syntax_errors.h: which syntax error a dump is refused with when the
 * tokenizer and the parser each found one, decided here once, as CPython
 * decides it in Parser/pegen_errors.c: the parser calls it at its error,
 * the pipeline at the end of the parse. */
#ifndef MM_SYNTAX_ERRORS_H
#define MM_SYNTAX_ERRORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "syntax/lexer.h"

/* At the parser's error in `diag` (parsing stopped on line `stopped`):
 * the rest of the source `src[0, end)` is tokenized, and a tokenizer
 * error there (or a bracket never closed that opened before the error's
 * line) replaces it; an unexpected indent is reported as it is. */
void mm__syntax_parser_failed(const char *src, size_t end, uint32_t stopped, mm_diag *diag);

/* The error to report once the parse of `input` is over: `parsed` says
 * whether the parser succeeded (else `diag` holds its error), `stopped_at`
 * the token it stopped at, `lex_diag` what the tokenizer `lexer` found.
 * The tokenizer's error wins when parsing got to it (a grammar error met
 * before it is the one to report) and always when it ran out of memory;
 * then a name that reads differently across compiler versions
 * (lexer->unstable_name). Returns whether the input is free of both. */
bool mm__syntax_settle(const char *input, size_t len, const mm_lexer *lexer,
                       const mm_diag *lex_diag, size_t stopped_at, bool parsed, mm_diag *diag);

#endif
