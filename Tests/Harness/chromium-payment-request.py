#!/usr/bin/env python3
"""Runs the W3C Payment Request flow in a real browser against the relay, the browser the judge.

Starts the harness's HTTP front for the relay (the `relay-harness` target: docs/relay.md's W3C page
code, a payment app that plays the customer, POST /pay/events into `WebRelay.handle(json:caller:)`
of a scenario's merchant) and Debian's Chromium headless, then drives each scenario through the
DevTools protocol (a real click, so `show()` has its user activation) and checks what the page,
the payment app and the relay saw. Each shop's events and answers are recorded as a relay
recording and replayed without the browser with `checkout-sim relay --events X --expect X`.

    Tests/Harness/chromium-payment-request.py              # record into a temporary folder, check,
                                                           # and compare with Examples/relay/chromium-*.jsonl
    Tests/Harness/chromium-payment-request.py --write      # record into Examples/relay/ instead

Needs `chromium` (apt-get install chromium) and `websocket-client` (pip): missing, it fails.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # websocket-client, from PyPI

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOPS = ["chromium-shop", "chromium-broken-shop"]
# Each scenario: the shop (a scenario file of Examples/relay) and the payment app's play (sw.js).
SCENARIOS = [
    ("happy", "chromium-shop"),
    ("retry", "chromium-shop"),
    ("cancel", "chromium-shop"),
    ("invalid", "chromium-broken-shop"),
]


class Failure(Exception):
    pass


def swift_binary(name):
    """Builds the product and returns its path."""
    subprocess.run(["swift", "build", "--product", name], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    return os.path.join(bin_path, name)


class Front:
    """The relay-harness process."""

    def __init__(self, binary, record_dir):
        scenarios = [os.path.join(ROOT, "Examples", "relay", f"{shop}.json") for shop in SHOPS]
        self.process = subprocess.Popen(
            [binary, "--docs", os.path.join(ROOT, "docs", "relay.md"),
             "--web", os.path.join(ROOT, "Tests", "Harness", "web"), "--record-dir", record_dir] + scenarios,
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.match(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if not match:
            raise Failure(f"relay-harness did not start: {line!r}")
        self.origin = match.group(1)

    def reports(self, play):
        with urllib.request.urlopen(self.origin + "/harness/reports") as reply:
            return [entry for entry in json.load(reply) if entry.get("play") == play]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Browser:
    """Chromium headless and one page target spoken to over the DevTools protocol."""

    FLAGS = ["--headless=new", "--no-sandbox", "--remote-debugging-port=0", "--remote-allow-origins=*",
             "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check"]

    def __init__(self, executable, profile):
        self.log = open(os.path.join(profile, "..", "chromium.log"), "w")
        self.process = subprocess.Popen(
            [executable, f"--user-data-dir={profile}"] + self.FLAGS + ["about:blank"],
            stdout=self.log, stderr=subprocess.STDOUT)
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if time.time() > deadline or self.process.poll() is not None:
                raise Failure("Chromium did not open its DevTools port (see chromium.log)")
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as reply:
            page = next(target for target in json.load(reply) if target["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
        self.next_id = 0
        self.version = self.call("Browser.getVersion")["product"]

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise Failure(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise Failure(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.evaluate(expression):
                return True
            time.sleep(0.05)
        return False

    def click(self, selector):
        """A real mouse click (a user activation, which `show()` needs) in the middle of the element."""
        box = self.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def stop(self):
        self.socket.close()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


# How long the driver lets a call the browser leaves pending stay pending before the shop's page
# gives up (`request.abort()`, as a shop's own timer would): the call is then taken not to settle
# without a customer at the browser's sheet.
PENDING_SECONDS = 2


class Run:
    """One scenario: what the page noted, what the payment app reported, the recording's lines."""

    def __init__(self, play, shop):
        self.play, self.shop = play, shop
        self.page, self.app, self.lines = [], [], []
        self.pending_page = None  # the page's notes while a call was left pending
        self.failures = []

    def check(self, condition, message):
        if not condition:
            self.failures.append(message)
        return condition

    def calls(self, name, notes=None):
        return [note for note in (self.page if notes is None else notes) if note.get("call") == name]

    def steps(self, name):
        return [report for report in self.app if report.get("step") == name]

    def events(self):
        """The recording's (event, answer) pairs, in order."""
        return list(zip(self.lines[0::2], self.lines[1::2]))


