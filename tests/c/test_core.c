/* test_core.c: C-level tests of the core's pieces and public API, run by
 * tests/core/c.test.mjs in the release and the ASan+UBSan builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/bytes.h"
#include "base/diag.h"
#include "base/names.h"
#include "check.h"
#include "inputs.h"
#include "memory_map.h"
#include "syntax/lexer.h"
#include "syntax/text_check.h"

static const char *tile_dump =
    "class P:\n"
    "    @pl.function(type=pl.FunctionType.AIV)\n"
    "    def k(self):\n"
    "        t: pl.Tile[[4], pl.FP32, pl.MemRef(m, 0, 64), pl.Mem.Vec] = f(\"</script>\\u2028\")\n"
    "        return t  # </script> \xE2\x80\xA8 <!--\n";

static void test_lexer_lines(void) {
  const char *src = "a = 1\r\nb = (\r2)\nc = '''x\ny'''\n";
  mm_diag diag = {0};
  mm_lexed lexed;
  CHECK(mm__lex(src, 0, strlen(src), 1, false, true, &lexed, &diag));
  CHECK(lexed.line_count == 6); /* five line ends, then the empty last line */
  CHECK(lexed.line_starts[1] == 7 && lexed.line_starts[2] == 13);
  int names = 0;
  for (size_t i = 0; i < lexed.count; i++) {
    const mm_token *t = &lexed.tokens[i];
    if (t->kind == TK_NAME) names++;
    if (t->kind == TK_NUMBER && src[t->start] == '2') CHECK(t->line == 3);
    if (t->kind == TK_STRING) CHECK(t->line == 4 && t->end_line == 5);
  }
  CHECK(names == 3);
  mm__lexed_free(&lexed);
}

/* Every keyword, in the order of the token kinds, and words that only look
 * like one: the lexer's first-letter filter must keep them apart. */
static void test_lexer_keywords(void) {
  const char *src = "False None True and as assert async await break class continue def del "
                    "elif else except finally for from global if import in is lambda nonlocal "
                    "not or pass raise return try while with yield "
                    "pl tile IF none true Pass fors nonlocals _if y";
  mm_diag diag = {0};
  mm_lexed lexed;
  CHECK(mm__lex(src, 0, strlen(src), 1, false, false, &lexed, &diag));
  int keywords = TK_KW_YIELD - TK_KW_FALSE + 1, names = 0;
  CHECK(lexed.count > (size_t)keywords);
  for (int i = 0; i < keywords && (size_t)i < lexed.count; i++)
    CHECK(lexed.tokens[i].kind == TK_KW_FALSE + i);
  for (size_t i = (size_t)keywords; i < lexed.count; i++)
    names += lexed.tokens[i].kind == TK_NAME;
  CHECK(names == 10);
  mm__lexed_free(&lexed);
}

