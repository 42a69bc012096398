/* cli_page.c: the CLI's self-contained page: the offline page built by
 * `npm run build` (dist/memory-map.html) with the model's JSON placed in
 * its data element (cli_files.c writes the three parts one after the
 * other, with no copy of the whole), so the map shows as soon as the file
 * opens. The JSON writer escapes <, > and & inside strings, so the data
 * cannot end the element it sits in. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <unistd.h>
#endif

#include "cli_page.h"

#ifndef MM_PAGE_PATH
#define MM_PAGE_PATH "dist/memory-map.html"
#endif

/* The empty data element of the offline page. */
static const char marker[] = "<script id=\"memory-map-data\" type=\"application/json\"></script>";

/* Beside an installed binary: <prefix>/bin/memory-map and
 * <prefix>/share/memory-map/memory-map.html (cmake --install). */
static const char *installed_page(void) {
#if defined(__linux__)
  static char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 64);
  if (n <= 0) return NULL;
  path[n] = 0;
  char *slash = strrchr(path, '/');
  if (!slash) return NULL;
  *slash = 0; /* .../bin */
  slash = strrchr(path, '/');
  if (!slash) return NULL;
  strcpy(slash, "/share/memory-map/memory-map.html");
  return access(path, R_OK) == 0 ? path : NULL;
#else
  return NULL;
#endif
}

/* Where the page template is: MEMORY_MAP_PAGE (the Node wrapper sets it),
 * else beside an installed binary, else the path this build was
 * configured with (the source tree's dist/). */
const char *cli_page_path(void) {
  const char *path = getenv("MEMORY_MAP_PAGE");
  if (path && *path) return path;
  const char *installed = installed_page();
  return installed ? installed : MM_PAGE_PATH;
}

/* Where the model's JSON goes in the template `page`: the length of the
 * part before it (the rest follows it), or SIZE_MAX with `why` filled when
 * the template is not a memory-map page. */
size_t cli_page_split(const char *page, size_t len, char *why, size_t why_len) {
  const char *at = len >= sizeof marker - 1 ? strstr(page, marker) : NULL;
  if (!at) {
    snprintf(why, why_len, "the page template %s is not a memory-map page: run `npm run build`",
             cli_page_path());
    return SIZE_MAX;
  }
  return (size_t)(at - page) + sizeof marker - 1 - strlen("</script>");
}