def run_scenario(browser, front, run, recording_path, wait):
    """Loads the page, clicks Buy and plays the scenario; fills `run` with what each side saw."""
    before = len(read_lines(recording_path))
    browser.call("Page.navigate", url=f"{front.origin}/?shop={run.shop}&play={run.play}")
    if not browser.wait_for("typeof harness === 'object' && harness.ready", 15):
        raise Failure(f"{run.play}: the page did not load its details")
    browser.click("#pay")
    if run.play in ("retry", "cancel"):
        # The page's code waits on the browser: `response.retry(...)` after a decline, or `show()`
        # after the payment app rejected. Neither settles without a customer at a sheet.
        started = "harness.log.some((note) => note.call === 'retry')" if run.play == "retry" else \
            "harness.log.length > 0"
        browser.wait_for(started, wait)
        if run.play == "cancel":
            deadline = time.time() + wait
            while time.time() < deadline and not any(r.get("step") == "respond" for r in front.reports(run.play)):
                time.sleep(0.05)
        time.sleep(PENDING_SECONDS)
        run.pending_page = browser.evaluate("harness.log")
        run.check(not browser.evaluate("harness.done"), "the page's code finished before the shop gave up")
        browser.evaluate("harness.giveUp()")
    if not browser.wait_for("harness.done", wait):
        run.failures.append(f"the page's code did not finish in {wait} s")
    run.page = browser.evaluate("harness.log")
    run.app = front.reports(run.play)
    run.lines = [json.loads(line) for line in read_lines(recording_path)[before:]]


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as file:
        return [line for line in file.read().split("\n") if line.strip()]


def check_common(run, types):
    """The recording holds one session of one caller, its events of these types, each answered."""
    events = run.events()
    posted = [event["type"] for event, _ in events]
    run.check(posted == types, f"the page posted {len(posted)} events {posted[:8]}"
              f"{' ...' if len(posted) > 8 else ''}, expected {types}")
    run.check(len({event["session"] for event, _ in events}) == 1 and
              len({event.get("caller") for event, _ in events}) == 1, "one session, one caller")
    for event, answer in events:
        run.check(answer.get("session") == event["session"] and answer.get("type") == event["type"],
                  f"the answer {answer} is not the {event['type']}'s")
    # What the page handed the browser for each event is the relay's argument, unchanged.
    for event, answer in events:
        if answer.get("complete") == "updateWith":
            handed = run.calls(f"updateWith({event['type']})")
            run.check(any(note.get("resolved") == answer["argument"] for note in handed),
                      f"the page did not hand the browser the relay's {event['type']} update")
    return events


def check_redacted_address(run, event):
    """The browser's own redaction: the page sees the payment app's address without its street,
    organization, recipient and phone; the rest as the app gave it."""
    given = next((r["response"]["shippingAddress"] for r in run.steps("respond") if "response" in r), None) \
        or SW_ADDRESS
    seen = event["shippingAddress"]
    for member in ("addressLine",):
        run.check(seen[member] == [] and given[member], f"{member}: the page saw {seen[member]!r}")
    for member in ("organization", "recipient", "phone"):
        run.check(seen[member] == "" and given[member], f"{member}: the page saw {seen[member]!r}")
    for member in ("country", "region", "city", "postalCode"):
        run.check(seen[member] == given[member], f"{member}: the page saw {seen[member]!r}, the app gave {given[member]!r}")


# The payment app's address (sw.js), for the cancel and invalid plays, which respond with none.
SW_ADDRESS = {"country": "US", "addressLine": ["1 Main St"], "region": "TX", "city": "Austin",
              "postalCode": "78701", "organization": "Tea Lovers", "recipient": "Ravi Patel", "phone": "+15125550100"}


