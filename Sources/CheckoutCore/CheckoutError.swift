/// The error of invalid input to the models: what `CheckoutCore`'s initializers, arithmetic and
/// validations throw (an amount, a currency, a country, an address, a payment request, an update,
/// a client secret), and what the flows' initializers throw for an invalid request or
/// configuration.
///
/// It is not the package's only error. Decoding a model from JSON throws Foundation's
/// `DecodingError`, whose coding path names the field. `CheckoutFlows` has errors of its own: a
/// `Refusal` (a driver action refused, thrown by the `…AndWait` forms), `CallbackEnded` (an
/// `…AndWait` form whose callback ended without an answer), `PayContextError` (a payment that
/// ended in an unexpected intent state or a failed confirmation) and `StripeError` (Stripe's error
/// object, from a payment backend). A merchant's own errors pass through unchanged.
///
/// A `CheckoutError` says what went wrong (``code``, an extensible set), in words (``message``),
/// where (``field``, a path such as `summaryItems[2].amount`) and with which input (``value``).
/// When the offending input is a secret, ``value`` holds its masked form only.
///
/// Validations that can find several problems at once (a payment request, an update) throw one
/// error whose ``problems`` lists each of them.
public struct CheckoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem this is. New codes may be added in later versions, so `switch` over
    /// codes with a `default` case.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's name, such as `unknownCurrency`.
        public var rawValue: String
        /// A code with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// A currency code that is not an active ISO 4217 code.
        public static let unknownCurrency = Code(rawValue: "unknownCurrency")
        /// An amount string that does not follow `^-?[0-9]+(\.[0-9]+)?$`, or a non-finite number.
        public static let malformedAmount = Code(rawValue: "malformedAmount")
        /// An amount finer than the currency's minor unit (`"0.001"` USD).
        public static let amountTooPrecise = Code(rawValue: "amountTooPrecise")
        /// An amount outside what 64-bit minor units can hold, or outside what the target accepts.
        public static let amountOutOfRange = Code(rawValue: "amountOutOfRange")
        /// Arithmetic or a comparison that mixed two currencies.
        public static let currencyMismatch = Code(rawValue: "currencyMismatch")
        /// An amount Stripe would reject for its currency (negative, not a multiple Stripe needs).
        public static let unsupportedStripeAmount = Code(rawValue: "unsupportedStripeAmount")
        /// A country code that is not an assigned ISO 3166-1 alpha-2 code.
        public static let unknownCountry = Code(rawValue: "unknownCountry")
        /// A required field that is absent or empty.
        public static let missingField = Code(rawValue: "missingField")
        /// A present field whose value is not acceptable.
        public static let invalidField = Code(rawValue: "invalidField")
        /// A postal code that does not fit its country's rules.
        public static let invalidPostalCode = Code(rawValue: "invalidPostalCode")
        /// A string that is not a PaymentIntent or SetupIntent client secret.
        public static let invalidClientSecret = Code(rawValue: "invalidClientSecret")
        /// A payment request that cannot be presented; ``CheckoutError/problems`` lists why.
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        /// An update from the merchant that does not fit its request; ``CheckoutError/problems``
        /// lists why.
        public static let invalidUpdate = Code(rawValue: "invalidUpdate")
        /// Two items that must be unique share an identifier.
        public static let duplicateIdentifier = Code(rawValue: "duplicateIdentifier")
        /// A list that must hold at least one element is empty.
        public static let emptyList = Code(rawValue: "emptyList")
        /// A negative amount where only zero or more is allowed.
        public static let negativeAmount = Code(rawValue: "negativeAmount")
    }

    /// What kind of problem this is.
    public var code: Code
    /// A sentence for people, naming the field and the value.
    public var message: String
    /// The path of the offending field (`"postalAddress.postal_code"`, `"summaryItems[1].amount"`).
    public var field: String?
    /// The offending input, masked when it is a secret.
    public var value: String?
    /// For a validation that found several problems: each of them.
    public var problems: [CheckoutError]

    /// An error with its code and message and, where known, the field path, the offending
    /// value (masked if it is a secret) and the individual problems found.
    public init(
        code: Code,
        message: String,
        field: String? = nil,
        value: String? = nil,
        problems: [CheckoutError] = []
    ) {
        self.code = code
        self.message = message
        self.field = field
        self.value = value
        self.problems = problems
    }

    /// The code and the message, then each problem on a line of its own.
    public var description: String {
        var text = "\(code): \(message)"
        for problem in problems {
            text += "\n  - \(problem)"
        }
        return text
    }

    /// This error with its field path placed under `prefix` (`"shippingAddress"` + `"city"` gives
    /// `"shippingAddress.city"`), its problems too.
    public func nested(under prefix: String) -> CheckoutError {
        var copy = self
        copy.field = field.map { $0.hasPrefix("[") ? prefix + $0 : "\(prefix).\($0)" } ?? prefix
        copy.problems = problems.map { $0.nested(under: prefix) }
        return copy
    }

    /// Wraps a list of problems found by one validation in a single error, or returns the only
    /// problem as it is.
    package static func combining(
        _ problems: [CheckoutError],
        code: Code,
        what: String
    ) -> CheckoutError {
        if problems.count == 1, let only = problems.first, only.problems.isEmpty, code == only.code {
            return only
        }
        let noun = problems.count == 1 ? "problem" : "problems"
        return CheckoutError(code: code, message: "\(what) has \(problems.count) \(noun)", problems: problems)
    }
}

extension String {
    /// The string quoted for an error message, with control characters escaped and very long
    /// input shortened so that a message never carries megabytes.
    package var quotedForMessage: String {
        let limit = 64
        let head = count > limit ? String(prefix(limit)) + "…" : self
        return "\"" + head.unicodeScalars.map { $0.escaped(asASCII: false) }.joined() + "\""
    }
}

extension String {
    /// The string as kept in ``CheckoutError/value``: at most 256 characters, so that an error
    /// about a 10 MB input stays small.
    package var clippedForError: String {
        count > 256 ? String(prefix(256)) + "…" : self
    }
}

extension Decoder {
    /// Runs a validating initializer's body and turns a ``CheckoutError`` it throws into a
    /// `DecodingError.dataCorrupted` at this decoder's coding path, keeping the error as the
    /// underlying one, so that a bad value in JSON names its path.
    package func validating<T>(at key: (any CodingKey)? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CheckoutError {
            let path = codingPath + (key.map { [$0] } ?? [])
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: error.description, underlyingError: error)
            )
        }
    }
}
