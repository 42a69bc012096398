#!/usr/bin/env python3
"""An independent oracle of the memory-map model: from one pass dump, the
compute functions (name, ftype, src_start, src_end, source), their spaces
and their boxes, or the refusal, as docs/model.md (§2-§8, §13, "Where
the core departs from Python, on purpose") defines them.

Written from that document only, with CPython's own `ast`, and
without reading the C core, so that it can catch the core's mistakes.
Only the upstream keys are computed (no windows, live profile or uses).

usage: model.py DUMP                  prints {"dump", ..., "functions": [...]} or {"error": KIND, ...}
       model.py --batch < [PATH, ...] prints [RESULT, ...] (one process for many dumps)

DUMP may also be a passes_dump/ folder or a build_output/<case>/ folder:
the highest-numbered `NN_after_AllocateMemoryAddr.py` in it is read, and
the case's ptoas/*.pto files choose the backend.

Every result carries `departures`: which of §13's departures from the
upstream tool changed this reading (where upstream reads the dump
otherwise), so that a difference from upstream itself can be told apart
from a mistake (tests/support/mutants.mjs): bom, printed, names, limit,
zero_size, handoff, unallocated, skipped, slots, legacy, parameters,
op_parts, lines.

Refusals: `syntax` (CPython's line and message), `no_tiles`, `unallocated`
(with `functions`), `encoding` (empty, binary, UTF-16, not UTF-8), `limit`
(over 256 MiB, an integer beyond 2^53, a name NFKC would change or with a
combining mark, a \\N{...} escape), `invalid` (a NUL byte, or nesting CPython
itself cannot parse). Not modelled: the core's own limit of 1000 nested
expression levels (docs/model.md §13 does not say how levels are counted).
"""
import ast
import io
import json
from keyword import iskeyword
import re
import sys
import tokenize
import unicodedata
import warnings
from pathlib import Path

# A SyntaxWarning (`0for`, an invalid escape) is a warning, as the upstream
# tool's command line meets it (docs/model.md §13), not a refusal.
warnings.simplefilter("ignore", SyntaxWarning)

COMPUTE_TYPES = {"AIC", "AIV", "InCore"}
SPACE_RANK = {s: i for i, s in enumerate(
    ["Vec", "Mat", "Left", "LeftScale", "Right", "RightScale", "Acc", "Bias"])}
OTHER_RANK = 8
# §12's table, retyped here on purpose: the oracle keeps its own copy.
BACKENDS = [
    ("Ascend910B", "a2a3", {"Vec": 188416, "Mat": 524288, "Left": 65536, "Right": 65536,
                            "Acc": 131072, "Bias": 1024}),
    ("Ascend950", "a5", {"Vec": 245760, "Mat": 524288, "Left": 65536, "Right": 65536,
                         "Acc": 262144, "Bias": 4096, "LeftScale": 4096, "RightScale": 4096}),
]
DEFAULT_PASS = "AllocateMemoryAddr"
OP_PARTS_MAX = 64  # docs/model.md §4: past 64 parts, "..." and the last 64
SIZE_LIMIT = 256 * 1024 * 1024  # §13 limit (a)
INT_LIMIT = 2 ** 53  # §13 limit (b): beyond it a JSON reader loses the integer
BINARY_MAGIC = [(b"\x89PNG", "a PNG image"), (b"\x7fELF", "an ELF binary"), (b"PK\x03\x04", "a zip archive"),
                (b"\x1f\x8b", "gzip data"), (b"%PDF-", "a PDF document"), (b"\xff\xd8\xff", "a JPEG image"),
                (b"GIF8", "a GIF image"), (b"\xfd7zXZ\x00", "xz data")]


DEPARTED = set()  # the departures met while reading one dump


class Refusal(Exception):
    """A refusal found while reading tiles (§13 `limit`)."""

    def __init__(self, kind, message, line):
        super().__init__(message)
        self.result = {"error": kind, "message": message, "line": line}


# ---------------------------------------------------------------- reading the AST

def dotted(node):
    """The parts of a dotted name made of names and attributes only, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def ends_with(node, last):
    """A dotted name of two or more parts whose last part is `last` (`pl.Tile`)."""
    parts = dotted(node)
    return parts is not None and len(parts) >= 2 and parts[-1] == last


def literal_int(node):
    """An integer literal or a negated one; bools are ints, as in Python."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return int(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, int):
        return -int(node.operand.value)
    return None


def integer(node):
    """A literal integer, or `<dotted>.const(<literal>, ...)`, else None."""
    value = literal_int(node)
    if value is not None:
        return value
    if isinstance(node, ast.Call) and ends_with(node.func, "const") and node.args:
        return literal_int(node.args[0])
    return None


