import CheckoutStripe
import Foundation
import XCTest

/// `docs/stripe-test-cards.md` is generated from the table the backend uses and kept equal to it.
final class TestCardDocumentationTests: XCTestCase {
    func testTheDocsTableIsTheBackendsTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("docs/stripe-test-cards.md")
        let table = StripeTestCard.documentationTable
        if ProcessInfo.processInfo.environment["WRITE_STRIPE_TEST_CARDS"] == "1" {
            try table.write(to: file, atomically: true, encoding: .utf8)
        }
        let written = try String(contentsOf: file, encoding: .utf8)
        XCTAssertEqual(written, table, "docs/stripe-test-cards.md is out of date: run Scripts/stripe-test-cards.sh")
        XCTAssertTrue(table.contains(StripeTestCard.pageVersion))
        for card in StripeTestCard.allCases { XCTAssertTrue(table.contains("`\(card.number)`"), "\(card)") }
    }
}
