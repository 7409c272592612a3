/// A `Stripe-Signature` header read: its timestamp `t` and its `v1` signatures, as Stripe sends
/// them (`t=1492774577,v1=5257a869…,v0=6ffbb59b…`). Items of other schemes (`v0`, a later `v2`)
/// are skipped, as Stripe's libraries skip them.
public struct StripeSignatureHeader: Hashable, Sendable {
    /// The `t` item: when Stripe signed, in seconds since 1970.
    public var timestamp: Int64
    /// Every `v1` item, as written (lower-case hexadecimal from Stripe).
    public var signatures: [String]

    /// A header of a timestamp and signatures.
    public init(timestamp: Int64, signatures: [String]) {
        self.timestamp = timestamp
        self.signatures = signatures
    }

    /// Reads a header.
    ///
    /// - Throws: ``StripeWebhookError`` ``StripeWebhookError/Code/noSignatureHeader`` for an
    ///   empty header, ``StripeWebhookError/Code/malformedHeader`` for an item without `=`, no `t`,
    ///   two of them or one that is not a whole number, ``StripeWebhookError/Code/noSignature``
    ///   for a header without a `v1` item.
    public init(_ header: String) throws(StripeWebhookError) {
        let trimmed = header.trimmingWhitespace
        guard !trimmed.isEmpty else {
            throw StripeWebhookError(
                code: .noSignatureHeader, message: "the Stripe-Signature header is missing or empty",
                field: "Stripe-Signature")
        }
        var timestamps: [String] = []
        var signatures: [String] = []
        for item in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = item.firstIndex(of: "=") else {
                throw StripeWebhookError(
                    code: .malformedHeader, message: "the Stripe-Signature item '\(item.clipped)' has no '='",
                    field: "Stripe-Signature", value: String(item.clipped))
            }
            let key = item[..<equals].trimmingWhitespace
            let value = item[item.index(after: equals)...].trimmingWhitespace
            switch key {
            case "t": timestamps.append(value)
            case "v1": signatures.append(value)
            default: continue
            }
        }
        guard timestamps.count == 1, let text = timestamps.first, let timestamp = Int64(text) else {
            let found = timestamps.isEmpty ? "none" : timestamps.map { "'\($0.clipped)'" }.joined(separator: ", ")
            throw StripeWebhookError(
                code: .malformedHeader,
                message: "the Stripe-Signature header needs one timestamp 't' in whole seconds; found \(found)",
                field: "Stripe-Signature", value: timestamps.first.map { String($0.clipped) })
        }
        guard !signatures.isEmpty else {
            throw StripeWebhookError(
                code: .noSignature, message: "the Stripe-Signature header has no v1 signature",
                field: "Stripe-Signature", value: "t=\(timestamp)")
        }
        self.init(timestamp: timestamp, signatures: signatures)
    }

    /// The header as Stripe writes it: `t=…,v1=…[,v1=…]`.
    public var headerValue: String {
        (["t=\(timestamp)"] + signatures.map { "v1=\($0)" }).joined(separator: ",")
    }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// At most 40 characters of untrusted input, for a message.
    fileprivate var clipped: Substring { Substring(prefix(40)) }
}
