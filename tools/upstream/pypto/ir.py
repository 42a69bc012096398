# Stands in for pypto's compiled modules so the upstream tool can be timed:
# memory_map.py only compares a Mem's mem_type with MemorySpace.DDR and
# reads its .name, so MemorySpace is DDR plus the spaces of our table.
import enum

from pypto import _SPACES

MemorySpace = enum.Enum("MemorySpace", ["DDR", *_SPACES])
