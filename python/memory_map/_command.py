"""Which build of memory-map's command runs here, and running it.

The wheel carries the native build for one platform (where it runs: the
glibc it was linked against or newer) and the portable WASI build, which
needs Node 20 on PATH. MEMORY_MAP_WASI=1 asks for the portable one.
"""

import os
import sys

# shutil and subprocess are imported where they are needed: the command
# line execs the native build and needs neither.

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_data")
PAGE = os.path.join(DATA, "dist", "memory-map.html")
NATIVE = os.path.join(DATA, "build", "native", "memory-map")
WASI_RUNNER = os.path.join(DATA, "tools", "run-wasi.mjs")
WASI_MODULE = os.path.join(DATA, "build", "wasi", "memory-map.wasm")


class MemoryMapError(Exception):
    """memory-map refused its input, or cannot run here: the message says
    what and where (file, line)."""


def _glibc():
    """This machine's glibc as (major, minor), or None (musl, macOS)."""
    try:
        name, version = os.confstr("CS_GNU_LIBC_VERSION").split()
    except (AttributeError, ValueError, OSError):
        return None
    return tuple(int(part) for part in version.split(".")[:2]) if name == "glibc" else None


def _needs_glibc():
    """The glibc the native build was linked against ("2.34"), or None."""
    try:
        with open(os.path.join(os.path.dirname(NATIVE), "GLIBC"), encoding="ascii") as needs_file:
            return needs_file.read().strip()
    except OSError:
        return None


def _native_runs():
    """Whether the native build is here and this machine's C library runs it."""
    if not os.access(NATIVE, os.X_OK):
        return False
    needs = _needs_glibc()
    if needs is None:
        return True
    have = _glibc()
    return have is not None and have >= tuple(int(part) for part in needs.split(".")[:2])


def command(args):
    """The argv and environment that run memory-map with ``args``.

    Raises MemoryMapError when neither build can run here."""
    env = dict(os.environ)
    if not env.get("MEMORY_MAP_PAGE"):
        env["MEMORY_MAP_PAGE"] = PAGE
    if not env.get("MEMORY_MAP_WASI") and _native_runs():
        return [NATIVE] + list(args), env
    import shutil

    node = shutil.which("node")
    if node and os.path.exists(WASI_MODULE):
        return [node, "--no-warnings", WASI_RUNNER] + list(args), env
    if env.get("MEMORY_MAP_WASI"):
        why = "MEMORY_MAP_WASI asks for the portable build"
    elif os.path.exists(NATIVE):
        why = "its native build needs glibc %s or newer" % _needs_glibc()
    else:
        why = "this wheel has no native build for this platform"
    raise MemoryMapError(
        "memory-map cannot run here: %s, and the portable build needs Node 20 "
        "(node on PATH)" % why
    )


def exec_command(args):
    """Runs memory-map in place of this process (its output, its exit code)."""
    try:
        argv, env = command(args)
    except MemoryMapError as error:
        sys.stderr.write("error: %s\n" % error)
        sys.exit(1)
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execve(argv[0], argv, env)
    import subprocess

    sys.exit(subprocess.run(argv, env=env, check=False).returncode)


def run(args, stdin=None):
    """Runs memory-map with ``args`` (``stdin``: a dump's text or bytes for a
    ``-`` path) and returns its standard output; raises MemoryMapError with
    its message when it refuses (exit 1 or 2; 3, problems found by
    --check, is an answer)."""
    import subprocess

    argv, env = command(args)
    if isinstance(stdin, str):
        stdin = stdin.encode("utf-8")
    done = subprocess.run(argv, env=env, input=stdin, capture_output=True, check=False)
    if done.returncode not in (0, 3):
        message = done.stderr.decode("utf-8", "replace").strip() or "memory-map exited with %d" % done.returncode
        raise MemoryMapError(message.replace("error: ", "", 1))
    return done.stdout.decode("utf-8", "replace")
