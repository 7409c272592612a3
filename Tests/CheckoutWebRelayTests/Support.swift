import CheckoutCore
import CheckoutFlows
import CheckoutTestSupport
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import Synchronization
import XCTest

/// The request every relay test presents: USD, two shipping methods, coupons supported.
enum Shop {
    static func money(_ cents: Int64) -> Money { Money(minorUnits: cents, currency: .usd) }

    static let standard = ShippingMethod(identifier: "standard", label: "Standard", amount: money(500))
    static let express = ShippingMethod(identifier: "express", label: "Express", amount: money(1_500))

    static let request = PaymentRequest(
        merchantIdentifier: "merchant.com.example.tea",
        countryCode: "US",
        currencyCode: "USD",
        shippingMethods: [standard, express],
        summaryItems: [
            SummaryItem(label: "Tea", amount: money(2_000)), SummaryItem(label: "Tea Shop", amount: money(2_500)),
        ],
        supportsCouponCode: true
    )

    static let key = [UInt8](repeating: 0x5a, count: 32)

    /// The customer the server authenticated (spec W10).
    static let caller = RelayCaller("customer-1")

    static func items(_ cents: Int64) -> [SummaryItem] {
        [SummaryItem(label: "Tea", amount: money(2_000)), SummaryItem(label: "Tea Shop", amount: money(cents))]
    }

    // The merchant's answers, the same for every merchant of the tests: they depend only on what
    // the customer did, so a direct run of a flow gets the same answers as a relayed one.

    static func answer(contact: Contact) -> ShippingContactUpdate {
        switch contact.postalAddress?.country?.code {
        case "CA":
            // None available (spec W3).
            return ShippingContactUpdate(summaryItems: items(2_000), shippingMethods: [])
        case "GB":
            return ShippingContactUpdate(
                errors: [.shippingAddressUnserviceable("We do not ship to the UK")], summaryItems: items(2_000))
        default:
            return ShippingContactUpdate(summaryItems: items(3_000), shippingMethods: [standard, express])
        }
    }

    static func answer(method: ShippingMethod) -> ShippingMethodUpdate {
        ShippingMethodUpdate(summaryItems: items(2_000 + method.amount.minorUnits))
    }

    static func answer(paymentMethod: PaymentMethod) -> PaymentMethodUpdate {
        PaymentMethodUpdate(summaryItems: items(paymentMethod.type == .debit ? 2_400 : 2_500))
    }

    static func answer(coupon: String) -> CouponCodeUpdate {
        switch coupon {
        case "BAD":
            // Another currency: invalid (spec E7).
            return CouponCodeUpdate(summaryItems: [
                SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 1, currency: .eur))
            ])
        case "TEN": return CouponCodeUpdate(summaryItems: items(1_500))
        default:
            return CouponCodeUpdate(
                errors: [PaymentError(code: .couponCodeInvalid, message: "Unknown code")], summaryItems: items(2_500))
        }
    }

    static func answer(payment: Payment) -> PaymentAuthorizationResult {
        payment.token.transactionIdentifier.hasPrefix("decline")
            ? PaymentAuthorizationResult(status: .failure) : PaymentAuthorizationResult(status: .success)
    }
}

/// A merchant that answers as ``Shop`` says, at once, or, when armed, parks its next answer
/// until the test releases it (so that an event can arrive while the answer is owed, spec W4).
final class ShopMerchant: PaymentAuthorizationDelegate {
    private struct State {
        var armed = false
        var parked: (@Sendable () -> Void)?
        var waiter: CheckedContinuation<Void, Never>?
        var finished = 0
        var payments: [Payment] = []
    }
    private let state = LockedValue(State())

    var finishedCount: Int { state.withLock { $0.finished } }
    var payments: [Payment] { state.withLock { $0.payments } }

    /// The next answer waits for ``release()``.
    func holdNextAnswer() { state.withLock { $0.armed = true } }

    /// Returns once an answer is parked.
    func waitUntilParked() async {
        await withCheckedContinuation { continuation in
            let parked = state.withLock { state in
                if state.parked != nil { return true }
                state.waiter = continuation
                return false
            }
            if parked { continuation.resume() }
        }
    }

    /// Gives the parked answer.
    func release() { state.withLock { $0.parked.take() }?() }

    private func answer(_ give: @escaping @Sendable () -> Void) {
        let waiter: CheckedContinuation<Void, Never>?? = state.withLock { state in
            guard state.armed else { return .none }
            state.armed = false
            state.parked = give
            return .some(state.waiter.take())
        }
        switch waiter {
        case .none: give()
        case .some(let waiter): waiter?.resume()
        }
    }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { state.withLock { $0.finished += 1 } }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        state.withLock { $0.payments.append(payment) }
        answer { handler(Shop.answer(payment: payment)) }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) { answer { handler(Shop.answer(contact: contact)) } }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) { answer { handler(Shop.answer(method: method)) } }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    ) { answer { handler(Shop.answer(paymentMethod: method)) } }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) { answer { handler(Shop.answer(coupon: code)) } }
}

/// A merchant validation that answers with a merchant session, fails, or never answers.
struct ShopValidator: MerchantValidating {
    enum Behaviour: Sendable { case answer, fail, hang }
    var behaviour: Behaviour = .answer
    /// The sessions whose validation has begun, for a test to wait on.
    var started = Arrivals<String>()

