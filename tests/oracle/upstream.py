#!/usr/bin/env python3
"""The upstream tool's own reading of dumps, for differential runs: imports
pypto's python/pypto/tools/memory_map.py (its path the first argument; run
with tools/upstream/ on PYTHONPATH and MEMORY_MAP_BACKENDS set, as
tools/upstream.mjs does) and prints, for each path read as JSON from stdin,
what its `render` would embed (dump, pass_name, backend, functions) or the
refusal in tests/oracle/model.py's form ({"error": "syntax", "line",
"message"}, {"error": "no_tiles"}, {"error": "unallocated", "functions"},
{"error": "invalid", "message"} for what it crashes on).

usage: upstream.py MEMORY_MAP_PY < [PATH, ...]
"""
import importlib.util
import json
import sys
import warnings
from dataclasses import asdict
from pathlib import Path


def load(script):
    spec = importlib.util.spec_from_file_location("upstream_memory_map", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read(tool, path):
    dump = Path(path)
    try:
        functions = tool.parse_dump(dump)
    except SyntaxError as e:
        return {"error": "syntax", "line": e.lineno, "message": e.msg}
    except (ValueError, UnicodeError, RecursionError, MemoryError) as e:
        return {"error": "invalid", "message": f"{type(e).__name__}: {e}"}
    if not functions:
        return {"error": "no_tiles"}
    unallocated = [f.name for f in functions if tool.is_unallocated(f)]
    if unallocated:
        return {"error": "unallocated", "functions": unallocated}
    choice = tool.resolve_backend(dump, None)
    limits = tool.backend_limits(choice.name)
    for function in functions:
        function.spaces = tool._summarize_spaces(function.boxes, limits)
    return {"dump": dump.name, "pass_name": tool.pass_name_of(dump), "backend": asdict(choice),
            "functions": [asdict(f) for f in functions]}


def main():
    warnings.simplefilter("ignore", SyntaxWarning)  # as its command line meets them: warnings
    tool = load(sys.argv[1])
    sys.setrecursionlimit(10000)
    print(json.dumps([read(tool, p) for p in json.load(sys.stdin)], ensure_ascii=False))


if __name__ == "__main__":
    main()
