# Stands in for pypto's compiled modules so the upstream tool can be timed:
# the SoC tree memory_map.py walks (soc.die_counts -> cluster_counts ->
# core_counts -> mems), one die, cluster and core per backend, from our table.
import enum

from pypto import _BACKENDS
from pypto.ir import MemorySpace

BackendType = enum.Enum("BackendType", [b["name"] for b in _BACKENDS])


class Mem:
    def __init__(self, mem_type, mem_size):
        self.mem_type = mem_type
        self.mem_size = mem_size


class Core:
    def __init__(self, mems):
        self.mems = mems


class Cluster:
    def __init__(self, core):
        self.core_counts = {core: 1}  # dict[Core, int], as pypto's binding


class Die:
    def __init__(self, cluster):
        self.cluster_counts = {cluster: 1}


class SoC:
    def __init__(self, die):
        self.die_counts = {die: 1}


class _Handler:
    def __init__(self, arch):
        self._arch = arch

    def get_pto_target_arch(self):
        return self._arch


class Backend:
    def __init__(self, row):
        mems = [Mem(MemorySpace[space], size) for space, size in row["capacities"].items()]
        self.soc = SoC(Die(Cluster(Core(mems))))
        self._handler = _Handler(row["arch"])

    def get_handler(self):
        return self._handler


_INSTANCES = {BackendType[b["name"]]: Backend(b) for b in _BACKENDS}


def get_backend_instance(backend_type):
    return _INSTANCES[backend_type]
