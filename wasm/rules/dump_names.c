/* dump_names.c: a dump's pass read from its file name, and a folder's
 * dumps read for the one to open and who placed the build's memory. */
#include "rules/dump_names.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define AFTER "_after_"
#define AFTER_LEN 7

/* The passes the compiler runs after AllocateMemoryAddr, in every
 * planner's pipeline (pass_manager.py at e2d0f78). */
static const char *const after_allocation[] = {"FoldNoOpReshape",
                                               "FuseCreateAssembleToSlice",
                                               "DeriveCallDirections",
                                               "AutoDeriveTaskDependencies",
                                               "ExpandManualPhaseFence",
                                               "SynthesizeAllReduceSignals",
                                               "MaterializeCommDomainScopes",
                                               "LowerHostTensorCollectives",
                                               "MaterializeDistTensorCtx",
                                               "Simplify",
                                               "MaterializeRuntimeScopes",
                                               "ClassifyIterArgCarry",
                                               "InsertCommFence",
                                               "MaterializeValidShapeSymbols"};

static bool span_is(const char *text, size_t len, const char *word) {
  return strlen(word) == len && memcmp(text, word, len) == 0;
}

const char *mm_dump_pass(const char *name, size_t *len) {
  const char *last = NULL;
  for (const char *at = name; (at = strstr(at, AFTER)) != NULL; at++)
    last = at;
  if (!last) return NULL;
  const char *pass = last + AFTER_LEN;
  size_t n = strlen(pass);
  if (n >= 3 && memcmp(pass + n - 3, ".py", 3) == 0) n -= 3;
  /* A pass is a C++ class name: a path or another suffix is no dump. */
  for (size_t i = 0; i < n; i++)
    if (!(isalnum((unsigned char)pass[i]) || pass[i] == '_')) return NULL;
  if (!n) return NULL;
  if (len) *len = n;
  return pass;
}

void mm__upstream_pass_name(const char *dump, size_t *begin, size_t *end) {
  size_t len = strlen(dump), digits = 0;
  while (digits < len && dump[digits] >= '0' && dump[digits] <= '9')
    digits++;
  *begin = digits && len - digits >= AFTER_LEN && memcmp(dump + digits, AFTER, AFTER_LEN) == 0
               ? digits + AFTER_LEN
               : 0;
  *end = len;
  if (*end - *begin >= 3 && memcmp(dump + *end - 3, ".py", 3) == 0) *end -= 3;
}

mm_pass_stage mm__pass_stage(const char *name) {
  size_t len = 0;
  const char *pass = mm_dump_pass(name, &len);
  if (!pass) return MM_PASS_OTHER;
  if (span_is(pass, len, "AllocateMemoryAddr")) return MM_PASS_ALLOCATE;
  for (size_t i = 0; i < sizeof after_allocation / sizeof *after_allocation; i++)
    if (span_is(pass, len, after_allocation[i])) return MM_PASS_AFTER;
  return MM_PASS_OTHER;
}

/* A pass dump in a folder, `...<digits>_after_<pass>.py` (mm_dump_pass,
 * and a file of Python): where its "_after_" begins, or NULL when it is
 * none (of `pass`, when not NULL). */
static const char *after_of(const char *name, const char *pass) {
  size_t n = strlen(name), len = 0;
  const char *found =
      n >= 3 && memcmp(name + n - 3, ".py", 3) == 0 ? mm_dump_pass(name, &len) : NULL;
  if (!found || (pass && !span_is(found, len, pass))) return NULL;
  return found - AFTER_LEN;
}

/* The dump's number: the digits right before its "_after_" (none: ""). */
static const char *number_of(const char *name, const char *after, size_t *len) {
  const char *begin = after;
  while (begin > name && begin[-1] >= '0' && begin[-1] <= '9')
    begin--;
  while (begin + 1 < after && *begin == '0') /* leading zeros do not count */
    begin++;
  *len = (size_t)(after - begin);
  return begin;
}

/* Whether dump `a` comes after dump `b`: a higher number (as a number of
 * any length, so 10_ beats 9_), else a later name in byte order. */
static bool later(const char *a, const char *after_a, const char *b, const char *after_b) {
  size_t la, lb;
  const char *na = number_of(a, after_a, &la), *nb = number_of(b, after_b, &lb);
  if (la != lb) return la > lb;
  int order = memcmp(na, nb, la);
  if (order) return order > 0;
  return strcmp(a, b) > 0;
}

/* The latest dump of `pass` (NULL: of any pass; with `later_only`, of a
 * pass every pipeline runs after AllocateMemoryAddr) among `names`;
 * SIZE_MAX when there is none. */
