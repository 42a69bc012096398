/* test_sides.c: a comparison's sides (compare/side.c) as bytes: written,
 * read back to the same bytes, and every shortened or corrupted copy
 * refused, never read past its end (the sanitizers' build runs this). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare/diff.h"
#include "compare/side.h"
#include "inputs.h"
#include "memory_map.h"

#ifndef MM_FIXTURES_DIR
#error "MM_FIXTURES_DIR must name tests/fixtures"
#endif

static const char *const dumps[] = {
    MM_FIXTURES_DIR "/corpus/real/decode_fwd__41_after_MaterializeRuntimeScopes.py",
    MM_FIXTURES_DIR "/corpus/generated/gen1_013__32_after_AllocateMemoryAddr.py",
};

/* A side's bytes of `path`, or NULL. */
static char *side_bytes(const char *path, size_t *len) {
  size_t input_len = 0;
  char *input = read_whole(path, &input_len);
  mm_options options = {.dump_name = "32_after_AllocateMemoryAddr.py", .without_source = true};
  char *side = NULL;
  size_t json_len = 0;
  char *json = input ? mm_analyze_json_side(input, input_len, &options, MM_JSON_WITHOUT_SOURCE,
                                            &json_len, &side, len)
                     : NULL;
  CHECK(json && side);
  mm_free(json);
  free(input);
  return side;
}

static void test_round_trip(const char *bytes, size_t len) {
  bool malformed = true;
  mm_side *side = mm__side_read(bytes, len, &malformed);
  CHECK(side && !malformed);
  size_t again_len = 0;
  char *again = side ? mm__side_write(side, &again_len) : NULL;
  CHECK(again && again_len == len && memcmp(again, bytes, len) == 0);
  mm__dealloc(again);
  mm__side_free(side);
}

/* Every prefix is refused as malformed; so are seeded corruptions, or
 * they read as some side: either way nothing is read out of bounds. */
static void test_refusals(const char *bytes, size_t len) {
  for (size_t cut = 0; cut < len; cut += cut < 512 ? 1 : 211) {
    char *copy = malloc(cut ? cut : 1); /* exactly `cut` bytes: ASan sees a read past them */
    memcpy(copy, bytes, cut);
    bool malformed = false;
    mm_side *side = mm__side_read(copy, cut, &malformed);
    CHECK(!side && malformed);
    mm__side_free(side);
    free(copy);
  }
  uint64_t seed = 0x5eed;
  char *copy = malloc(len);
  for (int round = 0; round < 400; round++) {
    memcpy(copy, bytes, len);
    for (int edits = 1 + (int)(next_random(&seed) % 4); edits > 0; edits--)
      copy[next_random(&seed) % len] = (char)next_random(&seed);
    bool malformed = false;
    mm_side *side = mm__side_read(copy, len, &malformed);
    if (!side) continue;
    /* It reads as a side: it can be compared (with itself). */
    mm_side *twin = mm__side_read(copy, len, &malformed);
    CHECK(twin != NULL);
    if (!twin) {
      mm__side_free(side);
      continue;
    }
    mm_diff *diff = mm__diff_of_sides(side, twin); /* owns both */
    char *json = diff ? mm_diff_to_json(diff, NULL) : NULL;
    CHECK(json != NULL);
    mm_free(json);
    mm_diff_free(diff);
  }
  free(copy);
}

int main(void) {
  for (size_t i = 0; i < sizeof dumps / sizeof *dumps; i++) {
    size_t len = 0;
    char *bytes = side_bytes(dumps[i], &len);
    if (!bytes) continue;
    test_round_trip(bytes, len);
    test_refusals(bytes, len);
    mm_free(bytes);
  }
  return check_report("test_sides");
}
