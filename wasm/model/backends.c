/* backends.c: the SoC capacity table (model.md, "Backends"). This is the
 * only place backends are described: adding one is adding a row. */
#include "model/backends.h"

#include <stddef.h>
#include <string.h>

#include "base/bytes.h"

/* Vec is the safe usable size: 184 KB of 192 KB, and 240 KB of 248 KB. */
static const mm_backend backends[] = {
    /* name         arch    vec     mat     left   right  acc     bias  lscale rscale */
    {"Ascend910B", "a2a3", 188416, 524288, 65536, 65536, 131072, 1024, 0, 0},
    {"Ascend950", "a5", 245760, 524288, 65536, 65536, 262144, 4096, 4096, 4096},
};

size_t mm_backend_count(void) { return sizeof backends / sizeof backends[0]; }

const mm_backend *mm_backend_at(size_t index) {
  return index < mm_backend_count() ? &backends[index] : NULL;
}

const mm_backend *mm_backend_find(const char *name) {
  for (size_t i = 0; name && i < mm_backend_count(); i++)
    if (strcmp(backends[i].name, name) == 0) return &backends[i];
  return NULL;
}

/* The spaces with a capacity column, in rank order (model.md, "Boxes"). */
static const struct {
  const char *space;
  size_t field;
} known_spaces[] = {
    {"Vec", offsetof(mm_backend, vec)},     {"Mat", offsetof(mm_backend, mat)},
    {"Left", offsetof(mm_backend, left)},   {"LeftScale", offsetof(mm_backend, left_scale)},
    {"Right", offsetof(mm_backend, right)}, {"RightScale", offsetof(mm_backend, right_scale)},
    {"Acc", offsetof(mm_backend, acc)},     {"Bias", offsetof(mm_backend, bias)},
};
#define KNOWN_SPACES (sizeof known_spaces / sizeof known_spaces[0])

const char *mm__space_at(size_t rank) {
  return rank < KNOWN_SPACES ? known_spaces[rank].space : NULL;
}

size_t mm__space_find(const char *text, size_t len) {
  for (size_t i = 0; i < KNOWN_SPACES; i++) {
    const char *known = known_spaces[i].space;
    if (len && known[0] == text[0] && mm__span_is(text, len, known)) return i;
  }
  return KNOWN_SPACES;
}

uint32_t mm__space_rank(const char *space) {
  for (uint32_t i = 0; i < KNOWN_SPACES; i++) /* the model's spaces point here (collect.c) */
    if (space == known_spaces[i].space) return i;
  return (uint32_t)mm__space_find(space, strlen(space));
}

uint64_t mm_backend_capacity(const mm_backend *backend, const char *space, size_t len) {
  size_t i = mm__space_find(space, len);
  return backend && i < KNOWN_SPACES
             ? *(const uint64_t *)((const char *)backend + known_spaces[i].field)
             : 0;
}

/* ------------------------------------------------------- the dump's */

/* The first `pto.target_arch = "<arch>"` (whitespace allowed around =). */
static const mm_backend *backend_from_pto(const char *text, size_t len) {
  static const char key[] = "pto.target_arch";
  const size_t key_len = sizeof key - 1;
  for (size_t i = 0; text && i + key_len <= len; i++) {
    if (memcmp(text + i, key, key_len) != 0) continue;
    size_t j = i + key_len;
    while (j < len && (text[j] == ' ' || text[j] == '\t'))
      j++;
    if (j >= len || text[j] != '=') continue;
    j++;
    while (j < len && (text[j] == ' ' || text[j] == '\t'))
      j++;
    if (j >= len || text[j] != '"') continue;
    size_t begin = ++j;
    while (j < len && text[j] != '"' && text[j] != '\n')
      j++;
    if (j >= len || text[j] != '"') continue;
    for (size_t b = 0; b < mm_backend_count(); b++) {
      const mm_backend *backend = mm_backend_at(b);
      if (mm__span_is(text + begin, j - begin, backend->arch)) return backend;
    }
    return NULL; /* the first attribute decides, even for an unknown arch */
  }
  return NULL;
}

bool mm__choose_backend(mm_model *model, const mm_options *options, mm_diag *diag) {
  if (options && options->backend) {
    model->backend = mm_backend_find(options->backend);
    model->detected = true;
    if (!model->backend) {
      char known[256] = "";
      for (size_t i = 0; i < mm_backend_count(); i++) {
        if (i) strncat(known, ", ", sizeof known - strlen(known) - 1);
        strncat(known, mm_backend_at(i)->name, sizeof known - strlen(known) - 1);
      }
      mm__diag_set(diag, MM_ERR_BACKEND, 0, "unknown backend '%.100s'; known backends: %s",
                   options->backend, known);
      return false;
    }
    return true;
  }
  model->backend = options ? backend_from_pto(options->pto_text, options->pto_len) : NULL;
  model->detected = model->backend != NULL;
  if (!model->backend) model->backend = mm_backend_at(0);
  return true;
}
