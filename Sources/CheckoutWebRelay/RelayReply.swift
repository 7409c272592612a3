import CheckoutCore
import CheckoutWeb
import Foundation

/// The server's answer to one ``RelayEvent``, as one JSON object the page acts on.
///
/// - A completion: `{"session": "s1", "type": "shippingcontactselected", "complete":
///   "completeShippingContactSelection", "argument": {...}}`; the page calls
///   `session[complete](argument)` (or `event.updateWith(argument)` for the W3C events, and
///   `response.complete(argument)` or `response.retry(argument)` for a `paymentresponse`). For the
///   Express Checkout Element the page calls `elements.update({amount})` and then
///   `event.resolve(argument)`, or `event.reject()`, or `event.paymentFailed(argument)` (spec W9).
/// - A refusal: `{"session": ..., "type": ..., "refused": {"reason": "callbackPending", "message":
///   ...}}`; nothing changed, the page keeps waiting (spec W4, E9).
/// - An end: `{"session": ..., "type": ..., "complete": "abort", "ended": {"outcome": "failed",
///   "reason": "invalidUpdate", "message": ...}}`; the flow ended instead of answering (an update
///   the browser would reject, a deadline, a failed merchant validation) and the page calls
///   `session.abort()`. After `cancel` the reply is an end without `complete`: the sheet is gone.
public struct RelayReply: Codable, Hashable, Sendable {
    /// What the reply tells the page.
    public enum Body: Hashable, Sendable {
        /// Pass the argument to the event's `complete…` method.
        case complete(RelayCompletion)
        /// The event was refused; nothing changed.
        case refused(RelayRefusal)
        /// The session ended; abort the page's session when ``RelayEnd/abort`` is set.
        case ended(RelayEnd)
    }

    /// The session's id, as the event gave it (empty when the event could not be read that far).
    public var session: String
    /// The event's type, as the event gave it.
    public var type: String
    /// What the reply tells the page.
    public var body: Body

    /// A reply to an event of `type` in `session`.
    public init(session: String, type: String, _ body: Body) {
        self.session = session
        self.type = type
        self.body = body
    }

    /// The completion, when the reply is one.
    public var completion: RelayCompletion? {
        if case .complete(let completion) = body { return completion }
        return nil
    }

    /// The refusal, when the reply is one.
    public var refusal: RelayRefusal? {
        if case .refused(let refusal) = body { return refusal }
        return nil
    }

    /// The end, when the reply is one.
    public var end: RelayEnd? {
        if case .ended(let end) = body { return end }
        return nil
    }

    private enum CodingKeys: String, CodingKey {
        case session, type, complete, argument, refused, ended
        // Express Checkout Element
        case amount
    }

    /// Decodes one of the three shapes.
    ///
    /// - Throws: `DecodingError` naming `complete` (an unknown method), `argument` or the member
    ///   that is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decode(String.self, forKey: .session)
        type = try container.decode(String.self, forKey: .type)
        if let refusal = try container.decodeIfPresent(RelayRefusal.self, forKey: .refused) {
            body = .refused(refusal)
        } else if var end = try container.decodeIfPresent(RelayEnd.self, forKey: .ended) {
            end.abort = try container.decodeIfPresent(String.self, forKey: .complete) == "abort"
            body = .ended(end)
        } else {
            let method = try container.decode(String.self, forKey: .complete)
            // Express Checkout Element: `resolve` is the click's or a change's, and takes the amount.
            if method == "resolve" {
                let amount = try container.decode(Int64.self, forKey: .amount)
                body = .complete(
                    type == RelayEventType.expressCheckoutClick.rawValue
                        ? .expressCheckoutClickResolve(
                            try container.decode(ExpressCheckoutClickResolveDetails.self, forKey: .argument),
                            amount: amount)
                        : .expressCheckoutChangeResolve(
                            try container.decode(ExpressCheckoutChangeResolveDetails.self, forKey: .argument),
                            amount: amount))
                return
            }
            body = .complete(try RelayCompletion(method: method, argument: container, key: .argument))
        }
    }

    /// Encodes the reply in its shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(type, forKey: .type)
        switch body {
        case .complete(let completion):
            try container.encode(completion.method, forKey: .complete)
            try completion.encodeArgument(in: &container, key: .argument)
            // Express Checkout Element
            try container.encodeIfPresent(completion.elementsAmount, forKey: .amount)
        case .refused(let refusal):
            try container.encode(refusal, forKey: .refused)
        case .ended(let end):
            if end.abort { try container.encode("abort", forKey: .complete) }
            try container.encode(end, forKey: .ended)
        }
    }
}

