/* refusals.c: when a dump is refused rather than drawn (model.md,
 * "Refusals"): no tile with an address, or addresses no pass assigned. */
#include "model/refusals.h"

#include <string.h>

/* No function has a tile placed: none binds one, or every one's MemRef
 * gives no address (the first such tile is named). A dump of
 * AllocateMemoryAddr or later (or of a build whose folder says who
 * placed it) with no tile at all keeps nothing on chip: its compute
 * functions hold tensors in DDR only, or run an external kernel. */
bool mm__refuse_no_tiles(const mm_model *model, mm_diag *diag) {
  const mm_skipped *first = NULL;
  size_t skipped = 0;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (!first && fn->skipped_count) first = &fn->skipped[0];
    skipped += fn->skipped_count;
  }
  bool placed =
      mm__pass_stage(model->dump) != MM_PASS_OTHER || model->planner != MM_PLANNER_UNKNOWN;
  if (!first && placed) {
    size_t n = model->compute_functions;
    if (n)
      mm__diag_set(diag, MM_ERR_NO_TILES, 0,
                   "nothing on chip to map: the program's %zu compute function%s (AIC, AIV or "
                   "InCore) bind%s no tile, keeping only tensors in DDR (or running an external "
                   "kernel), and this dump was written at or after AllocateMemoryAddr, so no later "
                   "pass adds any",
                   n, n == 1 ? "" : "s", n == 1 ? "s" : "");
    else
      mm__diag_set(diag, MM_ERR_NO_TILES, 0,
                   "nothing on chip to map: the dump has no compute function (AIC, AIV or InCore), "
                   "only functions that run on the host or orchestrate, and it was written at or "
                   "after AllocateMemoryAddr, so no later pass adds one");
    return true;
  }
  if (!first) {
    mm__diag_set(diag, MM_ERR_NO_TILES, 0,
                 "no compute function (AIC, AIV or InCore) binds a tile with a MemRef: use a "
                 "dump written at or after the AllocateMemoryAddr pass; earlier passes carry no "
                 "MemRef addresses");
    return false;
  }
  mm__diag_set(diag, MM_ERR_NO_TILES, first->line,
               "no tile has an address: %zu tile%s of compute functions carr%s a MemRef without "
               "one (the first, '%.60s' on line %u: %.160s); use a dump written at or after the "
               "AllocateMemoryAddr pass",
               skipped, skipped == 1 ? "" : "s", skipped == 1 ? "ies" : "y", first->name,
               (unsigned)first->line, first->reason);
  return false;
}

/* A tile sharing bytes with another base's, or with a window held for
 * the whole function (a pinned allocation), while both are live. */
static bool has_conflict(const mm_function *fn) {
  for (size_t i = 0; i < fn->box_count; i++)
    if (fn->boxes[i].conflict || fn->boxes[i].window_partner_total) return true;
  return false;
}

/* Whether `fn` is refused as not allocated (its mm_placement is not
 * MM_PLACED): never in AllocateMemoryAddr's own dump, whose planners may
 * put bases at 0 by design (the DSA planner in place, or in exclusive
 * branches); in a later pass, when the build ran no AllocateMemoryAddr
 * (ptoas placed it), or, for a lone dump, when those offsets put two live
 * tiles of different bases on the same bytes (in-place handoffs aside);
 * before it, always. */
bool mm__function_unallocated(const mm_function *fn, mm_pass_stage stage, mm_planner planner) {
  if (fn->unallocated == MM_PLACED || stage == MM_PASS_ALLOCATE) return false;
  if (stage != MM_PASS_AFTER) return true;
  return planner == MM_PLANNER_PTOAS || (planner == MM_PLANNER_UNKNOWN && has_conflict(fn));
}

static const char *unallocated_message(mm_pass_stage stage, mm_planner planner) {
  if (stage == MM_PASS_AFTER && planner == MM_PLANNER_PTOAS)
    return ": its build ran no AllocateMemoryAddr, so it planned memory with "
           "memory_planner=PTOAS: ptoas assigns the addresses after the last dump, and no dump "
           "holds them. It can still be drawn by size and lifetime, with the least any "
           "placement needs.";
  if (stage == MM_PASS_AFTER)
    return ", and at those offsets tiles of different bases share bytes while both are live: "
           "this pass runs after AllocateMemoryAddr, so most likely the build planned memory with "
           "memory_planner=PTOAS, which skips MemoryReuse and AllocateMemoryAddr: ptoas assigns "
           "the addresses, and no dump holds them. It can still be drawn by size and "
           "lifetime, with the least any placement needs. (Opened from its build folder, a dump "
           "of a build that ran AllocateMemoryAddr is drawn as it is.)";
  return ", so the dump predates AllocateMemoryAddr. Use the dump written after "
         "AllocateMemoryAddr (or a later pass); a build with memory_planner=PTOAS has none "
         "(ptoas assigns the addresses): it can still be drawn by size and lifetime.";
}

bool mm__refuse_unallocated(const mm_model *model, mm_planner planner, mm_error *error) {
  mm_pass_stage stage = mm__pass_stage(model->dump);
  size_t count = 0, all_zero = 0;
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    count += mm__function_unallocated(fn, stage, planner);
    all_zero += fn->unallocated == MM_UNPLACED_ALL_ZERO;
  }
  if (!count) return false;
  mm_buf names = {0};
  mm_error_clear(error);
  error->status = MM_ERR_UNALLOCATED;
  error->functions = mm__alloc(count * sizeof *error->functions);
  for (size_t i = 0; i < model->functions.len; i++) {
    const mm_function *fn = mm__vec_at(&model->functions, i);
    if (!mm__function_unallocated(fn, stage, planner)) continue;
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
  mm__buf_puts(&msg, unallocated_message(stage, planner));
  error->message = msg.failed ? NULL : msg.data;
  if (msg.failed) mm__buf_free(&msg);
  mm__buf_free(&names);
  return true;
}
