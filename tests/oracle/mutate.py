#!/usr/bin/env python3
"""Mutants of real dumps, as a compiler, an editor or a careless script
might make them: a statement deleted, duplicated or swapped with the
next, a name renamed, a line continued with a backslash, CRLF or CR line
ends, a tab, a blank line or comment added, a block wrapped in `if True:`,
a bracket dropped or added, a stray token, a BOM; and edits the model
reads: a MemRef's base, offset or size changed, a tile moved to another
memory space, a tile's name bound again by a non-tile annotation, a tile
read (or not) in another syntactic form, a name made non-ASCII; and the
kinds #30 found the first set lacked: a tile's name bound earlier as
something that is no tile (a pointer, a scalar, a DDR tile, deeper or
not), every offset set to 0 but one (as before AllocateMemoryAddr, or
not quite), sizes of 0 written `0`, `000` or with a leading zero, numbers
glued to keywords (`0for`), dict displays missing a colon, `match`
statements valid and not, decorators added and removed; and the kinds
#47 found CPython's reading of differ on: a line holding only a backslash
continuation (before a blank line, a statement, another indentation, the
end of the file; with CR line ends too), a file cut after a block's
header, a line dedented to no outer level, a number glued to a keyword
across a line end. Seeded: the same seed gives the same mutants.

usage: mutate.py SEED COUNT OUT_DIR DUMP...
  writes OUT_DIR/mNNNN.py, or mNNNN__<NN>_after_<Pass>.py when the dump's
  name says its pass (the pass decides some readings: docs/model.md §7, §13)
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
# A tile's name bound before its tile binding by something that is no tile.
EARLIER = ["{t}: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 64)", "{t}: pl.Scalar[pl.INDEX] = 1",
           "{t}: pl.Tile[[16], pl.FP32, pl.MemRef(\"mem_ddr_9\", pl.const(0, pl.INT64), 64), pl.Mem.DDR] = x",
           "{t}: pl.Tensor[[16], pl.FP32] = x", "{t}: pl.Tile[[16], pl.FP32, pl.MemRef(m9, n, 64), pl.Mem.Vec] = x"]
SIZES = ["0", "000", "00", "0064", "0x40", "0b1000000"]
# Numbers glued to keywords (CPython warns of some, refuses others) and dict displays missing a colon.
GLUED = ["y_m = [0for _ in r]", "y_m = f(a,\n{i}      0if c else 1)", "y_m = (0not\n{i})", "y_m = 1if c else 2",
         "y_m = 0else", "y_m = 0or 1", "y_m = f(a\n{i}      0for x in y)", "y_m = 1and 0in r", "y_m = 1_0is x"]
DICTS = ["y_m = {{'a': 1,\n{i}     'b'\n{i}     }}", "y_m = {{'a': 1, 'b' {t}}}", "y_m = {{'a':\n{i}     }}",
         "y_m = {{**d,\n{i}     {t}\n{i}     }}", "y_m = {{'a' 1}}"]
MATCHES = ["match {t}:\n{i}    pass", "match {t}:\n{i}    case:\n{i}        pass",
           "match {t}:\n{i}    case 1:\n{i}        pass\n{i}    y_m = 1", "match {t}:\n{i}    case [a, *_]: y_m = a",
           "match {t}, c:\n{i}    case (1, 2) | {{'k': _}}: pass\n{i}    case _: pass", "match {t}:"]
DECORATORS = ["@pl.inline", "@f(\n    1)", "@staticmethod", "@pl.function(type=pl.FunctionType.Orchestration)"]
# A line holding only a continuation, and what follows it (CPython counts the indentation up to its
# first backslash, and a blank line after it is no line at all).
CONTINUATIONS = ["{i}\\\n", "{i}\\\n\n", "\\\n{i}", " \\\n\n", "{i}  \\\n{i}", "{i} \\\n {i}\\\n{i}"]
# Numbers glued to keywords, the keyword cut by a line end or a continuation.
GLUED_ACROSS = ["y_m = 0f\n{i}or_ = 1", "y_m = (0i\n{i}f c else 1)", "y_m = 1e\\\n{i}lse", "y_m = [0fo\n{i}]",
                "y_m = 0an\n{i}d", "y_m = 0o\n{i}r 1", "y_m = 1n\n{i}ot_ = 0"]


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
                       "unicode", "earlier", "earlier", "zero_offsets", "zero_size", "glued", "dict",
                       "drop_colon", "match", "decorator", "continuation", "cut_body", "misdedent",
                       "glued_across"])
    # Edits of what the model reads go where there is something to edit.
    wanted = {"offset": "pl.MemRef(", "size": "pl.MemRef(", "base": "pl.MemRef(", "space": "pl.Mem.",
              "zero_size": "pl.MemRef(", "drop_colon": "{", "decorator": "@"}
    if kind in wanted:
        body = [k for k in body if wanted[kind] in lines[k]] or body
    elif kind == "earlier":
        body = [k for k in body if TILE.match(lines[k])] or body
    elif kind in ("rebind", "read", "glued", "dict", "match", "continuation", "glued_across"):
        body = [k for k in body if is_statement_start(lines, k)] or body
    if kind == "decorator":  # decorators sit at 4 spaces, outside the body lines
        body = [k for k, l in enumerate(lines) if l.lstrip().startswith(("@", "def "))] or body
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
    elif kind == "earlier":
        found = TILE.match(line)
        starts = [k for k in range(max(0, i - 12), i + 1) if lines[k].startswith("        ")
                  and lines[k].strip() and is_statement_start(lines, k)]
        if found and starts:
            k = rng.choice(starts)
            at = lines[k][:len(lines[k]) - len(lines[k].lstrip())]
            form = rng.choice(EARLIER).format(t=found.group(1))
            if rng.random() < 0.3:  # deeper, so met after the tile breadth-first
                lines[k:k] = [at + "if c:", at + "    " + form]
            else:
                lines.insert(k, at + form)
    elif kind == "zero_offsets":
        # As before AllocateMemoryAddr: every offset 0; or all but one.
        keep = rng.choice([None, "one", "nonzero"])
        refs = [(k, m) for k, l in enumerate(lines) for m in MEMREF.finditer(l)]
        spared = rng.choice(refs) if refs and keep else None
        for k, l in enumerate(lines):
            def zero(m, k=k):
                if spared and (k, m.start()) == (spared[0], spared[1].start()):
                    offset = m.group(2) if keep == "one" else str(rng.choice([32, 512, 4096]))
                else:
                    offset = "0"
                return f"pl.MemRef({m.group(1)}, pl.const({offset}, pl.INT64), {m.group(3)})"
            lines[k] = MEMREF.sub(zero, l)
    elif kind == "zero_size":
        refs = list(MEMREF.finditer(line))
        if refs:
            ref = rng.choice(refs)
            base, offset, _ = ref.groups()
            new = f"pl.MemRef({base}, pl.const({offset}, pl.INT64), {rng.choice(SIZES)})"
            lines[i] = line[:ref.start()] + new + line[ref.end():]
    elif kind in ("glued", "dict", "match"):
        tiles = TILE.findall(text) or ["x"]
        form = rng.choice({"glued": GLUED, "dict": DICTS, "match": MATCHES}[kind])
        lines.insert(i, indent + form.format(t=rng.choice(tiles), i=indent))
    elif kind == "continuation":
        form = rng.choice(CONTINUATIONS).format(i=indent)
        lines.insert(i, form[:-1] if form.endswith("\n") else form)  # the join adds the line end
    elif kind == "cut_body":
        # The file ends after a block's header: an empty body at the end of the file.
        headers = [k for k, l in enumerate(lines) if l.rstrip().endswith(":") and l.strip()]
        if headers:
            k = rng.choice(headers)
            lines = lines[:k + 1] + rng.choice([[], [""], ["", ""], ["    "]])
    elif kind == "misdedent":
        # Dedented to a column no outer block has.
        lines[i] = line[rng.choice([1, 2, 3, 5, 6]):] if len(indent) >= 6 else line
    elif kind == "glued_across":
        lines.insert(i, indent + rng.choice(GLUED_ACROSS).format(i=indent))
    elif kind == "drop_colon":
        colons = [m.start(1) for m in re.finditer(r"\{[^{}]*?(:)", line)]
        if colons:
            k = rng.choice(colons)
            lines[i] = line[:k] + line[k + 1:]
    elif kind == "decorator":
        if line.lstrip().startswith("@") and rng.random() < 0.4:
            del lines[i]
        else:
            decorator = rng.choice(DECORATORS).replace("\n", "\n" + indent)
            lines.insert(i, indent + decorator)
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


def head(text, most=600):
    """A long dump cut before the first method that starts past `most` lines: its kinds are all in
    its first functions, and a mutant of it reads quicker."""
    lines = text.split("\n")
    if len(lines) <= most:
        return text
    starts = [k for k, l in enumerate(lines) if l.startswith("    @") and k > 0 and not lines[k - 1].startswith("    @")]
    cut = max([k for k in starts if k <= most] or [len(lines)])
    return "\n".join(lines[:cut]) + "\n"


def main():
    seed, count, out_dir, dumps = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    rng = random.Random(seed)
    texts = [head(open(d, encoding="utf-8").read()) for d in dumps]
    os.makedirs(out_dir, exist_ok=True)
    kinds = {}
    for n in range(count):
        k = rng.randrange(len(texts))
        text = texts[k]
        for _ in range(rng.choice([1, 1, 2])):
            text, kind = mutate(text, rng)
        stage = re.search(r"__\d+_after_\w+$", os.path.basename(dumps[k])[:-3])
        name = f"m{n:04d}{stage.group() if stage else ''}.py"
        kinds[name] = kind
        with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    print(len(kinds))


if __name__ == "__main__":
    main()