def constant_terms(node):
    """The sum of the integer terms of a top-level `+`/`-` chain (the address a runtime slot index adds to)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        right = constant_terms(node.right)
        return constant_terms(node.left) + (right if isinstance(node.op, ast.Add) else -right)
    value = integer(node)
    return value if value is not None else 0


def keyword(call, name):
    found = None
    for kw in call.keywords:
        if kw.arg == name:
            found = kw.value
    return found


def memref(annotation):
    """The first readable `.MemRef` call, breadth-first: (base, offset, size, slots), where slots is
    None or (count, slot size, index text, runtime). Else (None, met): met says a MemRef was there."""
    parents = {id(child): node for node in ast.walk(annotation) for child in ast.iter_child_nodes(node)}
    met, legacy_space = False, None
    for node in ast.walk(annotation):
        if not (isinstance(node, ast.Call) and ends_with(node.func, "MemRef")):
            continue
        met = True
        legacy = dotted(node.args[0]) if node.args else None
        if legacy is not None and len(legacy) >= 2 and legacy[-2] == "MemorySpace" and len(node.args) >= 4:
            # The older form (space, address, size, id): its buffer is `mem_<space>_<id>`.
            address, size, ident = (integer(a) for a in node.args[1:4])
            if address is None or size is None or ident is None or address == -1:
                legacy_space = legacy_space or legacy[-1]  # names its space, placed or not
                continue
            DEPARTED.add("legacy")
            return f"mem_{legacy[-1].lower()}_{ident}", address, size, None, legacy[-1]
        if len(node.args) < 3:
            continue
        base_node, offset, size = node.args[0], integer(node.args[1]), integer(node.args[2])
        if isinstance(base_node, ast.Name):
            base = base_node.id
        elif isinstance(base_node, ast.Constant) and isinstance(base_node.value, str):
            base = base_node.value
        else:
            continue
        count_node = keyword(node, "slots")
        count = 1 if count_node is None else integer(count_node)
        if size is None or count is None or count < 1:
            continue
        parent = parents.get(id(node))
        index = parent.slice if isinstance(parent, ast.Subscript) and parent.value is node else None
        runtime = False
        if offset is None:
            if count < 2 or index is None or integer(index) is not None:
                continue
            offset, runtime = constant_terms(node.args[1]), True
        slots = None
        if count > 1:
            DEPARTED.add("slots")
            text = ast.get_source_segment(SOURCE[0], index) if index is not None else None
            slots = (count, size, text, runtime)
        return base, offset, size * count if runtime else size, slots, None
    return None, met, legacy_space


def space_of(annotation):
    """The <Space> of the first `<dotted>.Mem.<Space>` attribute, breadth-first."""
    for node in ast.walk(annotation):
        if isinstance(node, ast.Attribute):
            parts = dotted(node)
            if parts is not None and len(parts) >= 2 and parts[-2] == "Mem":
                return parts[-1]
    return None


def subscript_items(annotation):
    """The elements of `X[a, b, c]` (a lone `X[a]` gives [a])."""
    sl = annotation.slice
    return list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]


def shape_of(items):
    if items and isinstance(items[0], ast.List):
        dims = [integer(e) for e in items[0].elts]
        if all(d is not None for d in dims):
            return dims
    return []


def dtype_of(items):
    for item in items[1:3]:
        parts = dotted(item)
        if parts is not None and len(parts) == 2 and parts[1].isupper():
            return parts[1]
    return ""


def tile_fields(annotation):
    """The tile an annotation describes (fields but name, op, lines); "skipped" when it is on-chip
    but no MemRef gives an address; else None."""
    if not (isinstance(annotation, ast.Subscript) and ends_with(annotation.value, "Tile")):
        return None
    ref, space = memref(annotation), space_of(annotation)
    if space is None:
        space = ref[4] if ref[0] is not None else ref[2]  # the older form names its space in the MemRef
    if space is None or space == "DDR":
        return None  # off-chip memory
    if ref[0] is None:
        return "skipped" if ref[1] else None
    items = subscript_items(annotation)
    shape = shape_of(items)
    if any(abs(v) > INT_LIMIT for v in [ref[1], ref[2], *shape]):
        DEPARTED.add("limit")
        raise Refusal("limit", f"an integer on line {annotation.lineno} is beyond 2^53", annotation.lineno)
    return {"space": space, "base": ref[0], "offset": ref[1], "size": ref[2],
            "shape": shape, "dtype": dtype_of(items), "slots": ref[3]}


def op_of(value):
    """The callee of an assigned call, minus a leading `pl.`; else ""."""
    if not isinstance(value, ast.Call):
        return ""
    parts = dotted(value.func)
    if parts is None:
        return ""
    if len(parts) >= 2 and parts[0] == "pl":
        parts = parts[1:]
    if len(parts) > OP_PARTS_MAX:
        DEPARTED.add("op_parts")
        return "..." + ".".join(parts[-OP_PARTS_MAX:])
    return ".".join(parts)


# ---------------------------------------------------------------- functions

def function_type(fn):
    """The last component of the last `type=` of a `<dotted>.function(...)` decorator."""
    ftype = None
    for dec in fn.decorator_list:
        if isinstance(dec, ast.Call) and ends_with(dec.func, "function"):
            for kw in dec.keywords:
                if kw.arg == "type":
                    parts = dotted(kw.value)
                    ftype = parts[-1] if parts else None  # the last one wins, as upstream reads it
    return ftype


def candidate_functions(module):
    for cls in module.body:
        if isinstance(cls, ast.ClassDef):
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef):
                    yield fn


def parameters(fn):
    """In ast's own grouping: positional, keyword-only, then *args, then **kwargs."""
    a = fn.args
    return a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p]


