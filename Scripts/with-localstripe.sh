#!/usr/bin/env bash
# Runs a command against localstripe, a stateful Stripe emulator from PyPI.
#
#   Scripts/with-localstripe.sh                    # the emulator tests, then the CLI on both backends
#   Scripts/with-localstripe.sh --cli              # only the CLI part
#   Scripts/with-localstripe.sh COMMAND [ARG...]   # any command, e.g. swift run checkout-sim ...
#
# Installs localstripe 1.15.10 into .build/localstripe-venv (once), starts it on a free port,
# exports STRIPE_EMULATOR_URL=http://127.0.0.1:PORT, runs the command, and stops the emulator
# (also on failure or interruption). localstripe listens on every interface; everything here
# talks to it on 127.0.0.1 only.
#
# By default: `swift test --filter StripeEmulatorTests`, failing if the tests were skipped or none
# ran; then checkout-sim itself: every pay-context scenario under Examples/ whose cards and
# intent localstripe knows runs with `checkout-sim test` on the memory backend and on
# `--backend stripe-http --stripe-base-url $STRIPE_EMULATOR_URL --stripe-emulator`: it must pass
# its expectations on the memory backend, and end the same on both (`run --format json`: outcome,
# delegate calls, no broken invariant). localstripe declines with `card_declined` and no decline
# code, so a decline compares as `error(declined)`, as in StripeEmulatorTests. A scenario
# localstripe cannot run is listed with the reason; the run fails if none ran.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
venv="$root/.build/localstripe-venv"
version=1.15.10

if [[ ! -x "$venv/bin/localstripe" ]]; then
    echo "==> installing localstripe $version into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "localstripe==$version"
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
log="$root/.build/localstripe.log"
"$venv/bin/localstripe" --port "$port" --from-scratch >"$log" 2>&1 &
emulator=$!
stop() { kill "$emulator" 2>/dev/null || true; wait "$emulator" 2>/dev/null || true; }
trap stop EXIT INT TERM

for _ in $(seq 1 100); do
    if python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', $port), 0.2)" 2>/dev/null; then break; fi
    if ! kill -0 "$emulator" 2>/dev/null; then
        echo "localstripe exited; its log:" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.1
done
export STRIPE_EMULATOR_URL="http://127.0.0.1:$port"
echo "==> localstripe on $STRIPE_EMULATOR_URL (pid $emulator)" >&2

# checkout-sim on both backends: see the header.
cli() {
    swift build --product checkout-sim >&2
    local sim
    sim="$(swift build --show-bin-path)/checkout-sim"
    STRIPE_SECRET_KEY=sk_test_localstripe CHECKOUT_SIM="$sim" python3 - <<'PY'
import glob, json, os, subprocess, sys

sim = os.environ["CHECKOUT_SIM"]
http = ["--backend", "stripe-http", "--stripe-base-url", os.environ["STRIPE_EMULATOR_URL"], "--stripe-emulator"]
# The cards localstripe 1.15.10 gives Stripe's outcome (its resources.py; the same lists as
# StripeEmulatorTests): on a PaymentIntent, the success, the 3-D Secure cards and the card that
# declines after attaching; on a SetupIntent also the cards whose attaching it declines.
# American Express (15 digits, which localstripe refuses) goes as its stand-in, the plain success
# card, with --stripe-emulator.
payment_cards = {"4242424242424242", "4000002500003155", "4000002760003184", "4000008260003178",
                 "4000000000003220", "4000008400001629", "4000000000000341", "378282246310005",
                 "371449635398431"}
setup_cards = payment_cards | {"4000000000000002", "4000000000009995", "4000000000009987", "4000000000009979",
                               "4000000000000069", "4000000000000127", "4000000000000119"}

def why_not(scenario):
    intent = scenario.get("merchant", {}).get("intent", {})
    if intent.get("confirmationMethod") == "manual":
        return "localstripe refuses confirmation_method"
    known = setup_cards if intent.get("kind") == "setupIntent" else payment_cards
    for step in scenario.get("steps", []):
        card = "".join(c for c in step.get("card", "") if c.isdigit())
        if step.get("action") == "authorize" and card and card not in known:
            return "localstripe does not know card " + card
    return None

def run(args):
    return subprocess.run([sim] + args, capture_output=True, text=True)

# Stripe's codes for a declined card; the pay context's own codes (confirmationFailure, ...) and
# any other error stay as they are.
declines = {"card_declined", "generic_decline", "insufficient_funds", "lost_card", "stolen_card",
            "expired_card", "incorrect_cvc", "processing_error", "incorrect_number"}

def coarse(outcome):
    if outcome.startswith("error(") and outcome[len("error("):-1] in declines:
        return "error(declined)"
    return outcome

ran, failed = 0, 0
for path in sorted(glob.glob("Examples/**/*.json", recursive=True)):
    scenario = json.load(open(path))
    if scenario.get("flow") != "payContext":
        continue
    reason = why_not(scenario)
    if reason:
        print(f"not on localstripe: {path} ({reason})")
        continue
    ran += 1
    test = run(["test", path])
    if test.returncode != 0:
        print(f"FAIL {path} on memory:\n{test.stdout}{test.stderr}")
        failed += 1
    results = {}
    for name, extra in (("memory", []), ("stripe-http", http)):
        shown = run(["run", path, "--format", "json"] + extra)
        try:
            document = json.loads(shown.stdout)
            results[name] = (coarse(document["outcome"]), document["delegateCalls"], document["brokenInvariants"])
        except (ValueError, KeyError):
            results[name] = ("unreadable: " + shown.stderr.strip(), [], [])
    if results["memory"] != results["stripe-http"]:
        print(f"FAIL {path}: memory {results['memory']} but stripe-http {results['stripe-http']}")
        failed += 1
    else:
        print(f"same on both backends: {path}: {results['memory'][0]}")
print(f"checkout-sim on localstripe: {ran} scenarios on both backends, {failed} failures")
sys.exit(1 if failed or ran == 0 else 0)
PY
}

if [[ "${1:-}" == "--cli" ]]; then
    cli
    exit $?
fi

if [[ $# -gt 0 ]]; then
    "$@"
    exit $?
fi

output="$root/.build/localstripe-tests.log"
set +e
swift test --filter StripeEmulatorTests 2>&1 | tee "$output"
status=${PIPESTATUS[0]}
set -e
if [[ $status -ne 0 ]]; then exit "$status"; fi
if grep -q "skipped" "$output"; then
    echo "error: the Stripe emulator tests were skipped" >&2
    exit 1
fi
if ! grep -Eq "Executed [1-9][0-9]* tests?, with 0 failures" "$output"; then
    echo "error: no Stripe emulator test ran" >&2
    exit 1
fi
cli
