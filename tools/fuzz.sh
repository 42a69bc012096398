#!/usr/bin/env bash
# Fuzzes the core's entry point with libFuzzer (clang, ASan + UBSan).
#   tools/fuzz.sh [SECONDS] [SEED]      (npm run fuzz -- SECONDS)
# Seeds: the corpus's dumps and every regression input in tests/fixtures/fuzz/.
# What it learns stays in build/fuzz-corpus/ (runs add up); a crash, leak or
# timeout lands in build/fuzz-findings/ and must become a regression fixture.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
seed=${2:-0}
mkdir -p build/fuzz-corpus build/fuzz-findings build/fuzz-seeds
find tests/fixtures/corpus tests/fixtures/fuzz tests/fixtures/pypto-e2d0f78 -type f -size -100k \( -name '*.py' -o -name '*.bin' \) \
  -exec cp {} build/fuzz-seeds/ \; 2>/dev/null || true
exec build/asan/fuzz_model -max_total_time="$seconds" -seed="$seed" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -dict=tests/fuzz/python.dict -artifact_prefix=build/fuzz-findings/ \
  -print_final_stats=1 build/fuzz-corpus build/fuzz-seeds
