import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripe
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A payment backend that talks to Stripe's HTTP API (spec P9) on Foundation's `URLSession`.
///
/// Requests are form-encoded with nested parameters in brackets and carry a pinned
/// `Stripe-Version`. Every request that creates or confirms carries an `Idempotency-Key`, the same
/// on each of its retries, so a confirmation sent twice charges once. Failed requests are sent
/// again only where Stripe says a retry is safe (``StripeRetryPolicy``). Errors are Stripe's error
/// object (``/CheckoutStripe/StripeError``); a request that never got an answer ends as `api_connection_error`.
/// The key and client secrets never appear in a description, a log line or an error.
///
/// With a secret key (`sk_…`) the backend plays the merchant's server: it retrieves intents by id,
/// sets the payment method and shipping on a PaymentIntent, then confirms it. With a publishable
/// key (`pk_…`) it plays stripe-ios: it retrieves and confirms with the client secret. The
/// merchant side (``createPaymentIntent(amount:confirmationMethod:captureMethod:)``,
/// ``createSetupIntent()``) needs a secret key.
public final class StripeHTTPBackend: PaymentBackend, CustomStringConvertible {
    /// Where and how the backend talks to Stripe.
    public struct Configuration: Sendable {
        /// Stripe's API.
        public static let stripeAPI = URL(string: "https://api.stripe.com")!
        /// The API version every request pins.
        public static let pinnedStripeVersion = "2024-06-20"

        /// The API's base URL: Stripe's, or an emulator's.
        public var baseURL: URL
        /// The key requests authenticate with.
        public var apiKey: StripeAPIKey
        /// The `Stripe-Version` header.
        public var stripeVersion: String
        /// When failed requests are sent again.
        public var retry: StripeRetryPolicy
        /// How long one attempt may wait for an answer; at least a second (Foundation on Linux
        /// ends shorter timeouts at once).
        public var requestTimeout: Duration
        /// Sends a CVC (`123`, `1234` for American Express) with the card number: an emulator may
        /// require one. Apple Pay sends none, and neither does the backend unless told to.
        public var sendsTestCVC: Bool
        /// Sends the shipping details with a PaymentIntent's confirmation (Stripe's way). An
        /// emulator without a `shipping` field on PaymentIntents (localstripe 1.15.10 refuses
        /// the request) is told not to.
        public var sendsShipping: Bool
        /// Sends a test card number an emulator cannot take (localstripe 1.15.10 takes 16 digits
        /// only, refusing American Express's 15 and Diners Club's 14) as Stripe's plain success
        /// card, 4242 4242 4242 4242, when Stripe's testing page documents the card as a plain
        /// success on payments and setups: the outcome is the card's, the brand and last four
        /// digits the emulator reports are the stand-in's. Other numbers go as they are.
        public var sendsStandInCards: Bool

        /// A configuration; the base URL is Stripe's unless told otherwise.
        public init(
            apiKey: StripeAPIKey,
            baseURL: URL = Configuration.stripeAPI,
            stripeVersion: String = Configuration.pinnedStripeVersion,
            retry: StripeRetryPolicy = StripeRetryPolicy(),
            requestTimeout: Duration = .seconds(30),
            sendsTestCVC: Bool = false,
            sendsShipping: Bool = true,
            sendsStandInCards: Bool = false
        ) {
            self.apiKey = apiKey
            self.baseURL = baseURL
            self.stripeVersion = stripeVersion
            self.retry = retry
            self.requestTimeout = max(requestTimeout, .seconds(1))
            self.sendsTestCVC = sendsTestCVC
            self.sendsShipping = sendsShipping
            self.sendsStandInCards = sendsStandInCards
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let session: URLSession

    /// A backend with this configuration, on its own ephemeral session.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = Self.seconds(configuration.requestTimeout)
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCache = nil
        session = URLSession(configuration: sessionConfiguration)
    }

