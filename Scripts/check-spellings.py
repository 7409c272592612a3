#!/usr/bin/env python3
"""Proves at compile time what spec E11 promises of the platforms' own spellings of each callback
(the `spellings` of Scripts/callbacks.json): a merchant written in PassKit's or Stripe's spelling is
either called (the spelling is a requirement of the protocol) or refused by the compiler.

    Scripts/check-spellings.py             builds the package (debug) and checks every spelling
    Scripts/check-spellings.py --no-build  checks against the modules of the last `swift build`

For each delegate protocol (completion-handler form) it type-checks small merchants against the
built modules (`swiftc -typecheck -I .build/debug/Modules`):
  control    every required method in our spelling: must compile (the harness works);
  required   one required method in the platform's spelling instead of ours: must fail, with
             "does not conform to protocol" (the requirement is missing);
  optional   the required methods in ours and one optional method in the platform's spelling: must
             compile; and the method then witnesses the spelling's requirement, so the flow calls
             it (Tests/CheckoutFlowsTests/PlatformSpellingTests.swift runs it).
Exits 1, naming each snippet that did the wrong thing and the compiler's output.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callbacks  # noqa: E402 (the declarations as the generator reads them)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECLARATIONS = os.path.join(ROOT, "Scripts", "callbacks.json")
MODULES = os.path.join(ROOT, ".build", "debug", "Modules")
IMPORTS = ["CheckoutCore", "CheckoutFlows", "CheckoutPayContext"]


def params(callback):
    return callback.get("parameters", [])


def handler_label(callback):
    return callback.get("handlerLabel", "handler")


def method(flow, callback, spelling=None):
    """A merchant's method for `callback`, in our spelling or the platform's, with an empty body."""
    parts = [f"_ {flow['flowParameter']}: {flow['flowType']}"]
    labels = [p["label"] for p in params(callback)] if spelling is None else spelling.get("parameters", [])
    for label, p in zip(labels, params(callback)):
        parts.append(f"{label} {p['name']}: {p['type']}")
    if callback["kind"] == "callback":
        label = handler_label(callback) if spelling is None else spelling.get("handlerLabel", handler_label(callback))
        parts.append(f"{label} handler: @escaping @Sendable ({callback['answer']}) -> Void")
    name = callback.get("function", flow["methodPrefix"]) if spelling is None else spelling["function"]
    return f"    func {name}({', '.join(parts)}) {{}}\n"


def merchant(flow, swapped=None, spelling=None, extra=None):
    """A merchant of the flow's protocol: the required methods in our spelling (`swapped` in
    `spelling`'s instead), and `extra` (an optional method) in `spelling`'s."""
    out = [f"import {module}\n" for module in IMPORTS]
    out.append(f"\nfinal class Merchant: {flow['protocol']} {{\n")
    for callback in flow["callbacks"]:
        if callback.get("optional"):
            continue
        out.append(method(flow, callback, spelling if callback is swapped else None))
    if extra is not None:
        out.append(method(flow, extra, spelling))
    out.append("}\n")
    return "".join(out)


def typecheck(source, directory, name):
    path = os.path.join(directory, name + ".swift")
    with open(path, "w", encoding="utf-8") as file:
        file.write(source)
    run = subprocess.run(
        ["swiftc", "-typecheck", "-swift-version", "6", "-I", MODULES, path],
        capture_output=True, text=True, cwd=ROOT)
    return run.returncode, run.stdout + run.stderr


def main(argv):
    if "--no-build" not in argv:
        build = subprocess.run(["swift", "build"], cwd=ROOT)
        if build.returncode != 0:
            return build.returncode
    flows = callbacks.load(DECLARATIONS)
    problems = []
    checked = 0
    with tempfile.TemporaryDirectory() as directory:
        for flow in flows:
            status, output = typecheck(merchant(flow), directory, f"{flow['name']}Control")
            checked += 1
            if status != 0:
                problems.append(f"{flow['protocol']}: the control merchant does not compile:\n{output}")
                continue
            for callback in flow["callbacks"]:
                for spelling in callback.get("spellings", []):
                    checked += 1
                    what = f"{flow['protocol']}.{callback['name']} in {spelling['platform']}'s spelling " \
                        f"({spelling['function']})"
                    name = f"{flow['name']}_{callback['name']}_{spelling['platform']}"
                    if callback.get("optional"):
                        status, output = typecheck(merchant(flow, spelling=spelling, extra=callback), directory, name)
                        if status != 0:
                            problems.append(f"{what}: should compile (it is a requirement), but:\n{output}")
                    else:
                        status, output = typecheck(merchant(flow, callback, spelling), directory, name)
                        if status == 0:
                            problems.append(f"{what}: compiled, but a required method's platform spelling must be "
                                            "refused")
                        elif "does not conform to protocol" not in output:
                            problems.append(f"{what}: failed for another reason than the missing requirement:\n"
                                            f"{output}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check-spellings: {checked} snippets, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