static void test_lexer_errors(void) {
  static const struct {
    const char *src;
    uint32_t line;
    const char *message;
  } cases[] = {
      {"x = 'abc\n", 1, "unterminated string literal"},
      {"x = 1\ny = (\n\n", 2, "'(' was never closed"},
      {"if x:\n        a\n    b\n", 3, "unindent does not match"},
      {"x = 0777\n", 1, "leading zeros"},
      {"x = $\n", 1, "invalid syntax"}, /* CPython's parser refuses '$', not its tokenizer */
      {"x = \xe2\x82\xac\n", 1, "invalid character '\xe2\x82\xac' (U+20AC)"},
      {"x = 1 \\ y\n", 1, "unexpected character after line continuation"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mm_diag diag = {0};
    mm_lexed lexed;
    CHECK(!mm__lex(cases[i].src, 0, strlen(cases[i].src), 1, false, false, &lexed, &diag));
    CHECK(diag.status == MM_ERR_SYNTAX && diag.line == cases[i].line);
    CHECK(strstr(diag.message, cases[i].message) != NULL);
    CHECK(lexed.count && lexed.tokens[lexed.count - 1].kind == TK_END);
    mm__lexed_free(&lexed);
  }
}

static void test_text_checks(void) {
  mm_diag diag = {0};
  CHECK(!mm__check_text("a\nb\n\xC3(\n", 7, &diag));
  CHECK(diag.status == MM_ERR_ENCODING && diag.line == 3);
  mm_diag nul = {0};
  CHECK(!mm__check_text("a\n\0", 3, &nul) && nul.line == 2 && strstr(nul.message, "null bytes"));
  mm_diag utf16 = {0};
  CHECK(!mm__check_text("\xFF\xFE"
                        "a\0",
                        4, &utf16) &&
        strstr(utf16.message, "UTF-16"));
  mm_diag overlong = {0};
  CHECK(!mm__check_text("\xC0\xAF", 2, &overlong));
  mm_diag fine = {0};
  CHECK(mm__check_text("\xEF\xBB\xBFok \xE2\x9C\x93\n", 10, &fine));
  /* A NUL, a stray continuation byte or a valid letter at every offset of
   * a 300-byte text (lines of 10): found, on its line, wherever it falls
   * in the scan's 64- and 8-byte steps. */
  char text[300];
  for (size_t at = 0; at < sizeof text; at++) {
    for (size_t i = 0; i < sizeof text; i++)
      text[i] = i % 10 == 9 ? '\n' : 'a';
    uint32_t line = (uint32_t)(at / 10 + 1);
    mm_diag d1 = {0}, d2 = {0}, d3 = {0};
    text[at] = 0;
    CHECK(!mm__check_text(text, sizeof text, &d1) && d1.line == line && strstr(d1.message, "null"));
    text[at] = (char)0x80;
    CHECK(!mm__check_text(text, sizeof text, &d2) && d2.status == MM_ERR_ENCODING &&
          d2.line == line);
    if (at + 1 < sizeof text) {
      text[at] = (char)0xC3, text[at + 1] = (char)0xA9; /* é */
      CHECK(mm__check_text(text, sizeof text, &d3));
    }
  }
}

static const mm_options d_py = {.dump_name = "d.py"};

static void test_json_cannot_end_a_script(void) {
  size_t len = 0;
  char *json = mm_analyze_json(tile_dump, strlen(tile_dump), &d_py, 0, &len);
  CHECK(json && len == strlen(json));
  CHECK(json && strstr(json, "</script>") == NULL && strstr(json, "<!--") == NULL);
  CHECK(json && strstr(json, "\\u003c/script\\u003e") != NULL);
  CHECK(json && strstr(json, "\xE2\x80\xA8") == NULL && strstr(json, "\\u2028") != NULL);
  mm_free(json);
}

/* Escapes found wherever they fall against the writer's eight-byte steps:
 * every offset of a special byte in a line, and a short tail. */
static void test_json_escapes_at_every_offset(void) {
  for (int at = 0; at < 17; at++) {
    char dump[512];
    snprintf(dump, sizeof dump,
             "class P:\n"
             "    @pl.function(type=pl.FunctionType.AIV)\n"
             "    def k(self):\n"
             "        t: pl.Tile[[4], pl.FP32, pl.MemRef(m, 0, 64), pl.Mem.Vec] = f()\n"
             "        return t  # %.*s<%.*s\xE2\x80\xA9\n",
             at, "abcdefghijklmnopq", 16 - at, "rstuvwxyzABCDEFG");
    size_t len = 0;
    char *json = mm_analyze_json(dump, strlen(dump), &d_py, 0, &len);
    char want[128];
    snprintf(want, sizeof want, "# %.*s\\u003c%.*s\\u2029\"", at, "abcdefghijklmnopq", 16 - at,
             "rstuvwxyzABCDEFG");
    CHECK(json && strstr(json, want) != NULL);
    mm_free(json);
  }
}

/* What a streaming sink was given: the pieces joined, how many, and
 * after how many it refuses the next (0: never). */
typedef struct sink_record {
  mm_buf joined;
  size_t pieces, refuse_after;
} sink_record;

static bool record_piece(void *context, const char *data, size_t len) {
  sink_record *r = context;
  if (r->refuse_after && r->pieces == r->refuse_after) return false;
  r->pieces++;
  mm__buf_append(&r->joined, data, len);
  return !r->joined.failed;
}

/* mm_model_new_borrowing's model writes what mm_model_new's does, and
 * mm_model_write_json streams the very bytes mm_model_to_json_with
 * returns, the split forms' offsets included, in pieces; a refusing sink
 * stops it. The real 480 KB dump's JSON takes several pieces. */
static void test_json_streamed(void) {
  size_t len = 0;
  char *input = read_whole(
      MM_FIXTURES_DIR "/corpus/real/decode_fwd__41_after_MaterializeRuntimeScopes.py", &len);
  mm_error error;
  mm_model *model = input ? mm_model_new(input, len, &d_py, &error) : NULL;
  CHECK(model != NULL);
  /* A model that reads its source lines from the input writes the same. */
  mm_model *borrowing = input ? mm_model_new_borrowing(input, len, &d_py, &error) : NULL;
  size_t copied_len = 0, borrowed_len = 0;
  char *copied = model ? mm_model_to_json(model, &copied_len) : NULL;
  char *borrowed = borrowing ? mm_model_to_json(borrowing, &borrowed_len) : NULL;
  CHECK(copied && borrowed && copied_len == borrowed_len &&
        memcmp(copied, borrowed, copied_len) == 0);
  mm_free(copied);
  mm_free(borrowed);
  mm_model_free(borrowing);
  free(input);
  for (unsigned flags = 0; model && flags < 8; flags++) {
    size_t json_len = 0;
    char *json = mm_model_to_json_with(model, flags, &json_len);
    sink_record r = {0};
    CHECK(mm_model_write_json(model, flags, record_piece, &r));
    CHECK(json && r.joined.len == json_len && memcmp(r.joined.data, json, json_len) == 0);
    CHECK(r.pieces > 1 && r.pieces >= json_len / (128 * 1024)); /* through 128 KB */
    mm__buf_free(&r.joined);
    mm_free(json);
    sink_record refusing = {.refuse_after = 2};
    CHECK(!mm_model_write_json(model, flags, record_piece, &refusing) && refusing.pieces == 2);
    mm__buf_free(&refusing.joined);
  }
  mm_model_free(model);
}

static void test_errors_as_json(void) {
  size_t len;
  char *json = mm_analyze_json("x = (\n", 6, &d_py, 0, &len);
  CHECK(json && strstr(json, "\"error\":\"syntax\"") && strstr(json, "\"line\":1"));
  mm_free(json);
  json = mm_analyze_json(NULL, 0, NULL, 0, &len);
  CHECK(json && strstr(json, "\"error\":\"encoding\"") && strstr(json, "the file is empty"));
  mm_free(json);
  json = mm_analyze_json("\n\n", 2, NULL, 0, &len);
  CHECK(json && strstr(json, "\"error\":\"no_tiles\""));
  mm_free(json);
  json = mm_analyze_json(tile_dump, strlen(tile_dump),
                         &(mm_options){.dump_name = "d.py", .backend = "Nope"}, 0, &len);
  CHECK(json && strstr(json, "\"error\":\"backend\"") && strstr(json, "Ascend950"));
  mm_free(json);
}

static void test_model_api(void) {
  mm_error error;
  mm_options options = {.dump_name = "32_after_AllocateMemoryAddr.py"};
  /* The model keeps no reference to the input: free it before writing JSON
   * (ASan reports a use after free otherwise). */
  char *input = malloc(strlen(tile_dump) + 1);
  strcpy(input, tile_dump);
  mm_model *model = mm_model_new(input, strlen(input), &options, &error);
  memset(input, 'x', strlen(tile_dump));
  free(input);
  CHECK(model != NULL);
  CHECK(model && mm_model_function_count(model) == 1 && mm_model_box_count(model) == 1);
  char *json = model ? mm_model_to_json(model, NULL) : NULL;
  CHECK(json && strstr(json, "\"source\":[\"    @pl.function(type=pl.FunctionType.AIV)\""));
  mm_free(json);
  mm_model_free(model);
  mm_model_free(NULL);
  mm_error_clear(&error);
  mm_error_clear(&error); /* twice is fine */
  /* Without the source lines kept: no `source` whatever the flags, and
   * otherwise the same JSON as the page's call. */
  mm_options lean = options;
  lean.without_source = true;
  model = mm_model_new(tile_dump, strlen(tile_dump), &lean, &error);
  json = model ? mm_model_to_json(model, NULL) : NULL;
  size_t page_len = 0;
  char *page =
      mm_analyze_json(tile_dump, strlen(tile_dump), &options, MM_JSON_WITHOUT_SOURCE, &page_len);
  CHECK(json && page && !strstr(json, "\"source\"") && strcmp(json, page) == 0);
  mm_free(json);
  mm_free(page);
  mm_model_free(model);
  mm_error_clear(&error);
  CHECK(mm_model_new("x", MM_MAX_INPUT_BYTES + 1, NULL, &error) == NULL);
  CHECK(error.status == MM_ERR_LIMIT && strstr(error.message, "256 MiB"));
  mm_error_clear(&error);
}

static void test_backends(void) {
  CHECK(mm_backend_count() == 2);
  CHECK(mm_backend_at(2) == NULL);
  const mm_backend *b = mm_backend_find("Ascend950");
  CHECK(b && strcmp(b->arch, "a5") == 0);
  CHECK(mm_backend_capacity(b, "Bias", 4) == 4096);
  CHECK(mm_backend_capacity(b, "Weird", 5) == 0);
  CHECK(mm_backend_capacity(mm_backend_find("Ascend910B"), "LeftScale", 9) == 0);
  CHECK(mm_backend_find("ascend950") == NULL && mm_backend_find(NULL) == NULL);
  size_t len;
  char *json = mm_backends_json(&len);
  CHECK(json &&
        strstr(json, "{\"name\":\"Ascend910B\",\"arch\":\"a2a3\",\"capacities\":{\"Vec\":188416,"));
  CHECK(json && strstr(json, "\"RightScale\":4096,\"Acc\":262144,\"Bias\":4096}}]") &&
        len == strlen(json));
  mm_free(json);
}

static void test_names_table(void) {
  mm_names names = {0};
  char keys[3000][8];
  for (int i = 0; i < 3000; i++) {
    snprintf(keys[i], sizeof keys[i], "n%d", i);
    bool added;
    mm_name_entry *e = mm__names_upsert(&names, keys[i], strlen(keys[i]), &added);
    CHECK(e && added);
    if (e) e->value[0] = (uint32_t)i;
  }
  bool added;
  CHECK(mm__names_upsert(&names, "n7", 2, &added)->value[0] == 7 && !added);
  const mm_name_entry *found = mm__names_find(&names, "n2999", 5);
  CHECK(found && found->value[0] == 2999);
  CHECK(mm__names_find(&names, "n3000", 5) == NULL);
  mm__names_clear(&names);
  CHECK(mm__names_find(&names, "n7", 2) == NULL && names.count == 0);
  /* After a clear, names come back new with zero values, and growing the
   * table carries none of the cleared ones. */
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 3000; i += 2) {
      mm_name_entry *e = mm__names_upsert(&names, keys[i], strlen(keys[i]), &added);
      CHECK(e && added && e->value[0] == 0 && e->value[1] == 0);
      if (e) e->value[0] = (uint32_t)i + 1;
    }
    for (int i = 1; i < 3000; i += 2)
      CHECK(mm__names_find(&names, keys[i], strlen(keys[i])) == NULL);
    found = mm__names_find(&names, "n2998", 5);
    CHECK(found && found->value[0] == 2999 && names.count == 1500);
    mm__names_clear(&names);
  }
  static char more[7000][8]; /* more than before the clears: the table grows */
  for (int i = 0; i < 7000; i++) {
    snprintf(more[i], sizeof more[i], "m%d", i);
    CHECK(mm__names_upsert(&names, more[i], strlen(more[i]), &added) && added);
  }
  CHECK(names.count == 7000 && mm__names_find(&names, "n7", 2) == NULL &&
        mm__names_find(&names, "m6999", 5) != NULL);
  mm__names_free(&names);
}

