"""memory-map for Python: the command line, a notebook display, a MkDocs plugin.

``python -m memory_map DUMP -o OUT -p PASS -b BACKEND`` (and the
``memory-map`` script) is memory-map's command line: the upstream tool's
flags with the same meaning, and memory-map's own (docs/cli.md).
``memory_map.show(dump)`` shows a dump's map in a notebook's output cell.
The ``memory-map`` MkDocs plugin turns a ``memory-map`` fenced block into a
live map in a docs site (docs/python.md says how to use each).
"""

from memory_map._command import MemoryMapError
from memory_map._version import VERSION as __version__
from memory_map.notebook import MemoryMap, show

__all__ = ["MemoryMap", "MemoryMapError", "show", "__version__"]
