#!/bin/sh
# Build the PyPTO compiler (hw-native-sys/pypto @ PYPTO_COMMIT, e2d0f78 by default) from source on
# Debian 12, with Debian packages only (no PyPI), plus the footprint instrumentation patch beside
# this script.
#
# usage: MIRRORS=<dir> sh build.sh [WORK]
#   MIRRORS  folder holding a bare git mirror of each source repository as <owner>+<name>/repo:
#            hw-native-sys+pypto, hw-native-sys+simpler, wjakob+nanobind, Tessil+robin-map,
#            msgpack+msgpack-c, ianlancetaylor+libbacktrace        (default: ./mirrors)
#   WORK     where the sources and the build go (default: $PYPTO_WORK, else .); it receives
#            pypto/ (source tree; the built module lands in pypto/python/pypto/), deps/, build/
#   APT=0    skip the apt-get step (packages already installed; it needs root)
#   PYPTO_COMMIT  the compiler's commit (default e2d0f78ae6d709c0d6ee345a48db2c3d621a4b09; another
#            one may need other submodule commits and may not take the patch)
# Seen: 10 to 18 min on 2 cores at -O0 (ninja -j2).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
M=$(cd "${MIRRORS:-mirrors}" && pwd)
B=${1:-${PYPTO_WORK:-.}}
mkdir -p "$B" && B=$(cd "$B" && pwd)
if [ "${APT:-1}" != 0 ]; then
  apt-get update
  # python3-torch (1.13.1) pulls in python3-numpy (1.24); it only suggests python3-pytest, which
  # tests/st's programs import
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    cmake ninja-build g++ python3-dev python3-torch python3-pytest git patch
fi
arc() { git --git-dir="$M/$1/repo" archive "$2" | tar -x -C "$3"; }
mkdir -p "$B/pypto" "$B/deps/nanobind/ext/robin_map"
arc hw-native-sys+pypto "${PYPTO_COMMIT:-e2d0f78ae6d709c0d6ee345a48db2c3d621a4b09}" "$B/pypto"
# Submodules. pypto e2d0f78 pins libbacktrace 6f8310e and msgpack-c 9199087; neither commit was in
# the mirrors this recipe was made with, so the nearest available are used (msgpack-c is header-only
# here; cpp_master at e9e06a54). simpler is the pinned commit; only its headers are used.
arc ianlancetaylor+libbacktrace 5f4a6d4941de23180e7c412cc9ddf5ce440e3829 "$B/pypto/3rdparty/libbacktrace"
arc msgpack+msgpack-c e9e06a546c447ba7f04e3eec285071ad9cf5044f "$B/pypto/3rdparty/msgpack-c"
arc hw-native-sys+simpler 93adc3865e65fd72655f571f2e4165cf5ac02616 "$B/pypto/runtime"
arc wjakob+nanobind v2.15.0 "$B/deps/nanobind"                   # a47983000e9dda68177fc1fd426f7147d785c2c0
arc Tessil+robin-map 4ec1bf19c6a96125ea22062f38c2cf5b958e448e "$B/deps/nanobind/ext/robin_map"
# Optional: AllocateMemoryAddr prints its own per-space footprint to stderr ([PYPTO-FOOTPRINT] lines).
(cd "$B/pypto" && patch -p1 < "$here/footprint-instrumentation.patch")
mkdir -p "$B/build" && cd "$B/build"
nice -n 19 cmake -G Ninja ../pypto -DCMAKE_BUILD_TYPE=Quick -DCMAKE_CXX_FLAGS_QUICK=-O0 -DCMAKE_C_FLAGS_QUICK=-O1 \
  -DPython_EXECUTABLE=/usr/bin/python3 -Dnanobind_DIR="$B/deps/nanobind/cmake" \
  -DCMAKE_BUILD_PARALLEL_LEVEL=2 -DBUILD_TESTING=OFF
nice -n 19 ninja -j2      # -> pypto/python/pypto/pypto_core.cpython-311-x86_64-linux-gnu.so
# Use: /usr/bin/python3 with pypto/python on sys.path; all cases: PYPTO_WORK=<WORK> sh run_cases.sh