/// What the page passes to an event's `complete…` method: exactly its argument.
///
/// The cases whose argument is large (an Apple Pay update with today's terms is nearly a kilobyte
/// inline) hold it in a box of its own, so that a reply is moved and kept at the size of the
/// small ones.
public enum RelayCompletion: Hashable, Sendable {
    /// `completeMerchantValidation(merchantSession)`: the opaque session, unchanged (spec W5).
    case merchantValidation(JSONValue)
    /// `completeShippingContactSelection(update)`.
    indirect case shippingContactSelection(ApplePayShippingContactUpdate)
    /// `completeShippingMethodSelection(update)`.
    indirect case shippingMethodSelection(ApplePayShippingMethodUpdate)
    /// `completePaymentMethodSelection(update)`.
    indirect case paymentMethodSelection(ApplePayPaymentMethodUpdate)
    /// `completeCouponCodeChange(update)`.
    indirect case couponCodeChange(ApplePayCouponCodeUpdate)
    /// `completePayment(result)`.
    case payment(ApplePayPaymentAuthorizationResult)
    /// W3C `updateWith(details)`.
    indirect case updateWith(PaymentDetailsUpdate)
    /// W3C `response.complete(result)`: `"success"`, or `"fail"` for a payment the merchant gives
    /// up on (spec W7).
    case paymentComplete(PaymentComplete)
    /// W3C `response.retry(errors)`: what the payer is to fix; the sheet stays open (spec W7, A7).
    indirect case retry(PaymentValidationErrors)
    // Google Pay
    /// What Google Pay's `onPaymentDataChanged` resolves with (spec W9).
    indirect case googlePayPaymentDataChanged(GooglePayPaymentDataRequestUpdate)
    /// What Google Pay's `onPaymentAuthorized` resolves with (spec W9).
    case googlePayPaymentAuthorized(GooglePayPaymentAuthorizationResult)

    // Express Checkout Element
    /// The element's `click`: `elements.update({amount})`, then `event.resolve(details)` (spec W9).
    case expressCheckoutClickResolve(ExpressCheckoutClickResolveDetails, amount: Int64)
    /// A `shippingaddresschange` or `shippingratechange`: `elements.update({amount})`, then
    /// `event.resolve(details)`.
    case expressCheckoutChangeResolve(ExpressCheckoutChangeResolveDetails, amount: Int64)
    /// A `shippingaddresschange` or `shippingratechange` the merchant refused: `event.reject()`.
    case expressCheckoutReject
    /// The element's `confirm` failed: `event.paymentFailed(failure)`; the sheet stays (spec A7).
    case expressCheckoutPaymentFailed(ExpressCheckoutPaymentFailure)
    /// The element's `confirm` succeeded: the payment is made (a pay context has confirmed the
    /// intent); the page shows its own success.
    case expressCheckoutPaymentSucceeded

    /// The Elements `amount` the page sets before it resolves; nil for the other completions.
    public var elementsAmount: Int64? {
        switch self {
        case .expressCheckoutClickResolve(_, let amount), .expressCheckoutChangeResolve(_, let amount): amount
        default: nil
        }
    }

    /// The page's method: `completeMerchantValidation`, ..., `updateWith`.
    public var method: String {
        switch self {
        case .merchantValidation: "completeMerchantValidation"
        case .shippingContactSelection: "completeShippingContactSelection"
        case .shippingMethodSelection: "completeShippingMethodSelection"
        case .paymentMethodSelection: "completePaymentMethodSelection"
        case .couponCodeChange: "completeCouponCodeChange"
        case .payment: "completePayment"
        case .updateWith: "updateWith"
        case .paymentComplete: "complete"
        case .retry: "retry"
        // Express Checkout Element
        case .expressCheckoutClickResolve, .expressCheckoutChangeResolve: "resolve"
        case .expressCheckoutReject: "reject"
        case .expressCheckoutPaymentFailed: "paymentFailed"
        case .expressCheckoutPaymentSucceeded: "paymentSucceeded"
        // Google Pay
        case .googlePayPaymentDataChanged: "onPaymentDataChanged"
        case .googlePayPaymentAuthorized: "onPaymentAuthorized"
        }
    }

