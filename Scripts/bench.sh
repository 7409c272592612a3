#!/usr/bin/env bash
# The benchmark (checkout-bench), in a release build, with the arguments given.
#   Scripts/bench.sh            every figure, seven runs each (a few minutes)
#   Scripts/bench.sh --quick    a reduced run, under a minute
#   Scripts/bench.sh --json     one JSON object instead of the table
# Method and latest figures: BENCHMARKS.md. Nothing here is a test: no figure fails a build.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product checkout-bench
exec "$(swift build -c release --show-bin-path)/checkout-bench" "$@"
