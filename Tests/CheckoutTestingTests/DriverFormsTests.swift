import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutPayContextTesting
import CheckoutTesting
import XCTest

/// The item 5: each driver action's two forms have their own names, so both are callable,
/// without type annotations, from synchronous and asynchronous code alike. These tests compile
/// only while that holds (an `async` overload of the same name would take `flow.authorize(token)`
/// in an `async` function and fail to compile without `await`); they run both forms of each flow.
final class DriverFormsTests: XCTestCase {
    private typealias F = KitFixture

    // Synchronous code: the immediate forms.
    func testTheImmediateFormsFromSynchronousCode() throws {
        let shipping = try ShippingAddressFlow(
            configuration: .init(), delegate: RecordingShippingAddressDelegate(didEnterAddress: .answer(.valid)))
        XCTAssertEqual(shipping.present(), .accepted)
        XCTAssertEqual(shipping.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(shipping.outcome, .finished(address: F.jane(), shippingMethod: nil))

        let merchant = RecordingPaymentAuthorizationDelegate()
        merchant.didAuthorizePayment.script(.answer(.success))
        let authorization = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant)
        authorization.present()
        XCTAssertEqual(authorization.selectShippingContact(F.jane()), .accepted)
        XCTAssertEqual(authorization.selectShippingMethod("express"), .accepted)
        XCTAssertEqual(authorization.authorize(F.token()), .accepted)
        guard case .success = authorization.outcome else {
            return XCTFail("\(String(describing: authorization.outcome))")
        }

        let context = try PayContext(
            request: F.request(), backend: RecordingPaymentBackend(), delegate: RecordingPayContextDelegate())
        XCTAssertEqual(context.present(), .accepted)
        XCTAssertEqual(context.selectShippingContact(F.jane()), .accepted)
        XCTAssertEqual(context.cancel(), .accepted)
    }

    // Asynchronous code: the immediate forms need no `await` and no annotation; the `…AndWait`
    // forms return the merchant's answers.
    func testBothFormsFromAsynchronousCode() async throws {
        let shipping = try ShippingAddressFlow(
            configuration: .init(), delegate: RecordingShippingAddressDelegate(didEnterAddress: .answer(.valid)))
        shipping.present()
        let validation = try await shipping.enterAddressAndWait(F.jane())
        XCTAssertEqual(validation, .valid)
        XCTAssertEqual(shipping.done().refusal?.code, .finished)

        let merchant = RecordingPaymentAuthorizationDelegate()
        merchant.didSelectShippingContact.script(.answer(ShippingContactUpdate(summaryItems: F.summary("25.00"))))
        merchant.didAuthorizePayment.script(.answer(.success))
        let authorization = try PaymentAuthorizationFlow(request: F.request(), delegate: merchant)
        authorization.present()
        let update = try await authorization.selectShippingContactAndWait(F.jane())
        XCTAssertEqual(update.summaryItems.last?.amount, F.money("25.00"))
        XCTAssertEqual(authorization.selectShippingMethod("express"), .accepted)
        let result = try await authorization.authorizeAndWait(F.token())
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(authorization.authorize(F.token()).refusal?.code, .finished)

        let payMerchant = RecordingPayContextDelegate(didCreatePaymentMethod: .answer(.completeWithoutConfirming))
        let context = try PayContext(request: F.request(), backend: RecordingPaymentBackend(), delegate: payMerchant)
        context.present()
        XCTAssertEqual(context.selectShippingContact(F.jane()), .accepted)
        await context.waitUntilIdle()
        let method = try await context.selectShippingMethodAndWait("express")
        XCTAssertEqual(method.summaryItems.last?.amount, F.money("20.00"), "the default keeps the summary")
        let paid = try await context.authorizeAndWait(F.card(.success))
        XCTAssertEqual(paid.status, .success)
        let outcome = await context.waitUntilEnded()
        XCTAssertEqual(outcome.status, .success)
        XCTAssertEqual(context.cancel().refusal?.code, .finished)
    }
}