    init<Key: CodingKey>(method: String, argument container: KeyedDecodingContainer<Key>, key: Key) throws {
        switch method {
        case "completeMerchantValidation": self = .merchantValidation(try container.decode(JSONValue.self, forKey: key))
        case "completeShippingContactSelection":
            self = .shippingContactSelection(try container.decode(ApplePayShippingContactUpdate.self, forKey: key))
        case "completeShippingMethodSelection":
            self = .shippingMethodSelection(try container.decode(ApplePayShippingMethodUpdate.self, forKey: key))
        case "completePaymentMethodSelection":
            self = .paymentMethodSelection(try container.decode(ApplePayPaymentMethodUpdate.self, forKey: key))
        case "completeCouponCodeChange":
            self = .couponCodeChange(try container.decode(ApplePayCouponCodeUpdate.self, forKey: key))
        case "completePayment":
            self = .payment(try container.decode(ApplePayPaymentAuthorizationResult.self, forKey: key))
        case "updateWith": self = .updateWith(try container.decode(PaymentDetailsUpdate.self, forKey: key))
        case "complete": self = .paymentComplete(try container.decode(PaymentComplete.self, forKey: key))
        case "retry": self = .retry(try container.decode(PaymentValidationErrors.self, forKey: key))
        // Express Checkout Element (`resolve` is read by the reply, which knows the event's type)
        case "reject": self = .expressCheckoutReject
        case "paymentFailed":
            self = .expressCheckoutPaymentFailed(try container.decode(ExpressCheckoutPaymentFailure.self, forKey: key))
        case "paymentSucceeded": self = .expressCheckoutPaymentSucceeded
        // Google Pay
        case "onPaymentDataChanged":
            self = .googlePayPaymentDataChanged(
                try container.decode(GooglePayPaymentDataRequestUpdate.self, forKey: key))
        case "onPaymentAuthorized":
            self = .googlePayPaymentAuthorized(
                try container.decode(GooglePayPaymentAuthorizationResult.self, forKey: key))
        default:
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath,
                    debugDescription: "unknown completion method \(method.debugDescription)"))
        }
    }

    func encodeArgument<Key: CodingKey>(in container: inout KeyedEncodingContainer<Key>, key: Key) throws {
        switch self {
        case .merchantValidation(let session): try container.encode(session, forKey: key)
        case .shippingContactSelection(let update): try container.encode(update, forKey: key)
        case .shippingMethodSelection(let update): try container.encode(update, forKey: key)
        case .paymentMethodSelection(let update): try container.encode(update, forKey: key)
        case .couponCodeChange(let update): try container.encode(update, forKey: key)
        case .payment(let result): try container.encode(result, forKey: key)
        case .updateWith(let update): try container.encode(update, forKey: key)
        case .paymentComplete(let result): try container.encode(result, forKey: key)
        case .retry(let errors): try container.encode(errors, forKey: key)
        // Express Checkout Element: `reject()` and a success take no argument.
        case .expressCheckoutClickResolve(let details, _): try container.encode(details, forKey: key)
        case .expressCheckoutChangeResolve(let details, _): try container.encode(details, forKey: key)
        case .expressCheckoutReject, .expressCheckoutPaymentSucceeded: break
        case .expressCheckoutPaymentFailed(let failure): try container.encode(failure, forKey: key)
        // Google Pay
        case .googlePayPaymentDataChanged(let update): try container.encode(update, forKey: key)
        case .googlePayPaymentAuthorized(let result): try container.encode(result, forKey: key)
        }
    }
}

/// Why the relay refused an event: the flow's reason (spec E9) or the relay's own.
public struct RelayRefusal: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The reason: a flow's ``/CheckoutFlows/Refusal/Code`` (`callbackPending`, `finished`,
    /// `unknownShippingMethod`, ...) or the relay's (``RelayError/Code``: `malformedEvent`,
    /// `unknownSession`, `invalidEvent`).
    public var reason: String
    /// A sentence for people, naming the field and value where there is one.
    public var message: String
    /// For `callbackPending`: the callback whose answer is outstanding.
    public var pendingCallback: String?
    /// The offending fields' paths, where known.
    public var fields: [String]?
    /// For a refusal by one of the relay's limits (spec W10): the limit's name in
    /// ``RelayLimits`` (`maxEventBytes`, `maxStringLength`, ...).
    public var limit: String?

    /// A refusal.
    public init(
        reason: String, message: String, pendingCallback: String? = nil, fields: [String]? = nil,
        limit: String? = nil
    ) {
        self.reason = reason
        self.message = message
        self.pendingCallback = pendingCallback
        self.fields = fields
        self.limit = limit
    }

    /// `reason: message`.
    public var description: String { "\(reason): \(message)" }
}

/// How a session ended instead of answering an event.
public struct RelayEnd: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The flow's outcome: `cancelled`, `timedOut`, `failed(...)`, `success`.
    public var outcome: String
    /// Why, when the outcome is not the customer's own cancel: `invalidUpdate`,
    /// `completionTimedOut`, `paymentFailed` (a pay context's error), `merchantValidationFailed`,
    /// `merchantValidationUnsupported`, `paymentDeclined`, `unrepresentableAnswer`, `browserWouldRefuse`
    /// (an answer the browser would refuse, never sent: spec W4, W8), `idle`, `closed`.
    public var reason: String?
    /// A sentence for people.
    public var message: String
    /// Whether the page must call `session.abort()` (the sheet is still up); false after the
    /// page's own `cancel`. Encoded as `"complete": "abort"` beside `ended`.
    public var abort: Bool

    /// An end.
    public init(outcome: String, reason: String? = nil, message: String, abort: Bool) {
        self.outcome = outcome
        self.reason = reason
        self.message = message
        self.abort = abort
    }

    private enum CodingKeys: String, CodingKey { case outcome, reason, message }

    /// Decodes `{"outcome", "reason", "message"}`; ``abort`` comes from the reply's `complete`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        outcome = try container.decode(String.self, forKey: .outcome)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        message = try container.decode(String.self, forKey: .message)
        abort = false
    }

    /// Encodes `{"outcome", "reason", "message"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(reason, forKey: .reason)
        try container.encode(message, forKey: .message)
    }

    /// `outcome (reason): message`.
    public var description: String { "\(outcome)\(reason.map { " (\($0))" } ?? ""): \(message)" }
}
