#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test memory-map.
# Idempotent: each package is installed only when missing, so `npm test`
# can call this every time at little cost.
set -euo pipefail

# Debian packages, each with a probe that tells whether it is already there.
#   emscripten                 emcc, the browser build (toolchain.md)
#   wasi-libc + rt-wasm32      clang --target=wasm32-wasi, the CLI build
#   libclang-rt-14-dev         ASan/UBSan/libFuzzer runtimes for clang
#   chromium, firefox-esr      the page tests, in both browsers
#   mkdocs, mkdocs-material    the page inside a docs site (tests/docs-site)
#   time                       GNU time: peak memory of whole processes (bench)
#   libxml2-utils              xmllint: the JUnit report against its schema
#   lintian                    the Debian package's own checks (tests/release)
#   python3-venv, -wheel       the wheel: made by `wheel pack`, installed into
#                              a fresh venv (tests/cli/python.test.mjs)
#   jupyter-nbconvert, python3-ipykernel
#                              a notebook calling show(), executed (tests/page)
declare -A probe=(
  [emscripten]=/usr/bin/emcc
  [wasi-libc]=/usr/lib/wasm32-wasi/libc.a
  [libclang-rt-14-dev-wasm32]=/usr/lib/llvm-14/lib/clang/14.0.6/lib/wasi/libclang_rt.builtins-wasm32.a
  [libclang-rt-14-dev]=/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
  [chromium]=/usr/bin/chromium
  [firefox-esr]=/usr/bin/firefox-esr
  [mkdocs]=/usr/bin/mkdocs
  [mkdocs-material]=/usr/share/mkdocs/themes/material/__init__.py
  [time]=/usr/bin/time
  [libxml2-utils]=/usr/bin/xmllint
  [lintian]=/usr/bin/lintian
  [python3-venv]=/usr/lib/python3.11/ensurepip
  [python3-wheel]=/usr/lib/python3/dist-packages/wheel/__init__.py
  [jupyter-nbconvert]=/usr/bin/jupyter-nbconvert
  [python3-ipykernel]=/usr/lib/python3/dist-packages/ipykernel/__init__.py
)
missing=()
for pkg in "${!probe[@]}"; do
  [ -e "${probe[$pkg]}" ] || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# npm dev dependencies (playwright-core and puppeteer-core, which never
# download a browser; axe-core; esbuild, whose binary comes in its
# @esbuild/<platform> package): installed when one is missing.
cd "$(dirname "$0")/.."
for dep in playwright-core puppeteer-core axe-core esbuild; do
  if [ ! -d "node_modules/$dep" ]; then
    npm install --no-audit --no-fund >&2
    break
  fi
done
