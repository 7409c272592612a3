import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutWeb
import Foundation

// Stripe's Express Checkout Element through the relay (spec W9): the element's `click` is
// answered by the relay from the session's request; `shippingaddresschange` and
// `shippingratechange` reach the merchant as a shipping-contact and a shipping-method selection
// and are answered `resolve(...)` or `reject()`; `confirm` authorizes with the PaymentMethod the
// page created from the element, and a pay context confirms its intent with it on the server.

extension WebRelay {
    /// Spec W9: the element's `click` is answered at once, without the merchant (Stripe gives the
    /// page 1 second to call `resolve`): the lines, rates and fields to collect of the session's
    /// request, and the total as the Elements `amount`. A request the element cannot show (Stripe's
    /// rules, a member it has no form for) ends the session instead.
    func expressCheckoutClick(_ session: RelaySession) async -> RelayReply.Body {
        do {
            try session.claimWire(for: .expressCheckoutClick)
        } catch let refusal as Refusal {
            return .refused(RelayRefusal(refusal))
        } catch {
            return .refused(RelayRefusal(reason: RelayError.Code.invalidEvent.rawValue, message: "\(error)"))
        }
        if session.flow.isEnded {
            return .refused(RelayRefusal(Refusal(code: .finished, message: "the flow has ended")))
        }
        do {
            let details = try ExpressCheckoutClickResolveDetails(session.request)
            let amount = try ExpressCheckoutAmount.elementsAmount(of: session.request.summaryItems)
            try details.validate(amount: amount)
            session.note(.action("relay.expresscheckout.click", [.text("resolved from the request")]), actor: .flow)
            return .complete(.expressCheckoutClickResolve(details, amount: amount))
        } catch {
            await session.end(
                reason: "unrepresentableAnswer",
                message: "the session's request has no form the Express Checkout Element takes: \(error)")
            return .ended(await session.endOfFlow(afterPageCancel: false))
        }
    }
}

extension RelaySession {
    /// What a `confirm` authorizes with: a token whose data is the PaymentMethod's id (the
    /// merchant's own server confirms with it; a pay context's backend takes it as created), and
    /// the event's contacts. The selected rate must be the flow's.
    ///
    /// - Throws: ``InvalidEvent`` naming `paymentMethod` (not a `pm_` id), `event.…` (a contact
    ///   that cannot be read) or `event.shippingRate.id` (another rate than the flow's).
    func expressCheckoutAuthorization(_ event: ExpressCheckoutConfirmEvent, paymentMethod: String) throws
        -> (PaymentToken, Contact?, Contact?)
    {
        let id = try read("paymentMethod") {
            guard paymentMethod.hasPrefix("pm_"), paymentMethod.count > 3 else {
                throw CheckoutError(
                    code: .invalidField,
                    message: "paymentMethod \(paymentMethod.debugDescription) is not a Stripe PaymentMethod id (pm_…)",
                    value: paymentMethod)
            }
            return paymentMethod
        }
        let (billing, shipping) = try read("event") { try event.coreContacts() }
        if let rate = event.shippingRate {
            let selected = flow.sheet.sheet?.selectedShippingMethodID
            _ = try read("event") {
                guard rate.id == selected else {
                    throw CheckoutError(
                        code: .invalidField,
                        message: "shippingRate.id \(rate.id.debugDescription) is not the rate selected "
                            + "(\(selected?.debugDescription ?? "none"))",
                        field: "shippingRate.id", value: rate.id)
                }
            }
        }
        expressCheckoutPaymentMethod?.set(id)
        let method = PaymentMethod(displayName: event.expressPaymentType.rawValue, network: nil, type: .unknown)
        return (PaymentToken(paymentMethod: method, transactionIdentifier: id, paymentData: id), billing, shipping)
    }

    /// Spec W9: what the page does with the merchant's answer. A shipping-contact update with a
    /// blocking error is `reject()`; any other update is `resolve` with the lines, rates and
    /// amount, checked against Stripe's rules first; an authorization's success is
    /// `paymentSucceeded`, anything else `paymentFailed({reason, message})`.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` when the answer has no form the element takes.
    func expressCheckoutCompletion(for driven: Driven) throws -> RelayCompletion {
        let answer: ExpressCheckoutChangeAnswer
        switch driven {
        case .shippingContact(let update): answer = try ExpressCheckoutChangeAnswer(update)
        case .shippingMethod(let update): answer = try ExpressCheckoutChangeAnswer(update)
        case .authorization(let result):
            return result.status == .success
                ? .expressCheckoutPaymentSucceeded
                : .expressCheckoutPaymentFailed(ExpressCheckoutPaymentFailure(result))
        default:
            throw CheckoutError(
                code: .invalidField, message: "the Express Checkout Element has no event for this answer")
        }
        switch answer {
        case .reject: return .expressCheckoutReject
        case .resolve(let details, let amount):
            try details.validate(amount: amount)
            return .expressCheckoutChangeResolve(details, amount: amount)
        }
    }
}

/// The PaymentMethod id of the `confirm` being authorized in a session, under a lock in the
/// slot's own allocation.
final class ExpressCheckoutPaymentMethodSlot: Sendable {
    @exclusivity(unchecked) private nonisolated(unsafe) var id: String?
    private let lock = InlineLock()

    func set(_ value: String) { lock.withLocked { id = value } }

    /// Whether `paymentData` is the id the session's `confirm` sent.
    func matches(_ paymentData: String) -> Bool { lock.withLocked { id == paymentData } }
}

/// A pay context's backend in a relayed session: Stripe.js has already created the
/// PaymentMethod of an Express Checkout `confirm` (`stripe.createPaymentMethod({elements})`), so
/// for that payment it is taken as created and the intent is confirmed with it; everything else
/// goes to the merchant's backend.
struct ExpressCheckoutRelayBackend: PaymentBackend {
    let base: any PaymentBackend
    let slot: ExpressCheckoutPaymentMethodSlot

    func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
        let data = payment.token.paymentData
        guard slot.matches(data) else { return try await base.createPaymentMethod(from: payment) }
        return StripePaymentMethod(id: data, card: nil)
    }

    func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
        try await base.retrieveIntent(secret)
    }

    func confirmIntent(_ secret: IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?)
        async throws -> StripeIntent
    {
        try await base.confirmIntent(secret, paymentMethodID: paymentMethodID, shipping: shipping)
    }
}
