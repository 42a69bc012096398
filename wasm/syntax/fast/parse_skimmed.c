/* parse_skimmed.c: the parser's side of the fast path (skim.h), behind
 * the hook of fast_path.h: a block's
 * run of simple statements, a for header and a def's parameters read from
 * the bytes, handed to the listener as the same events and reads as the
 * general way, and the lexer resumed after them. Built for speed in the
 * page's module (most of a dump goes through here); parse_stmt.c, for
 * size. */
#include "base/bytes.h"
#include "syntax/fast/skim.h"
#include "syntax/parser_internal.h"

static bool same_read(const char *src, const mm_skim_load *a, const mm_skim_load *b) {
  return b && a->len == b->len && a->line == b->line &&
         mm__bytes_equal(src + a->start, src + b->start, a->len);
}

/* The fast path's state for one parse (fast_path.h). */
struct mm_fast_path {
  mm_vec loads;       /* mm_skim_load: the reads of a skimmed statement */
  mm_vec parameters;  /* mm_skim_statement: a skimmed def's parameters */
  mm_vec lines;       /* uint32_t: line starts met by a run of skimmed statements */
  mm_skim_memo *memo; /* annotations read before; NULL: none, the fast path still works */
};

mm_fast_path *mm__fast_path_new(void) {
  mm_fast_path *fast = mm__alloc(sizeof *fast);
  if (!fast) return NULL;
  mm__vec_init(&fast->loads, sizeof(mm_skim_load));
  mm__vec_init(&fast->parameters, sizeof(mm_skim_statement));
  mm__vec_init(&fast->lines, sizeof(uint32_t));
  fast->memo = mm__skim_memo_new();
  return fast;
}

void mm__fast_path_free(mm_fast_path *fast) {
  if (!fast) return;
  mm__vec_free(&fast->loads);
  mm__vec_free(&fast->parameters);
  mm__vec_free(&fast->lines);
  mm__skim_memo_free(fast->memo);
  mm__dealloc(fast);
}

/* An annotated name the fast path read, handed to the listener as the
 * parser's event: with the tile it read, or none. */
static void hand_on_binding(parser *p, const mm_skim_statement *st, uint32_t depth, bool is_param) {
  const mm_tile_read tile = {.space_start = st->space_start,
                             .space_len = st->space_len,
                             .base_start = st->base_start,
                             .base_len = st->base_len,
                             .offset = st->offset,
                             .size = st->size,
                             .shape = st->shape,
                             .shape_len = st->shape_len,
                             .dtype_start = st->dtype_start,
                             .dtype_len = st->dtype_len,
                             .op_start = st->op_start,
                             .op_len = st->op_len};
  const mm_binding_event binding = {.name_start = st->name_start,
                                    .name_len = st->name_len,
                                    .line = st->line,
                                    .end_line = st->end_line,
                                    .depth = depth,
                                    .is_param = is_param,
                                    .tile = st->is_tile ? &tile : NULL};
  p->events->binding(p->events->context, &binding);
}

/* Hands the reads of a skimmed statement to the listener. */
static void emit_skimmed_loads(parser *p) {
  if (!p->tracking) return;
  const mm_skim_load *loads = p->fast->loads.items;
  for (size_t i = 0; i < p->fast->loads.len; i++) {
    /* A name read again on the same line (`pl`, one or two reads back)
     * changes no lifetime. */
    if (same_read(p->src, &loads[i], i >= 1 ? &loads[i - 1] : NULL) ||
        same_read(p->src, &loads[i], i >= 2 ? &loads[i - 2] : NULL))
      continue;
    mm_node name = {.kind = N_NAME,
                    .start = loads[i].start,
                    .len = loads[i].len,
                    .line = loads[i].line,
                    .end_line = loads[i].line};
    p->events->load(p->events->context, &name);
  }
}

/* Notes the starts of the lines after a skimmed statement's first, for the
 * lexer's table (resume_after; out of memory, the lexer finds them). */
static void note_line_starts(parser *p, size_t start, const mm_skim_statement *st) {
  mm_vec *v = &p->fast->lines;
  for (size_t q = start; st->end_line > st->line && q < st->next;) {
    q = mm__find_line_end(p->src, q, st->next) + 1; /* a line end inside brackets */
    if (q < st->next) mm__vec_push_u32(v, (uint32_t)q);
  }
  mm__vec_push_u32(v, (uint32_t)st->next);
}

/* After the fast path read through `st`: tokens resume on the next line. */
static void resume_after(parser *p, const mm_skim_statement *st) {
  const mm_vec *starts = &p->fast->lines; /* none (out of memory): the lexer finds them */
  mm__parser_resume_at(p, st->next, st->end_line, starts->items, starts->failed ? 0 : starts->len);
}

