/* test_skim.c: the fast path for `name: annotation = value` (skim.h)
 * against the general parser. The fast path must never change the model:
 * every fixture dump, and several hundred copies of the real dump with a
 * tile statement edited at random (fixed seed, so a failure replays), give
 * byte-identical JSON (or the identical refusal) with and without it. It
 * must also be what reads a real dump: most tile statements go through it.
 * And on single statements: what it reads, and what it leaves alone. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "inputs.h"
#include "memory_map.h"
#include "model/collect.h"
#include "model/pipeline.h"
#include "syntax/fast/skim.h"
#include "syntax/parser.h"

#ifndef MM_FIXTURES_DIR
#error "MM_FIXTURES_DIR must name tests/fixtures"
#endif

static const char *real_dump =
    MM_FIXTURES_DIR "/corpus/real/decode_fwd__41_after_MaterializeRuntimeScopes.py";

/* The model's JSON, or the refusal's. */
static char *model_json(const char *input, size_t len, bool general_only, size_t *out_len) {
  mm_options options = {.dump_name = "32_after_AllocateMemoryAddr.py"};
  mm_error error;
  mm_model *model = mm__model_new_with(input, len, &options, &error, !general_only);
  char *json = model ? mm_model_to_json(model, out_len) : mm_error_to_json(&error, out_len);
  mm_model_free(model);
  mm_error_clear(&error);
  return json;
}

/* True when both ways give the same bytes; prints where they part. */
static bool same_model(const char *input, size_t len, const char *label) {
  size_t a = 0, b = 0;
  char *fast = model_json(input, len, false, &a);
  char *general = model_json(input, len, true, &b);
  bool same = fast && general && a == b && memcmp(fast, general, a) == 0;
  if (!same && fast && general) {
    size_t k = 0;
    while (k < a && k < b && fast[k] == general[k])
      k++;
    size_t from = k > 60 ? k - 60 : 0;
    fprintf(stderr, "%s: models differ at byte %zu\n  fast:    %.160s\n  general: %.160s\n", label,
            k, fast + from, general + from);
  }
  free(fast);
  free(general);
  return same;
}

/* --------------------------------------------------- every fixture dump */

static int compared;

static void compare_tree(const char *dir) {
  DIR *d = opendir(dir);
  CHECK(d != NULL);
  if (!d) return;
  struct dirent *entry;
  while ((entry = readdir(d))) {
    if (entry->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    size_t n = strlen(entry->d_name);
    if (S_ISDIR(st.st_mode)) {
      compare_tree(path);
    } else if (n > 3 && strcmp(entry->d_name + n - 3, ".py") == 0) {
      size_t len;
      char *input = read_whole(path, &len);
      CHECK(input != NULL);
      if (input) CHECK(same_model(input, len, path));
      free(input);
      compared++;
    }
  }
  closedir(d);
}

static void test_fixture_dumps(void) {
  compare_tree(MM_FIXTURES_DIR);
  CHECK(compared >= 50); /* the corpus, generated and hostile dumps */
}

/* ------------------------------------------------ edited tile statements */

/* Edits that move a statement to the edge of the fast path's subset:
 * brackets, operators, keywords, comments, strings, numbers, line ends. */
static const char *const edits[] = {
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "=",
    "==",
    ".",
    "-",
    "+",
    "*",
    "**",
    " ",
    "\n",
    "\n    ",
    "#c\n",
    "\\\n",
    "'",
    "\"s\"",
    "f'x'",
    "0",
    "07",
    "1.5",
    "1e3",
    "0x10",
    "1_0",
    "not ",
    " if ",
    " for ",
    "lambda:",
    ":=",
    "*a",
    "**k",
    "x=",
    "pl.",
    "Mem.",
    "DDR",
    "MemRef(",
    "const(",
    "Tile",
    "True",
    "\t",
    "\r",
    "\xC3\xA9",
    "9007199254740993",
    "[1,2]",
    "(1)",
    "pl.Mem.Vec, ",
    "pl.MemRef(m, 0, 4), ",
    "@",
    ";",
    "{",
    "}",
    "{a: 1}",
};

/* The starts of the lines holding `word` (every line when NULL). */
static size_t find_lines(const char *dump, size_t len, const char *word, size_t *lines) {
  size_t count = 0, n = word ? strlen(word) : 0;
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(dump + i, '\n', len - i);
    size_t end = nl ? (size_t)(nl - dump) : len;
    bool has = !word;
    for (size_t j = i; !has && j + n <= end; j++)
      has = memcmp(dump + j, word, n) == 0;
    if (has) lines[count++] = i;
    i = end + 1;
  }
  return count;
}

