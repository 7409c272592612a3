import CheckoutCore

/// A value a transcript keeps as it is and describes only when it is read: describing a token or
/// a card (their text and JSON) costs more than a whole session does without it, and a
/// description is a pure function of the value, so the text is the same.
package enum DeferredTranscriptValue: Sendable {
    /// A payment method, described by its name (its display name, else its network, else its
    /// type) and its JSON.
    case paymentMethod(PaymentMethod)
    /// A payment token, its data masked (``TranscriptValue/token(_:)``).
    indirect case token(PaymentToken)

    /// Whether `other` is this value to the byte: a card whose strings have the same scalars,
    /// where `==` also calls a composed and a decomposed "é" equal (and the transcript keeps what
    /// was recorded). A token is never recorded twice in a row, so none is taken for another.
    func isIdentical(to other: DeferredTranscriptValue) -> Bool {
        guard case .paymentMethod(let method) = self, case .paymentMethod(let otherMethod) = other else { return false }
        return method.isIdentical(to: otherMethod)
    }

    /// The value as the transcript shows it.
    var described: TranscriptValue {
        switch self {
        case .paymentMethod(let method):
            .model(method, description: method.displayName ?? method.network?.rawValue ?? method.type.rawValue)
        case .token(let token): .token(token)
        }
    }
}

extension PaymentMethod {
    /// Whether `other` is this method to the byte (``DeferredTranscriptValue/isIdentical(to:)``).
    fileprivate func isIdentical(to other: PaymentMethod) -> Bool {
        func same(_ a: String?, _ b: String?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): a.unicodeScalars.elementsEqual(b.unicodeScalars)
            default: false
            }
        }
        return type == other.type && same(displayName, other.displayName)
            && same(network?.rawValue, other.network?.rawValue)
    }
}
