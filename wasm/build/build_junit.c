/* build_junit.c: a build's check as a JUnit XML report, the form CI
 * servers (Jenkins, GitLab, GitHub's test reporters) show without
 * plug-ins: a testsuite per case, a testcase per function. */
#include <stdio.h>

#include "build/build.h"

/* `s` as XML character data or an attribute value: the five specials
 * escaped, and the control characters XML 1.0 cannot hold as U+FFFD. */
static void put_xml(mm_buf *out, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '&': mm__buf_puts(out, "&amp;"); break;
    case '<': mm__buf_puts(out, "&lt;"); break;
    case '>': mm__buf_puts(out, "&gt;"); break;
    case '"': mm__buf_puts(out, "&quot;"); break;
    case '\'': mm__buf_puts(out, "&apos;"); break;
    default:
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
        mm__buf_puts(out, "\xEF\xBF\xBD");
      else
        mm__buf_putc(out, (char)c);
    }
  }
}

static void put_attr(mm_buf *out, const char *key, const char *value) {
  mm__buf_putc(out, ' ');
  mm__buf_puts(out, key);
  mm__buf_puts(out, "=\"");
  put_xml(out, value);
  mm__buf_putc(out, '"');
}

static void put_count(mm_buf *out, const char *key, size_t value) {
  char text[32];
  snprintf(text, sizeof text, "%zu", value);
  put_attr(out, key, text);
}

/* The function's check lines as one <failure>: its message the first
 * line, its text all of them. */
static void put_failure(mm_buf *out, const mm_build *b, uint32_t function) {
  const mm_build_function *f = mm__vec_at(&b->functions, function);
  const mm_build_problem *first = mm__vec_at(&b->problems, f->first_problem);
  char message[64];
  snprintf(message, sizeof message, "%u problem%s", f->problems, f->problems == 1 ? "" : "s");
  mm__buf_puts(out, "      <failure");
  put_attr(out, "type", first->kind);
  mm_buf text = {0};
  mm__buf_puts(&text, message);
  mm__buf_puts(&text, ": ");
  mm__buf_puts(&text, first->text);
  put_attr(out, "message", text.failed ? message : text.data);
  mm__buf_free(&text);
  mm__buf_puts(out, ">");
  for (size_t i = f->first_problem; i < b->problems.len; i++) {
    const mm_build_problem *p = mm__vec_at(&b->problems, i);
    if (p->function_index != function) break;
    put_xml(out, p->text);
    mm__buf_putc(out, '\n');
  }
  mm__buf_puts(out, "</failure>\n");
}

static void put_case(mm_buf *out, const mm_build *b, const mm_build_case *c) {
  size_t failing = 0;
  for (uint32_t i = 0; i < c->function_count; i++) {
    const mm_build_function *f = mm__vec_at(&b->functions, c->first_function + i);
    failing += f->problems > 0;
  }
  mm__buf_puts(out, "  <testsuite");
  put_attr(out, "name", c->name);
  put_count(out, "tests", c->error ? 1 : c->function_count);
  put_count(out, "failures", failing);
  put_count(out, "errors", c->error ? 1 : 0);
  put_attr(out, "file", c->dump);
  mm__buf_puts(out, ">\n");
  if (c->error) {
    char line[16] = "";
    if (c->error_line) snprintf(line, sizeof line, ":%u", c->error_line);
    mm__buf_puts(out, "    <testcase");
    put_attr(out, "classname", c->name);
    put_attr(out, "name", "(the dump)");
    mm__buf_puts(out, ">\n      <error");
    put_attr(out, "type", c->error);
    put_attr(out, "message", c->error_message);
    mm__buf_puts(out, ">");
    put_xml(out, c->dump);
    put_xml(out, line);
    mm__buf_puts(out, ": ");
    put_xml(out, c->error_message);
    mm__buf_puts(out, "</error>\n    </testcase>\n");
  }
  for (uint32_t i = 0; i < c->function_count; i++) {
    const mm_build_function *f = mm__vec_at(&b->functions, c->first_function + i);
    mm__buf_puts(out, "    <testcase");
    put_attr(out, "classname", c->name);
    put_attr(out, "name", f->name);
    put_attr(out, "time", "0");
    if (!f->problems) {
      mm__buf_puts(out, "/>\n");
      continue;
    }
    mm__buf_puts(out, ">\n");
    put_failure(out, b, c->first_function + i);
    mm__buf_puts(out, "    </testcase>\n");
  }
  mm__buf_puts(out, "  </testsuite>\n");
}

char *mm_build_junit(const mm_build *b, size_t *out_len) {
  mm_buf out = {0};
  size_t tests = 0, failing = 0;
  for (size_t i = 0; i < b->functions.len; i++) {
    const mm_build_function *f = mm__vec_at(&b->functions, i);
    tests++;
    failing += f->problems > 0;
  }
  mm__buf_puts(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
  put_attr(&out, "name", "memory-map --check");
  put_count(&out, "tests", tests + b->errors);
  put_count(&out, "failures", failing);
  put_count(&out, "errors", b->errors);
  mm__buf_puts(&out, ">\n");
  for (size_t i = 0; i < b->cases.len; i++)
    put_case(&out, b, mm__vec_at(&b->cases, i));
  mm__buf_puts(&out, "</testsuites>\n");
  return mm__buf_finish(&out, out_len);
}