static void test_arena(void) {
  mm_arena arena;
  mm__arena_init(&arena);
  char *small = mm__arena_alloc(&arena, 10);
  char *big = mm__arena_alloc(&arena, 1 << 20); /* larger than a block */
  CHECK(small && big && ((uintptr_t)big % 16) == 0);
  memset(big, 1, 1 << 20);
  mm__arena_reset(&arena);
  CHECK(mm__arena_strndup(&arena, "abc", 2) &&
        strcmp(mm__arena_strndup(&arena, "abc", 2), "ab") == 0);
  mm__arena_free(&arena);
}

/* The core's sort (sort_impl.h): ordered and stable on every length
 * around its runs and merges, with many ties. */
typedef struct keyed {
  int key;
  size_t seq;
} keyed;
static int compare_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  return a->key < b->key ? -1 : a->key > b->key;
}
#define MM_SORT_NAME sort_keyed
#define MM_SORT_TYPE keyed
#define MM_SORT_COMPARE compare_keyed
#include "base/sort_impl.h"

static void test_sort(void) {
  static const size_t lengths[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 1000, 4099};
  keyed *items = malloc(4099 * sizeof *items);
  uint64_t state = 12345;
  for (size_t l = 0; items && l < sizeof lengths / sizeof lengths[0]; l++) {
    size_t n = lengths[l];
    for (size_t i = 0; i < n; i++) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      items[i] = (keyed){(int)(state >> 59), i}; /* 32 keys: many ties */
    }
    CHECK(sort_keyed(items, n));
    bool ordered = true;
    for (size_t i = 1; i < n; i++)
      ordered &= items[i - 1].key < items[i].key ||
                 (items[i - 1].key == items[i].key && items[i - 1].seq < items[i].seq);
    CHECK(ordered);
  }
  free(items);
}

