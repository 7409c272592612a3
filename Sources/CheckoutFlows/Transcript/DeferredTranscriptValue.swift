import CheckoutCore

/// A value a transcript keeps as it is and describes only when it is read: describing a token or
/// a card (their text and JSON) costs more than a whole session does without it, and a
/// description is a pure function of the value, so the text is the same.
package enum DeferredTranscriptValue: Equatable, Sendable {
    /// A payment method, described by its name (its display name, else its network, else its
    /// type) and its JSON.
    case paymentMethod(PaymentMethod)
    /// A payment token, its data masked (``TranscriptValue/token(_:)``).
    indirect case token(PaymentToken)

    /// The value as the transcript shows it.
    var described: TranscriptValue {
        switch self {
        case .paymentMethod(let method):
            .model(method, description: method.displayName ?? method.network?.rawValue ?? method.type.rawValue)
        case .token(let token): .token(token)
        }
    }
}
