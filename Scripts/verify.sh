#!/usr/bin/env bash
# Model-checks the engine's protocol with spin (Verification/README.md says what and how).
#
#   Scripts/verify.sh             every property of Verification/engine.pml and paycontext.pml,
#                                 exhaustively, then every mutant (each must be caught)
#   Scripts/verify.sh --mutant    only the mutants: shows that the checks can fail
#   Scripts/verify.sh --findings  the variants of the README's "Findings"; prints what spin finds
#                                 and does not fail
#
# Fails (non-zero exit) when a name in Verification/README.md's model-to-Swift map is gone from the
# Swift (Verification/check-names.py), when a property reports an error or an incomplete search,
# or when a mutant is not caught. Runs from any directory; works in a temporary directory; as many
# searches at once as there are cores.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=all
case "${1:-}" in
    "") ;;
    --mutant | --mutants) mode=mutants ;;
    --findings) mode=findings ;;
    -h | --help)
        sed -n '2,13p' "$0"
        exit 0
        ;;
    *)
        echo "usage: $0 [--mutant | --findings]" >&2
        exit 2
        ;;
esac

# The map from the models to the Swift names: every name it gives must exist where it says.
echo "== the model-to-Swift name map"
python3 "$root/Verification/check-names.py"

if ! command -v spin >/dev/null 2>&1; then
    echo "== installing spin"
    apt-get update && apt-get install -y spin
fi
if ! command -v gcc >/dev/null 2>&1; then
    echo "== installing gcc"
    apt-get update && apt-get install -y gcc
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/verify.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cores=$(nproc 2>/dev/null || echo 2)
started=$SECONDS

# The bounded configurations of the engine model (README: "Results", "What is abstracted away").
engine_wide="-DMAXCB=3 -DMAXACT=3 -DNMERCHANT=1"     # three callbacks, one merchant thread
engine_threads="-DMAXCB=2 -DMAXACT=2 -DNMERCHANT=2"  # two callbacks, two merchant threads
# Per configuration: the model's assertions and invalid end states (deadlocks) in one search (the
# three-callback configuration leaves this one out for time: its e_safety search checks the
# assertions); the LTL conjunction of the safety properties in one search (e_safety: e1_one_outstanding,
# e1_delegate_view, e2_applied_once, e4_call_in_time, e5_terminal_last, e6_no_overlap; p_safety:
# p6_complete_once, p5_deferred_reports_confirmation, p5_early_cancel_never_confirms); each liveness
# property in a search of its own. Every search also checks the assertions. e1_delegate_view and
# e4_call_in_time (and their assertions) were README finding 1's variants (-DE1_DELEGATE_VIEW with
# 3 callbacks, -DE4_CALL_IN_TIME), fixed: both configurations check them.
engine_liveness="e5_terminates e4_no_hang e6_drained"
pay_liveness="p6_completes"

# Jobs, one a line: label|model|spin defines|gcc defines|pan arguments|expect (pass, fail, report)
jobs_file="$tmp/jobs"
: >"$jobs_file"
job() { echo "$1|$2|$3|$4|$5|$6" >>"$jobs_file"; }

# pan: -m depth bound (far above the models' depths; pan says so if it is too small), COLLAPSE
# compression and a memory limit that stops a search cleanly instead of the machine swapping.
fast="-O1 -DCOLLAPSE -DMEMLIM=6000"
mutant_cc="-O0 -DMEMLIM=2000"

properties() {
    local label=$1 model=$2 defines=$3 safety=$4 liveness=$5 plain=$6 name
    if [ "$plain" = yes ]; then
        job "$label: assertions, end states" "$model" "$defines" "$fast -DSAFETY -DNOCLAIM" "-m100000" pass
    fi
    job "$label: ltl $safety" "$model" "$defines" "$fast -DSAFETY" "-m100000 -N $safety" pass
    for name in $liveness; do
        job "$label: ltl $name" "$model" "$defines" "$fast" "-m100000 -a -N $name" pass
    done
}

