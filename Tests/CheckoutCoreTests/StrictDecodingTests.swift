import CheckoutCore
import Foundation
import XCTest

/// Spec W2: the package's own JSON shapes refuse unknown keys, naming the key's path.
final class StrictDecodingTests: XCTestCase {
    private func refusal<T: Decodable>(_ type: T.Type, _ json: String) -> DecodingError.Context? {
        do {
            let value = try JSONDecoder().decode(T.self, from: Data(json.utf8))
            XCTFail("\(T.self) accepted \(json) as \(value)")
        } catch DecodingError.dataCorrupted(let context) {
            return context
        } catch {
            XCTFail("expected dataCorrupted, got \(error)")
        }
        return nil
    }

    private func path(_ context: DecodingError.Context?) -> [String] {
        context?.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } ?? []
    }

    func testUnknownKeysAreRefusedWithTheirPath() {
        XCTAssertEqual(path(refusal(Money.self, #"{"currency": "USD", "value": "1.00", "amount": 1}"#)), ["amount"])
        XCTAssertEqual(path(refusal(Address.self, #"{"city": "Austin", "region": "TX"}"#)), ["region"])
        XCTAssertEqual(
            path(refusal(Contact.self, #"{"name": "A", "address": {"line1": "x", "zip": "1"}}"#)), ["address", "zip"])
        let context = refusal(Contact.self, #"{"givenName": "A", "familyName": "B"}"#)
        XCTAssertEqual(path(context), ["familyName"], "the first unknown key in order")
        XCTAssertTrue(context?.debugDescription.contains("\"givenName\"") ?? false, context?.debugDescription ?? "")
        XCTAssertEqual(
            path(refusal(ShippingContactUpdate.self, #"{"summaryItems": [], "newShippingMethods": []}"#)),
            ["newShippingMethods"])
        XCTAssertEqual(path(refusal(ShippingMethodUpdate.self, #"{"summaryItems": [], "errors": []}"#)), ["errors"])
        XCTAssertEqual(
            path(refusal(PaymentError.self, #"{"code": "unknown", "message": "m", "contactField": "name"}"#)),
            ["contactField"])
        XCTAssertEqual(
            path(refusal(PaymentMethod.self, #"{"type": "credit", "paymentPass": {}}"#)), ["paymentPass"])
    }

    func testKnownKeysStillDecode() throws {
        let address = try JSONDecoder().decode(
            Address.self, from: Data(#"{"line1": "1 Main St", "postal_code": "78701", "country": "us"}"#.utf8))
        XCTAssertEqual(address, Address(line1: "1 Main St", postalCode: "78701", country: try CountryCode("US")))
        let method = try JSONDecoder().decode(PaymentMethod.self, from: Data(#"{"type": "debit"}"#.utf8))
        XCTAssertEqual(method, PaymentMethod(type: .debit))
    }
}