typedef bool (*skim_fn)(const char *src, size_t start, size_t end, uint32_t line, mm_vec *loads,
                        mm_skim_statement *out);

/* After the fast path `read` a statement: taken when the lexer has not
 * gone past its line; its reads are then handed over. */
static bool skim_taken(parser *p, bool read, const mm_skim_statement *st) {
  if (!read || !mm__lexer_can_resume(p->lx, st->next)) return false;
  emit_skimmed_loads(p);
  return true;
}

/* Reads the statement at src[start] (on `line`) with `skim`, when it is in
 * the fast path's subset and the lexer has not gone past its line. */
static bool try_skim(parser *p, skim_fn skim, size_t start, uint32_t line, mm_skim_statement *st) {
  return p->fast && skim_taken(p, skim(p->src, start, p->lx->end, line, &p->fast->loads, st), st);
}

bool mm__fast_for_header(parser *p, uint32_t *header_line) {
  mm_skim_statement st;
  if (!try_skim(p, mm__skim_for_header, p_peek(p)->start, p_peek(p)->line, &st)) return false;
  p->fast->lines.len = 0;
  note_line_starts(p, p_peek(p)->start, &st);
  resume_after(p, &st);
  *header_line = st.line;
  return true;
}

/* A def's parameters, return annotation and colon through the fast path:
 * the parameter events of the general way (when `own`), and its reads. */
bool mm__fast_parameters(parser *p, bool own) {
  const mm_token *open = p_peek(p);
  mm_skim_statement st;
  if (!p->fast || !p_at_op(p, OP_LPAR) ||
      !mm__skim_parameters(p->src, open->start, p->lx->end, open->line, &p->fast->loads,
                           &p->fast->parameters, &st) ||
      !mm__lexer_can_resume(p->lx, st.next))
    return false;
  const mm_skim_statement *params = p->fast->parameters.items;
  for (size_t i = 0; own && i < p->fast->parameters.len; i++)
    hand_on_binding(p, &params[i], 0, true);
  emit_skimmed_loads(p);
  p->fast->lines.len = 0;
  note_line_starts(p, open->start, &st);
  resume_after(p, &st);
  return true;
}

/* A simple statement at src[start] through the fast path, with its events. */
static bool skim_simple_at(parser *p, uint32_t depth, size_t start, uint32_t line,
                           mm_skim_statement *st) {
  if (p->fast && skim_taken(p,
                            mm__skim_annotated(p->src, start, p->lx->end, line, &p->fast->loads,
                                               p->fast->memo, st),
                            st)) {
    if (p->tracking) hand_on_binding(p, st, depth, false);
    return true;
  }
  return try_skim(p, mm__skim_simple, start, line, st);
}

/* After the skimmed statement `st`: the next statement of the same block,
 * when its line has the block's indentation in spaces (blank and comment
 * lines between may be skipped) and it is in the subset. A block's run of
 * such statements is read without a token. */
static bool skim_next_in_block(parser *p, uint32_t depth, const mm_skim_statement *st,
                               mm_skim_statement *next) {
  const char *s = p->src;
  size_t q = st->next, end = p->lx->end, noted = p->fast->lines.len;
  for (uint32_t line = st->end_line + 1;; line++) {
    size_t spaces = mm__count_spaces(s, q, end);
    char c = q + spaces < end ? s[q + spaces] : 0;
    if (c == '\n' || c == '#') { /* no token on this line */
      size_t e = mm__find_line_end(s, q + spaces, end);
      if (e == end || s[e] != '\n') break;
      mm__vec_push_u32(&p->fast->lines, (uint32_t)(e + 1));
      q = e + 1;
      continue;
    }
    /* Same indentation: no block opens or ends here. */
    if (mm__lexer_same_indent(p->lx, spaces) && skim_simple_at(p, depth, q + spaces, line, next)) {
      p_statement(p, line);
      note_line_starts(p, q + spaces, next);
      return true;
    }
    break;
  }
  p->fast->lines.len = noted; /* the blank lines before a statement left to the lexer */
  return false;
}

bool mm__fast_statements(parser *p, uint32_t depth) {
  mm_skim_statement two[2];
  mm_skim_statement *st = &two[0], *next = &two[1];
  if (!skim_simple_at(p, depth, p_peek(p)->start, p_peek(p)->line, st)) return false;
  p_statement(p, p_peek(p)->line);
  p->fast->lines.len = 0;
  note_line_starts(p, p_peek(p)->start, st);
  while (skim_next_in_block(p, depth, st, next)) {
    mm_skim_statement *read = next; /* swapped, not copied: a statement is large */
    next = st;
    st = read;
  }
  resume_after(p, st);
  return true;
}