def loop_spans(fn):
    """Every `for` and `while` loop in the function: (header line, last line of its body); its `else`
    clause runs once and is no part of it."""
    return [(node.lineno, node.body[-1].end_lineno) for node in ast.walk(fn)
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While))]


def collect_tiles(fn):
    """name -> tile, in order of first binding (parameters, then breadth-first)."""
    tiles = {}
    skipped = []  # on-chip tiles whose MemRef gives no address: listed, never drawn
    for p in parameters(fn):  # a parameter that is no tile binds nothing (§5)
        if p.annotation is None:
            continue
        fields = tile_fields(p.annotation)
        if fields == "skipped":
            skipped.append(p.arg)
        elif fields and p.arg in tiles:
            DEPARTED.add("parameters")  # upstream keeps the last
        elif fields:
            tiles[p.arg] = dict(name=p.arg, **fields, op="param", start=p.lineno, end=p.end_lineno)
    reads = {}  # name -> lines where Python's parser marks it a load
    for node in ast.walk(fn):  # breadth-first: shallower first, then source order
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):  # decorators, annotations and defaults too
                reads.setdefault(node.id, []).append(node.lineno)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
            fields = tile_fields(node.annotation)
            if fields == "skipped":
                skipped.append(name)
            if name in tiles:  # bound again, tile or not: it grows; before its tile, nothing
                grow(tiles[name], node.lineno, node.end_lineno)
            elif fields and fields != "skipped":
                tiles[name] = dict(name=name, **fields, op=op_of(node.value),
                                   start=node.lineno, end=node.end_lineno)
    for name, tile in tiles.items():
        lines = reads.get(name)
        if lines:
            grow(tile, min(lines), max(lines))
    return list(tiles.values()), skipped


def grow(tile, first, last):
    tile["start"] = min(tile["start"], first)
    tile["end"] = max(tile["end"], last)


# ---------------------------------------------------------------- boxes

def make_boxes(tiles, starts, loops):
    slots = {}
    for t in tiles:  # dicts keep the order slots first appear
        index = t["slots"][2] if t["slots"] else None  # ping and pong of one allocation: two boxes
        slots.setdefault((t["space"], t["base"], t["offset"], t["size"], index), []).append(t)
    boxes = []
    for members in slots.values():
        run, reach = [], None
        for t in sorted(members, key=lambda t: t["start"]):  # stable
            if run and t["start"] <= reach:  # touching or overlapping: one run
                run.append(t)
                reach = max(reach, t["end"])
            else:
                if run:
                    boxes.append(box_of(run, reach))
                run, reach = [t], t["end"]
        boxes.append(box_of(run, reach))
    boxes.sort(key=lambda b: (SPACE_RANK.get(b["space"], OTHER_RANK), b["offset"], b["start"]))
    mark_overlaps(boxes, starts, loops)
    return boxes


def box_of(run, end):
    first = run[0]
    return {"name": first["name"], "space": first["space"], "base": first["base"],
            "offset": first["offset"], "size": first["size"], "shape": first["shape"],
            "dtype": first["dtype"], "op": first["op"], "start": first["start"],
            "end": end, "aliases": [t["name"] for t in run[1:]],
            "view": False, "conflict": False, "slots": first["slots"]}


def hands_over(first, second, starts, loops):
    """`first`'s last line lies in the statement binding `second`, and no loop holds that statement
    but not `first`'s first line (its next turn would read `first` again): the planners read a
    statement's inputs before they write its output, so that is in-place reuse, not a conflict. A
    slot of a multi-buffered allocation hands nothing over (its other slots are in flight)."""
    return (first["start"] < second["start"] <= first["end"] and second["start"] in starts
            and not any(second["start"] < line <= first["end"] for line in starts)
            and not any(a <= second["start"] <= b and not a <= first["start"] <= b for a, b in loops)
            and not first["slots"] and not second["slots"])


