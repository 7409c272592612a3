#!/usr/bin/env bash
# Runs a command against localstripe, a stateful Stripe emulator from PyPI.
#
#   Scripts/with-localstripe.sh                    # swift test --filter StripeEmulatorTests
#   Scripts/with-localstripe.sh COMMAND [ARG...]   # any command, e.g. swift run checkout-sim ...
#
# Installs localstripe 1.15.10 into .build/localstripe-venv (once), starts it on a free port,
# exports STRIPE_EMULATOR_URL=http://127.0.0.1:PORT, runs the command, and stops the emulator
# (also on failure or interruption). localstripe listens on every interface; everything here
# talks to it on 127.0.0.1 only. With the default command, the run fails if the emulator tests
# were skipped or none ran.
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