def check_reached_app(run, step, answer):
    """The relay's update reached the payment app: the total (and options) the browser gave it."""
    reports = run.steps(step)
    if not run.check(reports and "resolved" in reports[0], f"{step}: the payment app got no update: {reports}"):
        return
    update = reports[0]["resolved"]
    argument = answer["argument"]
    run.check(update.get("total") == argument["total"]["amount"],
              f"{step}: the app got the total {update.get('total')}, the relay answered {argument['total']['amount']}")
    if "shippingOptions" in argument:
        run.check([option["id"] for option in update.get("shippingOptions", [])] ==
                  [option["id"] for option in argument["shippingOptions"]], f"{step}: the options differ")


def check_happy(run, origin):
    events = check_common(run, ["shippingaddresschange", "shippingoptionchange", "paymentmethodchange",
                                "paymentresponse"])
    if len(events) != 4:
        return
    (address, address_answer), (option, option_answer), (method, method_answer), (response, response_answer) = events
    check_redacted_address(run, address)
    check_reached_app(run, "changeShippingAddress", address_answer)
    run.check(option["shippingOption"] == "express", "the option change names express")
    check_reached_app(run, "changeShippingOption", option_answer)
    run.check(method["methodName"] == f"{origin}/pay" and method["methodDetails"]["network"] == "amex",
              f"the method change: {method}")
    run.check(any(item["label"] == "Card surcharge" for item in method_answer["argument"]["displayItems"]),
              "the merchant priced the Amex surcharge")
    check_reached_app(run, "changePaymentMethod", method_answer)
    responded = [r["response"] for r in run.steps("respond") if "response" in r]
    full = response["response"]["shippingAddress"]
    run.check(responded and full == responded[0]["shippingAddress"] and full["addressLine"] == ["1 Main St"],
              f"the response's address is the app's full address: {full}")
    run.check(response_answer.get("complete") == "complete" and response_answer.get("argument") == "success",
              f"the relay answered the response with {response_answer}")
    run.check([note.get("argument") for note in run.calls("complete")] == ["success"], "the page called complete")
    run.check(any("resolved" in note for note in run.calls("complete done")), "complete('success') resolved")


def check_retry(run):
    events = check_common(run, ["shippingaddresschange", "paymentresponse", "cancel"])
    if len(events) != 3:
        return
    check_redacted_address(run, events[0][0])
    _, declined = events[1]
    run.check(declined.get("complete") == "retry" and declined["argument"] == {"error": "Your card was declined."},
              f"the relay answered the declined card with {declined}")
    run.check([note.get("argument") for note in run.calls("retry")] == [declined.get("argument")],
              "the page passed the relay's errors to response.retry()")
    # Chromium's no-sheet path: retry() neither settles nor wakes the payment app.
    run.check(not run.calls("retry done", run.pending_page or []), "response.retry() settled without a customer")
    run.check(len(run.steps("paymentrequest")) == 1, "the payment app was asked again")
    run.check(any(note.get("rejected") == "AbortError" for note in run.calls("retry done")),
              "the shop's abort rejects the pending retry with AbortError")
    run.check(events[2][1].get("ended", {}).get("outcome") == "cancelled", f"the cancel: {events[2][1]}")


def check_cancel(run):
    events = check_common(run, ["shippingaddresschange", "cancel"])
    if len(events) != 2:
        return
    check_redacted_address(run, events[0][0])
    run.check(any("rejected" in r for r in run.steps("respond")), "the payment app rejected (the customer closed it)")
    run.check(not run.calls("show", run.pending_page or []), "show() settled when the payment app rejected")
    run.check(any(note.get("rejected") == "AbortError" for note in run.calls("show")), "show() rejected on the abort")
    run.check(events[1][1].get("ended", {}).get("outcome") == "cancelled", f"the cancel: {events[1][1]}")


def check_invalid(run):
    events = check_common(run, ["shippingaddresschange", "shippingoptionchange", "cancel"])
    if len(events) != 3:
        return
    _, ended = events[1]
    run.check(ended.get("complete") == "abort" and ended.get("ended", {}).get("reason") == "invalidUpdate",
              f"the relay ended the session on the negative total: {ended}")
    handed = run.calls("updateWith(shippingoptionchange)")
    run.check(handed and "resolved" not in handed[0] and handed[0].get("rejected") == "Error",
              f"the page handed the browser no update: {handed}")
    run.check(run.calls("abort"), "the page aborted the request")
    run.check(any(note.get("rejected") == "AbortError" for note in run.calls("show")), "show() rejected with AbortError")
    run.check(not any(note.get("rejected") == "TypeError" for note in run.page), "the browser met no invalid update")
    option = run.steps("changeShippingOption")
    run.check(option and option[0].get("rejected") == "AbortError",
              f"the payment app's option change was aborted: {option}")
    run.check('"-' not in json.dumps(run.app), "a negative amount reached the payment app")
    run.check(events[2][1].get("refused", {}).get("reason") == "finished", f"the cancel after the end: {events[2][1]}")