def mark_overlaps(boxes, starts, loops):
    """Views (same base), in-place handoffs and conflicts (different bases), visiting the pairs as §7
    says: per space in box order, each later box while it starts inside the earlier one's bytes."""
    spaces = {}
    for box in boxes:
        spaces.setdefault(box["space"], []).append(box)
    for group in spaces.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if b["offset"] >= a["offset"] + a["size"]:
                    break
                if a["start"] > b["end"] or b["start"] > a["end"]:
                    continue
                mark_pair(boxes, a, b, starts, loops)


def mark_pair(boxes, a, b, starts, loops):
    """`b` starts inside `a`'s bytes and their lifetimes meet."""
    if a["base"] == b["base"]:
        if not (a["slots"] or b["slots"]):  # slots of one allocation: neither views nor conflicts
            (b if b["size"] <= a["size"] else a)["view"] = True
    elif b["size"] <= 0:
        DEPARTED.add("zero_size")  # no byte held: never a conflict (§13's departures)
    elif hands_over(a, b, starts, loops) or hands_over(b, a, starts, loops):
        first, second = (a, b) if hands_over(a, b, starts, loops) else (b, a)
        position = {id(box): k for k, box in enumerate(boxes)}
        DEPARTED.add("handoff")
        first["in_place_to"] = position[id(second)]
        second["in_place_from"] = position[id(first)]
    else:
        a["conflict"] = b["conflict"] = True


def make_spaces(boxes, capacity):
    spaces = {}
    for b in boxes:  # box order is rank order
        spaces.setdefault(b["space"], []).append(b)
    out = []
    for space, members in spaces.items():
        hwm = max(b["offset"] + b["size"] for b in members)
        out.append({"space": space, "hwm": hwm, "limit": capacity.get(space) or hwm,
                    "tiles": len(members), "bases": len({b["base"] for b in members})})
    return out


AFTER_ALLOCATION = {"FoldNoOpReshape", "FuseCreateAssembleToSlice", "DeriveCallDirections",
                    "AutoDeriveTaskDependencies", "ExpandManualPhaseFence", "SynthesizeAllReduceSignals",
                    "MaterializeCommDomainScopes", "LowerHostTensorCollectives", "MaterializeDistTensorCtx",
                    "Simplify", "MaterializeRuntimeScopes", "ClassifyIterArgCarry", "InsertCommFence",
                    "MaterializeValidShapeSymbols"}  # docs/model.md §13: passes after AllocateMemoryAddr


def pass_stage(dump_name):
    """"allocate" (AllocateMemoryAddr's own dump), "after" (a later pass) or "other", by the name's pass."""
    if "_after_" not in dump_name:
        return "other"
    name = dump_name.split("_after_")[-1].split(".")[0]
    return "allocate" if name == "AllocateMemoryAddr" else "after" if name in AFTER_ALLOCATION else "other"


def placement_pattern(tiles):
    """Whether the tiles look as they do before any address is assigned, when a space holds two or
    more bases (of bytes): "all_zero" when every tile sits at 0 (upstream's test), "bases_at_zero"
    when every base starts at 0, else None."""
    lowest, holds = {}, set()
    for t in tiles:
        key = (t["space"], t["base"])
        lowest[key] = min(lowest.get(key, t["offset"]), t["offset"])
        if t["size"] > 0:
            holds.add(key)  # a base of zero-size tiles shares no bytes
    per_space = {}
    for key, low in lowest.items():
        if key in holds:
            per_space.setdefault(key[0], []).append(low)
    if not any(len(lows) >= 2 for lows in per_space.values()):
        return None
    if all(t["offset"] == 0 for t in tiles):
        return "all_zero"
    return "bases_at_zero" if all(low == 0 for lows in per_space.values() for low in lows) else None


def pinned_allocations(fn):
    """name -> (space, size) of `NAME = <dotted>.alloc(<...>.Mem.<Space>, SIZE, pinned=True)`, the
    first line of a name counting (§4a)."""
    found = {}
    for node in ast.walk(fn):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        if len(targets) < 1 or not isinstance(targets[0], ast.Name) or not isinstance(value, ast.Call):
            continue
        if not ends_with(value.func, "alloc") or not value.args or targets[0].id in found:
            continue
        space, pinned = dotted(value.args[0]), keyword(value, "pinned")
        size = integer(value.args[1]) if len(value.args) > 1 else None
        if space and len(space) >= 2 and space[-2] in ("Mem", "MemorySpace"):
            found[targets[0].id] = (space[-1], size, isinstance(pinned, ast.Constant) and pinned.value is True)
    return {name: (space, size) for name, (space, size, pinned) in found.items() if pinned and size}


