import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import XCTest

/// The explorer's P7 check: no rendering of a transcript shows a secret the merchant handed over.
final class InvariantTests: XCTestCase {
    private let secret = "pi_3Mt_secret_Zq9fK2"

    private func transcript(_ values: [TranscriptValue]) -> Transcript {
        Transcript(entries: values.map { TranscriptEntry(time: .zero, event: .action("handOver", [$0])) })
    }

    // spec P7: a secret recorded as a secret is masked in every rendering.
    func testAMaskedSecretPasses() throws {
        let masked = transcript([.secret(try IntentClientSecret(secret))])
        XCTAssertEqual(Invariants.secretsHidden([secret], in: masked), [])
    }

    // spec P7: a secret that reaches a rendering as plain text is caught, also when a combining mark
    // follows it (a search by characters would see another last character there).
    func testASecretInPlainTextIsCaught() {
        for text in ["token " + secret, "x" + secret + "\u{301}", "Zq9fK2"] {
            XCTAssertEqual(
                Invariants.secretsHidden([secret], in: transcript([.text(text)])),
                ["P7: a client secret appears in a transcript"], text)
        }
        XCTAssertEqual(Invariants.secretsHidden([secret], in: transcript([.text("Zq9fK")])), [])
        XCTAssertEqual(Invariants.secretsHidden(["not a secret"], in: transcript([.text("not a secret")])), [])
    }

    // spec P7, through the explorer's cache of per-entry renderings: the same secrets are caught
    // and the same texts pass, including a secret split by an entry boundary (which no single
    // entry shows) and one whose text holds the separators the cache searches across entries for.
    func testTheCachedRenderingsCatchWhatTheWholeOnesDo() throws {
        let cache = try XCTUnwrap(RenderingCache(for: Scenario(name: "ascii", flow: .payContext, steps: [])))
        let cases: [[TranscriptValue]] = [
            [.text("token " + secret)], [.text("Zq9fK2")], [.text("Zq9fK")], [.text("Zq9"), .text("fK2")],
            [.text("a,Zq9fK2]")], [.secret(try IntentClientSecret(secret))], [.text("x"), .text("y Zq9fK2 z")],
        ]
        for values in cases {
            let whole = transcript(values)
            let expected = Invariants.secretsHidden([secret], in: whole)
            XCTAssertEqual(Invariants.secretsHidden([secret], in: whole, renderings: cache), expected, "\(values)")
            // Twice: the second time from the cache.
            XCTAssertEqual(Invariants.secretsHidden([secret], in: whole, renderings: cache), expected, "\(values)")
        }
        XCTAssertEqual(
            Invariants.secretsHidden([secret], in: transcript([.text("token " + secret)]), renderings: cache),
            ["P7: a client secret appears in a transcript"])
        XCTAssertEqual(Invariants.secretsHidden([secret], in: transcript([.text("Zq9fK")]), renderings: cache), [])
    }

    // The byte search itself: at the start, at the end, overlapping prefixes, empty needle, longer
    // needle, and multi-byte text.
    func testByteSearch() {
        XCTAssertTrue(Invariants.occurs("ab", in: "abc"))
        XCTAssertTrue(Invariants.occurs("bc", in: "abc"))
        XCTAssertTrue(Invariants.occurs("aab", in: "aaab"))
        XCTAssertTrue(Invariants.occurs("", in: "abc"))
        XCTAssertTrue(Invariants.occurs("é", in: "café"))
        XCTAssertFalse(Invariants.occurs("abcd", in: "abc"))
        XCTAssertFalse(Invariants.occurs("ac", in: "abc"))
        XCTAssertFalse(Invariants.occurs("e\u{301}", in: "café"), "a verbatim search: another spelling is not found")
    }
}
