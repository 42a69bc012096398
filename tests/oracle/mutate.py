#!/usr/bin/env python3
"""Mutants of real dumps, as a compiler, an editor or a careless script
might make them: a statement deleted, duplicated or swapped with the
next, a name renamed, a line continued with a backslash, CRLF or CR line
ends, a tab, a blank line or comment added, a block wrapped in `if True:`,
a bracket dropped or added, a stray token, a BOM; and edits the model
reads: a MemRef's base, offset or size changed, a tile moved to another
memory space, a tile's name bound again by a non-tile annotation, a tile
read (or not) in another syntactic form, a name made non-ASCII. Seeded:
the same seed gives the same mutants.

usage: mutate.py SEED COUNT OUT_DIR DUMP...   (writes OUT_DIR/mNNNN.py)
"""
import os
import random
import re
import sys

NAME = re.compile(r"\b[a-z_][a-z0-9_]*__[a-z0-9_]+\b")  # the dumps' SSA-style names
MEMREF = re.compile(r'pl\.MemRef\(("?[\w]+"?), pl\.const\((-?\d+), pl\.INT64\), (\d+)\)')
TILE = re.compile(r"^\s*(\w+): pl\.Tile\[", re.M)
SPACES = ["Vec", "Mat", "Left", "Right", "Acc", "Bias"]
# A tile `{t}` read, bound or only named (not a read), as statements of a body.
FORMS = [
    "y_m = f({t})", "y_m = [{t} for _ in r]", "y_m = f\"{{{t}}}\"", "y_m = lambda q={t}: q",
    "y_m = {t}.shape", "y_m = {t}[0]", "y_m = (*{t},)", "y_m = {{'k': {t}}}", "y_m = {t} if c else 0",
    "del {t}", "{t} += 1", "for {t} in r: pass", "with f() as {t}: pass", "print(*{t}, sep={t})",
    "y_m = (z := {t})", "assert {t}, {t}", "global {t}", "y_m = '{t}'", "# {t}", "y_m = x.{t}",
    "y_m = f({t}=1)", "y_m = [0 for {t} in r]", "match {t}:\n{i}    case q: pass",
    "if {t}:\n{i}    pass\n{i}else:\n{i}    {t} = 0",
]
REBIND = ["{t}: pl.Scalar[pl.INDEX] = 1", "{t}: int", "{t}: pl.Tensor[[16], pl.FP32] = x",
          "{t}: pl.Tile[[16], pl.FP32] = x", "{t} = 1"]


def body_lines(lines):
    """Indices of lines inside a function body (8+ spaces), not blank."""
    return [i for i, l in enumerate(lines) if l.startswith("        ") and l.strip()]


def is_statement_start(lines, i):
    """Whether line i starts a statement: the line before it ends one."""
    before = lines[i - 1].rstrip() if i else ""
    return not before.endswith((",", "(", "[", "{", "\\", "=")) and \
        before.count("(") + before.count("[") <= before.count(")") + before.count("]")