/* bytes.h's comparison against memcmp: every length to 40, a difference
 * at every offset. */
static void test_bytes_equal(void) {
  char a[48], b[48];
  for (size_t i = 0; i < sizeof a; i++)
    a[i] = b[i] = (char)('a' + i % 26);
  for (size_t n = 0; n <= 40; n++) {
    CHECK(mm__bytes_equal(a + 3, b + 3, n));
    for (size_t at = 0; at < n; at++) {
      b[3 + at] ^= 0x20;
      CHECK(!mm__bytes_equal(a + 3, b + 3, n) && !mm__bytes_equal(b + 3, a + 3, n));
      b[3 + at] ^= 0x20;
    }
  }
}

/* Integers as the JSON writer prints them, against printf. */
static void test_integers_printed(void) {
  static const int64_t values[] = {0,          7,           9,          10,        99,
                                   100,        101,         65536,      -1,        -10,
                                   -65536,     4294967295,  4294967296, INT64_MAX, INT64_MIN,
                                   1234567890, -9876543210, 1000000,    999999,    -100};
  for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
    mm_buf buf = {0};
    mm__buf_put_int(&buf, values[i]);
    char expected[32];
    snprintf(expected, sizeof expected, "%lld", (long long)values[i]);
    CHECK(!buf.failed && buf.len == strlen(expected) && memcmp(buf.data, expected, buf.len) == 0);
    mm__buf_free(&buf);
  }
}

