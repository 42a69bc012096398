"""Reads an SVG written by memory-map with Python's own XML parser (expat):
fails on anything that is not well-formed XML in the SVG namespace, and
prints the drawing as JSON: the document's size, the lanes (their header
bar rects) and every box group with its rect."""
import json
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == NS + "svg", root.tag
num = lambda e, k: float(e.get(k))
boxes = []
for g in root.iter(NS + "g"):
    if "box" not in (g.get("class") or "").split():
        continue
    rect = g.find(NS + "rect")
    boxes.append({
        "tile": g.get("data-tile"), "space": g.get("data-space"), "start": int(g.get("data-start")),
        "classes": g.get("class").split()[1:], "title": g.find(NS + "title").text,
        "x": num(rect, "x"), "y": num(rect, "y"), "width": num(rect, "width"), "height": num(rect, "height"),
    })
lanes = [{"space": r.get("data-space"), "x": num(r, "x"), "width": num(r, "width")}
         for r in root.iter(NS + "rect") if r.get("class") == "lane"]
texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
print(json.dumps({"width": num(root, "width"), "height": num(root, "height"), "lanes": lanes, "boxes": boxes, "texts": texts}))
