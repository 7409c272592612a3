#!/usr/bin/env bash
# Instructions per delegate round trip, counted by callgrind on a release build.
#   Scripts/profile.sh [WORKLOAD ...]      default: the baselines and every round-trip variant
#   COUNT=20000 Scripts/profile.sh         round trips per measurement (default 20000)
# Each workload runs twice under valgrind --tool=callgrind, with COUNT+1 round trips and with 1;
# the difference of the two totals over COUNT is the cost of one round trip, start-up and the
# checks checkout-bench makes before it measures cancelled out. Workloads (checkout-bench --profile):
#   baseline                 plain closures, the shop's merchant behind an opaque existential
#   baseline-prebuilt        the same, the merchant's answers prebuilt
#   baseline-concrete        the old baseline: merchant's type visible, the call inlined away
#   roundtrip-off/-on/-bare  the flow: transcripts off / on / no deadline and no transcript
#   roundtrip-off-prebuilt   the flow, transcripts off, prebuilt answers (the engine's own cost)
#   roundtrip-on-prebuilt    the same with the transcript
#   authorization, shipping  whole sessions (instructions a session)
#   relay, relay-off         whole Apple Pay sessions of five events through WebRelay.handle(json:),
#                            transcripts on (the relay's default) / off (instructions an event: COUNT,
#                            default 200, sessions of five events)
#   relay-baseline           the same events decoded, the merchant asked, the same answers encoded by
#                            plain Codable structs (no flow)
#   explore                  the explorer over Examples (instructions an explored session: COUNT,
#                            default 200, sessions of each example, the setup cancelled out);
#                            valgrind runs it (and the relay's) with Scripts/valgrind-sigsuspend.c preloaded
# Needs valgrind (apt-get install valgrind), and a C compiler for explore. Nothing here is a test:
# no figure fails a build.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${COUNT:-20000}"
case "$count" in '' | *[!0-9]*) echo "profile: COUNT must be a whole number, not '$count'" >&2; exit 2 ;; esac
command -v valgrind > /dev/null || { echo "profile: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
if [ "$#" -eq 0 ]; then
    set -- baseline baseline-prebuilt baseline-concrete roundtrip-off roundtrip-on roundtrip-bare \
        roundtrip-off-prebuilt roundtrip-on-prebuilt
fi
swift build -c release --product checkout-bench >&2
bench="$(swift build -c release --show-bin-path)/checkout-bench"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
total() {  # total() WORKLOAD COUNT: the instructions callgrind counted for the whole run
    local preload=()
    # Workloads that run Swift tasks: libdispatch's worker threads wait in sigsuspend.
    if [ "$1" = explore ] || [[ "$1" == relay* ]]; then
        [ -f "$work/sigsuspend.so" ] || cc -shared -fPIC -O2 -o "$work/sigsuspend.so" Scripts/valgrind-sigsuspend.c
        preload=(env LD_PRELOAD="$work/sigsuspend.so")
    fi
    "${preload[@]}" valgrind --tool=callgrind --callgrind-out-file="$work/out" "$bench" --profile "$1" --count "$2" \
        > /dev/null 2> "$work/log" || { cat "$work/log" >&2; exit 1; }
    sed -n 's/^summary: //p' "$work/out"
}
declare -A per
printf '%-44s %12s\n' "workload" "instr/trip"
for workload in "$@"; do
    n=$count
    sessions=$count
    if [ "$workload" = explore ]; then
        # COUNT sessions of each example; 200 unless COUNT is given (a session costs ~100 trips).
        n="${COUNT:-200}"
        sessions=$((n * $(find Examples -name '*.json' | wc -l)))
    fi
    case "$workload" in relay | relay-off | relay-baseline)
        # COUNT sessions of five events; 200 unless COUNT is given (a session costs ~1.5 M instr).
        n="${COUNT:-200}"
        sessions=$((n * 5)) ;;
    esac
    many=$(total "$workload" $((n + 1)))
    one=$(total "$workload" 1)
    per[$workload]=$(awk -v a="$many" -v b="$one" -v n="$sessions" 'BEGIN { printf "%.1f", (a - b) / n }')
    printf '%-44s %12s\n' "$workload" "${per[$workload]}"
done
ratio() {  # ratio() A B: per[A] / per[B] when both were measured
    [ -n "${per[$1]:-}" ] && [ -n "${per[$2]:-}" ] || return 0
    awk -v a="${per[$1]}" -v b="${per[$2]}" -v x="$1" -v y="$2" \
        'BEGIN { printf "%-44s %8.2fx  (%s over %s; %+.0f instr)\n", x " / " y, a / b, x, y, a - b }'
}
echo
ratio roundtrip-off baseline
ratio roundtrip-on baseline
ratio roundtrip-bare baseline
ratio roundtrip-off-prebuilt baseline-prebuilt
ratio roundtrip-on-prebuilt baseline-prebuilt
ratio relay relay-baseline
ratio relay-off relay-baseline