def slot_start(tile):
    """Where a tile puts its allocation: slot k of a constant index k is k slots above it."""
    slots = tile["slots"]
    if slots and not slots[3] and slots[2] is not None and re.fullmatch(r"\d+", slots[2]):
        return tile["offset"] - int(slots[2]) * slots[1]
    return tile["offset"]


def shares_placed_bytes(fn, tiles, boxes):
    """Whether live tiles of different bases share bytes (a conflict left after in-place handoffs),
    or a tile of another base shares a pinned allocation's bytes, held for the whole function."""
    if any(b["conflict"] for b in boxes):
        return True
    for name, (space, size) in pinned_allocations(fn).items():
        starts = [slot_start(t) for t in tiles if t["base"] == name and t["space"] == space]
        if not starts or min(starts) < 0:
            continue
        lo = min(starts)
        if any(b["space"] == space and b["base"] != name and b["size"] > 0 and b["offset"] < lo + size
               and lo < b["offset"] + b["size"] for b in boxes):
            return True
    return False


def refused_unallocated(fn, tiles, boxes, dump_name):
    """§13: a function whose tiles look unplaced is refused, but never in AllocateMemoryAddr's own
    dump; in a later pass's lone dump only when those offsets put live tiles of different bases on
    the same bytes (a build ptoas placed); before it always. Notes where upstream (every tile at 0,
    whatever the pass) says otherwise."""
    pattern = placement_pattern(tiles)
    stage = pass_stage(dump_name)
    if pattern is None or stage == "allocate":
        ours = False
    elif stage == "after":
        ours = shares_placed_bytes(fn, tiles, boxes)
    else:
        ours = True
    if ours != (pattern == "all_zero"):
        DEPARTED.add("unallocated")
    return ours


# ---------------------------------------------------------------- the model

def split_lines(text):
    """Physical lines: a line ends at \\n, \\r\\n or a lone \\r."""
    return re.split(r"\r\n|\r|\n", text)


SOURCE = [""]  # the text being read (as rewritten below), for the source of a slot index
EMPTY_BLOCK = re.compile(r"expected an indented block after '(for|while|with|if|elif|else)' statement")
VIEW_KEYWORDS = {"tile_view", "tensor_view"}
KEYWORD_SUFFIX = "__printed_keyword"


def tokens_of(text):
    """The tokenize module's tokens of `text`, up to a tokenizer error (an unclosed bracket, say: the
    forms before it still read). A line holding only a continuation trips the module's indentation
    (the C tokenizer counts it otherwise): blanked for this scan, the other lines' columns unchanged."""
    tokens = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(re.sub(r"(?m)^[ \t\f]*\\$", "", text)).readline):
            tokens.append(token)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return tokens


def rewrite_printed(text):
    """What only PyPTO's printer writes (docs/model.md §2a), rewritten to Python that reads the
    same, columns kept where it can: `<unsupported IRNode type>` as `...`, `tile_view=` inside a
    subscript's brackets as blanks, a keyword after a dot as a name (renamed back after parsing)."""
    tokens = tokens_of(text)
    lines = lines_with_ends(text)
    edits = []  # (row, col, end_col, replacement), applied right to left
    brackets = []
    for i, t in enumerate(tokens):
        if t.type == tokenize.OP and t.string in "([{":
            brackets.append(t.string)
        elif t.type == tokenize.OP and t.string in ")]}" and brackets:
            brackets.pop()
        words = [x.string for x in tokens[i:i + 5]]
        if words == ["<", "unsupported", "IRNode", "type", ">"] and tokens[i + 4].start[0] == t.start[0]:
            end = tokens[i + 4].end[1]
            edits.append((t.start[0], t.start[1], end, "..." + " " * (end - t.start[1] - 3)))
        elif (t.type == tokenize.NAME and t.string in VIEW_KEYWORDS and brackets and brackets[-1] == "["
              and i + 1 < len(tokens) and tokens[i + 1].string == "="):
            edits.append((t.start[0], t.start[1], tokens[i + 1].end[1], " " * (tokens[i + 1].end[1] - t.start[1])))
        elif t.type == tokenize.NAME and iskeyword(t.string) and i and tokens[i - 1].string == ".":
            edits.append((t.start[0], t.start[1], t.end[1], t.string + KEYWORD_SUFFIX))
    for row, col, end, new in sorted(edits, reverse=True):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + new + line[end:]
    return "".join(lines)


