/* version.c: the project's one version, package.json's, which CMake
 * passes in as MM_VERSION. */
#include "memory_map.h"

#ifndef MM_VERSION
#error "MM_VERSION comes from package.json (CMakeLists.txt)"
#endif

const char *mm_generator(void) { return "memory-map " MM_VERSION; }
