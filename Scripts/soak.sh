#!/usr/bin/env bash
# Random sessions against the reference models of the three flows, as many as asked for.
#   Scripts/soak.sh [SESSIONS] [SEED]
# SESSIONS is per test (default 100000); SEED picks the first session (default fixed). A failure
# prints its seed and a shrunk step list; rerun one session with CHECKOUT_SEED=... CHECKOUT_SESSIONS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
sessions="${1:-100000}"
seed="${2:-20261130}"
case "$sessions" in '' | *[!0-9]*) echo "soak: SESSIONS must be a whole number, not '$sessions'" >&2; exit 2 ;; esac
case "$seed" in '' | *[!0-9]*) echo "soak: SEED must be a whole number, not '$seed'" >&2; exit 2 ;; esac
# Release build; -enable-testing because the other test targets use @testable imports.
swift build -c release -Xswiftc -enable-testing --build-tests
start=$(date +%s)
CHECKOUT_SESSIONS="$sessions" CHECKOUT_SEED="$seed" \
    swift test -c release -Xswiftc -enable-testing --skip-build --filter CheckoutReliabilityTests
echo "soak: $sessions sessions per test from seed $seed in $(( $(date +%s) - start ))s"