/* `rounds` copies of the dump, each with one to two edits in one of the
 * lines holding `word`, read both ways. */
static void test_edited_lines(const char *dump, size_t len, const char *word, int rounds,
                              uint64_t seed) {
  size_t *lines = malloc((len / 8 + 1) * sizeof *lines);
  size_t line_count = lines ? find_lines(dump, len, word, lines) : 0;
  CHECK(line_count > 40);
  char *copy = malloc(len + 4096);
  uint64_t state = seed;
  size_t edit_count = sizeof edits / sizeof edits[0];
  for (int round = 0; copy && line_count && round < rounds; round++) {
    size_t n = len;
    memcpy(copy, dump, len);
    size_t line = lines[next_random(&state) % line_count];
    const char *end = memchr(copy + line, '\n', n - line);
    size_t width = end ? (size_t)(end - (copy + line)) + 1 : n - line;
    for (int k = 1 + (int)(next_random(&state) % 2); k > 0; k--) {
      size_t at = line + next_random(&state) % width;
      if (next_random(&state) % 4)
        insert_bytes(copy, &n, at, edits[next_random(&state) % edit_count]);
      else
        delete_bytes(copy, &n, at, 1 + next_random(&state) % 3);
    }
    char label[96];
    snprintf(label, sizeof label, "edited line with '%s', round %d", word ? word : "", round);
    CHECK(same_model(copy, n, label));
  }
  free(copy);
  free(lines);
}

/* --------------------------------------------- the fast path is taken */

typedef struct counts {
  const char *src;
  mm_arena arena;
  mm_diag diag;
  size_t fast, general;
} counts;

static bool begin_all(void *context, const mm_node *name, mm_node *const *decorators,
                      size_t decorator_count, uint32_t first_line) {
  (void)context, (void)name, (void)decorators, (void)decorator_count, (void)first_line;
  return true;
}
/* Tile bindings by reader: the fast path's come read; the general
 * parser's statements are read here (its parameters are not counted). */
static void count_binding(void *context, const mm_binding_event *b) {
  counts *c = context;
  mm_tile_fields fields;
  if (b->tile)
    c->fast++;
  else if (b->annotation && !b->is_param &&
           mm__tile_from_annotation(c->src, b->annotation, false, &c->arena, &fields, &c->diag))
    c->general++;
}
static void ignore_call(void *context, const mm_node *target, const mm_node *call, uint32_t line) {
  (void)context, (void)target, (void)call, (void)line;
}
static void ignore_load(void *context, const mm_node *name) { (void)context, (void)name; }
static void ignore_statement(void *context, uint32_t line) { (void)context, (void)line; }
static void ignore_end(void *context, uint32_t last_line) { (void)context, (void)last_line; }

static void test_fast_path_taken(const char *dump, size_t len) {
  counts c;
  memset(&c, 0, sizeof c);
  c.src = dump;
  mm__arena_init(&c.arena);
  mm_parse_events events = {.context = &c,
                            .function_begin = begin_all,
                            .binding = count_binding,
                            .call_statement = ignore_call,
                            .statement = ignore_statement,
                            .load = ignore_load,
                            .function_end = ignore_end};
  mm_diag diag = {0}, lex_diag = {0};
  mm_lexer lexer;
  mm__lexer_init(&lexer, dump, 0, len, 1, false, true, &lex_diag);
  CHECK(mm__parse(dump, &lexer, &events, &diag, NULL));
  mm__lexer_free(&lexer);
  mm__arena_free(&c.arena);
  /* The real dump binds 1,010 tiles in statements; parameters and the few
   * statements outside the subset (tuples of targets) go the general way. */
  fprintf(stderr, "real dump: %zu tile bindings through the fast path, %zu the general way\n",
          c.fast, c.general);
  CHECK(c.fast >= 950);
  CHECK(c.fast + c.general >= 1010);
}

/* ------------------------------------------------- annotations read before */

