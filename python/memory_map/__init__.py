"""memory-map for Python: the command line, a notebook display, a MkDocs plugin.

``python -m memory_map DUMP -o OUT -p PASS -b BACKEND`` (and the
``memory-map`` script) is memory-map's command line: the upstream tool's
flags with the same meaning, and memory-map's own (docs/cli.md).
``memory_map.show(dump)`` shows a dump's map in a notebook's output cell.
The ``memory-map`` MkDocs plugin turns a ``memory-map`` fenced block into a
live map in a docs site (docs/python.md says how to use each).
"""

from memory_map._version import VERSION as __version__

__all__ = ["MemoryMap", "MemoryMapError", "show", "__version__"]


def __getattr__(name):
    # Imported when first asked for: `python -m memory_map` imports this
    # package before it runs the command, and needs none of them.
    if name == "MemoryMapError":
        from memory_map._command import MemoryMapError

        return MemoryMapError
    if name in ("MemoryMap", "show"):
        from memory_map import notebook

        return getattr(notebook, name)
    raise AttributeError("module 'memory_map' has no attribute %r" % name)