/* What mm_options.first_function saw: how often it was called, and the
 * split JSON of the model it was handed. */
typedef struct first_seen {
  int calls;
  size_t functions;
  char *json;
} first_seen;

static void see_first(void *context, const mm_model *model) {
  first_seen *seen = context;
  seen->calls++;
  seen->functions = mm_model_function_count(model);
  mm_free(seen->json);
  seen->json = mm_model_to_json_with(model, MM_JSON_WITHOUT_SOURCE | MM_JSON_SPLIT_BODIES, NULL);
}

/* The text of `json` (split form) from `at` up to the next newline. */
static size_t line_length(const char *json, size_t at) {
  const char *end = strchr(json + at, '\n');
  return end ? (size_t)(end - json - at) : strlen(json + at);
}

/* The split form's head of function 0: after the NUL, the line after
 * "functions":[ (heads are one line each), without what ends the line:
 * a comma before the next head, or the list's end. */
static const char *first_head(const char *json, size_t json_len, size_t *len) {
  const char *tail = json + strlen(json) + 1;
  const char *key = tail < json + json_len ? strstr(tail, "\"functions\":[\n") : NULL;
  if (!key) return NULL;
  const char *head = key + strlen("\"functions\":[\n");
  *len = line_length(head, 0);
  while (*len && (head[*len - 1] == ',' || head[*len - 1] == ']'))
    (*len)--;
  return head;
}

/* The first function, handed over before the rest is read, is the model's
 * function 0 as the whole model writes it (the real dump's 38 functions);
 * a dump refused for its addresses hands nothing over. */
