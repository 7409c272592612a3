#!/usr/bin/env bash
# Random sessions against the reference models of the three flows, as many as asked for.
#   Scripts/soak.sh [SESSIONS] [SEED]
# SESSIONS is the total over the three flows and their variants (default 1000000); SEED picks the
# first session (default fixed). A failure
# prints its seed and a shrunk step list; rerun one session with CHECKOUT_SEED=... CHECKOUT_SESSIONS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
sessions="${1:-1000000}"
seed="${2:-20261130}"
case "$sessions" in '' | *[!0-9]*) echo "soak: SESSIONS must be a whole number, not '$sessions'" >&2; exit 2 ;; esac
case "$seed" in '' | *[!0-9]*) echo "soak: SEED must be a whole number, not '$seed'" >&2; exit 2 ;; esac
# A release build of every test target, the reliability tests among them; some of the relay's tests
# import it `@testable`, so the build enables testing (the reliability tests themselves reach the
# package's internals through `package` access).
swift build -c release --build-tests -Xswiftc -enable-testing
# The main test of each flow runs CHECKOUT_SESSIONS sessions and its variants a quarter each:
# 4.25 times CHECKOUT_SESSIONS in all.
per_test=$(( sessions * 4 / 17 ))
[ "$per_test" -ge 1 ] || per_test=1
start=$(date +%s)
CHECKOUT_SESSIONS="$per_test" CHECKOUT_SEED="$seed" \
    swift test -c release --skip-build --filter CheckoutReliabilityTests
echo "soak: about $sessions sessions ($per_test per main test) from seed $seed in $(( $(date +%s) - start ))s"
