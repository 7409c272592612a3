import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// A merchant that implements every method of both protocols, answers each optional callback with
/// an answer of its own (never the protocol's default), and records what it received.
final class EveryMethodMerchant: PaymentAuthorizationDelegate, PayContextDelegate {
    let backend: FlakyBackend
    private let received = Locked<[String]>([])

    init(backend: FlakyBackend = FlakyBackend()) { self.backend = backend }

    /// The methods received, in order.
    var methods: [String] { received.withLock { $0 } }

    private func note(_ method: DelegateMethod) { received.withLock { $0.append(method.name) } }

    static let session = MerchantSession(json: #"{"merchantSessionIdentifier":"every-method"}"#)

    // The authorization flow's methods.

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { note(.didFinish) }

    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) { note(.willAuthorizePayment) }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        note(.didAuthorizePayment)
        handler(PaymentAuthorizationResult(status: .success))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didRequestMerchantSessionUpdate request: MerchantSessionRequest,
        handler: @escaping @Sendable (MerchantSessionUpdate) -> Void
    ) {
        note(.didRequestMerchantSessionUpdate)
        handler(.success(Self.session))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        note(.didSelectShippingContact)
        handler(Shop.answer(contact: contact))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        note(.didSelectShippingMethod)
        handler(Shop.answer(method: method))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    ) {
        note(.didSelectPaymentMethod)
        handler(Shop.answer(paymentMethod: method))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        note(.didChangeCouponCode)
        handler(Shop.answer(coupon: code))
    }

    // The pay context's methods.

    func payContext(
        _ context: PayContext, didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment, completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        note(.didCreatePaymentMethod)
        do {
            let total = context.sheet.sheet?.grandTotal ?? Shop.money(2_500)
            completion(.secret(try backend.stripe.createPaymentIntent(amount: total)))
        } catch {
            completion(.failure(error))
        }
    }

    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        note(.didComplete)
    }

    func payContext(
        _ context: PayContext, didRequestMerchantSessionUpdate request: MerchantSessionRequest,
        handler: @escaping @Sendable (MerchantSessionUpdate) -> Void
    ) {
        note(.didRequestMerchantSessionUpdate)
        handler(.success(Self.session))
    }

    func payContext(
        _ context: PayContext, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        note(.didSelectShippingMethod)
        handler(Shop.answer(method: method))
    }

    func payContext(
        _ context: PayContext, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        note(.didSelectShippingContact)
        handler(Shop.answer(contact: contact))
    }

    func payContext(
        _ context: PayContext, didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        note(.didChangeCouponCode)
        handler(Shop.answer(coupon: code))
    }

    func payContext(
        _ context: PayContext, willCompleteWith result: PaymentAuthorizationResult,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        note(.willComplete)
        handler(result)
    }
}

/// spec E11: every optional callback of every flow, driven through every delegate that stands
/// between a flow and the merchant, reaches the merchant; none is answered by the protocol's
/// default in the merchant's place. The optional methods come from the declarations
/// (Scripts/callbacks.json): a new one fails these tests until each path below drives it.
final class ForwardingTests: XCTestCase {
    private static let validationURL = URL(string: "https://apple-pay-gateway.apple.com/paymentservices/startSession")!

    /// The relay event that leads to each optional callback of the authorization flow (and of the
    /// pay context's sheet).
    private static let relayEvents: [DelegateMethod: @Sendable (String) throws -> RelayEvent] = [
        .didRequestMerchantSessionUpdate: { try Page.validate($0) },
        .didSelectShippingContact: { try Page.contact($0) },
        .didSelectShippingMethod: { try Page.method($0, "express") },
        .didSelectPaymentMethod: { try Page.card($0) },
        .didChangeCouponCode: { try Page.coupon($0, "TEA") },
        .willAuthorizePayment: { try payment($0) },
    ]

    /// A `paymentauthorized` event without contacts (the request asks for none).
    private static func payment(_ session: String) throws -> RelayEvent {
        try Page.event(
            #"{"session": "\#(session)", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 4242", "network": "Visa", "type": "credit"}, "transactionIdentifier": "tx-1", "paymentData": "4242424242424242"}}}"#
        )
    }

