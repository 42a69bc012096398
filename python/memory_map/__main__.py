"""``python -m memory_map`` and the ``memory-map`` script: memory-map's
command line, run in place of this process (docs/cli.md)."""

import sys

from memory_map._command import exec_command


def main():
    """Runs the command with this process's arguments; never returns."""
    exec_command(sys.argv[1:])


if __name__ == "__main__":
    main()