# mutant NAME MODEL PROPERTY KIND: the assertions must catch it, and the LTL property alone (the
# model's own assertions off) must catch it too.
mutant() {
    local name=$1 model=$2 property=$3 kind=$4 defines
    if [ "$model" = engine.pml ]; then defines="$engine_threads -D$name"; else defines="-D$name"; fi
    job "mutant $name: assertions" "$model" "$defines" "$mutant_cc -DSAFETY -DNOCLAIM" "-m100000" fail
    case $kind in
        safety) job "mutant $name: ltl $property" "$model" "$defines -DLTL_ONLY" "$mutant_cc -DSAFETY" \
            "-m100000 -N $property" fail ;;
        liveness) job "mutant $name: ltl $property" "$model" "$defines -DLTL_ONLY" "$mutant_cc" \
            "-m100000 -a -N $property" fail ;;
        none) ;;
    esac
}

if [ "$mode" = all ]; then
    properties "engine, 2 callbacks, 2 merchant threads" engine.pml "$engine_threads" e_safety "$engine_liveness" yes
    properties "engine, 3 callbacks, 1 merchant thread" engine.pml "$engine_wide" e_safety "" no
    properties "pay context" paycontext.pml "" p_safety "$pay_liveness" yes
fi
if [ "$mode" = all ] || [ "$mode" = mutants ]; then
    mutant BROKEN_ID engine.pml e2_applied_once safety
    mutant BROKEN_GATE engine.pml "" none
    mutant BROKEN_DRAIN engine.pml e6_no_overlap safety
    mutant BROKEN_PENDING engine.pml e1_one_outstanding safety
    mutant BROKEN_DEADLINE engine.pml e4_no_hang liveness
    mutant BROKEN_RELEASE engine.pml e6_drained liveness
    mutant BROKEN_START engine.pml e4_call_in_time safety
    mutant BROKEN_DEFER paycontext.pml p5_deferred_reports_confirmation safety
    mutant BROKEN_EARLY paycontext.pml p5_early_cancel_never_confirms safety
fi
if [ "$mode" = findings ]; then
    # 1, fixed (its checks are in the default run): the old arming, the mutant BROKEN_START, against
    # each property alone: with 3 callbacks the delegate is called for #2 while #3 is outstanding.
    job "finding 1 (fixed): BROKEN_START, 3 callbacks, ltl e1_delegate_view" engine.pml \
        "$engine_wide -DBROKEN_START -DLTL_ONLY" "$mutant_cc -DSAFETY" "-m100000 -N e1_delegate_view" report
    job "finding 1 (fixed): BROKEN_START, ltl e4_call_in_time" engine.pml \
        "$engine_threads -DBROKEN_START -DLTL_ONLY" "$mutant_cc -DSAFETY" "-m100000 -N e4_call_in_time" report
    # 2, fixed in Swift: the variant keeps the old behaviour.
    job "finding 2 (fixed), SHEET_ENDS_ITSELF" paycontext.pml "-DSHEET_ENDS_ITSELF" \
        "$mutant_cc -DSAFETY -DNOCLAIM" "-m100000" report
    # 3: the variant verifies (HOLDS).
    job "finding 3, NO_ROUND_CHECK" paycontext.pml "-DNO_ROUND_CHECK" "$fast -DSAFETY -DNOCLAIM" "-m100000" report
fi

# Generates and compiles one verifier per (model, spin defines, gcc defines), once.
build() {
    local model=$1 defines=$2 cc=$3 key dir
    key=$(printf '%s|%s|%s' "$model" "$defines" "$cc" | md5sum | cut -c1-12)
    dir="$tmp/build/$key"
    if [ ! -x "$dir/pan" ]; then
        mkdir -p "$dir"
        cp "$root/Verification/$model" "$dir/"
        # shellcheck disable=SC2086
        (cd "$dir" && spin $defines -a "$model" >spin.log 2>&1 && gcc $cc -w -o pan pan.c >gcc.log 2>&1) || {
            echo "cannot build $model with '$defines' '$cc':" >&2
            cat "$dir/spin.log" "$dir/gcc.log" >&2 2>/dev/null || true
            return 1
        }
    fi
    echo "$dir"
}