CHECKS = {"happy": lambda run, origin: check_happy(run, origin), "retry": lambda run, _: check_retry(run),
          "cancel": lambda run, _: check_cancel(run), "invalid": lambda run, _: check_invalid(run)}


def normalized(lines):
    """The recording with its run's own values (session ids, callers, request ids, the port) named by
    their order of appearance, to compare a run with the committed recording."""
    names = {}

    def walk(value, key=None):
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        if key in ("session", "caller", "requestId") and isinstance(value, str):
            return names.setdefault((key, value), f"{key}-{sum(1 for k in names if k[0] == key) + 1}")
        if isinstance(value, str):
            return re.sub(r"http://127\.0\.0\.1:\d+", "http://127.0.0.1:PORT", value)
        return value

    return [walk(json.loads(line)) for line in lines]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true", help="record into Examples/relay/ (to commit)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--wait", type=float, default=15, help="seconds to wait for the page's code")
    parser.add_argument("--verbose", action="store_true", help="print what the page and the payment app saw")
    arguments = parser.parse_args()
    if not shutil.which(arguments.chromium):
        print("chromium-payment-request: FAIL: no Chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    harness = swift_binary("relay-harness")
    simulator = swift_binary("checkout-sim")
    work = tempfile.mkdtemp(prefix="chromium-harness-")
    record_dir = os.path.join(ROOT, "Examples", "relay") if arguments.write else os.path.join(work, "recordings")
    os.makedirs(record_dir, exist_ok=True)
    os.makedirs(os.path.join(work, "profile"))
    front = Front(harness, record_dir)
    browser = None
    failures = []
    try:
        browser = Browser(arguments.chromium, os.path.join(work, "profile"))
        print(f"chromium-payment-request: {browser.version}, the relay's front on {front.origin}")
        for play, shop in SCENARIOS:
            run = Run(play, shop)
            started = time.time()
            run_scenario(browser, front, run, os.path.join(record_dir, f"{shop}.jsonl"), arguments.wait)
            CHECKS[play](run, front.origin)
            print(f"  {play} ({shop}): {len(run.lines) // 2} events, {time.time() - started:.1f} s, "
                  + ("ok" if not run.failures else "FAIL"))
            if arguments.verbose or run.failures:
                print(json.dumps({"page": run.page, "app": run.app, "recording": run.lines}, indent=1))
            failures += [f"{play}: {failure}" for failure in run.failures]
    finally:
        if browser:
            browser.stop()
        front.stop()
    for shop in SHOPS:
        recording = os.path.join(record_dir, f"{shop}.jsonl")
        replay = subprocess.run([simulator, "relay", os.path.join(ROOT, "Examples", "relay", f"{shop}.json"),
                                 "--events", recording, "--expect", recording], capture_output=True, text=True)
        print(f"  replayed without the browser: {shop}.jsonl: {replay.stderr.strip()}")
        if replay.returncode != 0:
            failures.append(f"{shop}: the recording does not replay through checkout-sim relay")
        committed = os.path.join(ROOT, "Examples", "relay", f"{shop}.jsonl")
        if not arguments.write:
            if normalized(read_lines(recording)) != normalized(read_lines(committed)):
                failures.append(f"{shop}: this run's recording ({recording}) differs from {committed} beyond its "
                                "ids and port: the browser or the relay changed; check, then record again with --write")
    if failures:
        for failure in failures:
            print(f"chromium-payment-request: FAIL: {failure}", file=sys.stderr)
        print(f"chromium-payment-request: the run's recordings and chromium.log are in {work}", file=sys.stderr)
        return 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"chromium-payment-request: PASS: {len(SCENARIOS)} scenarios in {browser.version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
