#!/usr/bin/env python3
"""An independent recount of what memory-map adds to the upstream model:
reserved windows and imports, each box's uses, idle span and statements,
each space's reserved bytes and headroom, each function's statements. It reads the dump with CPython's own `ast`,
not with the core, and takes from the core's model only what the upstream
tool already checks (which functions, which boxes with which names, bytes
and spaces). tests/core/windows.test.mjs compares the two.

usage: recount.py DUMP < MODEL.json > RECOUNT.json
       recount.py --batch < [{"dump": PATH, "model": MODEL}, ...] > [RECOUNT, ...]
         (one process for many dumps)
"""
import ast
import json
import sys

from model import BACKENDS, dotted as dotted_parts, keyword  # the model oracle's table and reading

CAPACITY = {name: capacity for name, _, capacity in BACKENDS}  # docs/model.md §12
WINDOW_CALLS = {"reserve_buffer": "reserve", "import_peer_buffer": "import",
                "aic_initialize_pipe": "pipe", "aiv_initialize_pipe": "pipe"}


def integer(node):
    """A literal, a negated literal or `X.const(literal, ...)`, else None."""
    if isinstance(node, ast.Call) and node.args and (dotted_parts(node.func) or [""])[-1] == "const" \
            and len(dotted_parts(node.func)) >= 2:
        node = node.args[0]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = integer_literal(node.operand)
        return None if value is None else -value
    return integer_literal(node)


def integer_literal(node):
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def text(node, fallback):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    parts = dotted_parts(node) if node is not None else None
    return parts[-1] if parts else fallback


def call_statements(fn):
    """(target name or None, call, line) for each statement whose value is
    a call, in source order."""
    found = []
    for stmt in ast.walk(fn):
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            found.append((stmt, None, stmt.value))
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            first = stmt.targets[0]
            if isinstance(first, ast.Name):
                found.append((stmt, first.id, stmt.value))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.target, ast.Name):
            found.append((stmt, stmt.target.id, stmt.value))
    found.sort(key=lambda f: (f[0].lineno, f[0].col_offset))
    return [(target, call, stmt.lineno) for stmt, target, call in found]


def read_windows(fn, ftype):
    space = "Mat" if ftype == "AIC" else "Vec"
    windows, imports, pipes = [], [], []
    for target, call, line in call_statements(fn):
        parts = dotted_parts(call.func)
        if not parts or len(parts) < 2 or parts[-1] not in WINDOW_CALLS:
            continue
        kind = WINDOW_CALLS[parts[-1]]
        if kind == "reserve":
            base, size = integer(keyword(call, "base")), integer(keyword(call, "size"))
            windows.append({
                "name": text(keyword(call, "name"), target or "reserve_buffer"), "space": space,
                "base": base, "size": size, "line": line, "bound": target,
                "placed": base is not None and size is not None and base >= 0 and size > 0,
            })
        elif kind == "import":
            imports.append({"name": text(keyword(call, "name"), ""),
                            "peer": text(keyword(call, "peer_func"), ""), "line": line})
        else:
            names = [a.id for a in call.args if isinstance(a, ast.Name)]
            names += [k.value.id for k in call.keywords if isinstance(k.value, ast.Name)]
            slot_size = integer(keyword(call, "slot_size")) or 0
            slot_num = integer(keyword(call, "slot_num")) or 0
            pipes.append((names, max(slot_size, 0), max(slot_num, 0)))
    for w in windows:
        for names, slot_size, slot_num in pipes:
            if w["bound"] in names and slot_size:
                w["slot_size"] = slot_size
                if not slot_num and w["size"] and w["size"] > 0 and w["size"] % slot_size == 0:
                    slot_num = w["size"] // slot_size
                if slot_num:
                    w["slot_num"] = slot_num
                break
    return windows, imports


def is_tile_annotation(node):
    parts = dotted_parts(node.value) if isinstance(node, ast.Subscript) else None
    return bool(parts) and len(parts) >= 2 and parts[-1] == "Tile"


def name_lines_index(fn):
    """For each name, the lines using it: every line of a statement or
    parameter binding it with a tile annotation, every line reading it
    (one walk of the function; name_lines() takes the union for a box)."""
    index = {}
    params = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
    params += [a for a in (fn.args.vararg, fn.args.kwarg) if a]
    for arg in params:
        if arg.annotation is not None and is_tile_annotation(arg.annotation):
            index.setdefault(arg.arg, set()).update(range(arg.lineno, arg.end_lineno + 1))
    for node in ast.walk(fn):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and is_tile_annotation(node.annotation):
            index.setdefault(node.target.id, set()).update(range(node.lineno, node.end_lineno + 1))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            index.setdefault(node.id, set()).add(node.lineno)
    return index