static void test_first_function(void) {
  size_t len = 0;
  char *input = read_whole(
      MM_FIXTURES_DIR "/corpus/real/decode_fwd__41_after_MaterializeRuntimeScopes.py", &len);
  CHECK(input != NULL);
  if (!input) return;
  first_seen seen = {0};
  mm_options options = {
      .without_source = true, .first_function = see_first, .first_function_context = &seen};
  mm_error error;
  mm_model *model = mm_model_new(input, len, &options, &error);
  CHECK(model && mm_model_function_count(model) == 38);
  CHECK(seen.calls == 1 && seen.functions == 1 && seen.json);
  size_t whole_len = 0;
  char *whole = model ? mm_model_to_json_with(model, MM_JSON_WITHOUT_SOURCE | MM_JSON_SPLIT_BODIES,
                                              &whole_len)
                      : NULL;
  if (whole && seen.json) {
    size_t body = line_length(whole, 0); /* the bodies come first, function 0's on the first line */
    CHECK(body > 100 && line_length(seen.json, 0) == body && memcmp(whole, seen.json, body) == 0);
    size_t head_len = 0, seen_head_len = 0;
    const char *head = first_head(whole, whole_len, &head_len);
    size_t bodies = strlen(seen.json) + 1; /* up to the NUL, and past it */
    const char *seen_head =
        first_head(seen.json, bodies + strlen(seen.json + bodies), &seen_head_len);
    CHECK(head && seen_head && head_len > 100 && head_len == seen_head_len &&
          memcmp(head, seen_head, head_len) == 0);
    CHECK(strstr(seen.json + strlen(seen.json) + 1, "\"pipes\":[]") != NULL);
  }
  mm_free(whole);
  mm_free(seen.json);
  mm_model_free(model);
  free(input);

  const char *unallocated =
      "class P:\n"
      "    @pl.function(type=pl.FunctionType.AIV)\n"
      "    def k(self):\n"
      "        a: pl.Tile[[4], pl.FP32, pl.MemRef(m0, 0, 64), pl.Mem.Vec] = f()\n"
      "        b: pl.Tile[[4], pl.FP32, pl.MemRef(m1, 0, 64), pl.Mem.Vec] = g(a)\n"
      "        return b\n";
  first_seen none = {0};
  options.first_function_context = &none;
  model = mm_model_new(unallocated, strlen(unallocated), &options, &error);
  CHECK(!model && error.status == MM_ERR_UNALLOCATED && none.calls == 0);
  mm_error_clear(&error);
  options.lifetimes_only = true; /* drawn by lifetime: shown first as any other */
  model = mm_model_new(unallocated, strlen(unallocated), &options, &error);
  CHECK(model && none.calls == 1 && none.functions == 1);
  mm_free(none.json);
  mm_model_free(model);

  /* A first function without a tile placed (its one tile's offset is an
   * expression) is not shown first: nor is the next. */
  const char *tileless_first =
      "class P:\n"
      "    @pl.function(type=pl.FunctionType.AIV)\n"
      "    def a(self):\n"
      "        s: pl.Tile[[4], pl.FP32, pl.MemRef(m, off, 64), pl.Mem.Vec] = f()\n"
      "        return s\n"
      "    @pl.function(type=pl.FunctionType.AIV)\n"
      "    def k(self):\n"
      "        t: pl.Tile[[4], pl.FP32, pl.MemRef(m, 0, 64), pl.Mem.Vec] = f()\n"
      "        return t\n";
  first_seen tileless = {0};
  options = (mm_options){.first_function = see_first, .first_function_context = &tileless};
  model = mm_model_new(tileless_first, strlen(tileless_first), &options, &error);
  CHECK(model && mm_model_function_count(model) == 2 && mm_model_box_count(model) == 1);
  CHECK(tileless.calls == 0);
  mm_free(tileless.json);
  mm_model_free(model);
}

int main(void) {
  test_bytes_equal();
  test_sort();
  test_integers_printed();
  test_lexer_lines();
  test_lexer_keywords();
  test_lexer_errors();
  test_text_checks();
  test_json_cannot_end_a_script();
  test_json_escapes_at_every_offset();
  test_json_streamed();
  test_errors_as_json();
  test_model_api();
  test_first_function();
  test_backends();
  test_names_table();
  test_arena();
  return check_report("test_core");
}
