import CheckoutCore
import Foundation
import XCTest

final class ModelDescriptionTests: XCTestCase {
    /// A status prints as its case's name, as PassKit's constants are named, written out rather
    /// than read by reflection.
    func testAuthorizationStatusPrintsItsCaseName() {
        XCTAssertEqual(
            PaymentAuthorizationStatus.allCases.map { "\($0)" },
            [
                "success", "failure", "invalidBillingPostalAddress", "invalidShippingPostalAddress",
                "invalidShippingContact", "pinRequired", "pinIncorrect", "pinLockout",
            ])
        XCTAssertEqual(PaymentAuthorizationStatus.allCases.map(\.rawValue), Array(0...7))
        // Nested and debug printing qualify the name, as the default did.
        XCTAssertEqual(
            String(reflecting: PaymentAuthorizationStatus.pinLockout),
            "CheckoutCore.PaymentAuthorizationStatus.pinLockout")
        XCTAssertEqual("\([PaymentAuthorizationStatus.failure])", "[CheckoutCore.PaymentAuthorizationStatus.failure]")
        XCTAssertEqual(
            "\(PaymentAuthorizationResult(status: .success))",
            "PaymentAuthorizationResult(status: CheckoutCore.PaymentAuthorizationStatus.success, errors: [], "
                + "orderDetails: nil)")
    }

    func testShippingMethodDescription() throws {
        let express = ShippingMethod(
            identifier: "express", label: "Express", detail: "Tomorrow", amount: try Money("15.00", currency: .usd))
        XCTAssertEqual(express.description, "ShippingMethod(express, 15.00 USD)")
        XCTAssertEqual("\(express)", "ShippingMethod(express, 15.00 USD)")
        let days = try DeliveryDateRange(start: CalendarDay("2026-12-24"), end: CalendarDay("2026-12-28"))
        let standard = ShippingMethod(
            identifier: "standard", label: "Standard", amount: .zero(.eur), deliveryDateRange: days)
        XCTAssertEqual(String(describing: standard), "ShippingMethod(standard, 0.00 EUR, 2026-12-24...2026-12-28)")
        XCTAssertEqual(String(describing: [express]), "[ShippingMethod(express, 15.00 USD)]")
    }

    func testSummaryItemDescription() throws {
        let tax = SummaryItem(label: "Tax", amount: try Money("1.20", currency: .usd))
        XCTAssertEqual(tax.description, "SummaryItem(\"Tax\", 1.20 USD)")
        let ride = SummaryItem(label: "Ride\n", amount: try Money("12", currency: .jpy), type: .pending)
        XCTAssertEqual(ride.description, "SummaryItem(\"Ride\\n\", 12 JPY, pending)")
    }

    func testPaymentMethodDescription() {
        let card = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)
        XCTAssertEqual(card.description, "PaymentMethod(Visa 4242, visa, credit)")
        XCTAssertEqual(String(describing: PaymentMethod(network: .amex)), "PaymentMethod(amex)")
        XCTAssertEqual(String(describing: PaymentMethod()), "PaymentMethod()")
    }

    func testPaymentTokenStillMasksItsData() {
        let token = PaymentToken(
            paymentMethod: PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit),
            transactionIdentifier: "txn-1", paymentData: "tok_visa")
        XCTAssertFalse(String(describing: token).contains("tok_visa"))
        XCTAssertTrue(String(describing: token).contains("Visa 4242"))
    }
}

final class CountryConstantTests: XCTestCase {
    func testConstantsAreTheirCodes() throws {
        let constants: [(CountryCode, String)] = [
            (.us, "US"), (.cn, "CN"), (.gb, "GB"), (.jp, "JP"), (.kr, "KR"), (.de, "DE"), (.fr, "FR"), (.in, "IN"),
            (.ca, "CA"), (.br, "BR"), (.au, "AU"), (.es, "ES"), (.it, "IT"), (.mx, "MX"), (.nl, "NL"), (.ru, "RU"),
            (.id, "ID"), (.tr, "TR"), (.sa, "SA"), (.se, "SE"), (.ch, "CH"), (.pl, "PL"), (.be, "BE"), (.ar, "AR"),
            (.th, "TH"), (.ie, "IE"), (.sg, "SG"), (.hk, "HK"), (.ae, "AE"), (.za, "ZA"), (.at, "AT"), (.dk, "DK"),
            (.no, "NO"), (.fi, "FI"), (.nz, "NZ"), (.pt, "PT"), (.my, "MY"), (.ph, "PH"), (.vn, "VN"), (.il, "IL"),
            (.tw, "TW"), (.cl, "CL"), (.co, "CO"), (.eg, "EG"), (.ng, "NG"), (.cz, "CZ"), (.gr, "GR"), (.ro, "RO"),
            (.hu, "HU"), (.pr, "PR"),
        ]
        XCTAssertEqual(Set(constants.map(\.1)).count, constants.count)
        for (constant, code) in constants {
            XCTAssertEqual(constant, try CountryCode(code.lowercased()), code)
            XCTAssertEqual(constant.code, code)
        }
    }
}
