import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripe
import Foundation

/// A payment backend that behaves like Stripe's test mode, in memory: thread-safe and
/// deterministic (ids and secrets count up).
///
/// The merchant side creates intents and gets client secrets
/// (``createPaymentIntent(amount:confirmationMethod:captureMethod:paymentMethodID:confirm:shipping:scoped:)``,
/// ``createSetupIntent(paymentMethodID:confirm:)``); the pay context creates payment methods,
/// retrieves and confirms through ``/CheckoutPayContext/PaymentBackend``. The payment token's data names a
/// ``/CheckoutStripe/StripeTestCard`` (any card of Stripe's testing page), which decides the outcome with the
/// backend's ``radar`` rules. ``confirmCount`` counts every confirmation
/// received, so a test can prove that a cancelled payment was never confirmed.
///
/// Stripe's newer confirm paths answer as Stripe documents them: a ConfirmationToken made from the
/// payment's token confirms once (``createConfirmationToken(from:options:shipping:)``,
/// ``confirmIntent(_:confirmationTokenID:)``); `return_url` makes a 3-D Secure challenge a
/// `redirect_to_url` next action; `setup_future_usage` is set on the PaymentIntent (a SetupIntent
/// refuses it); `payment_method_options[card][request_three_d_secure]` `any` or `challenge`
/// challenges every card that supports 3-D Secure, and `[card][capture_method]` `manual` leaves
/// the payment in `requires_capture`; a PaymentIntent with ``/CheckoutStripe/StripeAutomaticPaymentMethods`` that
/// allow redirects is refused a server-side confirmation without a `return_url`.
public final class InMemoryStripeBackend: PaymentBackend {
    private struct StoredIntent {
        var intent: StripeIntent
        let secretSuffix: String
    }

    private struct State {
        var nextID = 1
        var intents: [String: StoredIntent] = [:]
        var cards: [String: StripeTestCard] = [:]
        var tokens: [String: (token: StripeConfirmationToken, card: StripeTestCard)] = [:]
        var confirms: [String] = []
        var lastConfirmShipping: [String: ShippingDetails] = [:]
    }

    private let state = LockedValue(State())
    private let now: @Sendable () -> Int64

    /// The Radar rules the backend's account has; they decide whether failed CVC and postal-code
    /// checks and the highest-risk payments are blocked.
    public let radar: StripeRadarRules

    /// An empty backend (no intents, no payment methods, every counter at zero) on an account
    /// with these Radar rules, Stripe's default unless told otherwise; `now` (seconds since 1970,
    /// the system's clock unless told otherwise) dates ConfirmationTokens.
    public init(
        radar: StripeRadarRules = .stripeDefault,
        now: @escaping @Sendable () -> Int64 = {
            Int64(Date().timeIntervalSince1970)
        }
    ) {
        self.radar = radar
        self.now = now
    }

    // MARK: Observations

    /// How many confirmations the backend received, from the client and the server side.
    public var confirmCount: Int { state.withLock { $0.confirms.count } }

    /// How many confirmations the intent `id` received.
    public func confirmCount(for id: String) -> Int {
        state.withLock { $0.confirms.filter { $0 == id }.count }
    }

    /// How many payment methods were created.
    public var paymentMethodCount: Int { state.withLock { $0.cards.count } }

    /// The intent `id` as it stands.
    public func intent(_ id: String) -> StripeIntent? { state.withLock { $0.intents[id]?.intent } }

    /// The shipping details the last client confirmation of `id` sent, if any.
    public func lastConfirmShipping(for id: String) -> ShippingDetails? {
        state.withLock { $0.lastConfirmShipping[id] }
    }

    // MARK: Merchant side