    /// `StripeHTTPBackend(https://api.stripe.com, sk_test_•••)`.
    public var description: String {
        "StripeHTTPBackend(\(configuration.baseURL.absoluteString), \(configuration.apiKey))"
    }

    // MARK: Merchant side

    /// Creates a PaymentIntent for card payments and returns its client secret (secret key only).
    ///
    /// - Throws: ``/CheckoutStripe/StripeError``, Stripe's or `api_connection_error`.
    public func createPaymentIntent(
        amount: Money,
        confirmationMethod: ConfirmationMethod = .automatic,
        captureMethod: CaptureMethod = .automaticAsync
    ) async throws -> IntentClientSecret {
        var form = StripeForm()
        form.add("amount", value: String(try Self.stripeAmount(amount)))
        form.add("currency", value: amount.currency.code.lowercased())
        form.add("payment_method_types", "0", value: "card")
        form.add("capture_method", value: captureMethod.rawValue)
        if confirmationMethod != .automatic { form.add("confirmation_method", value: confirmationMethod.rawValue) }
        return try Self.secret(of: try await send("POST", "/v1/payment_intents", form, idempotent: true))
    }

    /// Creates a PaymentIntent whose payment methods come from the Dashboard
    /// (`automatic_payment_methods`) and returns its client secret (secret key only). While
    /// redirects are allowed, a server-side confirmation needs a `return_url`.
    ///
    /// - Throws: ``/CheckoutStripe/StripeError``, Stripe's or `api_connection_error`.
    public func createPaymentIntent(
        amount: Money, automaticPaymentMethods: StripeAutomaticPaymentMethods,
        captureMethod: CaptureMethod = .automaticAsync
    ) async throws -> IntentClientSecret {
        var form = StripeForm()
        form.add("amount", value: String(try Self.stripeAmount(amount)))
        form.add("currency", value: amount.currency.code.lowercased())
        form.add("automatic_payment_methods", "enabled", value: automaticPaymentMethods.enabled ? "true" : "false")
        form.add("automatic_payment_methods", "allow_redirects", value: automaticPaymentMethods.allowRedirects.rawValue)
        form.add("capture_method", value: captureMethod.rawValue)
        return try Self.secret(of: try await send("POST", "/v1/payment_intents", form, idempotent: true))
    }

    /// Creates a SetupIntent for cards and returns its client secret (secret key only).
    ///
    /// - Throws: ``/CheckoutStripe/StripeError``, Stripe's or `api_connection_error`.
    public func createSetupIntent() async throws -> IntentClientSecret {
        var form = StripeForm()
        form.add("payment_method_types", "0", value: "card")
        return try Self.secret(of: try await send("POST", "/v1/setup_intents", form, idempotent: true))
    }

    /// Retrieves a PaymentIntent or SetupIntent by id (secret key only).
    public func intent(_ id: String) async throws -> StripeIntent {
        try await send("GET", "/v1/\(Self.resource(id))/\(Self.pathComponent(id))", StripeForm(), idempotent: false)
    }

    // MARK: PaymentBackend

    /// Creates a card PaymentMethod from the payment's token: its data is a test card number (a
    /// test-mode `tok_…` token is sent as one), and the billing contact becomes
    /// `billing_details`.
    public func createPaymentMethod(from payment: Payment) async throws -> StripePaymentMethod {
        var form = StripeForm()
        addCard(of: payment, under: [], to: &form)
        return try await send("POST", "/v1/payment_methods", form, idempotent: true)
    }