static size_t latest(const char *const *names, size_t count, const char *pass, bool later_only) {
  size_t best = SIZE_MAX;
  const char *best_after = NULL;
  for (size_t i = 0; i < count; i++) {
    const char *after = names[i] ? after_of(names[i], pass) : NULL;
    if (!after || (later_only && mm__pass_stage(names[i]) != MM_PASS_AFTER)) continue;
    if (best == SIZE_MAX || later(names[i], after, names[best], best_after)) {
      best = i;
      best_after = after;
    }
  }
  return best;
}

size_t mm__folder_passes(const char *const *names, size_t count, size_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < count; i++) {
    const char *after = names[i] ? after_of(names[i], NULL) : NULL;
    if (!after) continue;
    size_t len = 0, seen = 0;
    const char *pass = mm_dump_pass(names[i], &len);
    for (; seen < n; seen++) {
      size_t other_len = 0;
      const char *other = mm_dump_pass(names[out[seen]], &other_len);
      if (other_len == len && memcmp(other, pass, len) == 0) break;
    }
    if (seen == n)
      out[n++] = i;
    else if (later(names[i], after, names[out[seen]], after_of(names[out[seen]], NULL)))
      out[seen] = i;
  }
  /* In the order the compiler ran them: by number (insertion: few passes). */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0; j--) {
      const char *a = names[out[j - 1]], *b = names[out[j]];
      if (!later(a, after_of(a, NULL), b, after_of(b, NULL))) break;
      size_t swap = out[j];
      out[j] = out[j - 1];
      out[j - 1] = swap;
    }
  return n;
}

mm_folder_choice mm_folder_choose(const char *const *names, size_t count, const char *pass) {
  mm_folder_choice choice = {SIZE_MAX, latest(names, count, NULL, false), MM_PLANNER_UNKNOWN, false,
                             false};
  bool allocated = false, reused = false, later_pass = false;
  for (size_t i = 0; i < count; i++) {
    if (!names[i] || !after_of(names[i], NULL)) continue;
    mm_pass_stage stage = mm__pass_stage(names[i]);
    allocated |= stage == MM_PASS_ALLOCATE;
    reused |= after_of(names[i], "MemoryReuse") != NULL;
    later_pass |= stage == MM_PASS_AFTER;
  }
  /* AllocateMemoryAddr wrote a dump, or MemoryReuse did (the pipeline
   * that runs it runs AllocateMemoryAddr next; only its dump is missing):
   * the compiler placed the memory. Passes after AllocateMemoryAddr's
   * place ran without either: ptoas places it, after every dump. */
  choice.planner = allocated || (reused && later_pass) ? MM_PLANNER_COMPILER
                   : later_pass                        ? MM_PLANNER_PTOAS
                                                       : MM_PLANNER_UNKNOWN;
  const char *wanted = pass && *pass ? pass : "AllocateMemoryAddr";
  choice.dump = latest(names, count, wanted, false);
  /* No AllocateMemoryAddr dump, and passes after it: the latest of those
   * holds what it would have (the compiler's addresses, or, for ptoas,
   * none: drawn by lifetime). */
  if (choice.dump == SIZE_MAX && later_pass && strcmp(wanted, "AllocateMemoryAddr") == 0) {
    choice.dump = latest(names, count, NULL, true);
    choice.instead = true;
  }
  choice.by_lifetime = choice.planner == MM_PLANNER_PTOAS && choice.dump != SIZE_MAX;
  return choice;
}

void mm_folder_why(const mm_folder_choice *choice, const char *const *names, size_t count,
                   const char *pass, const char *folder, char *buf, size_t len) {
  const char *wanted = pass && *pass ? pass : "AllocateMemoryAddr";
  const char *last = choice->last < count ? names[choice->last] : NULL;
  const char *dump = choice->dump < count ? names[choice->dump] : NULL;
  if (!len) return;
  *buf = 0;
  if (dump && choice->by_lifetime)
    snprintf(buf, len,
             "%s/%s: its build ran no AllocateMemoryAddr (memory_planner=PTOAS: ptoas assigns the "
             "addresses after the last pass, and no dump holds them); drawn by size and "
             "lifetime, with the least any placement needs",
             folder, dump);
  else if (dump && choice->instead)
    snprintf(buf, len,
             "no '*_after_AllocateMemoryAddr.py' dump under %s: showing %s, the latest pass "
             "after it, which holds the addresses AllocateMemoryAddr assigned (its build ran "
             "MemoryReuse, and AllocateMemoryAddr after it)",
             folder, dump);
  else if (dump)
    return;
  else if (last && strcmp(wanted, "AllocateMemoryAddr") == 0)
    snprintf(buf, len,
             "no '*_after_AllocateMemoryAddr.py' dump under %s: its compile stopped before "
             "AllocateMemoryAddr placed memory (its last dump is %s, which carries no addresses)",
             folder, last);
  else
    snprintf(buf, len,
             "no '*_after_%s.py' dump under %s: compile with pass dumps enabled (pytest "
             "tests/st/<case>.py --dump-passes --save-kernels) or use the dump file itself",
             wanted, folder);
}
