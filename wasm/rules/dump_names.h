/* dump_names.h: what a pass dump's file name says (`NN_after_<Pass>.py`,
 * in a corpus maybe a case's name before it), stated once for the model,
 * the command line and the page: the pass it was written after, where
 * that pass runs against AllocateMemoryAddr, and what a folder of dumps
 * says (which to read for a pass, who placed the build's memory:
 * mm_folder_choose in memory_map.h). */
#ifndef MM_DUMP_NAMES_H
#define MM_DUMP_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "memory_map.h"

/* Where a dump's pass runs against AllocateMemoryAddr (hw-native-sys/pypto
 * pass_manager.py): before it or unknown, AllocateMemoryAddr itself, or
 * one of the passes every planner's pipeline runs after it. Under
 * memory_planner=PTOAS, MemoryReuse and AllocateMemoryAddr do not run and
 * the later ones are its last word. */
typedef enum mm_pass_stage { MM_PASS_OTHER, MM_PASS_ALLOCATE, MM_PASS_AFTER } mm_pass_stage;

/* The stage of the pass the dump name `name` names (mm_dump_pass):
 * MM_PASS_OTHER without one. */
mm_pass_stage mm__pass_stage(const char *name);

/* The model's `pass_name` as upstream's JSON spells it: the dump's name
 * from `*begin` to `*end`, without a leading "<digits>_after_" and the
 * ".py" suffix (a corpus name such as "case__32_after_X.py" keeps all but
 * its suffix). */
void mm__upstream_pass_name(const char *dump, size_t *begin, size_t *end);

/* The passes a folder's `names` hold dumps of, each once: into `out`
 * (room for `count`), the index of its latest dump, in the order the
 * compiler ran them (by number, as mm_folder_choose compares them); how
 * many. */
size_t mm__folder_passes(const char *const *names, size_t count, size_t *out);

#endif