    /// The card fields of a payment method's data (`type`, `card`, `billing_details`) under
    /// `prefix`: a test card number, or a test-mode `tok_…` token sent as one.
    private func addCard(of payment: Payment, under prefix: [String], to form: inout StripeForm) {
        form.add(prefix + ["type"], value: "card")
        let data = payment.token.paymentData
        if data.hasPrefix("tok_") {
            form.add(prefix + ["card", "token"], value: data)
        } else {
            var number = data.filter(\.isNumber)
            if configuration.sendsStandInCards, number.count != 16, let card = StripeTestCard(rawValue: number),
                card.creationError == nil, card.outcome(setup: false) == .succeeds,
                card.outcome(setup: true) == .succeeds
            {
                number = StripeTestCard.success.number
            }
            form.add(prefix + ["card", "number"], value: number)
            form.add(prefix + ["card", "exp_month"], value: "12")
            form.add(prefix + ["card", "exp_year"], value: "2034")
            // American Express has a four-digit CVC.
            let cvc = StripeCardBrand.of(number) == "amex" ? "1234" : "123"
            if configuration.sendsTestCVC { form.add(prefix + ["card", "cvc"], value: cvc) }
        }
        if let billing = payment.billingContact {
            form.add(prefix + ["billing_details", "name"], value: billing.stripeName)
            form.add(prefix + ["billing_details", "email"], value: billing.emailAddress)
            form.add(prefix + ["billing_details", "phone"], value: billing.phoneNumber)
            if let address = billing.postalAddress {
                Self.add(address, under: prefix + ["billing_details", "address"], to: &form)
            }
        }
    }

    /// Creates a ConfirmationToken from the payment's token, with the confirmation's options and
    /// shipping: with a publishable key as Stripe's client SDKs do (`/v1/confirmation_tokens`),
    /// with a test-mode secret key through Stripe's test helper
    /// (`/v1/test_helpers/confirmation_tokens`).
    ///
    /// - Throws: ``/CheckoutStripe/StripeError``, Stripe's or `api_connection_error`.
    public func createConfirmationToken(
        from payment: Payment, options: StripeConfirmOptions = StripeConfirmOptions(),
        shipping: ShippingDetails? = nil
    ) async throws -> StripeConfirmationToken {
        var form = StripeForm()
        addCard(of: payment, under: ["payment_method_data"], to: &form)
        Self.add(options, to: &form)
        if let shipping { Self.add(shipping, to: &form) }
        let path =
            configuration.apiKey.kind == .publishable
            ? "/v1/confirmation_tokens" : "/v1/test_helpers/confirmation_tokens"
        return try await send("POST", path, form, idempotent: true)
    }

    /// Confirms the intent with a ConfirmationToken (`confirmation_token`); the token carries the
    /// payment method, the options and the shipping.
    public func confirmIntent(_ secret: IntentClientSecret, confirmationTokenID: String) async throws -> StripeIntent {
        var form = StripeForm()
        form.add("confirmation_token", value: confirmationTokenID)
        return try await confirm(secret, attach: form, options: StripeConfirmOptions(), separately: false)
    }

    /// Retrieves the intent: by id with a secret key, with the client secret with a publishable
    /// one.
    public func retrieveIntent(_ secret: IntentClientSecret) async throws -> StripeIntent {
        var form = StripeForm()
        if configuration.apiKey.kind == .publishable { form.add("client_secret", value: secret.unmaskedValue) }
        return try await send("GET", Self.path(secret), form, idempotent: false)
    }

    /// Confirms the intent with the payment method, and `shipping` when given; one idempotency key
    /// covers every retry of the confirmation.
    public func confirmIntent(
        _ secret: IntentClientSecret,
        paymentMethodID: String,
        shipping: ShippingDetails?
    ) async throws -> StripeIntent {
        try await confirmIntent(
            secret, paymentMethodID: paymentMethodID, shipping: shipping, options: StripeConfirmOptions())
    }

    /// Confirms the intent with the payment method, `shipping` when given, and Stripe's newer
    /// options (`return_url`, `setup_future_usage`, `payment_method_options`).
    public func confirmIntent(
        _ secret: IntentClientSecret, paymentMethodID: String, shipping: ShippingDetails?,
        options: StripeConfirmOptions
    ) async throws -> StripeIntent {
        var attach = StripeForm()
        attach.add("payment_method", value: paymentMethodID)
        if let shipping, configuration.sendsShipping, secret.kind == .paymentIntent { Self.add(shipping, to: &attach) }
        return try await confirm(secret, attach: attach, options: options, separately: true)
    }

