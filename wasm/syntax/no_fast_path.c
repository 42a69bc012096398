/* no_fast_path.c: the hook of fast_path.h in a core built without the fast
 * path (cmake -DMM_FAST_PATH=OFF): every statement goes the general way.
 * The tests compare that build's output with the usual one's. */
#include <stddef.h>

#include "syntax/fast_path.h"

mm_fast_path *mm__fast_path_new(void) { return NULL; }
void mm__fast_path_free(mm_fast_path *fast) { (void)fast; }
bool mm__fast_statements(struct parser *p, uint32_t depth) {
  (void)p, (void)depth;
  return false;
}
bool mm__fast_for_header(struct parser *p, uint32_t *header_line) {
  (void)p, (void)header_line;
  return false;
}
bool mm__fast_parameters(struct parser *p, bool own) {
  (void)p, (void)own;
  return false;
}
