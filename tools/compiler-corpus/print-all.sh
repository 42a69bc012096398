#!/bin/sh
# The compiler as the oracle, in one command: builds the PyPTO compiler from the caller's git mirrors
# (build.sh, once), compiles every program of its examples/ and tests/st/ under the default, DSA and
# PTOAS planners with every pass dumped (run_all.py), writes their lean form (lean.mjs), and records
# which compiler printed them.
#
# usage: MIRRORS=<dir> sh tools/compiler-corpus/print-all.sh [WORK] [OUT]
#   MIRRORS  bare git mirrors as <owner>+<name>/repo (README.md here lists the six)
#   WORK     sources, the build, every build's whole dumps and logs (default ./compiler-work)
#   OUT      OUT/compiler-wide/ (lean: one dump and FOOTPRINT.txt a build, SUMMARY.tsv) and
#            OUT/COMPILER.txt (default WORK)
#   ITEMS    the programs to compile (default programs.jsonl here, the published list; DISCOVER=1
#            finds them anew in the tree); ONLY, JOBS, APT, PYPTO_COMMIT as build.sh and run_all.py
# Needs Node and this repository built (npm run build: lean.mjs asks the core which dump to keep).
# A build whose folder has a STATUS is kept on a second run: remove its folder under WORK/dumps-all
# to compile it again. Then: npm run compiler-oracle -- OUT/compiler-wide. 10 to 18 min to build on
# 2 cores, an hour to compile the 1,050 programs three times.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
WORK=${1:-compiler-work}
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd)
OUT=${2:-$WORK}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
COMMIT=${PYPTO_COMMIT:-e2d0f78ae6d709c0d6ee345a48db2c3d621a4b09}
if ! ls "$WORK"/pypto/python/pypto/pypto_core*.so >/dev/null 2>&1; then
  PYPTO_COMMIT=$COMMIT sh "$here/build.sh" "$WORK"
fi
# Every tests/st program imports torch and pytest: without them each build would end at once.
/usr/bin/python3 -c 'import torch, pytest' || {
  echo "print-all.sh: /usr/bin/python3 cannot import torch and pytest (apt-get install python3-torch python3-pytest)" >&2
  exit 1
}
steps="build summary"
[ "${DISCOVER:-0}" = 1 ] && steps="discover build summary"
[ "${DISCOVER:-0}" = 1 ] || export ITEMS="${ITEMS:-$here/programs.jsonl}"
# shellcheck disable=SC2086
(cd "$WORK" && PYPTO_WORK="$WORK" /usr/bin/python3 "$here/run_all.py" $steps)
node "$here/lean.mjs" "$WORK/dumps-all" "$OUT/compiler-wide" "$WORK/pypto"
{
  echo "compiler: hw-native-sys/pypto $COMMIT"
  echo "mirror:   $(git --git-dir="${MIRRORS:-mirrors}/hw-native-sys+pypto/repo" rev-parse "$COMMIT" 2>/dev/null || echo unknown)"
  echo "patch:    footprint-instrumentation.patch ($(sha256sum "$here/footprint-instrumentation.patch" | cut -c1-16))"
  echo "built:    -O0 (build.sh), /usr/bin/python3 $(/usr/bin/python3 -c 'import sys; print(sys.version.split()[0])')"
  echo "printed:  $(date -u +%Y-%m-%dT%H:%MZ), $(($(wc -l < "$OUT/compiler-wide/SUMMARY.tsv") - 1)) builds"
} > "$OUT/COMPILER.txt"
cat "$OUT/COMPILER.txt"
