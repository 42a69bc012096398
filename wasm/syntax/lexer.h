/* lexer.h: Python tokenizer for pass dumps, one pass over the bytes,
 * producing tokens on demand (the parser looks ahead over soft keywords
 * such as `match`) and the table of line starts (for `source`). */
#ifndef MM_LEXER_H
#define MM_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

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

/* Tokens are kept in fixed chunks, so a token's address never changes
 * while its chunk is kept: the parser may hold pointers to the tokens of
 * the statement it is in. */
#define MM_TOKEN_CHUNK 4096
#define MM_MAX_BRACKETS 200 /* CPython's MAXLEVEL: "too many nested parentheses" */
#define MM_MAX_INDENT 100   /* CPython's MAXINDENT */

/* An incremental tokenizer: tokens are made as the parser asks for them
 * and dropped when it is done with them, so memory follows the longest
 * statement, not the file. Fields are private to lexer.c. */
typedef struct mm_lexer {
  const char *src;
  size_t pos, end;
  uint32_t line;
  bool with_lines, line_start, done;
  mm_token **chunks; /* chunks[i] holds tokens first + i * MM_TOKEN_CHUNK... */
  size_t chunk_count, chunk_cap;
  size_t first; /* index of the first token kept (a multiple of MM_TOKEN_CHUNK) */
  size_t count; /* index after the last token made */
  mm_token *next_slot, *chunk_end; /* where the next token goes in the last chunk */
  mm_vec lines;                    /* uint32_t: byte offset where each line begins, [0] = line 1 */
  char brackets[MM_MAX_BRACKETS];
  uint32_t bracket_lines[MM_MAX_BRACKETS];
  uint32_t bracket_offsets[MM_MAX_BRACKETS]; /* where each was opened, for the error's column */
  int depth, base_depth;                     /* open brackets; 1 inside an f-string part */
  int indents[MM_MAX_INDENT + 1], alt_indents[MM_MAX_INDENT + 1];
  int indent_top;
  mm_diag *diag;
  /* The first name NFKC would change: refused only once the whole source
   * has parsed, since a syntax error anywhere is CPython's verdict. */
  mm_diag unstable_name;
  bool steps_only; /* tests: every token through the general step, none in runs */
  /* Out of memory before the first chunk: TK_END still has a place. */
  mm_token fallback_token, *fallback_chunks[1];
} mm_lexer;

/* Prepares to tokenize input[begin, end); token offsets index `input`.
 * `base_line` is the line of input[begin]: the parts of an f-string are
 * lexed again, as if inside brackets, with their own line. `with_lines`
 * records line starts. Errors go to `diag`; the tokens made before one
 * are kept and ended by TK_END (CPython's parser reports its own error
 * first when it fails before reaching the tokenizer's). */
void mm__lexer_init(mm_lexer *lx, const char *input, size_t begin, size_t end, uint32_t base_line,
                    bool in_brackets, bool with_lines, mm_diag *diag);
/* Keeps in `lx` the earlier (by line) of its unstable name and `found`'s:
 * an f-string's fields are lexed by a lexer of their own. */
void mm__lexer_note_unstable_name(mm_lexer *lx, const mm_diag *found);
/* Makes tokens until token `index` exists or TK_END has been made
 * (SIZE_MAX: all of them). */
void mm__lexer_fill(mm_lexer *lx, size_t index);
/* Whether tokenizing may resume at byte `next`, a line start the lexer
 * has not passed: it has made no token beyond that line and met no error. */
bool mm__lexer_can_resume(const mm_lexer *lx, size_t next);
/* The statement whose first token is `index` was read without tokens, up
 * to byte `next` (after its '\n'; line `next_line` starts there): drops
 * the tokens from `index` on and resumes at `next`, at a line start.
 * `starts`: the starts of the lines after the first up to `next`, when
 * the caller knows them (`start_count` of them); else they are found. */
void mm__lexer_resume_at(mm_lexer *lx, size_t index, size_t next, uint32_t next_line,
                         const uint32_t *starts, size_t start_count);
/* Whether a line indented by `spaces` spaces (and no tab) continues the
 * block the lexer is in: no INDENT or DEDENT, no inconsistency. */
bool mm__lexer_same_indent(const mm_lexer *lx, size_t spaces);
/* Frees the chunks holding only tokens before `index`. */
void mm__lexer_release(mm_lexer *lx, size_t index);
void mm__lexer_free(mm_lexer *lx);

/* Token `index`, which must have been made and not released. */
static inline const mm_token *mm__lexer_at(const mm_lexer *lx, size_t index) {
  size_t k = index - lx->first;
  return &lx->chunks[k / MM_TOKEN_CHUNK][k % MM_TOKEN_CHUNK];
}

/* After the parser's syntax error in `diag`, CPython tokenizes the rest
 * of the source (input[0, end) is lexed again): a tokenizer error there
 * replaces the parser's, and so does "'(' was never closed" when the end
 * comes with a bracket open that was opened on a line before the one the
 * parser stopped on (`stopped_line`: its last token's). */
void mm__lex_rest_errors(const char *input, size_t end, uint32_t stopped_line, mm_diag *diag);

/* Whether the lexer's error in `diag` is one CPython's parser reports, not
 * its tokenizer (an ASCII character that is no token, such as '$'): then
 * the rest of the source is tokenized after it, as after a parser's error. */
bool mm__lex_error_is_parsers(const mm_diag *diag);

/* The whole token array at once (for tests): as mm_lexer, with the tokens
 * and line starts copied out; release with mm__lexed_free. */
typedef struct mm_lexed {
  mm_token *tokens;
  size_t count;
  uint32_t *line_starts; /* byte offset where each line begins, [0] = line 1 */
  size_t line_count;
} mm_lexed;

bool mm__lex(const char *input, size_t begin, size_t end, uint32_t base_line, bool in_brackets,
             bool with_lines, mm_lexed *out, mm_diag *diag);
void mm__lexed_free(mm_lexed *lexed);

/* The keyword token kind of `text` (TK_NAME when it is no keyword). */
uint8_t mm__keyword_kind(const char *text, size_t len);
/* Bit (second letter | 0x20) - 'a' of entry [len - 2][(first letter |
 * 0x20) - 'a']: some keyword of that length starts with those letters. */
extern const uint32_t mm__keyword_pairs[7][26];
/* False for most names at the cost of one look-up; true may be a keyword. */
static inline bool mm__maybe_keyword(const char *text, size_t len) {
  if (len < 2 || len > 8) return false;
  unsigned first = (unsigned)((unsigned char)text[0] | 0x20) - 'a';
  unsigned second = (unsigned)((unsigned char)text[1] | 0x20) - 'a';
  return first < 26 && second < 26 && (mm__keyword_pairs[len - 2][first] >> second & 1);
}

/* True when a token is an identifier (soft keywords included). */

#endif
