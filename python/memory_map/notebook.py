"""A dump's map in a notebook's output cell: ``show(dump)``.

The map is memory-map's offline page with the dump's model in it (the page
``memory-map DUMP -o OUT`` writes), shown in a sandboxed iframe's srcdoc: no
request leaves it, its Content-Security-Policy holds, and the notebook's
own page cannot be reached from it.
"""

import html
import os
import warnings
from urllib.parse import quote

from memory_map._command import MemoryMapError
from memory_map._page import check_function, function_names, make_page

# What a Jupyter server passes in one output at its default
# iopub_data_rate_limit: 1 MB/s over a 3 s window.
JUPYTER_OUTPUT_LIMIT = 3000000

# The page's element for the view a page with no address of its own opens on.
_VIEW = '<script id="memory-map-view" type="text/plain"></script>'


def _dump_args(dump):
    """The command's path argument and standard input for ``dump``: a path
    to a dump or folder, or a dump's text."""
    if isinstance(dump, bytes):
        return "-", dump  # the command says where bytes that are not UTF-8 are
    if isinstance(dump, os.PathLike) or (isinstance(dump, str) and "\n" not in dump):
        path = os.fspath(dump)
        if not os.path.exists(path):
            raise MemoryMapError("%s: No such file or directory" % path)
        return path, None
    if isinstance(dump, str):
        return "-", dump
    raise TypeError("show() takes a path or a dump's text, not %s" % type(dump).__name__)


def _link(embed, function, theme):
    """The view, as the page's address would say it: ``?embed&theme=..#fn=..``."""
    query = "&".join(part for part in ("embed" if embed else "", "theme=" + theme if theme else "") if part)
    return ("?" + query if query else "") + ("#fn=" + quote(function, safe="") if function else "")


class MemoryMap:
    """One dump's map, as the page shows it. In a notebook the object shows
    itself (``_repr_html_``); ``save(path)`` writes the page to open in a
    browser; ``functions`` names the dump's functions."""

    def __init__(self, page, model, function=None, theme=None, height=None):
        self.page = page
        self.model = model
        self.function = function
        self.theme = theme
        self.height = height or (560 if function else 720)

    @property
    def functions(self):
        """The dump's functions, in its order."""
        return function_names(self.model)

    def save(self, path):
        """Writes the page (the whole dump, every function) to ``path``."""
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.page)

    def _framed_page(self):
        # Raw text in a script element (entities are not read there); the
        # function is percent-encoded and the rest fixed words: no < in it.
        view = _link(self.function is not None, self.function, self.theme)
        return self.page.replace(_VIEW, _VIEW.replace("></", ">%s</" % view, 1), 1)

    def _repr_html_(self):
        title = "Memory map of %s" % (self.function or self.model.get("dump") or "a dump")
        return (
            '<iframe class="memory-map" title="%s" sandbox="allow-scripts allow-downloads allow-popups"'
            ' style="width: 100%%; height: %dpx; border: 1px solid #8884; border-radius: 4px"'
            ' srcdoc="%s"></iframe>'
            % (html.escape(title), self.height, html.escape(self._framed_page(), quote=True))
        )

    def __repr__(self):
        return "<MemoryMap of %s: %d functions%s>" % (
            self.model.get("dump"),
            len(self.functions),
            ", showing %s" % self.function if self.function else "",
        )


def show(dump, function=None, backend=None, pass_name=None, name=None, theme=None, height=None):
    """The map of ``dump`` (a dump's path, its case folder, or its text) to
    show in a notebook: one function's map when ``function`` names it, else
    the whole page. ``backend`` (Ascend910B, Ascend950) and ``pass_name`` (in
    a folder) mean what -b and -p do on the command line; ``name`` is the
    file name text is given (its pass name); ``theme`` is light or dark (else
    the system's); ``height`` in pixels. Raises MemoryMapError with the
    command's message (what and where) when the dump is refused."""
    if theme not in (None, "light", "dark"):
        raise ValueError("theme is light, dark or None (the system's), not %r" % (theme,))
    if height is not None and (not isinstance(height, int) or isinstance(height, bool) or height <= 0):
        raise ValueError("height is a number of pixels, not %r" % (height,))
    path, text = _dump_args(dump)
    page, model = make_page(path, text, backend=backend, pass_name=pass_name, name=name)
    if function is not None:
        check_function(model, function)
    result = MemoryMap(page, model, function, theme, height)
    size = len(result._repr_html_())
    if size > JUPYTER_OUTPUT_LIMIT:
        warnings.warn(
            "this map's output is %.1f MB: a Jupyter server drops an output over about 3 MB at its default "
            "iopub_data_rate_limit (1 MB/s over 3 s); start it with --ServerApp.iopub_data_rate_limit=1e10 "
            "(the classic notebook: --NotebookApp.iopub_data_rate_limit=1e10), or .save() the page and "
            "open it in a browser" % (size / 1e6),
            stacklevel=2,
        )
    return result
