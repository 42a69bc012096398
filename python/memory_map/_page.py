"""A dump's page, as ``memory-map DUMP -o OUT`` writes it, and the model in
it: what the notebook display and the MkDocs plugin both show."""

import json
import os
import re
import tempfile

from memory_map._command import MemoryMapError, run

# The element the command fills with the model (tools/cli_page.c).
_DATA = re.compile(r'<script id="memory-map-data" type="application/json">(.*?)</script>', re.S)


def make_page(path, text=None, backend=None, pass_name=None, name=None):
    """The page of the dump at ``path`` (``-`` with ``text``) and its model:
    (page, model). Raises MemoryMapError with the command's message when the
    dump is refused."""
    with tempfile.TemporaryDirectory(prefix="memory-map-") as work:
        out = os.path.join(work, "map.html")
        args = [path, "-o", out]
        args += ["-b", backend] if backend else []
        args += ["-p", pass_name] if pass_name else []
        args += ["--name", name] if name else []
        run(args, stdin=text)
        with open(out, encoding="utf-8") as page_file:
            page = page_file.read()
    return page, json.loads(_DATA.search(page).group(1))


def function_names(model):
    """The model's functions, in the dump's order."""
    return [fn["name"] for fn in model["functions"]]


def check_function(model, function):
    """Raises MemoryMapError unless the model has ``function``: a frame
    would otherwise show another function's map, without a word."""
    names = function_names(model)
    if function not in names:
        raise MemoryMapError(
            "%s has no function %s; it has %s" % (model.get("dump"), function, ", ".join(names) or "none")
        )
