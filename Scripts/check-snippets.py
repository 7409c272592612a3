#!/usr/bin/env python3
"""Compiles, and where they say what they print, runs every Swift code block of README.md and of
the DocC catalogs (Sources/*/*.docc/*.md), as a consumer of this package would write them.

    Scripts/check-snippets.py            # all documents
    Scripts/check-snippets.py README.md  # only these (paths from the repository root)

How it works. It writes a consumer SwiftPM package in .build/snippets/MyShop whose Package.swift
is the README's own manifest block, unchanged: its `.package(path: "../checkout")` finds this
repository through the symbolic link .build/snippets/checkout, so the dependency's identity is
`checkout`, as the README says. Below the README's manifest the script appends one target per DocC
catalog (`CheckoutCoreDocC`, ...; a `…Tests` target too when the catalog has test blocks). The
README's blocks go into the manifest's `MyShop` executable and `MyShopTests` test target. Every
block is a file of its own in its document's target, so each file has exactly the imports it
shows. It builds the package (scratch path .build/snippets/MyShop/.build, kept between runs), runs
each executable, and runs the test targets.

Kinds of block. A block's kind is told by an HTML comment on the line just before its fence,
`<!-- snippet: KIND -->`, or, without one, by its text:
  manifest      a whole Package.swift (the README's "Add it" block: `// swift-tools-version`).
  declarations  types and functions (the first line of code starts with `class`, `final class`,
                `struct`, `enum`, `protocol`, `extension`, `actor`, `func` or an attribute):
                top-level declarations, visible to every block of the same document (README) or
                catalog.
  test          uses XCTest or swift-testing (`import XCTest`, `XCTAssert…`, `@Test`): goes into
                the test target; statements are wrapped in an `XCTestCase` method of their own.
  statements    anything else: wrapped in an `async throws` function of its own (so `let flow`
                may repeat), which the executable calls in document order.
  skip          not compiled: say why in the prose.
A block with `import` lines gets exactly those imports; a block without gets CheckoutCore,
CheckoutFlows and Foundation (a test block also XCTest, Testing when it uses `@Test` or `#expect`,
CheckoutTesting and, by `@testable import`,
its document's executable, which holds the declaration blocks).

Compiler messages name the document and its line (the generated files carry #sourceLocation);
columns count the indentation the wrapping adds.

Expected output. A line `print(...)  // text` in a statements or test block states what it
prints: the text after `//` must equal the printed line exactly (trailing spaces aside). So a
comment after a print is always its output; put any other remark on a line of its own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".build" / "snippets"
CONSUMER = WORK / "MyShop"
README = "README.md"
README_TARGET = "MyShop"
README_TESTS = "MyShopTests"
IDENTITY = "checkout"  # the last path component of `../checkout`, as SwiftPM spells it

MARKER = re.compile(r"^\s*<!--\s*snippet:\s*([a-z]+)\s*-->\s*$")
FENCE_OPEN = re.compile(r"^(\s*)```swift\s*$")
DECLARATION = re.compile(
    r"^(@\w+|(public |private |fileprivate |internal |package )?"
    r"(final class|class|struct|enum|protocol|extension|actor|func)\b)"
)
SWIFT_TESTING_USE = re.compile(r"^\s*@Test\b|#expect\(|#require\(", re.M)
TEST_USE = re.compile(r"^\s*import (XCTest|Testing)\b|\bXCTAssert|\bXCTFail\(|^\s*@Test\b|#expect\(", re.M)
EXPECT = re.compile(r"^(?P<indent>\s*)print\((?P<args>.*)\)\s*//\s?(?P<expected>.*?)\s*$")
KINDS = {"manifest", "declarations", "statements", "test", "skip"}
# The test kits' catalogs: the products their test blocks take.
TEST_KITS = {
    "CheckoutTesting": ["CheckoutTesting"],
    "CheckoutPayContextTesting": [
        "CheckoutTesting",
        "CheckoutPayContextTesting",
        "CheckoutPayContext",
        "CheckoutStripeBackends",
    ],
}


@dataclass
class Block:
    document: str
    line: int  # of the first line of code
    kind: str
    code: list[str]

    @property
    def where(self) -> str:
        return f"{self.document}:{self.line}"


@dataclass
class Target:
    name: str
    tests: str
    blocks: list[Block] = field(default_factory=list)


def fail(message: str) -> None:
    print(f"check-snippets: {message}", file=sys.stderr)
    sys.exit(1)


def blocks_of(document: str) -> list[Block]:
    lines = (ROOT / document).read_text().splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = FENCE_OPEN.match(lines[i])
        if not opening:
            i += 1
            continue
        indent = len(opening.group(1))
        declared = MARKER.match(lines[i - 1]) if i > 0 else None
        start = i + 1
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            i += 1
        if i == len(lines):
            fail(f"{document}:{start}: a ```swift block is never closed")
        code = [line[indent:] for line in lines[start:i]]
        kind = declared.group(1) if declared else detect(code)
        if kind not in KINDS:
            fail(f"{document}:{start}: unknown snippet kind '{kind}' (one of {sorted(KINDS)})")
        found.append(Block(document, start + 1, kind, code))
        i += 1
    return found


def detect(code: list[str]) -> str:
    text = "\n".join(code)
    if text.lstrip().startswith("// swift-tools-version"):
        return "manifest"
    if TEST_USE.search(text):
        return "test"
    for line in code:
        stripped = line.strip()
        if not stripped or stripped.startswith("//") or stripped.startswith("import "):
            continue
        return "declarations" if DECLARATION.match(stripped) else "statements"
    return "statements"


def split_imports(block: Block) -> tuple[list[str], list[str]]:
    imports, body = [], []
    for line in block.code:
        if not body and (re.match(r"^\s*(@testable\s+)?import\s", line) or not line.strip()):
            if line.strip():
                imports.append(line.strip())
            continue
        body.append(line)
    return imports, body


def instrument(body: list[str], block: Block) -> list[str]:
    """Turns `print(x)  // expected` into a call that prints x and compares it with `expected`."""
    out = []
    for offset, line in enumerate(body):
        match = EXPECT.match(line)
        if match and match.group("args").strip():
            where = f"{block.document}:{block.line + offset + (len(block.code) - len(body))}"
            expected = json.dumps(match.group("expected"), ensure_ascii=False)
            out.append(
                f"{match.group('indent')}__snippetPrint(expected: {expected}, at: {json.dumps(where)}, "
                f"{match.group('args')})"
            )
        else:
            out.append(line)
    return out


DEFAULT_IMPORTS = ["import CheckoutCore", "import CheckoutFlows", "import Foundation"]


def source_of(block: Block, number: int, target: Target) -> str:
    imports, body = split_imports(block)
    # Compiler messages name the document and its line, through #sourceLocation.
    first_line = block.line + len(block.code) - len(body)
    located = [f'#sourceLocation(file: {json.dumps(str(ROOT / block.document))}, line: {first_line})']
    unlocated = ["#sourceLocation()"]
    header = [f"// {block.where} ({block.kind}), written by Scripts/check-snippets.py"]
    if block.kind == "test":
        if not imports:
            imports = DEFAULT_IMPORTS + ["import CheckoutTesting", "import XCTest", f"@testable import {target.name}"]
            if SWIFT_TESTING_USE.search("\n".join(body)):
                imports.append("import Testing")
        body = instrument(body, block)
        first = next((line.strip() for line in body if line.strip() and not line.strip().startswith("//")), "")
        if DECLARATION.match(first):
            return "\n".join(header + imports + [""] + located + body + unlocated) + "\n"
        wrapped = [f"final class Snippet{number}: XCTestCase {{", "    func testSnippet() async throws {"] + located
        wrapped += [f"        {line}" if line.strip() else "" for line in body]
        wrapped += unlocated + ["    }", "}"]
        return "\n".join(header + imports + [""] + wrapped) + "\n"
    if not imports:
        imports = DEFAULT_IMPORTS
    if block.kind == "declarations":
        return "\n".join(header + imports + [""] + located + body + unlocated) + "\n"
    body = instrument(body, block)
    wrapped = [f"func snippet{number}() async throws {{"] + located
    wrapped += [f"    {line}" if line.strip() else "" for line in body]
    wrapped += unlocated + ["}"]
    return "\n".join(header + imports + [""] + wrapped) + "\n"


CHECK_EXECUTABLE = """\
// Written by Scripts/check-snippets.py: compares a snippet's print with its `// expected` comment.
import Synchronization

