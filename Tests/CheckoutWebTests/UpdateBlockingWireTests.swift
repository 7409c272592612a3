import CheckoutCore
import CheckoutWeb
import XCTest

/// Spec A2, A5, W3: the update a relay sends to a page blocks Apple Pay's sheet exactly when the
/// native sheet blocks, on the same errors.
final class UpdateBlockingWireTests: XCTestCase {
    private let usd = CurrencyCode.usd
    private let items = [SummaryItem(label: "Shop", amount: Money(minorUnits: 2_000, currency: .usd))]
    private let ground = ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(.usd))

    /// The Apple Pay update a page receives for `update`, read back as Apple Pay reads it (an
    /// empty or absent list is "no change").
    private func sentAndReadBack(_ update: ShippingContactUpdate) throws -> ShippingContactUpdate {
        let wire = try ApplePayShippingContactUpdate(update)
        let json = try JSONEncoder().encode(wire)
        return try JSONDecoder().decode(ApplePayShippingContactUpdate.self, from: json).core(currency: usd)
    }

    private func sentAndReadBack(_ update: CouponCodeUpdate) throws -> CouponCodeUpdate {
        let wire = try ApplePayCouponCodeUpdate(update)
        let json = try JSONEncoder().encode(wire)
        return try JSONDecoder().decode(ApplePayCouponCodeUpdate.self, from: json).core(currency: usd)
    }

    func testContactUpdatesBlockAlikeNativeAndOnTheWire() throws {
        let unserviceable = PaymentError.shippingAddressUnserviceable("Not to Alaska")
        let billing = PaymentError.billingContactInvalid(.name, "Name the card holder")
        let cases: [(ShippingContactUpdate, blocking: [PaymentError])] = [
            (ShippingContactUpdate(summaryItems: items), []),
            (ShippingContactUpdate(summaryItems: items, shippingMethods: [ground]), []),
            (ShippingContactUpdate(summaryItems: items, shippingMethods: []), [.noShippingMethodAvailable]),
            (ShippingContactUpdate(errors: [.unknown("x")], summaryItems: items), [.unknown("x")]),
            (ShippingContactUpdate(errors: [.unknown("x")], summaryItems: items, shippingMethods: []), [.unknown("x")]),
            (ShippingContactUpdate(errors: [unserviceable], summaryItems: items, shippingMethods: []), [unserviceable]),
            (ShippingContactUpdate(errors: [billing], summaryItems: items), [billing]),
            (ShippingContactUpdate(errors: [.couponCodeInvalid("c")], summaryItems: items), []),
            (
                ShippingContactUpdate(errors: [.couponCodeInvalid("c")], summaryItems: items, shippingMethods: []),
                [.noShippingMethodAvailable]
            ),
        ]
        for (update, blocking) in cases {
            XCTAssertEqual(update.blockingErrors, blocking, "\(update)")
            let sent = try sentAndReadBack(update)
            XCTAssertEqual(sent.blockingErrors, blocking, "the page's update blocks alike: \(update)")
            XCTAssertEqual(sent.errors, update.shownErrors, "the page shows what the sheet shows: \(update)")
            XCTAssertNotEqual(sent.shippingMethods, [], "Apple Pay never gets an empty list: \(update)")
        }
    }

    func testCouponUpdatesBlockAlikeNativeAndOnTheWire() throws {
        let invalid = PaymentError.couponCodeInvalid("No such code")
        let cases: [(CouponCodeUpdate, blocking: [PaymentError])] = [
            (CouponCodeUpdate(errors: [invalid], summaryItems: items), []),
            (CouponCodeUpdate(errors: [invalid], summaryItems: items, shippingMethods: [ground]), []),
            (
                CouponCodeUpdate(errors: [invalid], summaryItems: items, shippingMethods: []),
                [.noShippingMethodAvailable]
            ),
        ]
        for (update, blocking) in cases {
            XCTAssertEqual(update.blockingErrors, blocking, "\(update)")
            let sent = try sentAndReadBack(update)
            XCTAssertEqual(sent.errors, update.shownErrors, "the page shows what the sheet shows: \(update)")
            // Read back, the list is gone (Apple's "no change"): the error the page got is what blocks.
            XCTAssertEqual(
                sent.errors.filter { !$0.isCouponCodeError }, blocking, "the page's update blocks alike: \(update)")
        }
    }
}