def name_lines(index, names):
    """The lines using any of `names` (index: name_lines_index())."""
    return sorted(set().union(*(index.get(n, set()) for n in names)))


def idle(uses):
    best = None
    for a, b in zip(uses, uses[1:]):
        if b - a - 1 > 0 and (best is None or b - a - 1 > best[1] - best[0] + 1):
            best = [a + 1, b - 1]
    return best


def grown_hwm(w, boxes, windows):
    above = w["base"] + w["size"]
    hwm = above + w["slot_size"]
    for b in boxes:
        if b["space"] == w["space"] and b["size"] > 0:
            hwm = max(hwm, b["offset"] + b["size"] + (w["slot_size"] if b["offset"] >= above else 0))
    for v in windows:
        if v is not w and v["placed"] and v["space"] == w["space"]:
            hwm = max(hwm, v["base"] + v["size"] + (w["slot_size"] if v["base"] >= above else 0))
    return hwm


def recount_function(fn, model_fn, capacity):
    windows, imports = read_windows(fn, model_fn["ftype"])
    boxes = model_fn["boxes"]
    for w in windows:
        sharing = [i for i, b in enumerate(boxes) if w["placed"] and b["space"] == w["space"]
                   and b["size"] > 0 and b["offset"] < w["base"] + w["size"]
                   and w["base"] < b["offset"] + b["size"]]
        w["conflicts_with"] = sharing[:8]  # the core lists 8 and counts all
        w["conflict_count"] = len(sharing)
        if w["placed"] and w.get("slot_size"):
            w["one_more_slot_hwm"] = grown_hwm(w, boxes, windows)
    spaces = {}
    for b in boxes:
        s = spaces.setdefault(b["space"], {"reserved_bytes": 0, "hwm_with_reserved": 0})
        s["hwm_with_reserved"] = max(s["hwm_with_reserved"], b["offset"] + b["size"])
    for w in windows:
        if w["placed"]:
            s = spaces.setdefault(w["space"], {"reserved_bytes": 0, "hwm_with_reserved": 0})
            s["hwm_with_reserved"] = max(s["hwm_with_reserved"], w["base"] + w["size"])
    for name, s in spaces.items():  # the bytes the windows cover: their union
        total, reach = 0, 0
        for base, end in sorted((w["base"], w["base"] + w["size"]) for w in windows
                                if w["placed"] and w["space"] == name):
            total += max(0, end - max(base, reach))
            reach = max(reach, end)
        s["reserved_bytes"] = total
    for name, s in spaces.items():
        s["headroom"] = capacity[name] - s["hwm_with_reserved"] if name in capacity else None
    # Every statement below the def, nested ones too, on the line the AST gives it.
    statements = [n.lineno for n in ast.walk(fn) if isinstance(n, ast.stmt) and n is not fn]
    index = name_lines_index(fn)
    out_boxes = []
    for b in boxes:
        uses = name_lines(index, {b["name"], *b["aliases"]})
        span = idle(uses)
        out_boxes.append({"uses": uses, "idle": span,
                          "idle_bytes_lines": b["size"] * (span[1] - span[0] + 1) if span else 0,
                          "statements": sum(b["start"] <= line <= b["end"] for line in statements)})
    return {"reserved": windows, "imports": imports, "spaces": spaces, "boxes": out_boxes,
            "statements": len(statements)}


def recount(path, model):
    """The recount of the dump at `path`, one entry per function of `model`."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    capacity = CAPACITY[model["backend"]["name"]]
    defs = [fn for cls in tree.body if isinstance(cls, ast.ClassDef)
            for fn in cls.body if isinstance(fn, ast.FunctionDef)]
    out, at = [], 0
    for f in model["functions"]:  # in source order, as the defs
        while defs[at].name != f["name"]:
            at += 1
        out.append(recount_function(defs[at], f, capacity))
        at += 1
    return out


def main(argv):
    if argv[1:] == ["--batch"]:
        json.dump([recount(item["dump"], item["model"]) for item in json.load(sys.stdin)], sys.stdout)
    elif len(argv) == 2:
        json.dump(recount(argv[1], json.load(sys.stdin)), sys.stdout)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
