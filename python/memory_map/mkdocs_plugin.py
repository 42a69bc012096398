"""The ``memory-map`` MkDocs plugin: a fenced block naming a dump becomes
that dump's live map in the built site.

    ```memory-map
    dumps/45_after_AllocateMemoryAddr.py
    function: k_proj
    ```

Options, one per line after the path: ``function`` (the map of that
function alone; else the whole page), ``pass`` and ``backend`` (what -p and
-b mean on the command line), ``height`` (pixels). The path is relative to
the Markdown file, else to docs_dir, else to mkdocs.yml's folder. Each
dump's page (memory-map's offline page with the dump's model in it) is
written to ``assets/memory-map/`` in the site, so a map works under any
sub-path and from ``file://``; a small script tells each map the site's
palette (MkDocs Material's dark ``slate`` scheme included). A block that
cannot be shown stops the build with its file and line. Which blocks are
fences is Markdown's call where pymdownx.superfences is installed (a
custom fence); else a line scanner decides (blocks_of).
"""

import hashlib
import os
import re
import shutil
import tempfile
from html import escape
from urllib.parse import quote

from mkdocs.config import config_options
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import get_relative_url

from memory_map._command import MemoryMapError
from memory_map._page import check_function, make_page

ASSETS = "assets/memory-map"
THEME_SCRIPT = "memory-map-theme.js"
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<mark>`{3,}|~{3,})[ \t]*(?P<info>[^\s`]*)(?P<rest>.*)$")
# Lines that open a container whose content is indented (a list item, an
# admonition or details block, a content tab): a fence indented 4 or more
# under one is that container's; anywhere else it is an indented code block.
_CONTAINER = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)]|!!!|\?\?\?\+?|===!?)(?:[ \t]|$)")
_OPTIONS = ("function", "pass", "backend", "height")


class Block:
    """One ``memory-map`` block: where it is, what it names."""

    def __init__(self, where, indent):
        self.where = where
        self.indent = indent
        self.path = None
        self.options = {}

    def fail(self, message):
        raise PluginError("%s: memory-map: %s" % (self.where, message))

    def read(self, line):
        text = line.strip()
        key, colon, value = text.partition(":")
        if colon and key.strip() in _OPTIONS:
            self.options[key.strip()] = value.strip()
        elif text and self.path is None:
            self.path = text
        elif text:
            self.fail("%r is neither the dump's path nor an option (%s)" % (text, ", ".join(_OPTIONS)))


def _width(indent):
    return len(indent.expandtabs(4))


def _opens_fence(line, context):
    """The fence ``line`` opens, as a regex match, or None: backticks with a
    backtick after them are inline code (CommonMark), and a line indented 4
    or more opens a fence only inside a container (_CONTAINER): the nearest
    line before it that is less indented and a container or unindented
    (``context``, see _Context) must be a container."""
    opener = _FENCE.match(line)
    if not opener or (opener.group("mark")[0] == "`" and "`" in opener.group("rest")):
        return None
    width = _width(opener.group("indent"))
    if width < 4:
        return opener
    return opener if context.container_under(width) else None


class _Context:
    """The lines a fence's indent is judged by: containers and unindented
    lines, each hiding those before it indented as far or further (so a
    look-up costs the nesting's depth, not the page's length)."""

    def __init__(self):
        self.stack = []  # (indent, is a container), indents rising

    def add(self, line):
        if not line.strip():
            return
        indent = _width(re.match(r"[ \t]*", line).group(0))
        container = bool(_CONTAINER.match(line))
        if not container and indent:
            return
        while self.stack and self.stack[-1][0] >= indent:
            self.stack.pop()
        self.stack.append((indent, container))

    def container_under(self, width):
        for indent, container in reversed(self.stack):
            if indent < width:
                return container
        return False


def blocks_of(markdown, src_path, read=True):
    """The markdown's lines, with each ``memory-map`` block as a Block in
    place of its lines (its lines read unless ``read`` is false); blocks
    inside other fences or indented code (a block shown as an example)
    are left as they are. A block left open fails."""
    lines = markdown.split("\n")
    out, block, fence, context = [], None, None, _Context()
    for number, line in enumerate(lines, 1):
        if fence:
            closing = re.match(r"^[ \t]*%s%s*[ \t]*$" % (re.escape(fence), re.escape(fence[0])), line.rstrip("\r"))
            if block is not None and not closing and read:
                block.read(line)
            elif block is None:
                out.append(line)
            if closing:
                fence = None
                if block is not None:
                    out.append(block)
                block = None
            continue
        opener = _opens_fence(line.rstrip("\r"), context)
        context.add(line.rstrip("\r"))
        if opener:
            fence = opener.group("mark")
            if opener.group("info") == "memory-map":
                block = Block("%s:%d" % (src_path, number), opener.group("indent"))
                continue
        out.append(line)
    if block is not None:
        block.fail("the block is not closed")
    return out