/* Whether two readings of a statement say the same: fields and reads. */
static bool same_reading(bool ok_a, const mm_skim_statement *a, const mm_vec *loads_a, bool ok_b,
                         const mm_skim_statement *b, const mm_vec *loads_b) {
  if (ok_a != ok_b) return false;
  if (!ok_a) return true;
  bool same = a->name_start == b->name_start && a->name_len == b->name_len && a->line == b->line &&
              a->end_line == b->end_line && a->next == b->next && a->is_tile == b->is_tile &&
              a->op_start == b->op_start && a->op_len == b->op_len &&
              loads_a->len == loads_b->len &&
              memcmp(loads_a->items, loads_b->items, loads_a->len * sizeof(mm_skim_load)) == 0;
  if (same && a->is_tile)
    same = a->space_start == b->space_start && a->space_len == b->space_len &&
           a->base_start == b->base_start && a->base_len == b->base_len && a->offset == b->offset &&
           a->size == b->size && a->shape_len == b->shape_len &&
           memcmp(a->shape, b->shape, a->shape_len * sizeof a->shape[0]) == 0 &&
           a->dtype_len == b->dtype_len && (!a->dtype_len || a->dtype_start == b->dtype_start);
  return same;
}

/* Every line of `text` read as an annotated statement with a memo and
 * without: the same readings; returns how many were accepted. */
static size_t read_lines_both_ways(const char *text, size_t len) {
  mm_skim_memo *memo = mm__skim_memo_new();
  CHECK(memo != NULL);
  mm_vec with, without;
  mm__vec_init(&with, sizeof(mm_skim_load));
  mm__vec_init(&without, sizeof(mm_skim_load));
  size_t accepted = 0;
  uint32_t line = 1;
  for (size_t at = 0; at < len; line++) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t next = nl ? (size_t)(nl - text) + 1 : len, first = at;
    while (first < next && text[first] == ' ')
      first++;
    mm_skim_statement a, b;
    bool ok_a = mm__skim_annotated(text, first, len, line, &with, memo, &a);
    bool ok_b = mm__skim_annotated(text, first, len, line, &without, NULL, &b);
    bool same = same_reading(ok_a, &a, &with, ok_b, &b, &without);
    if (!same) fprintf(stderr, "line %u read differently with the memo\n", (unsigned)line);
    CHECK(same);
    accepted += ok_a;
    at = next;
  }
  mm__vec_free(&with);
  mm__vec_free(&without);
  mm__skim_memo_free(memo);
  return accepted;
}

/* Lines `name: annotation = value` on one line whose value is no call
 * of reserved windows or allocations (those go the general way): the
 * fast path's. */
static size_t one_line_annotated(const char *text, size_t len) {
  size_t count = 0;
  char line[4096];
  for (size_t at = 0; at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t next = nl ? (size_t)(nl - text) + 1 : len, n = next - at < sizeof line ? next - at : 0;
    memcpy(line, text + at, n);
    line[n] = 0;
    at = next;
    const char *s = line + strspn(line, " ");
    size_t name = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
    if (name && s[name] == ':' && s[name + 1] == ' ' && strstr(s, " = ") &&
        !strstr(s, "reserve_buffer(") && !strstr(s, "import_peer_buffer(") && !strstr(s, ".alloc("))
      count++;
  }
  return count;
}

