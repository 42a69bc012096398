"""CPython's verdict on each source (a JSON list on standard input): "ok"
when its parser accepts it (ast.parse, what the upstream tool reads dumps
with), else {"line", "message"} of the SyntaxError, and with --offset its
"offset" (the 1-based character it points at). The oracle of
tests/core/cpython.test.mjs (this machine's Python: 3.11)."""
import ast
import json
import sys
import warnings

# A SyntaxWarning (`0for`, an invalid escape) is a warning, as the upstream
# tool's command line meets it, even where PYTHONWARNINGS says "error".
warnings.simplefilter("ignore", SyntaxWarning)

out = []
for source in json.load(sys.stdin):
    try:
        ast.parse(source.encode("utf-8"), "dump.py")  # bytes, as a file is read: a leading BOM is dropped
        out.append("ok")
    except SyntaxError as error:
        verdict = {"line": error.lineno, "message": error.msg}
        if "--offset" in sys.argv:
            verdict["offset"] = error.offset
        out.append(verdict)
print(json.dumps({"version": sys.version.split()[0], "verdicts": out}))