_PLACEHOLDER = re.compile(r'<div class="memory-map-block" data-block="(\d+)"></div>')
_COMMENT = re.compile(r"(<!--.*?-->)", re.S)
_OPENER = re.compile(r"^[ \t>]*(?:`{3,}|~{3,})[ \t]*memory-map[ \t]*$")


class PageBlocks:
    """The page being converted, and the blocks superfences handed over
    from it (framed once the page is converted)."""

    def __init__(self, page, config, markdown, src_path):
        self.page = page
        self.config = config
        self.src_path = src_path
        self.lines = [line.rstrip("\r") for line in markdown.split("\n")]
        self.openers = [i for i, line in enumerate(self.lines) if _OPENER.match(line)]
        self.blocks = []  # (where, source) of each block superfences handed over

    def where(self, source):
        """``page.md:LINE`` of the next opener whose block begins as
        ``source`` does (Markdown hands a block over without its line)."""
        first = next((line.strip() for line in source.split("\n") if line.strip()), "")
        for at, i in enumerate(self.openers):
            following = next((l.lstrip(" \t>").strip() for l in self.lines[i + 1 :] if l.lstrip(" \t>").strip()), "")
            if following == first:
                del self.openers[at]
                return "%s:%d" % (self.src_path, i + 1)
        return self.src_path


def _project_dir(config):
    """The folder of mkdocs.yml: dumps may be named from it, and a dump's
    page is named by where the dump is within it."""
    return os.path.dirname(os.path.abspath(config["config_file_path"] or "."))


def _superfences_here():
    """Whether pymdown-extensions is installed (MkDocs Material needs it)."""
    try:
        import pymdownx.superfences  # noqa: F401
    except ImportError:
        return False
    return True