static void test_memo(const char *dump, size_t len) {
  CHECK(read_lines_both_ways(dump, len) == one_line_annotated(dump, len));
  /* The same annotation again, then followed by what must not take it. */
  static const char lines[] =
      "a: pl.Tile[[16, 256], pl.BF16, pl.MemRef(m, pl.const(0, pl.INT64), 8192), pl.Mem.Vec] = "
      "f(a)\n"
      "b: pl.Tile[[16, 256], pl.BF16, pl.MemRef(m, pl.const(0, pl.INT64), 8192), pl.Mem.Vec] = "
      "g(b)\n"
      "c: pl.Tile[[16, 256], pl.BF16, pl.MemRef(m, pl.const(0, pl.INT64), 8192), pl.Mem.Vec] == h\n"
      "d: pl.Tile[[16, 256], pl.BF16, pl.MemRef(m, pl.const(0, pl.INT64), 8192), pl.Mem.Vec]= h\n"
      "e: pl.Tile[[16, 256], pl.BF16, pl.MemRef(m, pl.const(0, pl.INT64), 8192), pl.Mem.Vecx] = h\n"
      "f: pl.Tile[[16, 256], pl.BF16, pl.MemRef(m, pl.const(0, pl.INT64), 8192), pl.Mem.Vec]\n"
      "g: pl.Scalar[pl.INDEX] = 1\n"
      "h: pl.Scalar[pl.INDEX] = i\n"
      "i: pl.Scalar[pl.INDEX] += 1\n"
      "i2: pl.Scalar[pl.INDEX] + 1 = 2\n" /* the same bytes, then more annotation */
      "c2: pl.Tile[[16, 256], pl.BF16, pl.MemRef(m, pl.const(0, pl.INT64), 8192), pl.Mem.Vec] == h "
      "= 1\n"
      "j: pl.Scalar[pl.INDEX]\n= 1\n"
      "k: pl.Tensor[[4], pl.FP32, pl.MemRef(\"mem_ddr_0\", pl.const(0, pl.INT64), 16)] = x\n"
      "l: pl.Tensor[[4], pl.FP32, pl.MemRef(\"mem_ddr_0\", pl.const(0, pl.INT64), 16)] = y\n"
      "m: pl.Tile[[4], pl.FP32, pl.MemRef(n, pl.const(0, pl.INT64), 16), pl.Mem.Vec] = x\n"
      "n: pl.Tile[[4], pl.FP32, pl.MemRef(n, pl.const(0, pl.INT64), 16), pl.Mem.Vec] = y\n";
  CHECK(read_lines_both_ways(lines, sizeof lines - 1) >= 7);
}

/* ----------------------------------------------------- single statements */

typedef struct skimmed {
  bool ok;
  mm_skim_statement st;
  char loads[512];
} skimmed;

/* Skims `text` (one statement and its '\n'); the reads as "a b c". */
static skimmed skim(const char *text) {
  skimmed r;
  memset(&r, 0, sizeof r);
  mm_vec loads;
  mm__vec_init(&loads, sizeof(mm_skim_load));
  r.ok = mm__skim_annotated(text, 0, strlen(text), 7, &loads, NULL, &r.st);
  const mm_skim_load *l = loads.items;
  for (size_t i = 0; i < loads.len; i++) {
    size_t used = strlen(r.loads);
    snprintf(r.loads + used, sizeof r.loads - used, "%s%.*s", i ? " " : "", (int)l[i].len,
             text + l[i].start);
  }
  mm__vec_free(&loads);
  return r;
}

static bool span_is(const char *text, uint32_t start, uint32_t len, const char *want) {
  return strlen(want) == len && memcmp(text + start, want, len) == 0;
}

