/* refusals.c: when a dump is refused rather than drawn (model.md,
 * "Refusals"): no tile with an address, or addresses no pass assigned. */
#include "model/refusals.h"

#include <string.h>

/* No function has a tile placed: none binds one, or every one's MemRef
 * gives no address (the first such tile is named). */
void mm__refuse_no_tiles(const mm_model *model, mm_diag *diag) {
  const mm_skipped *first = NULL;
  size_t skipped = 0;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (!first && fn->skipped_count) first = &fn->skipped[0];
    skipped += fn->skipped_count;
  }
  if (!first) {
    mm__diag_set(diag, MM_ERR_NO_TILES, 0,
                 "no compute function (AIC, AIV or InCore) binds a tile with a MemRef: use a "
                 "dump written at or after the AllocateMemoryAddr pass; earlier passes carry no "
                 "MemRef addresses");
    return;
  }
  mm__diag_set(diag, MM_ERR_NO_TILES, first->line,
               "no tile has an address: %zu tile%s of compute functions carr%s a MemRef without "
               "one (the first, '%.60s' on line %u: %.160s); use a dump written at or after the "
               "AllocateMemoryAddr pass",
               skipped, skipped == 1 ? "" : "s", skipped == 1 ? "ies" : "y", first->name,
               (unsigned)first->line, first->reason);
}

/* Where the dump's pass runs relative to AllocateMemoryAddr, by name
 * (hw-native-sys/pypto pass_manager.py): the passes that run after it in
 * every planner's pipeline. Under memory_planner=PTOAS, MemoryReuse and
 * AllocateMemoryAddr do not run, and these dumps are its last word. */
mm_pass_stage mm__pass_stage(const char *dump) {
  /* The pass after the last "_after_" (a corpus may prefix the case). */
  const char *pass = dump, *at;
  while ((at = strstr(pass, "_after_")) != NULL)
    pass = at + 7;
  size_t len = strcspn(pass, ".");
  static const char *const after[] = {"FoldNoOpReshape",
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
  if (pass == dump) return MM_PASS_OTHER;
  if (len == 18 && memcmp(pass, "AllocateMemoryAddr", len) == 0) return MM_PASS_ALLOCATE;
  for (size_t i = 0; i < sizeof after / sizeof *after; i++)
    if (strlen(after[i]) == len && memcmp(pass, after[i], len) == 0) return MM_PASS_AFTER;
  return MM_PASS_OTHER;
}

/* Whether `fn` is refused as not allocated: every tile at 0 with two
 * bases in a space, as upstream refuses; or, in a dump not written by
 * AllocateMemoryAddr itself (whose planners may share addresses by
 * design), two bases of a space both starting at 0. */
bool mm__function_unallocated(const mm_function *fn, mm_pass_stage stage) {
  return fn->unallocated == MM_UNPLACED_ALL_ZERO ||
         (fn->unallocated == MM_UNPLACED_BASES_AT_ZERO && stage != MM_PASS_ALLOCATE);
}

static const char *unallocated_message(mm_pass_stage stage) {
  switch (stage) {
  case MM_PASS_AFTER:
    return ": this pass runs after AllocateMemoryAddr, so most likely the build planned "
           "memory with memory_planner=PTOAS, which skips MemoryReuse and AllocateMemoryAddr: "
           "ptoas assigns the addresses, and no dump holds them. --lifetimes draws each tile by "
           "size and lifetime, with the least any placement needs. (If a planner did put those "
           "bases at 0, open the dump AllocateMemoryAddr wrote: it is drawn as it is.)";
  case MM_PASS_ALLOCATE:
    return ", although AllocateMemoryAddr wrote this dump: the upstream tool refuses it too.";
  default:
    return ", so the dump predates AllocateMemoryAddr. Use the dump written after "
           "AllocateMemoryAddr (or a later pass); a build with memory_planner=PTOAS has none "
           "(ptoas assigns the addresses): --lifetimes draws its tiles by size and lifetime.";
  }
}

bool mm__refuse_unallocated(const mm_model *model, mm_error *error) {
  mm_pass_stage stage = mm__pass_stage(model->dump);
  size_t count = 0, all_zero = 0;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    count += mm__function_unallocated(fn, stage);
    all_zero += fn->unallocated == MM_UNPLACED_ALL_ZERO;
  }
  if (!count) return false;
  mm_buf names = {0};
  mm_error_clear(error);
  error->status = MM_ERR_UNALLOCATED;
  error->functions = mm__alloc(count * sizeof *error->functions);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (!mm__function_unallocated(fn, stage)) continue;
    if (names.len) mm__buf_puts(&names, ", ");
    mm__buf_puts(&names, fn->name);
    if (error->functions) error->functions[error->function_count++] = mm__strdup(fn->name);
  }
  mm_buf msg = {0};
  mm__buf_puts(&msg, all_zero == count
                         ? "addresses are not assigned: every MemRef still sits at offset 0 in "
                         : "addresses are not assigned: the bases of a space all start at offset 0 "
                           "in ");
  mm__buf_puts(&msg, names.data ? names.data : "");
  mm__buf_puts(&msg, unallocated_message(stage));
  error->message = msg.failed ? NULL : msg.data;
  if (msg.failed) mm__buf_free(&msg);
  mm__buf_free(&names);
  return true;
}