def lines_with_ends(text):
    """Lines as tokenize counts them in text whose line ends are all \n (str.splitlines also
    splits at \x0c, \x85, U+2028 ...)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def fill_empty_block(text, error):
    """`pass` after the colon ending the header the error names (an empty block the printer wrote,
    at the end of the file too), or None when the error is another."""
    found = EMPTY_BLOCK.match(error.msg or "")
    if not found:
        return None
    header = int(re.search(r"on line (\d+)", error.msg).group(1))
    colon, last = None, None
    for t in tokens_of(text):
        if t.start[0] > error.lineno:
            break
        ends_header = t.type == tokenize.NEWLINE and last is not None and last.string == ":"
        if ends_header and header <= last.start[0] and (last.start[0] < error.lineno or header == error.lineno):
            colon = last  # a header's colon ending its line, before the error's (at the end of the file, on it)
        if t.type not in (tokenize.COMMENT, tokenize.NL):
            last = t
    if colon is None:
        return None
    lines = lines_with_ends(text)
    row, col = colon.end
    lines[row - 1] = lines[row - 1][:col] + " pass" + lines[row - 1][col:]
    return "".join(lines)


def parse_printed(data):
    """ast.parse of the dump, reading what only PyPTO's printer writes as the core does."""
    try:
        return ast.parse(data)
    except SyntaxError as first:
        try:
            text = data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise first from None
        text = re.sub(r"\r\n?", "\n", text)  # one line end, as the tokenizer reads them
        rewritten = rewrite_printed(text)
        if rewritten != text:
            DEPARTED.add("printed")  # read on, where upstream stops at the printer's form
        text = rewritten
        for _ in range(10000):
            try:
                module = ast.parse(text)
                break
            except SyntaxError as e:
                filled = fill_empty_block(text, e)
                if filled is None:
                    raise
                DEPARTED.add("printed")
                text = filled
        for node in ast.walk(module):
            if isinstance(node, ast.Attribute) and node.attr.endswith(KEYWORD_SUFFIX):
                node.attr = node.attr[:-len(KEYWORD_SUFFIX)]
        SOURCE[0] = text
        PRINTED[0] = True
        DEPARTED.add("printed")
        return module


PRINTED = [False]  # the text was rewritten: SOURCE holds it


LINE_ENDS_UPSTREAM = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")  # str.splitlines' others


def model_of_source(data, dump_name="dump.py", backend=None):
    """The model of a dump's bytes, or the refusal; either with its `departures`."""
    DEPARTED.clear()
    if data.startswith(b"\xef\xbb\xbf"):
        DEPARTED.add("bom")
    result = read_source(data, dump_name, backend)
    result["departures"] = sorted(DEPARTED)
    return result


def read_source(data, dump_name, backend):
    PRINTED[0] = False
    refused = refuse_bytes(data)
    if refused:
        return refused
    try:
        module = parse_printed(data)
    except SyntaxError as e:
        return {"error": "syntax", "line": e.lineno, "message": e.msg}
    except ValueError as e:
        return {"error": "invalid", "message": str(e)}
    except (MemoryError, RecursionError):  # CPython's own limit on nesting
        return {"error": "invalid", "message": "too deeply nested"}
    text = data.decode("utf-8").removeprefix("\ufeff")  # refuse_bytes saw it is UTF-8
    refused = refuse_names(text)
    if refused:
        DEPARTED.add("names" if "name" in refused["message"] or "\\N" in refused["message"] else "limit")
        return refused
    if LINE_ENDS_UPSTREAM.search(text):
        DEPARTED.add("lines")
    try:
        source_lines = split_lines(text)
        if not PRINTED[0]:
            SOURCE[0] = text
        PRINTED[0] = False
        return build_model(module, source_lines, dump_name, backend)
    except Refusal as r:
        return r.result


def build_model(module, lines, dump_name, backend):
    name, arch, capacity, detected = backend or (BACKENDS[0][0], BACKENDS[0][1], BACKENDS[0][2], False)
    functions, stale = [], []
    for fn in candidate_functions(module):
        ftype = function_type(fn)
        if ftype not in COMPUTE_TYPES:
            continue
        tiles, skipped = collect_tiles(fn)
        if not tiles and not skipped:
            continue
        if skipped:
            DEPARTED.add("skipped")  # upstream drops them in silence
        src_start = fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno
        src_end = fn.body[-1].end_lineno
        # In-place handoffs only where the dump's name says a planner placed it (§7).
        placed = "_after_" in dump_name and pass_stage(dump_name) != "other"
        starts = {node.lineno for node in ast.walk(fn) if isinstance(node, ast.stmt) and node is not fn} if placed else set()
        loops = loop_spans(fn)
        boxes = make_boxes(tiles, starts, loops)
        if refused_unallocated(fn, tiles, boxes, dump_name):
            stale.append(fn.name)
        functions.append({"name": fn.name, "ftype": ftype, "src_start": src_start, "src_end": src_end,
                          "source": lines[src_start - 1:src_end],
                          "spaces": make_spaces(boxes, capacity), "boxes": boxes,
                          # Not the model's: what hands_over reads, for tests that need its time (what-if).
                          "statement_starts": sorted(starts), "loops": [list(span) for span in loops]})
    if not any(f["boxes"] for f in functions):
        return {"error": "no_tiles"}
    if stale:
        return {"error": "unallocated", "functions": stale}
    return {"dump": dump_name, "pass_name": pass_name(dump_name),
            "backend": {"name": name, "arch": arch, "detected": detected}, "functions": functions}


