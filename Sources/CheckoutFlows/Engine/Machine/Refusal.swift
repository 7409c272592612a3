import CheckoutCore

/// Why a driver action was refused (spec E9). A refused action changes nothing and calls no
/// delegate method.
public struct Refusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, an open set: `switch` with a `default`.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The reason's name, such as `callbackPending`.
        public var rawValue: String
        /// A reason with this name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The reason's name.
        public var description: String { rawValue }

        /// A callback's completion is outstanding (spec E1); ``Refusal/pendingCallback`` names it.
        public static let callbackPending = Code(rawValue: "callbackPending")
        /// The flow has ended (spec E5).
        public static let finished = Code(rawValue: "finished")
        /// The flow has not been presented yet.
        public static let notPresented = Code(rawValue: "notPresented")
        /// The flow was presented already.
        public static let alreadyPresented = Code(rawValue: "alreadyPresented")
        /// The action does not belong to the current step.
        public static let notAllowedInThisStep = Code(rawValue: "notAllowedInThisStep")
        /// No shipping method has this identifier.
        public static let unknownShippingMethod = Code(rawValue: "unknownShippingMethod")
        /// Required fields are missing; ``Refusal/fields`` lists them.
        public static let missingRequiredFields = Code(rawValue: "missingRequiredFields")
        /// A present field is invalid; ``Refusal/fields`` names it.
        public static let invalidField = Code(rawValue: "invalidField")
        /// An error blocks the action; ``Refusal/blockingError`` is it.
        public static let blockedByError = Code(rawValue: "blockedByError")
        /// The request does not support coupon codes.
        public static let couponCodesNotSupported = Code(rawValue: "couponCodesNotSupported")
    }

    /// Why the action was refused.
    public var code: Code
    /// A sentence for people.
    public var message: String
    /// For ``Code/callbackPending``: the delegate method whose completion is outstanding.
    public var pendingCallback: String?
    /// For ``Code/missingRequiredFields`` and ``Code/invalidField``: the field paths.
    public var fields: [String]
    /// For ``Code/blockedByError``: the error that blocks.
    public var blockingError: PaymentError?
    /// For ``Code/invalidField``: the problems found.
    public var problems: [CheckoutError]

    /// A refusal with its reason, a sentence for people and the details its reason calls
    /// for.
    public init(
        code: Code,
        message: String,
        pendingCallback: String? = nil,
        fields: [String] = [],
        blockingError: PaymentError? = nil,
        problems: [CheckoutError] = []
    ) {
        self.code = code
        self.message = message
        self.pendingCallback = pendingCallback
        self.fields = fields
        self.blockingError = blockingError
        self.problems = problems
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    static func callbackPending(_ method: String) -> Refusal {
        Refusal(
            code: .callbackPending, message: "waiting for the completion of \(method)",
            pendingCallback: method)
    }

    package static let finished = Refusal(code: .finished, message: "the flow has ended")
    package static let notPresented = Refusal(code: .notPresented, message: "the flow has not been presented")
    package static let alreadyPresented = Refusal(code: .alreadyPresented, message: "the flow was presented already")

    static func notAllowed(_ action: String, _ step: String) -> Refusal {
        Refusal(code: .notAllowedInThisStep, message: "\(action) is not possible \(step)")
    }

    static func missing(_ fields: [String]) -> Refusal {
        Refusal(
            code: .missingRequiredFields,
            message: "required fields are missing: \(fields.joined(separator: ", "))",
            fields: fields
        )
    }

    static func invalid(_ problems: [CheckoutError], under prefix: String? = nil) -> Refusal {
        let nested = prefix.map { prefix in problems.map { $0.nested(under: prefix) } } ?? problems
        let fields = nested.compactMap(\.field)
        return Refusal(
            code: .invalidField,
            message: nested.map(\.message).joined(separator: "; "),
            fields: fields,
            problems: nested
        )
    }
}
