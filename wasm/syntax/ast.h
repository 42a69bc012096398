/* ast.h: expression nodes, shaped like Python's `ast` module.
 * Children are kept in the order of Python's AST fields, so a breadth-first
 * walk here visits nodes in the order `ast.walk` does (model.md's "first in
 * breadth-first order" rules depend on it). Nodes live in a per-statement
 * arena and are gone once the statement has been handed to the model. */
#ifndef MM_AST_H
#define MM_AST_H

#include <stdint.h>

typedef enum mm_node_kind {
  N_NAME,      /* text: the identifier */
  N_ATTRIBUTE, /* kids: value; text: the attribute name */
  N_SUBSCRIPT, /* kids: value, slice */
  N_CALL,      /* kids: func, args..., keywords... */
  N_KEYWORD,   /* kids: value; text: the name, empty for ** */
  N_STARRED,   /* kids: value */
  N_TUPLE,     /* kids: elements */
  N_LIST,
  N_SET,
  N_DICT, /* kids: keys..., values... (a ** entry has no key) */
  N_INT,  /* text: the literal */
  N_STR,  /* text: from the first literal to the end of the last */
  N_BYTES,
  N_CONST,     /* float, imaginary, True, False, None, ... */
  N_BINOP,     /* kids: left, right; op */
  N_UNARY,     /* kids: operand; op (OP_MINUS, OP_PLUS, OP_TILDE, 0 for not) */
  N_BOOLOP,    /* kids: values */
  N_COMPARE,   /* kids: left, comparators... */
  N_IFEXP,     /* kids: test, body, orelse */
  N_LAMBDA,    /* kids: defaults..., body */
  N_COMP,      /* list/set/dict comprehension, generator: kids: elt(s), generators... */
  N_GENERATOR, /* one `for ... in ... if ...`: kids: target, iter, ifs... */
  N_NAMEDEXPR, /* kids: target, value */
  N_SLICE,     /* kids: present parts of lower, upper, step */
  N_AWAIT,     /* kids: value */
  N_YIELD,     /* kids: value (optional) */
  N_JOINEDSTR, /* f-string: kids: formatted values */
  N_FORMATTED, /* kids: value, spec (optional) */
  N_PATTERN    /* a match pattern: kids: the expressions it reads */
} mm_node_kind;

typedef enum mm_ctx { CTX_LOAD = 0, CTX_STORE, CTX_DEL } mm_ctx;

typedef struct mm_node mm_node;
struct mm_node {
  uint8_t kind; /* mm_node_kind */
  uint8_t ctx;  /* mm_ctx for names, attributes, subscripts, ... */
  uint8_t op;   /* operator for N_BINOP, N_UNARY */
  uint8_t parenthesized;
  uint32_t start, len; /* text in the source, see kinds */
  uint32_t line, end_line;
  uint32_t positional; /* N_CALL: kids before the keywords (func and args) */
  uint32_t count;      /* number of kids */
  mm_node **kids;
};

#endif
