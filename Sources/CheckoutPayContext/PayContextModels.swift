import CheckoutCore
import CheckoutFlows

/// What the merchant answers once it has created its PaymentIntent or SetupIntent (the
/// completion of Stripe's `didCreatePaymentMethod`).
public enum IntentAnswer: Sendable, CustomStringConvertible {
    /// The intent's client secret, as the merchant's server returned it. A string that is no
    /// client secret ends the payment with an error (spec P3).
    case clientSecret(String)
    /// The merchant's server finished the payment itself: complete with success, confirm nothing
    /// (Stripe's `STPApplePayContext.COMPLETE_WITHOUT_CONFIRMING_INTENT`, a value of its own
    /// rather than a magic string).
    case completeWithoutConfirming
    /// Creating the intent failed: the payment ends with this error.
    case failure(any Error)

    /// The answer for a parsed secret.
    public static func secret(_ secret: IntentClientSecret) -> IntentAnswer {
        .clientSecret(secret.unmaskedValue)
    }

    /// Secrets are masked (spec P7).
    public var description: String {
        switch self {
        case .clientSecret(let text): "clientSecret(\(IntentClientSecret.mask(text)))"
        case .completeWithoutConfirming: "completeWithoutConfirming"
        case .failure(let error): "failure(\(error))"
        }
    }
}

/// Why the pay context failed a payment, when it was not Stripe's or the merchant's own error.
public struct PayContextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An open set of reasons.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The reason's name, such as `invalidIntentState`.
        public var rawValue: String
        /// A reason with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The reason's name.
        public var description: String { rawValue }

        /// The intent was in a status the pay context cannot finish from (spec P3).
        public static let invalidIntentState = Code(rawValue: "invalidIntentState")
        /// After confirmation the intent needs an action (3-D Secure) that cannot be shown over the
        /// sheet (spec P3).
        public static let confirmationFailure = Code(rawValue: "confirmationFailure")
        /// The authorization sheet ended for a contract violation of the merchant's.
        public static let merchantViolation = Code(rawValue: "merchantViolation")
    }

    /// Why the payment failed.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// The intent's status, for ``Code/invalidIntentState`` and ``Code/confirmationFailure``.
    public var intentStatus: IntentStatus?

    /// An error with its reason, a message and, where it matters, the intent's status.
    public init(code: Code, message: String, intentStatus: IntentStatus? = nil) {
        self.code = code
        self.message = message
        self.intentStatus = intentStatus
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}

/// How a pay context ended: the status and error its delegate's `didComplete` received.
public struct PayContextOutcome: Sendable, CustomStringConvertible {
    /// The status `didComplete` received.
    public var status: PaymentStatus
    /// The error `didComplete` received: nil for success and for a cancellation.
    public var error: (any Error)?

    /// `success`, `userCancellation`, or `error(the error)`.
    public var description: String {
        "\(status.rawValue)" + (error.map { "(\($0))" } ?? "")
    }
}
