/* text_check.c: whether the input is text a pass dump can be: no binary
 * format dropped by mistake, no UTF-16, valid UTF-8 without NUL bytes;
 * the first fault with its line. A pass over every byte before any other,
 * so built for speed in the page's module (the lexer is built for size). */
#include "syntax/text_check.h"

#include <string.h>

#include "base/bytes.h"

/* Formats people drop by mistake, named so the error says what it is. */
static const struct {
  const char *magic;
  size_t len;
  const char *what;
} binary_formats[] = {
    {"\x89PNG\r\n\x1a\n", 8, "a PNG image"},
    {"\x7f"
     "ELF",
     4, "an ELF binary"},
    {"PK\x03\x04", 4, "a zip archive"},
    {"\x1f\x8b", 2, "gzip-compressed data"},
    {"%PDF-", 5, "a PDF document"},
    {"\xff\xd8\xff", 3, "a JPEG image"},
    {"GIF8", 4, "a GIF image"},
    {"\xfd"
     "7zXZ",
     5, "xz-compressed data"},
};

/* The line of byte `at`, counted only when an error needs it. */
static uint32_t line_of(const unsigned char *s, size_t at) {
  uint32_t line = 1;
  for (size_t i = 0; i < at; i++)
    if (s[i] == '\n' || (s[i] == '\r' && s[i + 1] != '\n')) line++;
  return line;
}

bool mm__check_text(const char *input, size_t len, mm_diag *diag) {
  const unsigned char *s = (const unsigned char *)input;
  uint32_t line = 1;
  size_t i = 0;
  if (len == 0) {
    mm__diag_set(diag, MM_ERR_ENCODING, 0,
                 "the file is empty: a pass dump is the Python source the compiler writes to "
                 "build_output/<case>/passes_dump/");
    return false;
  }
  for (size_t k = 0; k < sizeof binary_formats / sizeof binary_formats[0]; k++) {
    if (len >= binary_formats[k].len &&
        memcmp(input, binary_formats[k].magic, binary_formats[k].len) == 0) {
      mm__diag_set(diag, MM_ERR_ENCODING, 1, "this is %s, not a pass dump (Python source text)",
                   binary_formats[k].what);
      return false;
    }
  }
  if (len >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) || (s[0] == 0xFE && s[1] == 0xFF))) {
    mm__diag_set(diag, MM_ERR_ENCODING, 1,
                 "the file is UTF-16 (it starts with a UTF-16 byte order mark); dumps are UTF-8 "
                 "text");
    return false;
  }
  while (i < len) {
    /* 64 bytes a step while they are plain ASCII (most of a dump): their
     * words are summed up without a branch, then tested once. */
    while (i + 64 <= len) {
      uint64_t high = 0, zero = 0;
      for (size_t k = 0; k < 64; k += 8) {
        uint64_t w = mm__load8(input + i + k);
        high |= w;
        zero |= mm__zero_byte_mask(w);
      }
      if ((high & 0x8080808080808080ull) || zero) break;
      i += 64;
    }
    /* Eight at a time: none has its high bit set or is NUL. */
    while (i + 8 <= len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      if ((w & 0x8080808080808080ull) || mm__zero_byte_mask(w)) break;
      i += 8;
    }
    if (i >= len) break;
    unsigned char c = s[i];
    if (c < 0x80) {
      if (c == 0) {
        line = line_of(s, i);
        mm__diag_set(diag, MM_ERR_ENCODING, line,
                     "source code cannot contain null bytes (line %u): not a text dump",
                     (unsigned)line);
        return false;
      }
      i++;
      continue;
    }
    size_t n = c >= 0xC2 && c <= 0xDF   ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
    bool ok = n && i + n <= len;
    for (size_t k = 1; ok && k < n; k++)
      ok = (s[i + k] & 0xC0) == 0x80;
    if (ok && n == 3) {
      ok = !(c == 0xE0 && s[i + 1] < 0xA0) && !(c == 0xED && s[i + 1] >= 0xA0);
    } else if (ok && n == 4) {
      ok = !(c == 0xF0 && s[i + 1] < 0x90) && !(c == 0xF4 && s[i + 1] >= 0x90);
    }
    if (!ok) {
      line = line_of(s, i);
      mm__diag_set(diag, MM_ERR_ENCODING, line,
                   "invalid UTF-8 byte 0x%02X at line %u: dumps are UTF-8 text", c, (unsigned)line);
      return false;
    }
    i += n;
  }
  return true;
}
