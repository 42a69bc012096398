#!/usr/bin/env bash
# Builds everything from the same C sources: native (release, its CLI also
# linked without the fast path, and clang with ASan+UBSan+libFuzzer), WASI
# (the CLI), Emscripten (the page's module).
# Installs what is missing first (tools/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh
# Debian's emcc needs acorn, which Node only finds here (toolchain.md).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
jobs=$(nproc)

configure() {
  local dir=$1
  shift
  [ -f "$dir/CMakeCache.txt" ] || "$@" -S . -B "$dir" >/dev/null
}
configure build/native cmake -DCMAKE_BUILD_TYPE=Release
configure build/asan cmake -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DMM_SANITIZE=ON -DMM_FUZZ=ON
configure build/wasi cmake -DCMAKE_TOOLCHAIN_FILE=cmake/wasi.cmake -DCMAKE_BUILD_TYPE=Release
configure build/wasm emcmake cmake -DCMAKE_BUILD_TYPE=Release

quiet() { sed -e '/^\[ *[0-9]*%\]/d' -e '/^Scanning dependencies/d'; } # progress lines hide warnings and errors
for dir in build/native build/asan build/wasi build/wasm; do
  cmake --build "$dir" -j"$jobs" 2>&1 | quiet
done
# The page: dist/site/ and dist/memory-map.html.
node tools/bundle.mjs
