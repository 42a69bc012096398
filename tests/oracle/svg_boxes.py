"""Reads an SVG written by memory-map with Python's own XML parser (expat):
fails on anything that is not well-formed XML in the SVG namespace, and
prints the drawing as JSON: the document's size, the lanes (their header
bar rects), every box group with its rect, the texts drawn in it and the
number it is known by, the numbers drawn, the key's entries, the live profiles' and peak marks' points, and every text
(<title>s are not text: nothing shows them on a PNG)."""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == NS + "svg", root.tag
num = lambda e, k: float(e.get(k))
text_of = lambda e: "".join(e.itertext())
classes = lambda e: (e.get("class") or "").split()


def points(d):
    """The absolute points of a path made of M, L, H and V commands."""
    out, x, y = [], 0.0, 0.0
    for cmd, args in re.findall(r"([MLHVZ])([^MLHVZ]*)", d):
        vals = [float(v) for v in re.findall(r"-?[\d.]+", args)]
        if cmd in "ML":
            x, y = vals[0], vals[1]
        elif cmd == "H":
            x = vals[0]
        elif cmd == "V":
            y = vals[0]
        else:
            continue
        out.append({"cmd": cmd, "x": x, "y": y})
    return out


boxes = []
for g in root.iter(NS + "g"):
    if "box" not in classes(g):
        continue
    rect = g.find(NS + "rect")
    boxes.append({
        "tile": g.get("data-tile"), "space": g.get("data-space"), "start": int(g.get("data-start")),
        "classes": classes(g)[1:], "title": g.find(NS + "title").text,
        "x": num(rect, "x"), "y": num(rect, "y"), "width": num(rect, "width"), "height": num(rect, "height"),
        "texts": [text_of(t) for t in g.iter(NS + "text")], "ref": g.get("data-ref"),
    })
lanes = [{"space": r.get("data-space"), "x": num(r, "x"), "width": num(r, "width")}
         for r in root.iter(NS + "rect") if r.get("class") == "lane"]
texts = [text_of(t) for t in root.iter(NS + "text")]
key = [text_of(t) for g in root.iter(NS + "g") if "key" in classes(g) for t in g.iter(NS + "text")]
badges = [text_of(g) for g in root.iter(NS + "g") if "ref-badge" in classes(g)]
paths = lambda kind: [{"space": p.get("data-space"), "points": points(p.get("d"))}
                      for p in root.iter(NS + "path") if kind in classes(p)]
print(json.dumps({"width": num(root, "width"), "height": num(root, "height"), "lanes": lanes, "boxes": boxes,
                  "texts": texts, "key": key, "badges": badges, "profiles": paths("profile"), "peaks": paths("peak-tick"),
                  "background": next((r.get("fill") for r in root.iter(NS + "rect")), None)}))
