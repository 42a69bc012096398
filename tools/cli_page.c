/* cli_page.c: the CLI's self-contained page: the offline page built by
 * `npm run build` (dist/memory-map.html) with the model's JSON placed in
 * its data element, so the map shows as soon as the file opens. The JSON
 * writer escapes <, > and & inside strings, so the data cannot end the
 * element it sits in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MM_PAGE_PATH
#define MM_PAGE_PATH "dist/memory-map.html"
#endif

/* The empty data element of the offline page. */
static const char marker[] = "<script id=\"memory-map-data\" type=\"application/json\"></script>";

static char *read_template(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 20, n = 0;
  char *data = malloc(cap);
  while (data) {
    size_t got = fread(data + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
    if (n == cap) {
      char *bigger = realloc(data, cap *= 2);
      if (!bigger) {
        free(data);
        data = NULL;
      }
      data = bigger;
    }
  }
  fclose(f);
  *len = n;
  return data;
}

char *mm_cli_page(const char *json, size_t json_len, size_t *page_len, char *why, size_t why_len) {
  const char *path = getenv("MEMORY_MAP_PAGE");
  if (!path || !*path) path = MM_PAGE_PATH;
  size_t len = 0;
  char *page = read_template(path, &len);
  const char *at = page ? strstr(page, marker) : NULL;
  if (!at) {
    snprintf(why, why_len, "the page template %s is %s: run `npm run build` first, or use --json",
             path, page ? "not a memory-map page" : "missing");
    free(page);
    return NULL;
  }
  size_t head = (size_t)(at - page) + sizeof marker - 1 - strlen("</script>");
  char *out = malloc(len + json_len + 1);
  if (out) {
    memcpy(out, page, head);
    memcpy(out + head, json, json_len);
    memcpy(out + head + json_len, page + head, len - head);
    *page_len = len + json_len;
    out[*page_len] = 0;
  } else {
    snprintf(why, why_len, "out of memory");
  }
  free(page);
  return out;
}