static void test_single_statements(void) {
  const char *tile =
      "t__tile: pl.Tile[[16, 256], pl.BF16, pl.MemRef(mem_vec_2, pl.const(8192, "
      "pl.INT64), 16384), pl.Mem.Vec] = pl.tile.load(x, [a, 0], target_memory=pl.Mem."
      "Vec, transpose=False)\nnext = 1\n";
  skimmed r = skim(tile);
  CHECK(r.ok && r.st.is_tile);
  CHECK(span_is(tile, r.st.name_start, r.st.name_len, "t__tile"));
  CHECK(span_is(tile, r.st.space_start, r.st.space_len, "Vec"));
  CHECK(span_is(tile, r.st.base_start, r.st.base_len, "mem_vec_2"));
  CHECK(r.st.offset == 8192 && r.st.size == 16384);
  CHECK(r.st.shape_len == 2 && r.st.shape[0] == 16 && r.st.shape[1] == 256);
  CHECK(span_is(tile, r.st.dtype_start, r.st.dtype_len, "BF16"));
  CHECK(span_is(tile, r.st.op_start, r.st.op_len, "tile.load"));
  CHECK(r.st.line == 7 && r.st.end_line == 7);
  CHECK(tile[r.st.next] == 'n'); /* resumes on the next line */
  /* Reads: every name in load position; not the target, attribute names or
   * keyword-argument names. */
  CHECK(strcmp(r.loads, "pl pl pl mem_vec_2 pl pl pl pl x a pl") == 0);

  /* The printed form with an element after the space, and the same tile
   * spaced otherwise (read through the summaries): the same fields. */
  static const char *const printed[] = {
      "a: pl.Tile[[16, 1], pl.FP32, pl.MemRef(mem_vec_1, pl.const(64, pl.INT64), 64), pl.Mem.Vec, "
      "pl.TileView(valid_shape=[16, 1])] = f(x)\n",
      "a: pl.Tile[ [16,1] , pl.FP32 , pl.MemRef( mem_vec_1 , pl.const( 64 , pl.INT64 ) , 64 ) , "
      "pl.Mem.Vec , pl.TileView( valid_shape = [16, 1] ) ] = f( x )\n",
  };
  for (size_t i = 0; i < 2; i++) {
    const char *text = printed[i];
    r = skim(text);
    CHECK(r.ok && r.st.is_tile && r.st.offset == 64 && r.st.size == 64 && r.st.shape_len == 2 &&
          r.st.shape[0] == 16 && r.st.shape[1] == 1);
    CHECK(span_is(text, r.st.base_start, r.st.base_len, "mem_vec_1"));
    CHECK(span_is(text, r.st.space_start, r.st.space_len, "Vec"));
    CHECK(span_is(text, r.st.dtype_start, r.st.dtype_len, "FP32"));
    CHECK(strcmp(r.loads, "pl pl pl mem_vec_1 pl pl pl pl f x") == 0);
  }
  /* Printed, then more of the expression: not a subscript, no tile. */
  r = skim("a: pl.Tile[[4], pl.FP32, pl.MemRef(m, pl.const(0, pl.INT64), 4), pl.Mem.Vec].x = 1\n");
  CHECK(r.ok && !r.st.is_tile);

  /* Across lines inside brackets, a string base, a negative offset, DDR. */
  r = skim("a: pl.Tile[[4],\n  pl.FP32,\n  pl.MemRef('m', -64, 256), pl.Mem.Mat] = f(\n b)\n");
  CHECK(r.ok && r.st.is_tile && r.st.offset == -64 && r.st.end_line == 10);
  r = skim("a: pl.Tile[[4], pl.FP32, pl.MemRef(\"m\", 0, 256), pl.Mem.DDR] = f(b)\n");
  CHECK(r.ok && !r.st.is_tile);
  r = skim("n: pl.Scalar[pl.INDEX] = i * 256 + (j - 1)\n");
  CHECK(r.ok && !r.st.is_tile && strcmp(r.loads, "pl pl i j") == 0);

  /* Left to the general parser: outside the subset, or where parentheses
   * or a deeper MemRef would decide a tile field. */
  static const char *const general[] = {
      "a: int\n",                        /* no value */
      "a: int = f(1,  # comment\n 2)\n", /* comment inside brackets */
      "a: int = 1  # comment\r b\n",     /* a lone CR ends the comment's line */
      "a: int = (b := 1)\n",             /* walrus */
      "a: int = x[1:2]\n",               /* slice */
      "a: int = f(*b)\n",                /* star */
      "a: int = f(k=1, b)\n",            /* positional after keyword */
      "a: int = b if c else d\n",        /* keyword */
      "a: int = f'x'\n",                 /* string prefix */
      "a: int = 'a\\n'\n",               /* escape */
      "a: int = 1; b = 2\n",             /* two statements */
      "a: int = 1 \\\n + 2\n",           /* continuation */
      "a: int = 010\n",                  /* leading zero */
      "a: int = 1\r\n",                  /* CRLF */
      "a, b: int = 1\n",                 /* not a name target */
      "match: int = 1\n",                /* soft keyword */
      "a: int = 1",                      /* no line end */
      "a: pl.Tile[[4], pl.FP32, pl.MemRef(m, (0), 4), pl.Mem.Vec] = f()\n",  /* parentheses */
      "a: pl.Tile[[4], pl.FP32, f(pl.MemRef(m, 0, 4)), pl.Mem.Vec] = f()\n", /* MemRef deeper */
      "a: pl.Tile[[4], pl.FP32, pl.MemRef(m, 0, 4), x.y.Mem.Vec.z] = f()\n", /* space deeper */
      "a: pl.Tile[[4], pl.FP32, pl.MemRef(m, 0, 9007199254740993), pl.Mem.Vec] = f()\n", /* 2^53 */
      "a: pl.Tile[[4]] = f()\n",                                   /* one element: no tuple */
      "a: pl.x.Tile[[4], pl.MemRef(m, 0, 4), pl.Mem.Vec] = f()\n", /* three-part Tile */
      /* a reserved window's call: its arguments are read the general way */
      "r: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='r', size=64, base=0)\n",
      "r: int = (pl.system).import_peer_buffer(name='r', peer_func='p')\n",
  };
  for (size_t i = 0; i < sizeof general / sizeof general[0]; i++) {
    r = skim(general[i]);
    if (r.ok) fprintf(stderr, "skimmed, should not be: %s", general[i]);
    CHECK(!r.ok);
    CHECK(r.loads[0] == 0); /* nothing read when refused */
  }
}

