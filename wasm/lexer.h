/* lexer.h: Python tokenizer for pass dumps, one pass over the bytes.
 * Produces the whole token array (the parser backtracks over soft keywords
 * such as `match`) and the table of line starts (for `source`). */
#ifndef MM_LEXER_H
#define MM_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

typedef enum mm_tok_kind {
  TK_END = 0,
  TK_NEWLINE,
  TK_INDENT,
  TK_DEDENT,
  TK_NAME,
  TK_NUMBER,
  TK_STRING, /* any string literal; `flags` says which prefix */
  TK_OP,     /* `op` says which */
  /* keywords (hard ones only; match/case/type/_ stay names) */
  TK_KW_FALSE,
  TK_KW_NONE,
  TK_KW_TRUE,
  TK_KW_AND,
  TK_KW_AS,
  TK_KW_ASSERT,
  TK_KW_ASYNC,
  TK_KW_AWAIT,
  TK_KW_BREAK,
  TK_KW_CLASS,
  TK_KW_CONTINUE,
  TK_KW_DEF,
  TK_KW_DEL,
  TK_KW_ELIF,
  TK_KW_ELSE,
  TK_KW_EXCEPT,
  TK_KW_FINALLY,
  TK_KW_FOR,
  TK_KW_FROM,
  TK_KW_GLOBAL,
  TK_KW_IF,
  TK_KW_IMPORT,
  TK_KW_IN,
  TK_KW_IS,
  TK_KW_LAMBDA,
  TK_KW_NONLOCAL,
  TK_KW_NOT,
  TK_KW_OR,
  TK_KW_PASS,
  TK_KW_RAISE,
  TK_KW_RETURN,
  TK_KW_TRY,
  TK_KW_WHILE,
  TK_KW_WITH,
  TK_KW_YIELD
} mm_tok_kind;

/* Operators and delimiters; values are stable small integers. */
typedef enum mm_op {
  OP_NONE = 0,
  OP_LPAR,
  OP_RPAR,
  OP_LSQB,
  OP_RSQB,
  OP_LBRACE,
  OP_RBRACE,
  OP_COLON,
  OP_COMMA,
  OP_SEMI,
  OP_DOT,
  OP_ELLIPSIS,
  OP_ARROW,
  OP_AT,
  OP_EQUAL,
  OP_WALRUS,
  OP_PLUS,
  OP_MINUS,
  OP_STAR,
  OP_SLASH,
  OP_DSLASH,
  OP_PERCENT,
  OP_DSTAR,
  OP_VBAR,
  OP_AMPER,
  OP_CIRCUMFLEX,
  OP_TILDE,
  OP_LSHIFT,
  OP_RSHIFT,
  OP_LESS,
  OP_GREATER,
  OP_EQEQ,
  OP_NOTEQ,
  OP_LESSEQ,
  OP_GREATEREQ,
  /* augmented assignments */
  OP_PLUSEQ,
  OP_MINUSEQ,
  OP_STAREQ,
  OP_SLASHEQ,
  OP_DSLASHEQ,
  OP_PERCENTEQ,
  OP_DSTAREQ,
  OP_VBAREQ,
  OP_AMPEREQ,
  OP_CIRCUMFLEXEQ,
  OP_LSHIFTEQ,
  OP_RSHIFTEQ,
  OP_ATEQ,
  OP_COUNT
} mm_op;

/* String prefix flags. */
enum { STR_BYTES = 1, STR_RAW = 2, STR_FORMAT = 4, STR_TRIPLE = 8 };

typedef struct mm_token {
  uint32_t start;    /* byte offset in the input */
  uint32_t len;      /* bytes */
  uint32_t line;     /* 1-based line of the first byte */
  uint32_t end_line; /* line of the last byte (multi-line strings) */
  uint8_t kind;      /* mm_tok_kind */
  uint8_t op;        /* mm_op for TK_OP */
  uint8_t flags;     /* STR_* for TK_STRING; prefix length in bits 4-7 */
} mm_token;

typedef struct mm_lexed {
  mm_token *tokens;
  size_t count;
  uint32_t *line_starts; /* byte offset where each line begins, [0] = line 1 */
  size_t line_count;
} mm_lexed;

/* Tokenizes input[begin, end); token offsets index `input`. On failure
 * fills `diag` and returns false; the tokens before the error are kept,
 * ended by TK_END (CPython's parser reports its own error first when it
 * fails before reaching the tokenizer's). `base_line` is the line of input[begin]:
 * the parts of an f-string are lexed again, as if inside brackets, with
 * their own line. `with_lines` records line starts. Arrays are allocated
 * with mm__alloc; release with mm_lexed_free (also after a failure). */
bool mm_lex(const char *input, size_t begin, size_t end, uint32_t base_line, bool in_brackets,
            bool with_lines, mm_lexed *out, mm_diag *diag);
void mm_lexed_free(mm_lexed *lexed);

/* Validates UTF-8 and rejects NUL bytes; fills `diag` with the line. */
bool mm_check_text(const char *input, size_t len, mm_diag *diag);

/* True when a token is an identifier (soft keywords included). */
static inline bool mm_tok_is_name(const mm_token *tok) { return tok->kind == TK_NAME; }

#endif