    static let merchantSession: JSONValue = .object([
        "merchantSessionIdentifier": .string("SSH-SECRET-0123456789"),
        "nonce": .string("NONCE-SECRET-42"),
        "epochTimestamp": .integer(1_764_547_200_000),
        "expiresAt": .integer(1_764_550_800_000),
        "displayName": .string("Tea Shop"),
        "signature": .string("SIGNATURE-SECRET"),
    ])

    struct Failure: Error, CustomStringConvertible {
        var description: String { "Apple answered 400" }
    }

    func merchantSession(validationURL: URL, sessionID: String) async throws -> JSONValue {
        started.append(sessionID)
        switch behaviour {
        case .answer: return Self.merchantSession
        case .fail: throw Failure()
        case .hang:
            // Never answers: the relay's deadline cancels this task.
            try await Task.sleep(for: .seconds(3_600))
            return Self.merchantSession
        }
    }
}

/// Events as the page sends them.
enum Page {
    static func event(_ json: String) throws -> RelayEvent {
        try JSONDecoder().decode(RelayEvent.self, from: Data(json.utf8))
    }

    static func contact(_ session: String, country: String = "US", postalCode: String = "78701") throws -> RelayEvent {
        try event(
            #"{"session": "\#(session)", "type": "shippingcontactselected", "shippingContact": {"locality": "Austin", "administrativeArea": "TX", "postalCode": "\#(postalCode)", "countryCode": "\#(country)"}}"#
        )
    }

    static func method(_ session: String, _ identifier: String) throws -> RelayEvent {
        try event(
            #"{"session": "\#(session)", "type": "shippingmethodselected", "shippingMethod": {"label": "x", "detail": "", "amount": "5.00", "identifier": "\#(identifier)"}}"#
        )
    }

    static func card(_ session: String, type: String = "credit") throws -> RelayEvent {
        try event(
            #"{"session": "\#(session)", "type": "paymentmethodselected", "paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "\#(type)"}}"#
        )
    }

    static func coupon(_ session: String, _ code: String) throws -> RelayEvent {
        try event(#"{"session": "\#(session)", "type": "couponcodechanged", "couponCode": "\#(code)"}"#)
    }

    static func authorize(_ session: String, transaction: String = "ok-1") throws -> RelayEvent {
        try event(
            #"{"session": "\#(session)", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}, "transactionIdentifier": "\#(transaction)", "paymentData": {"version": "EC_v1", "data": "abc"}}, "shippingContact": {"givenName": "Ravi", "familyName": "Patel", "addressLines": ["1 Main St"], "locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}}"#
        )
    }

    static func validate(_ session: String) throws -> RelayEvent {
        try event(
            #"{"session": "\#(session)", "type": "validatemerchant", "validationURL": "https://apple-pay-gateway.apple.com/paymentservices/startSession"}"#
        )
    }

    static func cancel(_ session: String) throws -> RelayEvent {
        try event(#"{"session": "\#(session)", "type": "cancel"}"#)
    }

    static func address(_ session: String, country: String = "US") throws -> RelayEvent {
        try event(
            #"{"session": "\#(session)", "type": "shippingaddresschange", "shippingAddress": {"country": "\#(country)", "addressLine": [], "region": "TX", "city": "Austin", "postalCode": "78701"}}"#
        )
    }

    static func option(_ session: String, _ identifier: String) throws -> RelayEvent {
        try event(#"{"session": "\#(session)", "type": "shippingoptionchange", "shippingOption": "\#(identifier)"}"#)
    }

    static func methodChange(_ session: String) throws -> RelayEvent {
        try event(
            #"{"session": "\#(session)", "type": "paymentmethodchange", "methodName": "https://apple.com/apple-pay", "methodDetails": {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}"#
        )
    }
}

/// One transcript entry without its time.
struct TimelessEntry: Hashable, CustomStringConvertible {
    var actor: TranscriptActor
    var event: TranscriptEvent
    var description: String { "\(actor) \(event)" }
}

/// A transcript's entries without their times (a resumed flow replays its events at the time of
/// the resume, so times differ; what happened, who did it and in which order must not). A
/// violation's own time is set to zero for the same reason.
func eventsWithoutTimes(_ transcript: Transcript) -> [TimelessEntry] {
    transcript.entries.map { entry in
        if case .violation(var violation) = entry.event {
            violation.time = .zero
            return TimelessEntry(actor: entry.actor, event: .violation(violation))
        }
        return TimelessEntry(actor: entry.actor, event: entry.event)
    }
}

func encoded(_ reply: RelayReply) throws -> [String: Any] {
    let data = try JSONEncoder().encode(reply)
    return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A store whose save waits until the test lets it finish, as a network store's takes its
/// time: no sleeping, the test decides the order.
actor GatedStore: RelaySessionStore {
    var snapshots: [String: Data] = [:]
    private var started: CheckedContinuation<Void, Never>?
    private var gate: CheckedContinuation<Void, Never>?
    private var isSaving = false

    func save(_ snapshot: Data, for sessionID: String) async throws {
        isSaving = true
        started?.resume()
        started = nil
        await withCheckedContinuation { gate = $0 }
        snapshots[sessionID] = snapshot
    }
    func load(_ sessionID: String) -> Data? { snapshots[sessionID] }
    func remove(_ sessionID: String) { snapshots[sessionID] = nil }

    /// Returns once a save has begun.
    func waitUntilSaving() async {
        if isSaving { return }
        await withCheckedContinuation { started = $0 }
    }

    /// Lets the save in progress finish.
    func finishSave() {
        gate?.resume()
        gate = nil
    }
}