    /// The driver action that leads to each optional callback of a flow run directly.
    private static let driverActions: [DelegateMethod: @Sendable (PaymentAuthorizationFlow) -> DriverResponse] = [
        .didRequestMerchantSessionUpdate: {
            $0.requestMerchantSession(MerchantSessionRequest(validationURL: validationURL))
        },
        .didSelectShippingContact: {
            $0.selectShippingContact(
                Contact(
                    postalAddress: Address(
                        city: "Austin", state: "TX", postalCode: "78701", country: try? CountryCode("US"))))
        },
        .didSelectShippingMethod: { $0.selectShippingMethod("express") },
        .didSelectPaymentMethod: { $0.selectPaymentMethod(visa) },
        .didChangeCouponCode: { $0.changeCouponCode("TEA") },
        .willAuthorizePayment: {
            $0.authorize(PaymentToken(paymentMethod: visa, transactionIdentifier: "t", paymentData: "4242424242424242"))
        },
    ]

    private static let visa = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)

    private func defaultAnswers(_ transcript: Transcript) -> [String] {
        transcript.entries.compactMap { entry in
            if case .completion(let method, _, _, true) = entry.event { return method }
            return nil
        }
    }

    func testEveryOptionalCallbackHasAWayToBeDriven() {
        XCTAssertEqual(Set(Self.relayEvents.keys), Set(PaymentAuthorizationCallback.optionalMethods))
        XCTAssertEqual(Set(Self.driverActions.keys), Set(PaymentAuthorizationCallback.optionalMethods))
    }

    // The flow itself, and the flow behind the relay's forwarding delegate.
    func testTheAuthorizationFlowsOptionalCallbacksReachTheMerchant() async throws {
        for method in PaymentAuthorizationCallback.optionalMethods {
            let direct = EveryMethodMerchant()
            let flow = try PaymentAuthorizationFlow(
                request: Shop.request, delegate: direct, options: FlowOptions(clock: ManualClock()))
            flow.present()
            XCTAssertEqual(try XCTUnwrap(Self.driverActions[method])(flow), .accepted, method.name)
            XCTAssertTrue(direct.methods.contains(method.name), "\(method.name): \(direct.methods)")
            XCTAssertEqual(defaultAnswers(flow.transcript), [], method.name)

            let relayed = EveryMethodMerchant()
            let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
            try relay.open("a", request: Shop.request, merchant: .authorization(delegate: relayed))
            let reply = await relay.handle(try XCTUnwrap(Self.relayEvents[method])("a"))
            XCTAssertNil(reply.refusal, "\(method.name): \(reply)")
            XCTAssertTrue(relayed.methods.contains(method.name), "\(method.name) through the relay: \(relayed.methods)")
            XCTAssertEqual(defaultAnswers(try XCTUnwrap(relay.session("a")).transcript), [], method.name)
        }
    }

    // The pay context's sheet bridge, directly and behind the relay's pay-context delegate: each
    // optional callback of the pay context's protocol reaches the merchant.
    func testThePayContextsOptionalCallbacksReachTheMerchant() async throws {
        for method in PayContextCallback.optionalMethods {
            let backend = FlakyBackend()
            let merchant = EveryMethodMerchant(backend: backend)
            let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
            try relay.open("p", request: Shop.request, merchant: .payContext(delegate: merchant, backend: backend))
            let event: RelayEvent
            if method == .willComplete {
                event = try Self.payment("p")
            } else {
                event = try XCTUnwrap(Self.relayEvents[method], method.name)("p")
            }
            let reply = await relay.handle(event)
            XCTAssertNil(reply.refusal, "\(method.name): \(reply)")
            await relay.session("p")?.payContext?.waitUntilIdle()
            XCTAssertTrue(merchant.methods.contains(method.name), "\(method.name): \(merchant.methods)")
            XCTAssertEqual(defaultAnswers(try XCTUnwrap(relay.session("p")).transcript), [], method.name)
        }
    }
}
