import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import Foundation
import XCTest

/// The platforms' own spellings of each callback (spec E11): an optional method written as
/// PassKit or Stripe spell it is a requirement, so the flow calls it; a required method written
/// so is refused by the compiler (Scripts/check-spellings.py type-checks a merchant of each).
final class PlatformSpellingTests: XCTestCase {
    private typealias F = FlowsFixture

    /// An authorization merchant written in PassKit's spellings throughout (but for the required
    /// methods, which must be ours).
    final class PassKitMerchant: PaymentAuthorizationDelegate {
        let calls = LockedValue<[String]>([])

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(.success) }

        func paymentAuthorizationControllerWillAuthorizePayment(_ controller: PaymentAuthorizationFlow) {
            calls.withLock { $0.append("willAuthorizePayment") }
        }

        func paymentAuthorizationController(
            _ controller: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
            handler completion: @escaping (ShippingContactUpdate) -> Void
        ) {
            calls.withLock { $0.append("didSelectShippingContact") }
            completion(ShippingContactUpdate(summaryItems: F.summary("21.00")))
        }

        func paymentAuthorizationController(
            _ controller: PaymentAuthorizationFlow, didSelectShippingMethod shippingMethod: ShippingMethod,
            handler completion: @escaping (ShippingMethodUpdate) -> Void
        ) {
            calls.withLock { $0.append("didSelectShippingMethod") }
            completion(ShippingMethodUpdate(summaryItems: F.summary("22.00")))
        }

        func paymentAuthorizationController(
            _ controller: PaymentAuthorizationFlow, didSelectPaymentMethod paymentMethod: PaymentMethod,
            handler completion: @escaping (PaymentMethodUpdate) -> Void
        ) {
            calls.withLock { $0.append("didSelectPaymentMethod") }
            completion(PaymentMethodUpdate(summaryItems: F.summary("23.00")))
        }

        func paymentAuthorizationController(
            _ controller: PaymentAuthorizationFlow, didChangeCouponCode couponCode: String,
            handler completion: @escaping (CouponCodeUpdate) -> Void
        ) {
            calls.withLock { $0.append("didChangeCouponCode") }
            completion(CouponCodeUpdate(summaryItems: F.summary("24.00")))
        }

        func paymentAuthorizationController(
            _ controller: PaymentAuthorizationFlow,
            didRequestMerchantSessionUpdate handler: @escaping (MerchantSessionUpdate) -> Void
        ) {
            calls.withLock { $0.append("didRequestMerchantSessionUpdate") }
            handler(.failure)
        }
    }

    // spec E11, A2-A6: every optional PassKit spelling is called, each answer the merchant's.
    func testEveryPassKitSpellingOfAnOptionalMethodIsCalled() throws {
        let merchant = PassKitMerchant()
        let flow = try PaymentAuthorizationFlow(
            request: F.request(supportsCouponCode: true), delegate: merchant, options: F.options(ManualClock()))
        flow.present()
        flow.selectShippingContact(F.jane())
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("21.00"))
        flow.selectShippingMethod("express")
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("22.00"))
        flow.selectPaymentMethod(F.amex)
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("23.00"))
        flow.changeCouponCode("SAVE")
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("24.00"))
        flow.authorize(F.token())
        XCTAssertEqual(
            merchant.calls.withLock { $0 },
            [
                "didSelectShippingContact", "didSelectShippingMethod", "didSelectPaymentMethod", "didChangeCouponCode",
                "willAuthorizePayment",
            ])
        XCTAssertFalse(flow.transcript.text().contains("[default answer]"), flow.transcript.text())
    }

    /// A pay context merchant written in Stripe's spellings (but for the required methods).
    final class StripeMerchant: PayContextDelegate {
        let calls = LockedValue<[String]>([])

        func payContext(
            _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod,
            paymentInformation: Payment, completion: @escaping @Sendable (IntentAnswer) -> Void
        ) { completion(.completeWithoutConfirming) }

        func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {}

        func applePayContext(
            _ context: PayContext, didSelectShippingContact contact: Contact,
            handler: @escaping (ShippingContactUpdate) -> Void
        ) {
            calls.withLock { $0.append("didSelectShippingContact") }
            handler(ShippingContactUpdate(summaryItems: F.summary("21.00")))
        }

        func applePayContext(
            _ context: PayContext, didSelect shippingMethod: ShippingMethod,
            handler: @escaping (ShippingMethodUpdate) -> Void
        ) {
            calls.withLock { $0.append("didSelectShippingMethod") }
            handler(ShippingMethodUpdate(summaryItems: F.summary("22.00")))
        }

        func applePayContext(
            _ context: PayContext, didChangeCouponCode couponCode: String,
            handler: @escaping (CouponCodeUpdate) -> Void
        ) {
            calls.withLock { $0.append("didChangeCouponCode") }
            handler(CouponCodeUpdate(summaryItems: F.summary("24.00")))
        }

        func applePayContext(
            _ context: PayContext, willCompleteWithResult authorizationResult: PaymentAuthorizationResult,
            handler: @escaping (PaymentAuthorizationResult) -> Void
        ) {
            calls.withLock { $0.append("willComplete") }
            handler(authorizationResult)
        }
    }

    // spec E11, P2, P4: every optional Stripe spelling is called.
    func testEveryStripeSpellingOfAnOptionalMethodIsCalled() async throws {
        let merchant = StripeMerchant()
        let context = try PayContext(
            request: F.request(supportsCouponCode: true), backend: InMemoryStripeBackend(), delegate: merchant,
            options: F.options(ManualClock()))
        context.present()
        context.selectShippingContact(F.jane())
        context.selectShippingMethod("express")
        context.changeCouponCode("SAVE")
        XCTAssertEqual(context.sheet.sheet?.grandTotal, F.money("24.00"))
        context.authorize(F.token())
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(
            merchant.calls.withLock { $0 },
            ["didSelectShippingContact", "didSelectShippingMethod", "didChangeCouponCode", "willComplete"])
        XCTAssertFalse(context.transcript.text().contains("[default answer]"), context.transcript.text())
    }

    // spec E11: the compile-time half, run by the script: a required method in a platform's
    // spelling does not compile, an optional one does (against the modules this build made).
    func testTheCompilerRefusesRequiredSpellingsAndTakesOptionalOnes() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "Scripts/check-spellings.py", "--no-build"]
        process.currentDirectoryURL = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("check-spellings: 20 snippets, 0 problem(s)"), output)
    }
}