def mutate(text, rng):
    lines = text.split("\n")
    body = body_lines(lines)
    if not body:
        return text, "none"
    kind = rng.choice(["delete", "duplicate", "swap", "rename", "continue", "crlf", "cr", "tab",
                       "blank", "comment", "wrap", "drop_bracket", "add_bracket", "stray", "bom",
                       "rename_all", "dedent", "offset", "size", "base", "space", "rebind", "read",
                       "unicode"])
    # Edits of what the model reads go where there is something to edit.
    wanted = {"offset": "pl.MemRef(", "size": "pl.MemRef(", "base": "pl.MemRef(", "space": "pl.Mem."}
    if kind in wanted:
        body = [k for k in body if wanted[kind] in lines[k]] or body
    elif kind in ("rebind", "read"):
        body = [k for k in body if is_statement_start(lines, k)] or body
    i = rng.choice(body)
    line = lines[i]
    indent = line[:len(line) - len(line.lstrip())]
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, line)
    elif kind == "swap" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind in ("rename", "rename_all"):
        names = NAME.findall(line)
        if names:
            old = rng.choice(names)
            new = old + "_x"
            if kind == "rename":
                lines[i] = line.replace(old, new, 1)
            else:
                lines = [re.sub(rf"\b{re.escape(old)}\b", new, l) for l in lines]
    elif kind == "continue":
        cut = [m.start() for m in re.finditer(r", ", line)]
        if cut:
            at = rng.choice(cut) + 1
            lines[i] = line[:at] + " \\"
            lines.insert(i + 1, indent + "    " + line[at:].lstrip())
    elif kind == "tab":
        lines[i] = line.replace("    ", "\t", 1)
    elif kind == "blank":
        lines.insert(i, "")
    elif kind == "comment":
        lines.insert(i, indent + "# " + line.strip()[:40])
    elif kind == "wrap":
        lines[i] = indent + "    " + line.lstrip()
        lines.insert(i, indent + "if True:")
    elif kind == "dedent":
        lines[i] = line[4:]
    elif kind == "drop_bracket":
        at = [m.start() for m in re.finditer(r"[)\]]", line)]
        if at:
            k = rng.choice(at)
            lines[i] = line[:k] + line[k + 1:]
    elif kind == "add_bracket":
        at = [m.start() for m in re.finditer(r"[(\[]", line)]
        if at:
            k = rng.choice(at)
            lines[i] = line[:k] + line[k] + line[k:]
    elif kind == "stray":
        lines[i] = line + rng.choice([" )", " =", " :", " ,", " $", " ]"])
    elif kind in ("offset", "size", "base"):
        refs = list(MEMREF.finditer(line))
        if refs:
            ref = rng.choice(refs)
            base, offset, size = ref.groups()
            if kind == "offset":
                offset = str(max(0, int(offset) + rng.choice([-4096, -64, 64, 512, 4096])))
            elif kind == "size":
                size = str(max(0, int(size) + rng.choice([-1024, -32, 32, 2048])))
            else:
                bases = sorted(set(m.group(1) for m in MEMREF.finditer(text)))
                base = rng.choice(bases)
            new = f"pl.MemRef({base}, pl.const({offset}, pl.INT64), {size})"
            lines[i] = line[:ref.start()] + new + line[ref.end():]
    elif kind == "space":
        found = [m for m in re.finditer(r"pl\.Mem\.(\w+)", line)]
        if found:
            m = rng.choice(found)
            lines[i] = line[:m.start(1)] + rng.choice(SPACES) + line[m.end(1):]
    elif kind in ("rebind", "read"):
        tiles = TILE.findall(text)
        if tiles and is_statement_start(lines, i):
            form = rng.choice(REBIND if kind == "rebind" else FORMS)
            lines.insert(i, indent + form.format(t=rng.choice(tiles), i=indent))
    elif kind == "unicode":
        names = NAME.findall(line)
        if names:
            old = rng.choice(names)
            new = old + rng.choice(["é", "ℯ", "_ü", "℘", "ﬁ"])  # ﬁ: NFKC-unstable, refused
            lines = [re.sub(rf"\b{re.escape(old)}\b", new, l) for l in lines]
    elif kind == "bom":
        lines[i] = "\ufeff" + line if rng.random() < 0.5 else line
        if lines[i] == line:
            lines[0] = "\ufeff" + lines[0]
    out = "\n".join(lines)
    if kind == "crlf":
        out = out.replace("\n", "\r\n")
    elif kind == "cr":
        out = out.replace("\n", "\r")
    return out, kind


def main():
    seed, count, out_dir, dumps = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    rng = random.Random(seed)
    texts = [open(d, encoding="utf-8").read() for d in dumps]
    os.makedirs(out_dir, exist_ok=True)
    kinds = {}
    for n in range(count):
        text = rng.choice(texts)
        for _ in range(rng.choice([1, 1, 2])):
            text, kind = mutate(text, rng)
        kinds[f"m{n:04d}.py"] = kind
        with open(os.path.join(out_dir, f"m{n:04d}.py"), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    print(len(kinds))


if __name__ == "__main__":
    main()