    /// Creates a PaymentIntent and returns its client secret.
    ///
    /// With `confirm: true` the server confirms it at once with `paymentMethodID`, as a
    /// manual-confirmation integration does.
    ///
    /// - Throws: ``/CheckoutStripe/StripeError`` `invalid_request_error` for an amount Stripe refuses
    ///   (`amount_too_large`, or `parameter_invalid_integer` naming `amount`) or an unknown payment
    ///   method; the card's error when the server-side confirmation declines.
    public func createPaymentIntent(
        amount: Money,
        confirmationMethod: ConfirmationMethod = .automatic,
        captureMethod: CaptureMethod = .automaticAsync,
        paymentMethodID: String? = nil,
        confirm: Bool = false,
        shipping: ShippingDetails? = nil,
        scoped: Bool = false
    ) throws -> IntentClientSecret {
        do {
            _ = try amount.stripeAmount()
        } catch let error as CheckoutError {
            let tooLarge = amount.minorUnits > 0 && error.message.contains("digits")
            throw StripeError(
                type: "invalid_request_error",
                code: tooLarge ? "amount_too_large" : "parameter_invalid_integer",
                message: error.message,
                param: "amount"
            )
        }
        let intent = StripeIntent(
            id: "",
            kind: .paymentIntent,
            status: paymentMethodID == nil ? .requiresPaymentMethod : .requiresConfirmation,
            amount: amount,
            confirmationMethod: confirmationMethod,
            captureMethod: captureMethod,
            paymentMethodID: paymentMethodID,
            shipping: shipping
        )
        return try store(intent, prefix: "pi", scoped: scoped, confirmWith: confirm ? paymentMethodID : nil)
    }

    /// Creates a PaymentIntent whose payment methods come from the Dashboard
    /// (`automatic_payment_methods`) and returns its client secret.
    ///
    /// - Throws: as ``createPaymentIntent(amount:confirmationMethod:captureMethod:paymentMethodID:confirm:shipping:scoped:)``.
    public func createPaymentIntent(
        amount: Money, automaticPaymentMethods: StripeAutomaticPaymentMethods,
        captureMethod: CaptureMethod = .automaticAsync
    ) throws -> IntentClientSecret {
        let secret = try createPaymentIntent(amount: amount, captureMethod: captureMethod)
        state.withLock { state in
            state.intents[secret.intentID]?.intent.unmodeledFields["automatic_payment_methods"] = .object([
                "enabled": .bool(automaticPaymentMethods.enabled),
                "allow_redirects": .string(automaticPaymentMethods.allowRedirects.rawValue),
            ])
        }
        return secret
    }

    /// Confirms the intent from the merchant's server (the secret key's way) with the payment
    /// method and options: what a server-side confirmation checks that a client's does not (a
    /// `return_url` for automatic payment methods that allow redirects) is checked.
    ///
    /// - Throws: as ``confirmIntent(_:paymentMethodID:shipping:options:)``.
    public func confirmIntentOnServer(
        _ id: String, paymentMethodID: String, options: StripeConfirmOptions = StripeConfirmOptions()
    ) throws -> StripeIntent {
        try confirm(id, paymentMethodID: paymentMethodID, shipping: nil, byServer: true, options: options)
    }

    /// Creates a SetupIntent and returns its client secret; with `confirm: true` the server
    /// confirms it at once with `paymentMethodID`.
    ///
    /// - Throws: as ``createPaymentIntent(amount:confirmationMethod:captureMethod:paymentMethodID:confirm:shipping:scoped:)``.
    public func createSetupIntent(paymentMethodID: String? = nil, confirm: Bool = false) throws -> IntentClientSecret {
        let intent = StripeIntent(
            id: "",
            kind: .setupIntent,
            status: paymentMethodID == nil ? .requiresPaymentMethod : .requiresConfirmation,
            paymentMethodID: paymentMethodID
        )
        return try store(intent, prefix: "seti", scoped: false, confirmWith: confirm ? paymentMethodID : nil)
    }

    private func store(
        _ intent: StripeIntent,
        prefix: String,
        scoped: Bool,
        confirmWith paymentMethodID: String?
    ) throws -> IntentClientSecret {
        let (id, suffix) = state.withLock { state -> (String, String) in
            let number = state.nextID
            state.nextID += 1
            let id = "\(prefix)_\(Self.padded(number))"
            var stored = intent
            stored.id = id
            let suffix = "s\(Self.padded(number * 7_919 % 1_000_003))"
            state.intents[id] = StoredIntent(intent: stored, secretSuffix: suffix)
            return (id, suffix)
        }
        let text = scoped ? "\(id)_scoped_secret_\(suffix)" : "\(id)_secret_\(suffix)"
        let secret = try IntentClientSecret(text)
        if let paymentMethodID {
            _ = try confirm(
                id, paymentMethodID: paymentMethodID, shipping: nil, byServer: true, options: StripeConfirmOptions())
        }
        return secret
    }

    // MARK: PaymentBackend

