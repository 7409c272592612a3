import CheckoutCore
import Foundation
import XCTest

final class AddressRulesTests: XCTestCase {
    /// The 30 largest e-commerce countries of the issue.
    private static let largest = [
        "US", "CN", "GB", "JP", "KR", "DE", "FR", "IN", "CA", "BR", "AU", "ES", "IT", "MX", "NL", "RU", "ID", "TR",
        "SA", "SE", "CH", "PL", "BE", "AR", "TH", "IE", "SG", "HK", "AE", "ZA",
    ]

    /// An address of `country` with every field filled in but the postal code.
    private func address(_ country: CountryCode, postalCode: String?) -> Address {
        Address(line1: "1 Main St", city: "Town", state: "Region", postalCode: postalCode, country: country)
    }

    func testEveryExampleIsAccepted() {
        var checked = 0
        for country in CountryCode.allCodes {
            let rules = country.addressRules
            for example in rules.postalCodeExamples {
                XCTAssertTrue(rules.isValidPostalCode(example), "\(country) \(example)")
                XCTAssertTrue(rules.isValidPostalCode(example.lowercased()), "\(country) \(example) in lower case")
                // The US keeps S1's exact ZIP rule, which does not trim (existing behaviour).
                if country != .us {
                    XCTAssertTrue(rules.isValidPostalCode(" \(example)\t"), "\(country) \(example) with spaces around")
                }
                XCTAssertEqual(address(country, postalCode: example).validate(), [], "\(country) \(example)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 300)
    }

    func testMalformedCodesAreRefusedNamingThePostalCodeField() {
        let malformed = ["ABCDE", "1", "!!!", "12345678901234", "9", "12 34 56 78", "😀"]
        var countries = 0
        for country in CountryCode.allCodes where country.addressRules.postalCodePattern != nil || country == .us {
            countries += 1
            let rules = country.addressRules
            let refused = malformed.filter { !rules.isValidPostalCode($0) }
            // "!!!" and fourteen digits fit no country's pattern; each country refuses most.
            XCTAssertTrue(refused.contains("!!!"), "\(country)")
            XCTAssertTrue(refused.contains("12345678901234"), "\(country)")
            XCTAssertGreaterThanOrEqual(refused.count, 5, "\(country) accepts \(Set(malformed).subtracting(refused))")
            for code in refused {
                let problems = address(country, postalCode: code).validate()
                XCTAssertEqual(problems.map(\.code), [.invalidPostalCode], "\(country) \(code)")
                XCTAssertEqual(problems.first?.field, "postal_code")
                XCTAssertEqual(problems.first?.value, code)
            }
        }
        XCTAssertGreaterThan(countries, 150)
        // The examples, refused in each of the largest markets that have a pattern.
        for code in Self.largest {
            let rules = (try? CountryCode(code))?.addressRules
            guard let rules, rules.postalCodePattern != nil else { continue }
            for bad in ["ABCDE", "1", "!!!", "12345678901234"] where !(code == "AR" && bad == "ABCDE") {
                XCTAssertFalse(rules.isValidPostalCode(bad), "\(code) \(bad)")
            }
        }
    }

    func testTheLargestMarketsCheckTheirCodes() throws {
        // Only these of the 30 have no format in the data: places without postal codes.
        let unchecked = Self.largest.filter { (try? CountryCode($0))?.addressRules.postalCodePattern == nil }
        XCTAssertEqual(Set(unchecked), ["HK", "AE"])
    }

    func testRequiredFieldsOfTheLargestMarkets() throws {
        let expected: [String: [Address.Field]] = [
            "US": [.line1, .city, .state, .postalCode, .country],
            "CN": [.line1, .city, .state, .postalCode, .country],
            "JP": [.line1, .state, .postalCode, .country],
            "KR": [.line1, .city, .state, .postalCode, .country],
            "IN": [.line1, .city, .state, .postalCode, .country],
            "CA": [.line1, .city, .state, .postalCode, .country],
            "BR": [.line1, .city, .state, .postalCode, .country],
            "ES": [.line1, .city, .state, .postalCode, .country],
            "AU": [.line1, .city, .state, .postalCode, .country],
            "IT": [.line1, .city, .state, .postalCode, .country],
            "MX": [.line1, .city, .state, .postalCode, .country],
            "GB": [.line1, .city, .postalCode, .country],
            "DE": [.line1, .city, .postalCode, .country],
            "ZA": [.line1, .city, .postalCode, .country],
            "SG": [.line1, .postalCode, .country],
            "HK": [.line1, .state, .country],
            "MO": [.line1, .country],
            "AR": [.line1, .city, .country],
            "ID": [.line1, .state, .country],
            "SA": [.line1, .city, .country],
            "TH": [.line1, .city, .country],
            "IE": [.line1, .city, .country],
            "XK": [.line1, .city, .country],
        ]
        for (code, fields) in expected {
            let country = try CountryCode(code)
            XCTAssertEqual(country.addressRules.requiredFields, fields, code)
            // An address with only its country lacks exactly these (the country aside).
            XCTAssertEqual(Address(country: country).missingFields, fields.filter { $0 != .country }, code)
            XCTAssertEqual(
                Address(country: country).validate().map(\.field), fields.filter { $0 != .country }.map(\.rawValue))
        }
    }

    func testPostalCodesWhereOptionalOrAbsent() throws {
        // Optional where the data has a format but does not require it; absent where there is none.
        for code in ["AR", "ID", "SA", "TH", "IE", "GN", "KE", "MU", "TZ"] {
            let country = try CountryCode(code)
            XCTAssertTrue(country.addressRules.hasPostalCodes, code)
            XCTAssertFalse(country.requiresPostalCode, code)
            XCTAssertFalse(address(country, postalCode: nil).missingFields.contains(.postalCode), code)
        }
        for code in ["AQ", "BQ", "BV", "CW", "GA", "LY", "PS", "SS", "SX", "TD", "TG", "WS", "AE", "HK", "QA"] {
            let country = try CountryCode(code)
            XCTAssertFalse(country.addressRules.hasPostalCodes, code)
            XCTAssertFalse(country.requiresPostalCode, code)
            XCTAssertEqual(address(country, postalCode: nil).validate(), [], code)
        }
        XCTAssertTrue(try CountryCode("ZA").requiresPostalCode)
        XCTAssertEqual(address(try CountryCode("ZA"), postalCode: nil).missingFields, [.postalCode])
        XCTAssertTrue(CountryCode.jp.requiresPostalCode, "Google's data, not Stripe's exemption")
    }

    func testFieldNames() throws {
        let names: [String: (String, String)] = [
            "US": ("state", "zip"), "JP": ("prefecture", "postal"), "IE": ("county", "eircode"),
            "IN": ("state", "pin"), "AE": ("emirate", "postal"), "KR": ("do_si", "postal"),
            "DE": ("province", "postal"),
            "PR": ("province", "zip"),
        ]
        for (code, (area, postal)) in names {
            let rules = try CountryCode(code).addressRules
            XCTAssertEqual(rules.administrativeAreaName, area, code)
            XCTAssertEqual(rules.postalCodeName, postal, code)
        }
    }

    func testCountriesAreTheTables() throws {
        let codes = CountryCode.allCodes.map(\.code)
        for code in ["XK", "AC", "TA"] {
            XCTAssertEqual(try CountryCode(code.lowercased()).code, code)
        }
        XCTAssertTrue(try CountryCode("XK").addressRules.isValidPostalCode("10000"))
        XCTAssertTrue(try CountryCode("AC").addressRules.isValidPostalCode("ASCN 1ZZ"))
        // Every accepted country has a row of the generated table (a country without one would
        // fall back to the defaults: line1 and city, no postal codes).
        let table = try repositoryFile("Sources/CheckoutCore/AddressRulesTable.swift")
        let rows = table.components(separatedBy: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("\""), trimmed.hasSuffix(": Row(") else { return nil }
            return String(trimmed.dropFirst().prefix(2))
        }
        XCTAssertEqual(rows, codes)
    }

    func testUSTerritoriesUseZIPCodes() throws {
        for code in ["US", "PR", "GU", "VI", "AS", "MP", "UM", "FM", "MH", "PW"] {
            XCTAssertTrue(try CountryCode(code).addressRules.usesUSZIPCodes, code)
        }
        for code in ["CA", "GB", "DE", "MX"] {
            XCTAssertFalse(try CountryCode(code).addressRules.usesUSZIPCodes, code)
        }
        // The US keeps spec S1's rule (9 digits without a separator too); PR follows its pattern.
        XCTAssertTrue(CountryCode.us.addressRules.isValidPostalCode("941031234"))
        XCTAssertTrue(CountryCode.pr.addressRules.isValidPostalCode("00901-1234"))
        XCTAssertFalse(CountryCode.pr.addressRules.isValidPostalCode("94103"))
    }

    func testHugeAndNonASCIICodesAreRefusedQuickly() {
        let rules = CountryCode.gb.addressRules
        XCTAssertFalse(rules.isValidPostalCode(String(repeating: "A", count: 1_000_000)))
        XCTAssertFalse(rules.isValidPostalCode("ＳＷ１Ａ １ＡＡ"))  // full-width look-alikes
        XCTAssertFalse(CountryCode.de.addressRules.isValidPostalCode("١٠١١٧"))  // Arabic-Indic digits
        XCTAssertTrue(rules.isValidPostalCode("sw1a 1aa"))
    }

    func testTheScriptAndTheTableAgree() throws {
        let run = try runPython(["Scripts/address-rules.py", "generate", "--check"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output, "")
    }
}

final class PostalCodePatternOracleTests: XCTestCase {
    /// Every pattern of the table against Foundation's regular expressions (an independent
    /// engine), on the examples, their near misses and junk.
    func testPatternsAgreeWithNSRegularExpression() throws {
        var compared = 0
        for country in CountryCode.allCodes {
            let rules = country.addressRules
            guard let pattern = rules.postalCodePattern, country != .us else { continue }
            let oracle = try NSRegularExpression(pattern: "^(?:\(pattern))$")
            var candidates = ["", "0", "00000", "ABC", "A1A 1A1", "12345-6789", "BFPO 1234", "GIR 0AA", "AB-12"]
            for example in rules.postalCodeExamples {
                candidates += [example, example + "0", String(example.dropLast()), String(example.dropFirst())]
                candidates.append(example.replacingOccurrences(of: " ", with: ""))
                candidates.append(example.replacingOccurrences(of: "-", with: ""))
                candidates.append(String(example.reversed()))
            }
            for candidate in candidates where !candidate.isEmpty {
                let range = NSRange(candidate.startIndex..., in: candidate)
                let expected = oracle.firstMatch(in: candidate, range: range) != nil
                XCTAssertEqual(rules.isValidPostalCode(candidate), expected, "\(country) \(pattern) \(candidate)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 1000)
    }
}

final class PostalCodeRedactionTests: XCTestCase {
    private func redacted(_ postalCode: String, _ country: String) throws -> String? {
        let address = Address(
            line1: "1 Main St", city: "Town", postalCode: postalCode, country: try CountryCode(country))
        return Contact(name: "Jane", postalAddress: address).redactedForShipping().postalAddress?.postalCode
    }

    func testNormalisedBeforeItIsCut() throws {
        XCTAssertEqual(try redacted("k1a0b1", "CA"), "K1A")
        XCTAssertEqual(try redacted("k1a 0b1", "CA"), "K1A")
        XCTAssertEqual(try redacted("sw1a 1aa", "GB"), "SW1A")
        XCTAssertEqual(try redacted(" SW1A\t1AA ", "GB"), "SW1A")
        XCTAssertEqual(try redacted("GIR 0AA", "GB"), "GIR")
    }

    func testBFPONumbersKeepOnlyBFPO() throws {
        XCTAssertEqual(try redacted("BFPO 61", "GB"), "BFPO")
        XCTAssertEqual(try redacted("bfpo61", "GB"), "BFPO")
        XCTAssertEqual(try redacted("BFPO 1234", "GB"), "BFPO")
    }

    func testUSTerritoriesAreCutAsUSCodes() throws {
        XCTAssertEqual(try redacted("00901-1234", "PR"), "00901")
        XCTAssertEqual(try redacted("96910-1234", "GU"), "96910")
        XCTAssertEqual(try redacted("00802 1222", "VI"), "00802")
        XCTAssertEqual(try redacted("94103-1234", "US"), "94103")
    }

    func testElsewhereUnchanged() throws {
        XCTAssertEqual(try redacted("10117", "DE"), "10117")
        XCTAssertEqual(try redacted("154-0023", "JP"), "154-0023")
        XCTAssertEqual(try redacted("a65 f4e2", "IE"), "a65 f4e2")
    }
}
