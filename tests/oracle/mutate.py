#!/usr/bin/env python3
"""Mutants of real dumps, as a compiler, an editor or a careless script
might make them (#21): a statement deleted, duplicated or swapped with the
next, a name renamed, a line continued with a backslash, CRLF or CR line
ends, a tab, a blank line or comment added, a block wrapped in `if True:`,
a bracket dropped or added, a stray token, a BOM. Seeded: the same seed
gives the same mutants.

usage: mutate.py SEED COUNT OUT_DIR DUMP...   (writes OUT_DIR/mNNNN.py)
"""
import os
import random
import re
import sys

NAME = re.compile(r"\b[a-z_][a-z0-9_]*__[a-z0-9_]+\b")  # the dumps' SSA-style names


def body_lines(lines):
    """Indices of lines inside a function body (8+ spaces), not blank."""
    return [i for i, l in enumerate(lines) if l.startswith("        ") and l.strip()]


def mutate(text, rng):
    lines = text.split("\n")
    body = body_lines(lines)
    if not body:
        return text, "none"
    i = rng.choice(body)
    kind = rng.choice(["delete", "duplicate", "swap", "rename", "continue", "crlf", "cr", "tab",
                       "blank", "comment", "wrap", "drop_bracket", "add_bracket", "stray", "bom",
                       "rename_all", "dedent"])
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
