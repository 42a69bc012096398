#!/usr/bin/env python3
"""CPython's reading of a dump, for tests/mutants.test.mjs: its verdict
(ast.parse of the file's bytes) and, when valid, each box's lifetime as
the model's rules give it (docs/model.md, "Lexical lifetime"), from the
core's boxes (names and aliases) on standard input: the lines of every
annotated assignment to one of its names and of every tile parameter
among them, and every line that loads one of them.

usage: lifetimes.py DUMP < MODEL.json > LIFETIMES.json
       lifetimes.py --batch < [{"path": DUMP, "model": MODEL or null}, ...] > [LIFETIMES, ...]
"""
import ast
import json
import sys


def is_tile_annotation(node):
    if not isinstance(node, ast.Subscript):
        return False
    parts, value = [], node.value
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    return isinstance(value, ast.Name) and len(parts) >= 1 and parts[0] == "Tile"


def function_lines(fn):
    """name -> the lines that bind or read it in `fn`."""
    lines = {}
    add = lambda name, first, last: lines.setdefault(name, set()).update(range(first, last + 1))
    params = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
    params += [a for a in (fn.args.vararg, fn.args.kwarg) if a]
    for arg in params:
        if arg.annotation is not None and is_tile_annotation(arg.annotation):
            add(arg.arg, arg.lineno, arg.end_lineno)
    for node in ast.walk(fn):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            add(node.target.id, node.lineno, node.end_lineno)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            add(node.id, node.lineno, node.lineno)
    return lines


def read(path, model):
    data = open(path, "rb").read()
    try:
        tree = ast.parse(data)
    except SyntaxError as error:
        return {"syntax": {"line": error.lineno, "message": error.msg}}
    except ValueError as error:  # a NUL byte, for one
        return {"invalid": str(error)}
    defs = {}
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef):
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef):
                    defs.setdefault(fn.name, []).append(fn)
    out = []
    for fn in (model or {}).get("functions", []):
        node = defs[fn["name"]].pop(0) if defs.get(fn["name"]) else None
        lines = function_lines(node) if node else {}
        boxes = []
        for box in fn["boxes"]:
            seen = set()
            for name in [box["name"], *box["aliases"]]:
                seen |= lines.get(name, set())
            boxes.append([min(seen), max(seen)] if seen else None)
        out.append({"name": fn["name"], "boxes": boxes})
    return {"functions": out}


def main():
    if sys.argv[1] == "--batch":
        print(json.dumps([read(item["path"], item["model"]) for item in json.load(sys.stdin)]))
    else:
        text = sys.stdin.read()
        print(json.dumps(read(sys.argv[1], json.loads(text) if text.strip() else None)))


if __name__ == "__main__":
    main()
