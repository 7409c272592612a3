#!/usr/bin/env python3
"""Fails when a Swift name in Verification/README.md's model-to-Swift map no longer exists.

The map is the README's tables whose header is `| model | Swift ... |`. Every identifier inside
a backticked span of their Swift column must occur as a whole word in a Swift file under Sources/,
and every capitalized one (a type: `FlowRunner`, `CallbackLedger.called`) must be declared there
(struct, class, enum, protocol, actor or typealias). Names in ALL_CAPS are the model's constants
and are skipped; so are Swift keywords and the standard library's names the map quotes, and the
model's own variables where the Swift column quotes a model expression beside the Swift
(`ticket[pend] = T_SCHED`): a word of a Promela model here that no Swift file has. A name ending
in `...` (`didSelect...`) must begin some word of the Swift. A member quoted at its place,
`Type.member` (`FlowRunner.send`, `RunnerLocked.draining`, `CallbackLedger.arrival(of:at:)`),
must be declared (func, var, let, case, init, subscript or a nested type) in the body of `Type`'s
declaration or of one of its extensions: a word that appears somewhere else does not count.
Usage: Verification/check-names.py [README] [SOURCES]
"""
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
readme = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "README.md")
sources = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "Sources")

# Words of Swift and its standard library the map may quote beside the project's own names.
ALLOWED = {"nil", "true", "false", "let", "var", "func", "inout", "in", "Int", "UInt8", "UInt64",
           "Duration", "Atomic", "Task", "Result"}

text = ""
for root, _, files in os.walk(sources):
    for name in files:
        if name.endswith(".swift"):
            with open(os.path.join(root, name), encoding="utf-8") as handle:
                text += handle.read() + "\n"


def code_only(source):
    """The Swift without its comments and string literals, in one pass (so that a quote in a
    comment, or `//` in a string, is not taken for what it is not), so that braces match."""
    token = re.compile(r'//[^\n]*|/\*.*?\*/|"""(?:\\.|.)*?"""|"(?:\\.|[^"\\\n])*"', re.S)
    return token.sub(lambda match: '""' if match.group(0).startswith('"') else " ", source)


swift_code = code_only(text)


def members_of(type_name):
    """The names declared directly or nested in the bodies of `type_name` and its extensions."""
    found = set()
    opener = re.compile(r"\b(?:struct|class|enum|protocol|actor|extension)\s+" + re.escape(type_name) + r"\b[^{;]*\{")
    for match in opener.finditer(swift_code):
        depth, index = 1, match.end()
        while depth and index < len(swift_code):
            depth += {"{": 1, "}": -1}.get(swift_code[index], 0)
            index += 1
        body = swift_code[match.end():index]
        found |= set(re.findall(
            r"\b(?:func|var|let|case|struct|class|enum|protocol|actor|typealias|associatedtype)\s+`?([A-Za-z_][A-Za-z0-9_]*)", body))
        for cases in re.findall(r"\bcase\s+([^\n:=]*)", body):
            found |= set(re.findall(r"(?:^|,)\s*([A-Za-z_][A-Za-z0-9_]*)", cases))
        if re.search(r"\binit\s*[(<?]", body):
            found.add("init")
        if re.search(r"\bsubscript\s*[(<]", body):
            found.add("subscript")
    return found


words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
declared = set(re.findall(r"\b(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)", text))

model = set()
for name in os.listdir(here):
    if name.endswith(".pml"):
        with open(os.path.join(here, name), encoding="utf-8") as handle:
            # The model's code only: a Swift name in a comment of a model is not a model variable.
            code = re.sub(r"/\*.*?\*/", " ", handle.read(), flags=re.S)
            model |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code))

names = {}  # name -> first README line quoting it
places = {}  # (type, member) -> first README line quoting `Type.member`
prefixes = {}  # a name quoted as `name...` -> its line
in_map = False
with open(readme, encoding="utf-8") as handle:
    for number, line in enumerate(handle, 1):
        if not line.startswith("|"):
            in_map = False
            continue
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) >= 2 and cells[0] == "model" and cells[1].startswith("Swift"):
            in_map = True
            continue
        if not in_map or set(cells[0]) <= set("-: "):
            continue
        for span in re.findall(r"`([^`]+)`", " | ".join(cells[1:])):
            for prefix in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\.\.\.", span):
                prefixes.setdefault(prefix, number)
            span = re.sub(r"[A-Za-z_][A-Za-z0-9_]*\.\.\.", "", span)
            # `Type.member`, `Type<Generic>.member`, `Type?.member`: the member at its place.
            for owner, member in re.findall(
                    r"(?<![.\w])([A-Z][A-Za-z0-9_]*)(?:<[^>]*>)?[?!]?\.([A-Za-z_][A-Za-z0-9_]*)", span):
                if owner not in ALLOWED:
                    places.setdefault((owner, member), number)
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span):
                if name.isupper() or name in ALLOWED or (name in model and name not in words):
                    continue
                names.setdefault(name, number)

if not names:
    sys.exit(f"check-names: no model-to-Swift map found in {readme}")
missing = []
for name, number in sorted(names.items(), key=lambda item: item[1]):
    if name not in words:
        missing.append(f"{readme}:{number}: `{name}` is not in the Swift sources")
    elif name[0].isupper() and name not in declared:
        missing.append(f"{readme}:{number}: type `{name}` is not declared in the Swift sources")
for (owner, member), number in sorted(places.items(), key=lambda item: item[1]):
    if owner in declared and member not in members_of(owner):
        missing.append(f"{readme}:{number}: `{owner}.{member}`: `{member}` is not declared in `{owner}`")
for prefix, number in sorted(prefixes.items(), key=lambda item: item[1]):
    if not any(word.startswith(prefix) for word in words):
        missing.append(f"{readme}:{number}: no Swift name begins with `{prefix}`")
if missing:
    print("\n".join(missing), file=sys.stderr)
    sys.exit(f"check-names: {len(missing)} of {len(names)} names in the map are gone from the Swift")
print(f"check-names: all {len(names) + len(prefixes)} Swift names of the map exist in the sources, "
      f"{len(places)} of them at the place the map gives")