typedef bool (*skim_fn)(const char *, size_t, size_t, uint32_t, mm_vec *, mm_skim_statement *);

static bool params_skim(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                        mm_skim_statement *out) {
  mm_vec params;
  mm__vec_init(&params, sizeof(mm_skim_statement));
  bool ok = mm__skim_parameters(src, start, end, line, loads, &params, out);
  mm__vec_free(&params);
  return ok;
}

/* Whether `skim` takes `text`, and its reads as "a b c" in `reads`. */
static bool takes(skim_fn read, const char *text, char *reads, size_t size) {
  mm_vec loads;
  mm__vec_init(&loads, sizeof(mm_skim_load));
  mm_skim_statement st;
  bool ok = read(text, 0, strlen(text), 1, &loads, &st);
  reads[0] = 0;
  const mm_skim_load *l = loads.items;
  for (size_t i = 0; i < loads.len; i++) {
    size_t used = strlen(reads);
    snprintf(reads + used, size - used, "%s%.*s", i ? " " : "", (int)l[i].len, text + l[i].start);
  }
  mm__vec_free(&loads);
  return ok && text[st.next - 1] == '\n';
}

/* The fast path's keyword look-up lets every keyword through. */
static void test_keywords_seen(void) {
  static const char *const keywords[] = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
    const char *w = keywords[i];
    CHECK(mm__maybe_keyword(w, strlen(w)) && mm__keyword_kind(w, strlen(w)) != TK_NAME);
    char line[64];
    snprintf(line, sizeof line, "x: int = %s\n", w); /* a keyword is never a read */
    CHECK(!skim(line).ok || i < 3);
  }
  static const char *const names[] = {"const", "pl", "tile", "Tile", "array", "alloc", "Right"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    CHECK(!mm__maybe_keyword(names[i], strlen(names[i]))); /* no look-up */
}

