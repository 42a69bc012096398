/* test_lexer_runs.c: the lexer's token runs (lex_run) against its general
 * step, token for token. The runs are a fast path for the common tokens and
 * must make exactly what the step makes: same tokens, same line starts,
 * same error at the same place. Inputs: the real corpus dump, a line of
 * every token shape the runs hand back to the step, and a few hundred
 * windows of the real dump with bytes inserted or deleted at random (fixed
 * seed, so a failure can be replayed). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "inputs.h"
#include "syntax/lexer.h"

#ifndef MM_FIXTURES_DIR
#error "MM_FIXTURES_DIR must name tests/fixtures"
#endif

static const char *real_dump =
    MM_FIXTURES_DIR "/corpus/real/decode_fwd__41_after_MaterializeRuntimeScopes.py";

/* Token shapes at the edges of the runs: floats, bases, underscores,
 * leading zeros, string prefixes, non-ASCII names, brackets, operators of
 * every length, continuations, comments and line ends of every kind. */
static const char *edge_shapes =
    "x = .5 + 1. + 1e5 + 1E-3 + 5j + 0x1f + 0o7 + 0b1 + 1_000 + 00 + 0 + 01 + 1if 2else 3\n"
    "y = r'a' + b\"b\" + f'{x}' + u'u' + rb'c' + Rb'd' + br'e' + 'plain' + \"\"\"t\"\"\"\n"
    "\xC3\xA9t\xC3\xA9 = x\xE2\x82\xAC + caf\xC3\xA9 + \xE2\x82\xAC\n"
    "z = a[b](c){d} ... -> := ** //= >>= <<= != == <= >= ** *= @= %= &= |= ^= ~ ! $ ?\n"
    "w = (1,\n  2,\r\n  3,\r  4) \\\n + 5 # comment\n"
    "\tv = 1\f\n  ] ) }\n"
    "def f(a, *, b=1, **c): return a\n";

typedef struct lexed_run {
  mm_token *tokens;
  size_t count;
  uint32_t *lines;
  size_t line_count;
  mm_diag diag;
} lexed_run;

/* Lexes input[0, len) whole, in runs or (steps_only) step by step. */
static void lex_all(const char *input, size_t len, bool steps_only, lexed_run *out) {
  memset(out, 0, sizeof *out);
  mm_lexer lx;
  mm__lexer_init(&lx, input, 0, len, 1, false, true, &out->diag);
  lx.steps_only = steps_only;
  mm__lexer_fill(&lx, SIZE_MAX);
  out->count = lx.count;
  out->tokens = malloc((lx.count ? lx.count : 1) * sizeof *out->tokens);
  for (size_t i = 0; out->tokens && i < lx.count; i++)
    out->tokens[i] = *mm__lexer_at(&lx, i);
  out->line_count = lx.lines.len;
  out->lines = malloc((lx.lines.len ? lx.lines.len : 1) * sizeof *out->lines);
  if (out->lines && lx.lines.len)
    memcpy(out->lines, lx.lines.items, lx.lines.len * sizeof(uint32_t));
  mm__lexer_free(&lx);
}

static void lexed_run_free(lexed_run *r) {
  free(r->tokens);
  free(r->lines);
}

static bool same_token(const mm_token *a, const mm_token *b) {
  return a->start == b->start && a->len == b->len && a->line == b->line &&
         a->end_line == b->end_line && a->kind == b->kind && a->op == b->op && a->flags == b->flags;
}

/* The first difference between the two ways of lexing `input`, printed;
 * true when there is none. */