    /// Creates a PaymentMethod (`pm_…`) for the test card the token's payment data names: its
    /// brand from the number, its funding and country from Stripe's table, its wallet Apple Pay,
    /// and its address checks as the card's row says (Apple Pay sends the billing postal code and
    /// no CVC, so the CVC check does not run).
    ///
    /// - Throws: ``/CheckoutStripe/StripeError`` `card_error`: `incorrect_number` for a number that fails the
    ///   Luhn check (Stripe's 4242424242424241 among them), `card_declined` /
    ///   `test_mode_live_card` for a valid number that is not one of Stripe's test cards.
    public func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
        let data = payment.token.paymentData
        guard let card = StripeTestCard(paymentData: data) else {
            throw StripeCardBrand.passesLuhnCheck(data.filter(\.isNumber))
                ? StripeTestCard.liveCardInTestMode : StripeTestCard.incorrectNumberError
        }
        if let error = card.creationError { throw error }
        return state.withLock { state in
            let id = "pm_\(Self.padded(state.nextID))"
            state.nextID += 1
            state.cards[id] = card
            return Self.paymentMethod(id, card)
        }
    }

    /// Stripe's PaymentMethod for a test card that came through Apple Pay.
    static func paymentMethod(_ id: String, _ card: StripeTestCard) -> StripePaymentMethod {
        let details = StripeCard(
            brand: card.brand,
            last4: card.last4,
            funding: card.funding,
            country: card.country,
            wallet: StripeCard.Wallet(type: "apple_pay", dynamicLast4: card.last4),
            checks: StripeCard.Checks(
                addressLine1Check: card.line1Check.rawValue,
                addressPostalCodeCheck: card.postalCodeCheck.rawValue
            )
        )
        return StripePaymentMethod(id: id, card: details)
    }

    /// The intent the secret belongs to, as it stands.
    ///
    /// - Throws: ``/CheckoutStripe/StripeError`` `invalid_request_error` / `resource_missing` for a secret that
    ///   belongs to no intent of this backend.
    public func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
        try state.withLock { state in try Self.lookUp(secret, in: state).intent }
    }

    /// Confirms the intent with the payment method, as a client confirmation does: the test
    /// card decides the outcome (`succeeded`, `requires_capture` for manual capture, `requires_action`
    /// for 3-D Secure). Every call counts in ``confirmCount``.
    ///
    /// - Throws: the card's ``/CheckoutStripe/StripeError`` when it declines (the intent goes back to
    ///   `requires_payment_method`); `invalid_request_error` for an unknown secret or payment method,
    ///   an intent that cannot be confirmed in its status, or a manual-confirmation PaymentIntent.
    public func confirmIntent(
        _ secret: IntentClientSecret,
        paymentMethodID: String,
        shipping: ShippingDetails?
    ) async throws -> StripeIntent {
        let id = try state.withLock { state in try Self.lookUp(secret, in: state).intent.id }
        return try confirm(
            id, paymentMethodID: paymentMethodID, shipping: shipping, byServer: false, options: StripeConfirmOptions())
    }

    /// Confirms the intent as a client confirmation does, with Stripe's newer options
    /// (`return_url`, `setup_future_usage`, `payment_method_options`).
    ///
    /// - Throws: as ``confirmIntent(_:paymentMethodID:shipping:)``; `invalid_request_error`
    ///   `url_invalid` for a `return_url` that is not a URL, `parameter_unknown` for
    ///   `setup_future_usage` on a SetupIntent.
    public func confirmIntent(
        _ secret: IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?,
        options: StripeConfirmOptions
    ) async throws -> StripeIntent {
        let id = try state.withLock { state in try Self.lookUp(secret, in: state).intent.id }
        return try confirm(id, paymentMethodID: paymentMethodID, shipping: shipping, byServer: false, options: options)
    }

    // MARK: ConfirmationTokens

    /// Creates a ConfirmationToken (`ctoken_…`) for the test card the payment's token names, with
    /// the confirmation's options and shipping: what Stripe's client SDKs make from Apple Pay. It
    /// expires after 12 hours, as Stripe's do.
    ///
    /// - Throws: the card's errors, as ``createPaymentMethod(from:)``; `url_invalid` for a
    ///   `return_url` that is not a URL.
    public func createConfirmationToken(
        from payment: Payment, options: StripeConfirmOptions = StripeConfirmOptions(),
        shipping: ShippingDetails? = nil
    ) async throws -> StripeConfirmationToken {
        try Self.check(options.returnURL)
        let method = try await createPaymentMethod(from: payment)
        let created = now()
        return try state.withLock { state in
            guard let card = state.cards.removeValue(forKey: method.id) else {
                preconditionFailure("the payment method just created is stored")
            }
            let id = "ctoken_\(Self.padded(state.nextID))"
            state.nextID += 1
            var preview =
                try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(method)).objectValue ?? [:]
            for key in ["id", "object", "created", "livemode"] { preview.removeValue(forKey: key) }
            let token = StripeConfirmationToken(
                id: id, created: created, expiresAt: created + 12 * 3_600, paymentMethodPreview: .object(preview),
                options: options, shipping: shipping)
            state.tokens[id] = (token, card)
            return token
        }
    }

    /// The ConfirmationToken `id` as it stands (used or not).
    public func confirmationToken(_ id: String) -> StripeConfirmationToken? {
        state.withLock { $0.tokens[id]?.token }
    }

    /// Confirms the intent with a ConfirmationToken, as a client does: a payment method is made
    /// from the token's preview, and the token's `return_url`, `setup_future_usage`,
    /// `payment_method_options` and shipping apply. A token confirms once.
    ///
    /// - Throws: `invalid_request_error` / `resource_missing` for an unknown token; a used or
    ///   expired token is refused naming `confirmation_token`; then as
    ///   ``confirmIntent(_:paymentMethodID:shipping:options:)``.
    public func confirmIntent(_ secret: IntentClientSecret, confirmationTokenID: String) async throws -> StripeIntent {
        let now = now()
        let (id, paymentMethodID, token) = try state.withLock { state in
            let id = try Self.lookUp(secret, in: state).intent.id
            guard let stored = state.tokens[confirmationTokenID] else {
                throw StripeError(
                    type: "invalid_request_error", code: "resource_missing",
                    message: "No such confirmation_token: '\(confirmationTokenID)'", param: "confirmation_token")
            }
            guard !stored.token.isUsed else {
                throw StripeError(
                    type: "invalid_request_error",
                    message: "The ConfirmationToken \(confirmationTokenID) was already used to confirm "
                        + (stored.token.paymentIntentID ?? stored.token.setupIntentID ?? "an intent") + ".",
                    param: "confirmation_token")
            }
            guard now <= stored.token.expiresAt ?? .max else {
                throw StripeError(
                    type: "invalid_request_error",
                    message: "The ConfirmationToken \(confirmationTokenID) has expired.", param: "confirmation_token")
            }
            let paymentMethodID = "pm_\(Self.padded(state.nextID))"
            state.nextID += 1
            state.cards[paymentMethodID] = stored.card
            var used = stored.token
            if secret.kind == .paymentIntent { used.paymentIntentID = id } else { used.setupIntentID = id }
            state.tokens[confirmationTokenID] = (used, stored.card)
            return (id, paymentMethodID, stored.token)
        }
        return try confirm(
            id, paymentMethodID: paymentMethodID, shipping: token.shipping, byServer: false, options: token.options)
    }

    // MARK: Confirmation

    private func confirm(
        _ id: String,
        paymentMethodID: String,
        shipping: ShippingDetails?,
        byServer: Bool,
        options: StripeConfirmOptions
    ) throws -> StripeIntent {
        try Self.check(options.returnURL)
        return try state.withLock { state in
            state.confirms.append(id)
            if let shipping { state.lastConfirmShipping[id] = shipping }
            guard var stored = state.intents[id] else {
                throw StripeError(
                    type: "invalid_request_error", code: "resource_missing", message: "No such intent: \(id)")
            }
            var intent = stored.intent
            let confirmable: [IntentStatus] =
                intent.kind == .setupIntent
                ? [.requiresPaymentMethod, .requiresConfirmation, .requiresAction]
                : [.requiresPaymentMethod, .requiresConfirmation]
            guard confirmable.contains(intent.status) else {
                throw StripeError(
                    type: "invalid_request_error",
                    code: intent.kind == .setupIntent
                        ? "setup_intent_unexpected_state" : "payment_intent_unexpected_state",
                    message: "The intent \(id) is in status \(intent.status) and cannot be confirmed."
                )
            }
            if !byServer, intent.kind == .paymentIntent, intent.confirmationMethod == .manual {
                throw StripeError(
                    type: "invalid_request_error",
                    code: "payment_intent_unexpected_state",
                    message: "A manual-confirmation PaymentIntent can only be confirmed by the server."
                )
            }
            guard let card = state.cards[paymentMethodID] else {
                throw StripeError(
                    type: "invalid_request_error",
                    code: "resource_missing",
                    message: "No such PaymentMethod: \(paymentMethodID)"
                )
            }
            try Self.apply(options, to: &intent, byServer: byServer)
            intent.paymentMethodID = paymentMethodID
            if let shipping { intent.shipping = shipping }
            var outcome = card.outcome(setup: intent.kind == .setupIntent, radar: radar)
            if case .succeeds = outcome, ["any", "challenge"].contains(options.requestThreeDSecure),
                card.authentication != .notSupported
            {
                outcome = .requiresAction
            }
            switch outcome {
            case .declines(let error):
                intent.status = .requiresPaymentMethod
                intent.lastError = error
                intent.paymentMethodID = nil
                intent.nextAction = nil
                stored.intent = intent
                state.intents[id] = stored
                throw error
            case .requiresAction:
                intent.status = .requiresAction
                intent.nextAction = Self.nextAction(for: id, returnURL: options.returnURL)
            case .succeeds:
                intent.nextAction = nil
                let manual = intent.captureMethod == .manual || options.cardCaptureMethod == .manual
                intent.status = intent.kind == .paymentIntent && manual ? .requiresCapture : .succeeded
            }
            intent.lastError = nil
            stored.intent = intent
            state.intents[id] = stored
            return intent
        }
    }

    /// What a 3-D Secure challenge asks for: Stripe's SDK handles `use_stripe_sdk`; with a
    /// `return_url` the customer is sent to the bank's page and back (`redirect_to_url`).
    private static func nextAction(for id: String, returnURL: String?) -> StripeNextAction {
        guard let returnURL else { return StripeNextAction(type: "use_stripe_sdk") }
        var action = StripeNextAction(
            type: "redirect_to_url", redirectURL: "https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=\(id)")
        action.unmodeledFields["redirect_to_url"] = .object(["return_url": .string(returnURL)])
        return action
    }

    /// Checks the options against the intent as Stripe does, and sets what they set on it.
    private static func apply(_ options: StripeConfirmOptions, to intent: inout StripeIntent, byServer: Bool) throws {
        if let usage = options.setupFutureUsage {
            guard intent.kind == .paymentIntent else {
                throw StripeError(
                    type: "invalid_request_error", code: "parameter_unknown",
                    message: "Received unknown parameter: setup_future_usage", param: "setup_future_usage")
            }
            intent.setupFutureUsage = usage
        }
        if let methodOptions = options.paymentMethodOptions {
            intent.unmodeledFields["payment_method_options"] = .object(methodOptions)
        }
        let automatic = intent.unmodeledFields["automatic_payment_methods"]
        if byServer, options.returnURL == nil, automatic?["enabled"]?.boolValue == true,
            automatic?["allow_redirects"]?.stringValue != "never"
        {
            throw StripeError(
                type: "invalid_request_error",
                message: "A return_url must be specified because this Payment Intent is configured to automatically "
                    + "accept the payment methods enabled in the Dashboard, some of which may require a full page "
                    + "redirect to succeed.",
                param: "return_url")
        }
    }

    /// Refuses a `return_url` that is not an absolute URL, as Stripe does (`url_invalid`).
    private static func check(_ returnURL: String?) throws {
        guard let returnURL else { return }
        guard let url = URL(string: returnURL), let scheme = url.scheme, !scheme.isEmpty else {
            throw StripeError(
                type: "invalid_request_error", code: "url_invalid",
                message: "Invalid URL: \(returnURL.prefix(100))", param: "return_url")
        }
    }

    private static func lookUp(_ secret: IntentClientSecret, in state: State) throws -> StoredIntent {
        guard let stored = state.intents[secret.intentID], stored.intent.kind == secret.kind,
            secret.unmaskedValue.hasSuffix("_secret_\(stored.secretSuffix)")
        else {
            throw StripeError(
                type: "invalid_request_error",
                code: "resource_missing",
                message: "No such \(secret.kind == .paymentIntent ? "PaymentIntent" : "SetupIntent"): "
                    + "'\(secret.intentID)' with that client secret"
            )
        }
        return stored
    }

    private static func padded(_ number: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }
}