def refuse_bytes(data):
    """§13's refusals of what is no dump, before Python reads it: too large, empty, binary, not UTF-8."""
    if len(data) > SIZE_LIMIT:
        DEPARTED.add("limit")
        return {"error": "limit", "message": "input larger than 256 MiB"}
    if not data:
        return {"error": "encoding", "message": "the file is empty"}
    for magic, what in BINARY_MAGIC:
        if data.startswith(magic):
            return {"error": "encoding", "message": f"this is {what}, not a pass dump", "line": 1}
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return {"error": "encoding", "message": "a UTF-16 file", "line": 1}
    if b"\0" in data:  # kind as CPython's ValueError (the brief); docs/model.md §13 calls it `encoding`
        return {"error": "invalid", "message": "source code string cannot contain null bytes",
                "line": line_of(data, data.index(b"\0"))}
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return {"error": "encoding", "message": f"invalid UTF-8 byte 0x{data[e.start]:02X}",
                "line": line_of(data, e.start)}
    return None


def line_of(data, index):
    return len(split_lines(data[:index].decode("utf-8", "replace")))


NAME_RUN = re.compile(r"(?:[A-Za-z0-9_]|[^\x00-\x7f])+")


def refuse_names(text):
    """§13 limit (c) and the \\N{...} escape: a name NFKC would change or holding a
    combining mark; a \\N{...} escape in a string. Most dumps have neither."""
    if "\\N{" not in text and not any(changed_name(m.group()) for m in NAME_RUN.finditer(text)):
        return None  # no candidate even in strings and comments: no need to tell them apart
    lines = io.StringIO(text, newline=None).read().split("\n")
    masked = {}  # line -> [(from, to)] columns of strings and comments: no names there
    try:
        for tok in tokenize.generate_tokens(iter(line + "\n" for line in lines).__next__):
            if tok.type == tokenize.STRING and named_escape(tok.string):
                return {"error": "limit", "message": "a \\N{...} escape", "line": tok.start[0]}
            if tok.type in (tokenize.STRING, tokenize.COMMENT):
                for row in range(tok.start[0], tok.end[0] + 1):
                    lo = tok.start[1] if row == tok.start[0] else 0
                    hi = tok.end[1] if row == tok.end[0] else len(lines[row - 1]) + 1
                    masked.setdefault(row, []).append((lo, hi))
            if tok.type == tokenize.STRING and "f" in string_prefix(tok.string).lower():
                for row, name in fstring_names(tok.string, tok.start[0]):  # code inside {...}
                    if changed_name(name):
                        return {"error": "limit", "message": f"the name {name!r} is not as Python reads it",
                                "line": row}
    except (tokenize.TokenError, SyntaxError, StopIteration):
        return None  # ast.parse accepted it; the tokenize module is not the judge
    for row, line in enumerate(lines, 1):
        if line.isascii():
            continue
        for m in NAME_RUN.finditer(line):
            name = m.group()
            if name.isascii() or any(lo <= m.start() < hi for lo, hi in masked.get(row, [])):
                continue
            if changed_name(name):
                return {"error": "limit", "message": f"the name {name!r} is not as Python reads it", "line": row}
    return None


def changed_name(name):
    """A non-ASCII name that NFKC changes (Python reads another name), or with a
    combining or composing mark (§13 (c): refused even where nothing precedes
    it to compose with)."""
    return not name.isascii() and (unicodedata.normalize("NFKC", name) != name
                                   or any(unicodedata.combining(c) or c in composing_marks() for c in name))


_COMPOSING = []


def composing_marks():
    """Characters that compose with one before them (the second of a canonical
    pair, Hangul vowel and trailing jamo by rule); made once, when needed."""
    if not _COMPOSING:
        marks = {chr(c) for c in list(range(0x1161, 0x1176)) + list(range(0x11A8, 0x11C3))}
        for cp in range(0x80, 0x30000):
            parts = unicodedata.decomposition(chr(cp)).split()
            if len(parts) == 2 and not parts[0].startswith("<"):
                pair = "".join(chr(int(x, 16)) for x in parts)
                if unicodedata.normalize("NFC", pair) == chr(cp):
                    marks.add(pair[1])
        _COMPOSING.append(marks)
    return _COMPOSING[0]