let snippetMismatches = Mutex<Int>(0)

func __snippetPrint(expected: String, at place: String, _ items: Any...) {
    let printed = items.map { String(describing: $0) }.joined(separator: " ")
    print(printed)
    if printed.trimmingTrailingSpaces() != expected.trimmingTrailingSpaces() {
        print("\\(place): error: printed '\\(printed)', the comment says '\\(expected)'")
        snippetMismatches.withLock { $0 += 1 }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
"""

CHECK_TESTS = """\
// Written by Scripts/check-snippets.py: compares a snippet's print with its `// expected` comment.
import XCTest

func __snippetPrint(expected: String, at place: String, _ items: Any...) {
    let printed = items.map { String(describing: $0) }.joined(separator: " ")
    print(printed)
    if printed != expected {
        XCTFail("\\(place): printed '\\(printed)', the comment says '\\(expected)'")
    }
}
"""


def write_target(directory: Path, files: dict[str, str]) -> None:
    if directory.exists():
        # Keep unchanged files untouched so that the build stays incremental.
        for old in directory.iterdir():
            if old.name not in files:
                old.unlink()
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = directory / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)


def main() -> None:
    documents = sys.argv[1:] or sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("Sources/*/*.docc/**/*.md"))
    # The README's blocks are always built: its manifest is the consumer's.
    documents = [README] + [d for d in documents if d != README]
    targets: dict[str, Target] = {}
    manifest: Block | None = None
    skipped = 0
    for document in documents:
        if document == README:
            target = targets.setdefault(README, Target(README_TARGET, README_TESTS))
        else:
            catalog = Path(document).parts[2].removesuffix(".docc")
            target = targets.setdefault(catalog, Target(f"{catalog}DocC", f"{catalog}DocCTests"))
        for block in blocks_of(document):
            if block.kind == "manifest":
                manifest = block
            elif block.kind == "skip":
                skipped += 1
            else:
                target.blocks.append(block)
    if manifest is None:
        manifest_blocks = [b for b in blocks_of(README) if b.kind == "manifest"]
        if not manifest_blocks:
            fail("README.md has no Package.swift block (`// swift-tools-version` ...)")
        manifest = manifest_blocks[0]

    # The consumer: the README's manifest as written, and a link that makes `../checkout` this
    # repository.
    WORK.mkdir(parents=True, exist_ok=True)
    link = WORK / IDENTITY
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(os.path.relpath(ROOT, WORK))
    manifest_text = "\n".join(manifest.code) + "\n"
    if f'.package(path: "../{IDENTITY}")' not in manifest_text:
        fail(f'{manifest.where}: the manifest does not depend on .package(path: "../{IDENTITY}")')
    if not re.search(r'\.executableTarget\(\s*name:\s*"' + README_TARGET + '"', manifest_text):
        fail(f"{manifest.where}: the manifest has no executable target {README_TARGET}")

    extra = []
    for target in targets.values():
        if target.name == README_TARGET:
            continue
        # A catalog's snippets see CheckoutCore, CheckoutFlows and the catalog's own library; a
        # test kit's catalog (TEST_KITS) gives its library and what it builds on to the test blocks.
        libraries = ["CheckoutCore", "CheckoutFlows"]
        own = target.name.removesuffix("DocC")
        if own not in libraries and own not in TEST_KITS:
            libraries.append(own)
        products = ", ".join(f'.product(name: "{p}", package: "{IDENTITY}")' for p in libraries)
        extra.append(f'    .executableTarget(name: "{target.name}", dependencies: [{products}], path: "DocSnippets/{target.name}"),')
        if any(b.kind == "test" for b in target.blocks):
            tested = ", ".join(f'.product(name: "{p}", package: "{IDENTITY}")' for p in TEST_KITS.get(own, ["CheckoutTesting"]))
            extra.append(
                f'    .testTarget(name: "{target.tests}", dependencies: ["{target.name}", '
                f'{tested}], path: "DocSnippets/{target.tests}"),'
            )
    if extra:
        manifest_text += (
            "\n// Added by Scripts/check-snippets.py: the DocC catalogs' snippets.\npackage.targets += [\n"
            + "\n".join(extra)
            + "\n]\n"
        )
    CONSUMER.mkdir(parents=True, exist_ok=True)
    manifest_path = CONSUMER / "Package.swift"
    if not manifest_path.exists() or manifest_path.read_text() != manifest_text:
        manifest_path.write_text(manifest_text)

    executables, test_targets = [], []
    for target in targets.values():
        if target.name == README_TARGET:
            sources, tests = CONSUMER / "Sources" / README_TARGET, CONSUMER / "Tests" / README_TESTS
        else:
            sources, tests = CONSUMER / "DocSnippets" / target.name, CONSUMER / "DocSnippets" / target.tests
        source_files = {"SnippetCheck.swift": CHECK_EXECUTABLE}
        test_files = {"SnippetCheck.swift": CHECK_TESTS}
        calls = []
        for number, block in enumerate(target.blocks, start=1):
            text = source_of(block, number, target)
            name = f"Snippet{number:02}.swift"
            if block.kind == "test":
                test_files[name] = text
            else:
                source_files[name] = text
                if block.kind == "statements":
                    calls.append(f'print("== {block.where}")\ntry await snippet{number}()')
        source_files["main.swift"] = (
            "// Written by Scripts/check-snippets.py: runs the statement blocks in document order.\n"
            "import Foundation\n\n" + "\n".join(calls) + "\n"
            "if snippetMismatches.withLock({ $0 }) > 0 { exit(1) }\n"
        )
        write_target(sources, source_files)
        executables.append(target.name)
        if len(test_files) > 1:
            write_target(tests, test_files)
            test_targets.append(target.tests)
        elif tests.exists():
            shutil.rmtree(tests)
    for stale in (CONSUMER / "DocSnippets").glob("*") if (CONSUMER / "DocSnippets").exists() else []:
        if stale.name not in executables + test_targets:
            shutil.rmtree(stale)

    count = sum(len(t.blocks) for t in targets.values())
    print(f"check-snippets: {count} blocks ({skipped} skipped) from {len(documents)} documents in {CONSUMER}")
    swift = ["swift", "build", "--package-path", str(CONSUMER), "--build-tests"]
    print("check-snippets: " + " ".join(swift), flush=True)
    if subprocess.run(swift).returncode != 0:
        fail("the snippets do not compile (the errors above name each block's document and line)")
    bin_path = subprocess.run(
        ["swift", "build", "--package-path", str(CONSUMER), "--show-bin-path"], capture_output=True, text=True, check=True
    ).stdout.strip()
    failures = []
    for name in executables:
        print(f"check-snippets: run {name}", flush=True)
        if subprocess.run([str(Path(bin_path) / name)]).returncode != 0:
            failures.append(name)
    if test_targets:
        filters = []
        for name in test_targets:
            filters += ["--filter", f"{name}\\."]
        print(f"check-snippets: test {' '.join(test_targets)}", flush=True)
        if subprocess.run(["swift", "test", "--package-path", str(CONSUMER), "--skip-build"] + filters).returncode != 0:
            failures.append("tests")
    if failures:
        fail(f"failed: {', '.join(failures)}")
    print("check-snippets: OK")


if __name__ == "__main__":
    main()