    /// Confirms: with a publishable key in one request with the client secret; with a secret key
    /// the server's way, which sets the PaymentIntent's payment method and shipping first when
    /// `separately` (the options go with the confirmation).
    private func confirm(
        _ secret: IntentClientSecret, attach: StripeForm, options: StripeConfirmOptions, separately: Bool
    ) async throws -> StripeIntent {
        var extra = StripeForm()
        Self.add(options, to: &extra)
        let path = Self.path(secret)
        let retried = RetryFlag()
        do {
            switch (configuration.apiKey.kind, secret.kind) {
            case (.publishable, _):
                var form = StripeForm()
                form.add("client_secret", value: secret.unmaskedValue)
                for field in attach.fields + extra.fields { form.add(field.path, value: field.value) }
                return try await send("POST", path + "/confirm", form, idempotent: true, retried: retried)
            case (.secret, .paymentIntent) where separately:
                // The server's way: set the payment method (and shipping), then confirm.
                let _: StripeIntent = try await send("POST", path, attach, idempotent: true)
                return try await send("POST", path + "/confirm", extra, idempotent: true, retried: retried)
            case (.secret, _):
                var form = attach
                for field in extra.fields { form.add(field.path, value: field.value) }
                return try await send("POST", path + "/confirm", form, idempotent: true, retried: retried)
            }
        } catch let error as StripeError where retried.value && error.type == "invalid_request_error" {
            // A retry refused after an attempt whose fate is unknown (its answer was lost): Stripe
            // answers a repeated key with the first answer, but a server without idempotency
            // refuses the intent it already confirmed. The intent's state says what happened.
            let intent = try await retrieveIntent(secret)
            let confirmed: [IntentStatus] = [.succeeded, .requiresCapture, .requiresAction, .processing]
            guard confirmed.contains(intent.status) else { throw error }
            return intent
        }
    }

    /// Set when a request was sent more than once.
    private final class RetryFlag: Sendable {
        private let state = Mutex(false)
        var value: Bool {
            get { state.withLock { $0 } }
            set { state.withLock { $0 = newValue } }
        }
    }

    // MARK: Requests

    /// Sends a request, retrying as the policy allows, and decodes the answer.
    private func send<Answer: Decodable>(
        _ method: String, _ path: String, _ form: StripeForm, idempotent: Bool, retried: RetryFlag? = nil
    ) async throws -> Answer {
        let data = try await perform(
            method, path, form, idempotencyKey: idempotent ? UUID().uuidString : nil, retried: retried)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw StripeError(
                type: "api_error",
                message: "Stripe's answer to \(method) \(path) could not be read: \(Self.reason(error))")
        }
    }

