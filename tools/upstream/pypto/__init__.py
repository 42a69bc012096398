# Stands in for pypto's compiled modules (pypto.backend, pypto.ir) so that the
# upstream python/pypto/tools/memory_map.py can be timed where pypto cannot be
# installed (tools/upstream.mjs runs it); it provides what that script uses,
# nothing else.
#
# The backends are our core's table, which tools/upstream.mjs writes as JSON
# and names in MEMORY_MAP_BACKENDS: both tools then scale their panels by the
# same capacities, and no capacity is copied here.
import json
import os

_PATH = os.environ.get("MEMORY_MAP_BACKENDS")
if not _PATH:
    raise ImportError("MEMORY_MAP_BACKENDS is not set: run the upstream tool through tools/upstream.mjs")

with open(_PATH, encoding="utf-8") as _file:
    #: [{"name": "Ascend910B", "arch": "a2a3", "capacities": {"Vec": 188416, ...}}, ...]
    _BACKENDS = json.load(_file)

#: Every on-chip space any backend describes, in the table's order.
_SPACES = list(dict.fromkeys(space for row in _BACKENDS for space in row["capacities"]))