static void test_other_statements(void) {
  char reads[256];
  CHECK(takes(mm__skim_simple, "a, b = pl.yield_(x, y.z)\n", reads, sizeof reads));
  CHECK(strcmp(reads, "pl x y") == 0); /* targets are not reads */
  CHECK(takes(mm__skim_simple, "pl.tensor.write(t, [i, 0], pl.cast(i + 32, pl.INT32))\n", reads,
              sizeof reads));
  CHECK(strcmp(reads, "pl t i pl i pl") == 0);
  CHECK(takes(mm__skim_simple, "return a, b\n", reads, sizeof reads) && !strcmp(reads, "a b"));
  CHECK(takes(mm__skim_simple, "return\n", reads, sizeof reads) && !reads[0]);
  /* A reserved window's call, in any form: the general way. */
  static const char *const windows[] = {
      "pl.system.aiv_initialize_pipe(r, dir_mask=3, slot_size=8192)\n",
      "b = pl.system.reserve_buffer(name='b', size=64, base=0)\n",
      "b = (pl.system.reserve_buffer(name='b', size=64, base=0))\n",
      "b = (pl.system).reserve_buffer(name='b', size=64, base=0)\n",
      "b = (\n    pl.system.reserve_buffer(name='b', size=64, base=0))\n",
      "b = x.import_peer_buffer(name='b', peer_func='p')\n",
  };
  for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++)
    CHECK(!takes(mm__skim_simple, windows[i], reads, sizeof reads));
  CHECK(takes(mm__skim_simple, "b = reserve_buffers(x)\n", reads, sizeof reads));
  /* A comment after a statement ends with its line. */
  CHECK(takes(mm__skim_simple, "return a  # b, c\n", reads, sizeof reads) && !strcmp(reads, "a"));
  skimmed r = skim("a: pl.Tile[[4], pl.FP32, pl.MemRef(m, pl.const(0, pl.INT64), 4), pl.Mem.Vec] = "
                   "f(x)  # note: y\nb = 1\n");
  CHECK(r.ok && r.st.is_tile && r.st.end_line == 7 &&
        strcmp(r.loads, "pl pl pl m pl pl pl f x") == 0);
  CHECK(takes(mm__skim_for_header, "for i, (c,) in pl.range(20, init_values=(c0,)):\n  x = 1\n",
              reads, sizeof reads));
  CHECK(strcmp(reads, "pl c0") == 0);
  CHECK(takes(params_skim,
              "(self, x: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INDEX]) -> "
              "pl.Tensor[[16], pl.FP32]:\n",
              reads, sizeof reads));
  CHECK(strcmp(reads, "pl pl pl pl pl pl") == 0);
  /* Dict displays, as in a call's `attrs=`: keys and values are reads. */
  CHECK(takes(mm__skim_simple, "f(a, attrs={\"k\": [pl.x, b], c: {}, 1: d,})\n", reads,
              sizeof reads));
  CHECK(strcmp(reads, "f a pl b c d") == 0);
  CHECK(takes(mm__skim_simple, "x = {}\n", reads, sizeof reads) && !reads[0]);
  static const struct {
    skim_fn skim;
    const char *text;
  } general[] = {
      {mm__skim_simple, "a = b = c\n"},
      {mm__skim_simple, "a += 1\n"},
      {mm__skim_simple, "a.b = 1\n"},
      {mm__skim_simple, "a[0] = 1\n"},
      {mm__skim_simple, "del a\n"},
      {mm__skim_simple, "a = yield b\n"},
      {mm__skim_simple, "return a, (b  # c\n)\n"},
      {mm__skim_simple, "pass\n"},
      {mm__skim_simple, "f(x for x in y)\n"},
      {mm__skim_simple, "f(a=1, b)\n"},
      {mm__skim_simple, "f({a, b})\n"},    /* a set */
      {mm__skim_simple, "f({a})\n"},       /* a set */
      {mm__skim_simple, "f({a: b, c})\n"}, /* neither */
      {mm__skim_simple, "f({a: })\n"},     /* no value */
      {mm__skim_simple, "f({a: b: c})\n"}, /* two colons */
      {mm__skim_simple, "f({**a})\n"},     /* unpacking */
      {mm__skim_simple, "f({a: b for a in c})\n"},
      {mm__skim_simple, "f({a := 1})\n"},
      {mm__skim_simple, "f({a: b)\n"},
      {mm__skim_simple, "f([a: b])\n"},
      {mm__skim_for_header, "for x in y: z\n"},
      {mm__skim_for_header, "for x.a in y:\n"},
      {mm__skim_for_header, "for x in y if z:\n"},
      {params_skim, "(a=1):\n"},
      {params_skim, "(*a):\n"},
      {params_skim, "(a, /):\n"},
      {params_skim, "(a: (int)) -> x: y\n"},
      {params_skim, "(a: int,  # c\n b: int):\n"},
  };
  for (size_t i = 0; i < sizeof general / sizeof general[0]; i++) {
    bool taken = takes(general[i].skim, general[i].text, reads, sizeof reads);
    if (taken) fprintf(stderr, "skimmed, should not be: %s", general[i].text);
    CHECK(!taken && !reads[0]);
  }
}

/* Under the sanitizers (-O1) every copy costs some 8 times as much: a
 * fifth of the edited copies there; the release build reads them all. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EDITED_SHARE 5
#endif
#endif
#ifndef EDITED_SHARE
#define EDITED_SHARE 1
#endif

int main(void) {
  size_t len;
  char *dump = read_whole(real_dump, &len);
  CHECK(dump != NULL);
  test_single_statements();
  test_keywords_seen();
  test_other_statements();
  test_fixture_dumps();
  if (dump) {
    test_memo(dump, len);
    test_fast_path_taken(dump, len);
    const int share = EDITED_SHARE;
    test_edited_lines(dump, len, "pl.Tile[", 300 / share, 0x5EEDu); /* tile statements */
    test_edited_lines(dump, len, "def ", 60 / share, 0xDEFu);       /* parameter lists */
    test_edited_lines(dump, len, "for ", 60 / share, 0xF0Fu);       /* for headers */
    test_edited_lines(dump, len, "attrs={", 60 / share, 0xD1Cu);    /* dict displays */
    test_edited_lines(dump, len, NULL, 120 / share, 0xA11u);        /* any line */
  }
  free(dump);
  return check_report("test_skim");
}