def string_prefix(literal):
    return literal[:len(literal) - len(literal.lstrip("rRbBuUfF"))]


def fstring_names(literal, first_row):
    """(line, name run) of the code in an f-string's replacement fields, its text left out:
    `{{`/`}}`, quoted strings in a field, conversions and format specs (whose own
    nested fields are code again)."""
    prefix = string_prefix(literal)
    quote = literal[len(prefix):len(prefix) + 3]
    quote = quote if quote in ('"""', "'''") else quote[0]
    body = literal[len(prefix) + len(quote):len(literal) - len(quote)]
    code = [c if c == "\n" else " " for c in body]
    modes, parens, i = ["text"], [0], 0
    while i < len(body):
        c = body[i]
        if modes[-1] == "text":
            if len(modes) == 1 and body.startswith(("{{", "}}"), i):
                i += 2
                continue
            if c == "{":
                modes.append("code")
                parens.append(0)
            elif c == "}" and len(modes) > 1:  # the end of a format spec ends its field
                del modes[-2:], parens[-2:]
            i += 1
            continue
        if c in "\'\"":  # a string inside a field: text, up to the same quote
            end = body.find(c, i + 1)
            i = len(body) if end < 0 else end + 1
            continue
        if c in "([{":
            parens[-1] += 1
        elif c in ")]" or (c == "}" and parens[-1] > 0):
            parens[-1] -= 1
        elif c == "}":
            modes.pop()
            parens.pop()
        elif c == ":" and parens[-1] == 0:
            modes.append("text")
            parens.append(0)
        elif c == "!" and parens[-1] == 0 and not body.startswith("!=", i):
            i += 2  # a conversion, !r
            continue
        else:
            code[i] = c
        i += 1
    masked = "".join(code)
    for m in NAME_RUN.finditer(masked):
        yield first_row + masked.count("\n", 0, m.start()), m.group()


def named_escape(literal):
    """Whether a str literal (not raw, not bytes) holds a \\N{...} escape."""
    prefix = string_prefix(literal).lower()
    if "r" in prefix or "b" in prefix:
        return False
    return re.search(r"(?<!\\)(?:\\\\)*\\N\{", literal) is not None


def pass_name(dump_name):
    return re.sub(r"\.py$", "", re.sub(r"^\d+_after_", "", dump_name))


# ---------------------------------------------------------------- folders and backends

def resolve(path):
    """The dump to read and the case's ptoas/ folder (beside passes_dump/), as docs/cli.md says:
    a file is itself; a folder gives the highest-numbered NN_after_AllocateMemoryAddr.py of its
    passes_dump/ (or of itself without one), numbers compared as numbers, then names' bytes."""
    path = Path(path)
    if not path.is_dir():
        return path, (path.parent.parent / "ptoas" if path.parent.name == "passes_dump" else None)
    dumps = path / "passes_dump" if (path / "passes_dump").is_dir() else path
    pattern = re.compile(r"(\d+)_after_" + re.escape(DEFAULT_PASS) + r"\.py")
    found = [(int(m.group(1)), p.name.encode(), p) for p in dumps.iterdir() if (m := pattern.fullmatch(p.name))]
    if not found:
        raise FileNotFoundError(f"no *_after_{DEFAULT_PASS}.py in {dumps}")
    case = dumps.parent if dumps.name == "passes_dump" else dumps
    return max(found)[2], case / "ptoas"


def detect_backend(ptoas):
    """The backend named by the first pto.target_arch of the case's .pto files, else None."""
    if ptoas is None or not ptoas.is_dir():
        return None
    for pto in sorted(ptoas.glob("*.pto"), key=lambda p: p.name):
        m = re.search(r'pto\.target_arch[ \t]*=[ \t]*"([^"\n\r]*)"', pto.read_text(errors="replace"))
        if m:
            for name, arch, capacity in BACKENDS:
                if arch == m.group(1):
                    return name, arch, capacity, True
            return None  # only the first attribute counts
    return None


def model_of_path(path):
    dump, ptoas = resolve(path)
    return model_of_source(dump.read_bytes(), dump.name, detect_backend(ptoas))


def model_or_io_error(path):
    """In a batch, a file that cannot be read is one result, not the end of the batch."""
    try:
        return model_of_path(path)
    except OSError as e:
        return {"error": "io", "message": str(e)}


def main(argv):
    if argv[1:] == ["--batch"]:
        print(json.dumps([model_or_io_error(p) for p in json.load(sys.stdin)]))
    elif len(argv) == 2:
        print(json.dumps(model_of_path(argv[1])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
