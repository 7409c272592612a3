import CheckoutCore
import Foundation
import XCTest

final class CurrencyTableTests: XCTestCase {
    private struct Entry {
        var code: String
        var minorUnits: String
        var isFund: Bool
    }

    /// The entries of the committed list one, read by plain string scanning (not by the refresh
    /// script's XML parser, so that the two do not share a mistake).
    private func publishedEntries() throws -> [Entry] {
        let xml = try repositoryFile("Scripts/data/iso4217-list-one.xml")
        XCTAssertTrue(xml.contains("Pblshd=\"2026-01-01\""))
        func element(_ name: String, in text: Substring) -> Substring? {
            // Ccy, CcyMnrUnts carry no attributes; "<Ccy>" is not a prefix of "<CcyNm".
            guard let open = text.range(of: "<\(name)>"), let close = text.range(of: "</\(name)>") else {
                return nil
            }
            return text[open.upperBound..<close.lowerBound]
        }
        var entries: [Entry] = []
        for block in xml.components(separatedBy: "<CcyNtry>").dropFirst() {
            let text = block[...]
            guard let code = element("Ccy", in: text), let units = element("CcyMnrUnts", in: text) else { continue }
            let isFund = text.contains("IsFund=\"true\"")
            entries.append(Entry(code: String(code), minorUnits: String(units), isFund: isFund))
        }
        XCTAssertGreaterThan(entries.count, 250)
        return entries
    }

    func testTheTableIsListOne() throws {
        let entries = try publishedEntries()
        var payable: Set<String> = []
        for entry in entries {
            if let digits = Int(entry.minorUnits) {
                payable.insert(entry.code)
                let currency = try CurrencyCode(entry.code)
                XCTAssertEqual(currency.minorUnitDigits, digits, entry.code)
                XCTAssertEqual(currency.isFund, entry.isFund, entry.code)
            } else {
                XCTAssertEqual(entry.minorUnits, "N.A.", entry.code)
                assertCheckoutError(try CurrencyCode(entry.code), code: .unknownCurrency, field: "currency", entry.code)
            }
        }
        XCTAssertEqual(Set(CurrencyCode.allCodes.map(\.code)), payable)
    }

    func testTheListAsOfTheFirstOfJanuary2026() throws {
        // Bulgaria adopted the euro on 2026-01-01: BGN is withdrawn. XAD (the Arab Monetary Fund's
        // Arab Accounting Dinar) is on list one with 2 digits.
        assertCheckoutError(try CurrencyCode("BGN"), code: .unknownCurrency)
        assertCheckoutError(try CurrencyCode("bgn"), code: .unknownCurrency)
        let dinar = try CurrencyCode("xad")
        XCTAssertEqual(dinar.code, "XAD")
        XCTAssertEqual(dinar.minorUnitDigits, 2)
        XCTAssertFalse(dinar.isFund)
    }

    func testFundsAreAcceptedAndMarked() throws {
        let funds: [(String, Int)] = [
            ("BOV", 2), ("CHE", 2), ("CHW", 2), ("CLF", 4), ("COU", 2), ("MXV", 2), ("USN", 2), ("UYI", 0),
        ]
        for (code, digits) in funds {
            let currency = try CurrencyCode(code)
            XCTAssertTrue(currency.isFund, code)
            XCTAssertEqual(currency.minorUnitDigits, digits, code)
        }
        XCTAssertEqual(CurrencyCode.allCodes.filter(\.isFund).map(\.code), funds.map(\.0))
        for code in ["USD", "EUR", "JPY", "UYW", "UYU", "CLP", "XAD"] {
            XCTAssertFalse(try CurrencyCode(code).isFund, code)
        }
        // A fund's amounts follow its own minor unit.
        XCTAssertEqual(try Money("1.2345", currency: CurrencyCode("CLF")).minorUnits, 12_345)
        assertCheckoutError(try Money("1.5", currency: CurrencyCode("UYI")), code: .amountTooPrecise)
    }

    func testPreciousMetalsAndUnitsWithoutMinorUnitAreRefused() {
        for code in ["XAU", "XAG", "XPD", "XPT", "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA", "XTS", "XXX", "xau"] {
            let error = assertCheckoutError(try CurrencyCode(code), code: .unknownCurrency, field: "currency", code)
            XCTAssertEqual(error?.value, code)
        }
    }

    func testTheRefreshScriptAgreesWithTheTable() throws {
        let run = try runPython(["Scripts/iso4217-table.py", "Scripts/data/iso4217-list-one.xml", "--check"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output, "")
        let printed = try runPython(["Scripts/iso4217-table.py", "Scripts/data/iso4217-list-one.xml"])
        XCTAssertEqual(printed.status, 0, printed.output)
        XCTAssertTrue(printed.output.contains("\"XAD\": 2,"), printed.output)
        XCTAssertFalse(printed.output.contains("BGN"), printed.output)
    }
}