static bool runs_match_steps(const char *input, size_t len, const char *label) {
  lexed_run runs, steps;
  lex_all(input, len, false, &runs);
  lex_all(input, len, true, &steps);
  bool same = runs.tokens && steps.tokens && runs.lines && steps.lines;
  if (same && (runs.count != steps.count || runs.line_count != steps.line_count)) {
    fprintf(stderr, "%s: %zu tokens and %zu lines in runs, %zu and %zu in steps\n", label,
            runs.count, runs.line_count, steps.count, steps.line_count);
    same = false;
  }
  for (size_t i = 0; same && i < runs.count; i++)
    if (!same_token(&runs.tokens[i], &steps.tokens[i])) {
      fprintf(stderr, "%s: token %zu differs (line %u, byte %u in runs; line %u, byte %u)\n", label,
              i, runs.tokens[i].line, runs.tokens[i].start, steps.tokens[i].line,
              steps.tokens[i].start);
      same = false;
    }
  if (same && runs.line_count && memcmp(runs.lines, steps.lines, runs.line_count * 4) != 0) {
    fprintf(stderr, "%s: line starts differ\n", label);
    same = false;
  }
  const char *m1 = runs.diag.message, *m2 = steps.diag.message;
  if (same && (runs.diag.status != steps.diag.status || runs.diag.line != steps.diag.line ||
               strcmp(m1, m2) != 0)) {
    fprintf(stderr, "%s: error \"%s\" (line %u) in runs, \"%s\" (line %u) in steps\n", label, m1,
            runs.diag.line, m2, steps.diag.line);
    same = false;
  }
  lexed_run_free(&runs);
  lexed_run_free(&steps);
  return same;
}

static void test_real_dump(const char *dump, size_t len) {
  CHECK(runs_match_steps(dump, len, "real dump"));
}

static void test_edge_shapes(void) {
  CHECK(runs_match_steps(edge_shapes, strlen(edge_shapes), "edge shapes"));
  /* Each line alone too: an error on one line hides the lines after it. */
  const char *line = edge_shapes;
  while (*line) {
    const char *next = strchr(line, '\n');
    size_t n = next ? (size_t)(next - line) + 1 : strlen(line);
    CHECK(runs_match_steps(line, n, "edge shape line"));
    line += n;
  }
}

/* Windows of the real dump from a line start, each with one to three
 * random edits: a snippet inserted, a few bytes deleted. */
static void test_mutated_windows(const char *dump, size_t len) {
  static const char *snippets[] = {"(",   ")",           "[",      "]",   "{",        "}",  ",",
                                   ":",   "=",           "==",     ".",   "...",      ".5", "5.",
                                   "0x",  "01",          "1e",     "1_",  "5j",       "'",  "\"",
                                   "'''", "f'",          "rb'",    "\\",  "\\\n",     "\t", "\f",
                                   "#",   ";",           "@",      "->",  ":=",       "!",  "$",
                                   "\r",  "\n",          "\n  ",   " ",   "\xC3\xA9", "if", "not",
                                   "is",  "in",          "lambda", "and", "None",     "u'", "0",
                                   "00",  "\xE2\x82\xAC"};
  const size_t snippet_count = sizeof snippets / sizeof *snippets;
  const size_t window = 6000;
  uint64_t state = 0x9E3779B97F4A7C15ull;
  char *buf = malloc(window + 64);
  int mismatches = 0;
  for (int round = 0; buf && round < 400 && mismatches < 5; round++) {
    size_t from = next_random(&state) % (len > window ? len - window : 1);
    while (from > 0 && dump[from - 1] != '\n')
      from--;
    size_t n = len - from < window ? len - from : window;
    memcpy(buf, dump + from, n);
    for (int edits = 1 + (int)(next_random(&state) % 3); edits > 0; edits--) {
      size_t at = next_random(&state) % (n + 1);
      if (next_random(&state) % 3)
        insert_bytes(buf, &n, at, snippets[next_random(&state) % snippet_count]);
      else
        delete_bytes(buf, &n, at, 1 + next_random(&state) % 4);
    }
    char label[64];
    snprintf(label, sizeof label, "mutated window %d", round);
    if (!runs_match_steps(buf, n, label)) mismatches++;
  }
  CHECK(buf != NULL);
  CHECK(mismatches == 0);
  free(buf);
}

int main(void) {
  size_t len = 0;
  char *dump = read_whole(real_dump, &len);
  CHECK(dump != NULL && len > 100000);
  if (dump) {
    test_real_dump(dump, len);
    test_mutated_windows(dump, len);
  }
  test_edge_shapes();
  free(dump);
  return check_report("test_lexer_runs");
}
