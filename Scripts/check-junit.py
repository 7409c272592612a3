#!/usr/bin/env python3
"""Reads checkout-sim's JUnit XML back with junitparser (what CI systems use) and checks it.

    Scripts/check-junit.py [CHECKOUT_SIM]

CHECKOUT_SIM is the checkout-sim binary (default: .build/debug/checkout-sim). Two runs:

1. `checkout-sim test Examples/ --junit FILE --json`: the XML must hold one testcase a scenario
   file, with the names, files and counts the JSON report gives, and no failure (exit 0).
2. A folder with a passing scenario, a failing one and a malformed file: exit 2, and the XML must
   count 3 tests and 2 failures, with the failing scenario's first difference and the malformed
   file's reason as the failure messages.

Exits 1 with a message on the first check that does not hold. Needs `pip install junitparser`.
"""

import json
import os
import subprocess
import sys
import tempfile

from junitparser import Failure, JUnitXml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "checkout-sim")


def fail(message):
    print(f"check-junit: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def run(paths, xml):
    done = subprocess.run(
        [SIM, "test", *paths, "--junit", xml, "--json"], cwd=ROOT, capture_output=True, text=True
    )
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError as error:
        fail(f"--json is not one JSON document ({error}): {done.stdout[:200]!r}")
    return done.returncode, report


def cases(xml):
    suites = JUnitXml.fromfile(xml)
    expect(suites.tests == sum(suite.tests for suite in suites), "testsuites count differs from its suites")
    found = []
    for suite in suites:
        for case in suite:
            failures = [result for result in case.result if isinstance(result, Failure)]
            found.append((case.name, case.classname, failures))
    return suites, found


def main():
    with tempfile.TemporaryDirectory() as folder:
        xml = os.path.join(folder, "examples.xml")
        code, report = run(["Examples/"], xml)
        expect(code == 0, f"test Examples/ exited {code}")
        suites, found = cases(xml)
        expect(suites.tests == len(report["results"]) > 0, f"{suites.tests} testcases for {len(report['results'])} files")
        expect(suites.failures == report["failed"] == 0, f"{suites.failures} failures in the XML, {report['failed']} reported")
        names = [(result["name"], result["file"]) for result in report["results"]]
        expect([(name, file) for name, file, _ in found] == names, f"names or files differ: {found[:3]} vs {names[:3]}")
        expect(all(not failures for _, _, failures in found), "a passing scenario has a failure element")

        mixed = os.path.join(folder, "mixed")
        os.mkdir(mixed)
        with open(os.path.join(ROOT, "Examples/pay-context/payment-intent.json"), encoding="utf-8") as source:
            scenario = json.load(source)
        with open(os.path.join(mixed, "a-passes.json"), "w", encoding="utf-8") as target:
            json.dump(scenario, target)
        scenario["name"] = "expects <the wrong> & \"outcome\""
        scenario["expect"]["outcome"] = "userCancellation"
        with open(os.path.join(mixed, "b-fails.json"), "w", encoding="utf-8") as target:
            json.dump(scenario, target)
        with open(os.path.join(mixed, "c-malformed.json"), "w", encoding="utf-8") as target:
            target.write('{"flow": "payContext", "stepz": []}')
        xml = os.path.join(folder, "mixed.xml")
        code, report = run([mixed], xml)
        expect(code == 2, f"a folder with a malformed file exited {code}, not 2")
        suites, found = cases(xml)
        expect((suites.tests, suites.failures) == (3, 2), f"counts {suites.tests} tests, {suites.failures} failures")
        expect((report["passed"], report["failed"]) == (1, 2), f"JSON counts {report['passed']}, {report['failed']}")
        (_, _, passing), (name, _, failing), (bad_name, _, malformed) = found
        expect(not passing, "the passing scenario has a failure")
        expect(name == scenario["name"], f"the name came back as {name!r}")
        expect(len(failing) == 1 and failing[0].message.startswith("outcome: expected userCancellation, got success"),
               f"failure message {failing[0].message if failing else None!r}")
        expect(bad_name == "c-malformed.json", f"the malformed file is named {bad_name!r}")
        expect(len(malformed) == 1 and "unknown key `stepz`; did you mean `steps`?" in malformed[0].message,
               f"malformed message {malformed[0].message if malformed else None!r}")
        expect(malformed[0].type == "malformed", f"malformed failure type {malformed[0].type!r}")
    print("check-junit: the JUnit XML of test Examples/ and of a mixed folder reads back with junitparser")


if __name__ == "__main__":
    main()
