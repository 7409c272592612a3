/// The keys of the four terms, as every update that carries them spells them: an update's own
/// `CodingKeys` conform by having these cases, and its decoder and encoder read and write the terms
/// through them.
package protocol PaymentTermsCodingKey: CodingKey {
    static var recurringPaymentRequest: Self { get }
    static var automaticReloadPaymentRequest: Self { get }
    static var deferredPaymentRequest: Self { get }
    static var multiTokenContexts: Self { get }
}

extension KeyedDecodingContainer where Key: PaymentTermsCodingKey {
    /// The terms in this object; each may be absent (no change).
    package func decodeTerms() throws -> PaymentTerms {
        PaymentTerms(
            recurringPaymentRequest: try decodeIfPresent(
                RecurringPaymentRequest.self, forKey: .recurringPaymentRequest),
            automaticReloadPaymentRequest: try decodeIfPresent(
                AutomaticReloadPaymentRequest.self, forKey: .automaticReloadPaymentRequest),
            deferredPaymentRequest: try decodeIfPresent(DeferredPaymentRequest.self, forKey: .deferredPaymentRequest),
            multiTokenContexts: try decodeIfPresent([PaymentTokenContext].self, forKey: .multiTokenContexts))
    }
}

extension KeyedEncodingContainer where Key: PaymentTermsCodingKey {
    /// Writes the terms that are set; absent ones are left out.
    package mutating func encodeTerms(_ terms: PaymentTerms) throws {
        try encodeIfPresent(terms.recurringPaymentRequest, forKey: .recurringPaymentRequest)
        try encodeIfPresent(terms.automaticReloadPaymentRequest, forKey: .automaticReloadPaymentRequest)
        try encodeIfPresent(terms.deferredPaymentRequest, forKey: .deferredPaymentRequest)
        try encodeIfPresent(terms.multiTokenContexts, forKey: .multiTokenContexts)
    }
}
