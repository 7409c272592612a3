#!/usr/bin/env bash
# The hopping figure (CPU per session, two workers over one) side by side for the baseline
# (no flow), the floor (../shared/perf-floor's ProtoFlow) and this package's flow, in one process,
# interleaved: Scripts/floor-hopping/main.swift, built beside a copy of the floor (which is
# read-only where it is kept) against this checkout. A measurement: nothing here is a test.
#   Scripts/floor-hopping.sh [--sessions N] [--runs N] [--transcripts on|off]
#   FLOOR=path/to/perf-floor Scripts/floor-hopping.sh     (default ../shared/perf-floor)
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD
floor="${FLOOR:-../shared/perf-floor}"
[ -f "$floor/Sources/ProtoFlows/ProtoFlow.swift" ] || { echo "floor-hopping: no floor at $floor (set FLOOR)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$floor" "$work/perf-floor"
mkdir -p "$work/perf-floor/Sources/floor-hopping"
cp Scripts/floor-hopping/main.swift "$work/perf-floor/Sources/floor-hopping/"
# The harness as one more executable of the floor's package, beside proto-bench.
python3 - "$work/perf-floor/Package.swift" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
target = '''        .executableTarget(
            name: "floor-hopping",
            dependencies: [
                "ProtoFlows",
                .product(name: "CheckoutCore", package: identity),
                .product(name: "CheckoutFlows", package: identity),
            ]
        ),
'''
assert "    targets: [\n" in text, "the floor's Package.swift has changed shape"
open(path, "w").write(text.replace("    targets: [\n", "    targets: [\n" + target, 1))
PY
(cd "$work/perf-floor" && CHECKOUT_PATH="$checkout" swift build -c release --product floor-hopping >&2)
"$work/perf-floor/.build/release/floor-hopping" "$@"