class MemoryMapPlugin(BasePlugin):
    """Turns ``memory-map`` blocks into maps (see the module's text)."""

    config_scheme = (
        ("height", config_options.Type(int, default=560)),
        ("backend", config_options.Type(str, default="")),
    )

    def on_config(self, config):
        self.pages = {}  # a dump's page key -> its file name under ASSETS
        self.stage = None
        self.current = None
        # Markdown's own parser decides what is a fence where it can: a
        # custom fence of pymdownx.superfences (added if the site lacks it).
        self.by_superfences = _superfences_here()
        if self.by_superfences:
            if "pymdownx.superfences" not in config["markdown_extensions"]:
                config["markdown_extensions"].append("pymdownx.superfences")
            options = config["mdx_configs"].setdefault("pymdownx.superfences", {})
            fences = [f for f in options.get("custom_fences", []) if f.get("name") != "memory-map"]
            options["custom_fences"] = fences + [{"name": "memory-map", "class": "memory-map", "format": self._fence}]
        return config

    def on_pre_build(self, config):
        self.stage = tempfile.mkdtemp(prefix="mkdocs-memory-map-")
        self.pages = {}

    def on_build_error(self, error):
        self._drop_stage()

    def on_page_markdown(self, markdown, page, config, files):
        src_path = page.file.src_uri if hasattr(page.file, "src_uri") else page.file.src_path
        if self.by_superfences:
            self.current = PageBlocks(page, config, markdown, src_path)
            blocks_of(markdown, src_path, read=False)  # a block left open: Markdown would show it as text
            return markdown
        lines = blocks_of(markdown, src_path)
        if not any(isinstance(line, Block) for line in lines):
            return markdown
        return "\n".join(self._frame(line, page, config) if isinstance(line, Block) else line for line in lines)

    def _fence(self, source, language, class_name, options, md, **kwargs):
        """superfences' formatter of a ``memory-map`` block: a placeholder
        on_page_content makes the frame of. superfences also calls it for
        blocks it then shows as code (an indented code block), so nothing
        is done here that such a call must not do."""
        self.current.blocks.append((self.current.where(source), source))
        return '<div class="memory-map-block" data-block="%d"></div>' % (len(self.current.blocks) - 1)

    def on_page_content(self, html, page, config, files):
        current = self.current
        if current is None or current.page is not page or not current.blocks:
            return html

        def frame(match):
            where, source = current.blocks[int(match.group(1))]
            block = Block(where, "")
            for line in source.split("\n"):
                block.read(line)
            return self._frame(block, page, config)

        # A block in an HTML comment is commented out: no page, no frame.
        return "".join(
            _PLACEHOLDER.sub("", part) if part.startswith("<!--") else _PLACEHOLDER.sub(frame, part)
            for part in _COMMENT.split(html)
        )

    def on_post_page(self, output, page, config):
        # Every page, once the site has a map: MkDocs Material's instant
        # navigation keeps the first page's scripts while it swaps pages in.
        if not self.pages:
            return output
        script = get_relative_url("%s/%s" % (ASSETS, THEME_SCRIPT), page.url)
        return output.replace("</body>", '<script src="%s"></script>\n</body>' % escape(script), 1)

    def on_post_build(self, config):
        if self.stage is None:
            return
        if self.pages:
            target = os.path.join(config["site_dir"], *ASSETS.split("/"))
            os.makedirs(target, exist_ok=True)
            for name in os.listdir(self.stage):
                shutil.copyfile(os.path.join(self.stage, name), os.path.join(target, name))
            here = os.path.dirname(os.path.abspath(__file__))
            shutil.copyfile(os.path.join(here, THEME_SCRIPT), os.path.join(target, THEME_SCRIPT))
        self._drop_stage()

    def _drop_stage(self):
        if self.stage:
            shutil.rmtree(self.stage, ignore_errors=True)
        self.stage = None

    def _dump_path(self, block, page, config):
        if not block.path:
            block.fail("the block names no dump")
        tried = [
            os.path.join(os.path.dirname(page.file.abs_src_path), block.path),
            os.path.join(config["docs_dir"], block.path.lstrip("/")),
            os.path.join(_project_dir(config), block.path.lstrip("/")),
        ]
        for path in tried:
            if os.path.exists(path):
                return os.path.normpath(path)
        block.fail("%s: No such file or directory (looked beside the page, in docs_dir and beside mkdocs.yml)" % block.path)

    def _page_for(self, block, page, config):
        """(file name under ASSETS, model) of the page showing ``block``'s
        dump, made once per dump, pass and backend."""
        path = self._dump_path(block, page, config)
        backend = block.options.get("backend") or self.config["backend"] or None
        pass_name = block.options.get("pass") or None
        key = (os.path.realpath(path), pass_name, backend)
        if key not in self.pages:
            try:
                html, model = make_page(path, backend=backend, pass_name=pass_name)
            except MemoryMapError as error:
                block.fail(str(error))
            # Named by where the dump is in the project, so two clones make the same site.
            where = os.path.relpath(key[0], _project_dir(config))
            digest = hashlib.sha256(repr((where.replace(os.sep, "/"),) + key[1:]).encode("utf-8")).hexdigest()[:10]
            stem = os.path.splitext(os.path.basename(path.rstrip(os.sep)))[0]
            name = "%s-%s.html" % (re.sub(r"[^A-Za-z0-9_.-]", "_", stem), digest)
            with open(os.path.join(self.stage, name), "w", encoding="utf-8") as out:
                out.write(html)
            self.pages[key] = (name, model)
        return self.pages[key]

    def _frame(self, block, page, config):
        name, model = self._page_for(block, page, config)
        function = block.options.get("function") or None
        if function:
            try:
                check_function(model, function)
            except MemoryMapError as error:
                block.fail(str(error))
        height = block.options.get("height") or self.config["height"]
        if not re.fullmatch(r"[1-9][0-9]*", str(height)):
            block.fail("height is a number of pixels, not %r" % height)
        src = get_relative_url("%s/%s" % (ASSETS, name), page.url)
        src += "?embed#fn=" + quote(function, safe="") if function else ""
        title = "Memory map of %s" % (function or model.get("dump"))
        return '%s<iframe class="memory-map" title="%s" src="%s" style="width: 100%%; height: %spx; border: 1px solid #8884"></iframe>' % (
            block.indent,
            escape(title),
            escape(src),
            height,
        )