    private func perform(
        _ method: String, _ path: String, _ form: StripeForm, idempotencyKey: String?, retried: RetryFlag?
    ) async throws -> Data {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)
        let basePath = components?.percentEncodedPath ?? ""
        components?.percentEncodedPath = basePath.trimmingSuffix("/") + path
        if method == "GET", !form.fields.isEmpty { components?.percentEncodedQuery = form.encoded }
        guard let url = components?.url else {
            throw StripeError(type: "invalid_request_error", message: "The base URL cannot take the path \(path)")
        }
        var request = URLRequest(url: url, timeoutInterval: Self.seconds(configuration.requestTimeout))
        request.httpMethod = method
        request.setValue("Bearer \(configuration.apiKey.unmaskedValue)", forHTTPHeaderField: "Authorization")
        request.setValue(configuration.stripeVersion, forHTTPHeaderField: "Stripe-Version")
        request.setValue("Checkout/1 (Swift; CheckoutStripeBackends)", forHTTPHeaderField: "User-Agent")
        if let idempotencyKey { request.setValue(idempotencyKey, forHTTPHeaderField: "Idempotency-Key") }
        if method != "GET" {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(form.encoded.utf8)
        }
        let clock = ContinuousClock()
        let start = clock.now
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            let failure: StripeRetryPolicy.Failure
            let finalError: StripeError
            do {
                let (data, response) = try await session.data(for: request)
                guard let http = response as? HTTPURLResponse else {
                    throw URLError(.badServerResponse)
                }
                if (200...299).contains(http.statusCode) { return data }
                failure = .http(
                    status: http.statusCode,
                    shouldRetry: http.value(forHTTPHeaderField: "Stripe-Should-Retry").map { $0 == "true" },
                    retryAfterSeconds: http.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
                )
                finalError = Self.error(from: data, status: http.statusCode, method, path)
            } catch let error as URLError where error.code == .cancelled {
                throw CancellationError()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failure = .network
                finalError = StripeError(
                    type: "api_connection_error",
                    message: "No answer from \(configuration.baseURL.host ?? "Stripe") to \(method) \(path) "
                        + "after \(attempt) attempt\(attempt == 1 ? "" : "s"): \(Self.reason(error))"
                )
            }
            guard let wait = configuration.retry.delay(after: failure, attempt: attempt, elapsed: clock.now - start)
            else {
                throw finalError
            }
            try await Task.sleep(for: wait)
            retried?.value = true
        }
    }

    // MARK: Helpers

    private static func error(from data: Data, status: Int, _ method: String, _ path: String) -> StripeError {
        if let response = try? JSONDecoder().decode(StripeErrorResponse.self, from: data) { return response.error }
        return StripeError(
            type: status >= 500 ? "api_error" : "invalid_request_error",
            message: "HTTP \(status) from \(method) \(path) without Stripe's error object")
    }

    /// A failure's reason without the URL (a query may hold a client secret).
    private static func reason(_ error: any Error) -> String {
        if let url = error as? URLError { return "URLError \(url.code.rawValue)" }
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                .valueNotFound(_, let context):
                return context.codingPath.map(\.stringValue).joined(separator: ".") + ": " + context.debugDescription
            @unknown default: return "undecodable"
            }
        }
        return String(describing: type(of: error))
    }

    /// The address's six Stripe fields, what Stripe has no field for folded in
    /// (``/CheckoutCore/Address/foldedForStripe``).
    private static func add(_ address: Address, under path: [String], to form: inout StripeForm) {
        let address = address.foldedForStripe
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            form.add(path + [key], value: value)
        }
        add("line1", address.line1)
        add("line2", address.line2)
        add("city", address.city)
        add("state", address.state)
        add("postal_code", address.postalCode)
        add("country", address.country?.code)
    }

    private static func add(_ shipping: ShippingDetails, to form: inout StripeForm) {
        form.add("shipping", "name", value: shipping.name)
        form.add("shipping", "phone", value: shipping.phone)
        add(shipping.address, under: ["shipping", "address"], to: &form)
    }

    private static func add(_ options: StripeConfirmOptions, to form: inout StripeForm) {
        form.add("return_url", value: options.returnURL)
        form.add("setup_future_usage", value: options.setupFutureUsage?.rawValue)
        if let methodOptions = options.paymentMethodOptions {
            form.add(json: .object(methodOptions), under: ["payment_method_options"])
        }
    }

    private static func resource(_ id: String) -> String { id.hasPrefix("seti_") ? "setup_intents" : "payment_intents" }

    private static func path(_ secret: IntentClientSecret) -> String {
        "/v1/\(resource(secret.intentID))/\(pathComponent(secret.intentID))"
    }

    private static func pathComponent(_ id: String) -> String { StripeForm.escape(id) }

    private static func secret(of intent: StripeIntent) throws -> IntentClientSecret {
        guard let secret = intent.clientSecret else {
            throw StripeError(type: "api_error", message: "Stripe's intent \(intent.id) came without a client secret")
        }
        return secret
    }

    private static func stripeAmount(_ money: Money) throws -> Int64 {
        do {
            return try money.stripeAmount()
        } catch let error as CheckoutError {
            throw StripeError(
                type: "invalid_request_error", code: "parameter_invalid_integer", message: error.message,
                param: "amount")
        }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