# Runs one job and writes its result line: status|label|states|depth|errors|seconds|note
run_job() {
    local n=$1 line label model defines cc args expect dir out start status errors states depth note
    line=$(sed -n "${n}p" "$jobs_file")
    IFS='|' read -r label model defines cc args expect <<<"$line"
    out="$tmp/out.$n"
    start=$SECONDS
    if ! dir=$(build "$model" "$defines" "$cc" 2>"$out.build"); then
        echo "FAIL|$label|-|-|-|$((SECONDS - start))|could not build: $(head -c 300 "$out.build" | tr '\n' ' ')" >"$tmp/result.$n"
        return 0
    fi
    # shellcheck disable=SC2086
    (cd "$dir" && ./pan $args) >"$out" 2>&1 || true
    errors=$(grep -oE 'errors: [0-9]+' "$out" | tail -1 | grep -oE '[0-9]+' || true)
    states=$(grep -E 'states, stored' "$out" | head -1 | awk '{print $1}' || true)
    depth=$(grep -oE 'depth reached [0-9]+' "$out" | tail -1 | grep -oE '[0-9]+' || true)
    note=$(grep -E 'pan:1:|violated|acceptance cycle|out of memory|too small|Search not completed' "$out" |
        head -1 | tr -s ' \t' ' ' || true)
    if [ -z "$errors" ]; then
        status=FAIL
        note="pan did not finish: $(tail -3 "$out" | tr '\n' ' ')"
    elif [ "$expect" = pass ]; then
        if [ "$errors" = 0 ] && ! grep -qE 'out of memory|too small|Search not completed' "$out"; then
            status=PASS
        else
            status=FAIL
        fi
    elif [ "$expect" = fail ]; then
        if [ "$errors" -gt 0 ]; then status=CAUGHT; else status=FAIL note="the mutant was not caught"; fi
    else
        if [ "$errors" -gt 0 ]; then status=FOUND; else status=HOLDS; fi
    fi
    if [ "$status" = FOUND ] || { [ "$status" = FAIL ] && [ "${errors:-0}" != 0 ]; }; then
        # The counterexample, replayed: the model's TRACE lines (pid, event, effect, state).
        # shellcheck disable=SC2086
        (cd "$dir" && spin $defines -t "$model" 2>&1 | grep -E 'TRACE|assertion' | sed 's/^ */ /') >"$tmp/trace.$n" || true
    fi
    echo "$status|$label|${states:-?}|${depth:-?}|$errors|$((SECONDS - start))|$note" >"$tmp/result.$n"
    if [ "$status" = FAIL ] || [ "$status" = FOUND ]; then cp "$out" "$tmp/failed.$n"; fi
}

count=$(wc -l <"$jobs_file")
echo "== spin: $count searches ($mode), $cores at a time; spin $(spin -V | awk '{print $3}')"

# Builds first (each verifier once, in parallel), then the searches (the large ones are listed first).
for n in $(seq 1 "$count"); do
    IFS='|' read -r _ model defines cc _ _ <<<"$(sed -n "${n}p" "$jobs_file")"
    echo "$model|$defines|$cc"
done | sort -u >"$tmp/builds"
while IFS='|' read -r model defines cc; do
    while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || true; done
    build "$model" "$defines" "$cc" >/dev/null &
done <"$tmp/builds"
wait
for n in $(seq 1 "$count"); do
    while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || true; done
    run_job "$n" &
done
wait

failed=0
printf '%-8s %-78s %12s %6s %6s %5s\n' result check states depth errors secs
for n in $(seq 1 "$count"); do
    if [ ! -f "$tmp/result.$n" ]; then
        echo "FAIL     job $n left no result"
        failed=1
        continue
    fi
    IFS='|' read -r status label states depth errors secs note <"$tmp/result.$n"
    printf '%-8s %-78s %12s %6s %6s %5s\n' "$status" "$label" "$states" "$depth" "$errors" "$secs"
    case $status in
        CAUGHT) [ -n "$note" ] && echo "         ${note:0:150}" ;;
        FOUND)
            [ -n "$note" ] && echo "         ${note:0:150}"
            [ -f "$tmp/trace.$n" ] && sed 's/^/        /' "$tmp/trace.$n"
            ;;
        FAIL)
            failed=1
            echo "         ${note:0:300}"
            [ -f "$tmp/failed.$n" ] && grep -E 'pan:1|pan: |errors:' "$tmp/failed.$n" | head -4 | sed 's/^/         /'
            [ -f "$tmp/trace.$n" ] && head -40 "$tmp/trace.$n" | sed 's/^/        /'
            ;;
    esac
done
echo "== spin: $count searches in $((SECONDS - started)) s"
if [ "$failed" != 0 ]; then
    echo "verify.sh: FAILED" >&2
    exit 1
fi
case $mode in
    all) echo "verify.sh: every property holds (errors: 0) and every mutant was caught" ;;
    mutants) echo "verify.sh: every mutant was caught" ;;
    findings) echo "verify.sh: findings reported above (FOUND: spin shows a counterexample)" ;;
esac
