import CheckoutCore
import Foundation
import Synchronization

/// A value recorded in a transcript. Contacts, payments and secrets keep their type so that a
/// rendering can mask them.
public enum TranscriptValue: Hashable, Sendable {
    /// Plain text without personal data.
    case text(String)
    /// A contact or address: name, email, phone and street are masked unless asked for.
    case contact(Contact)
    /// An authorized payment: its contacts are masked unless asked for, its token data always.
    indirect case payment(Payment)
    /// A client secret: always masked.
    indirect case secret(IntentClientSecret)
    /// A model value without personal data (an update, a result, an address check's answer): its
    /// short description for people, and `json`, its own JSON (CheckoutCore's shapes), for
    /// machines. (Boxed: inline its two strings would make every value, and so every recorded
    /// entry, 16 bytes larger.)
    indirect case model(description: String, json: String)

    /// The value as text: contacts masked unless `showingPersonalData`, secrets always masked.
    public func rendered(showingPersonalData: Bool) -> String {
        switch self {
        case .text(let text): text
        case .model(let description, _): description
        case .contact(let contact): showingPersonalData ? contact.unmaskedDescription : contact.description
        case .payment(let payment):
            "Payment(\(payment.token)"
                + (payment.billingContact.map { ", billing: " + Self.contact($0, showingPersonalData) } ?? "")
                + (payment.shippingContact.map { ", shipping: " + Self.contact($0, showingPersonalData) }
                    ?? "")
                + (payment.shippingMethod.map { ", method: \($0.identifier)" } ?? "") + ")"
        case .secret(let secret): secret.description
        }
    }

    private static func contact(_ contact: Contact, _ unmasked: Bool) -> String {
        unmasked ? contact.unmaskedDescription : contact.description
    }

    /// The value as JSON text (spec E8): a contact or a payment in CheckoutCore's own JSON (the
    /// shape scenario files and the models use), with name, email, phone and street masked as
    /// `•••` unless `showingPersonalData` and the payment's token data always masked; a secret
    /// masked, and text, as JSON strings. Written as `JSONSerialization` writes it (sorted keys).
    public func json(showingPersonalData: Bool) -> String {
        var writer = JSONWriter(capacity: 64)
        writeJSON(showingPersonalData: showingPersonalData, to: &writer)
        return writer.output
    }

    /// Writes ``json(showingPersonalData:)`` to `writer`.
    func writeJSON(showingPersonalData: Bool, to writer: inout JSONWriter) {
        func model(_ value: some Encodable) {
            guard !ModelJSON.write(value, to: &writer) else { return }
            if let text = ModelJSON.foundationText(value) {
                writer.raw(text)
            } else {
                writer.string(rendered(showingPersonalData: showingPersonalData))
            }
        }
        switch self {
        case .text(let text):
            writer.string(text)
        case .model(_, let json):
            writer.raw(json)
        case .secret:
            writer.string(rendered(showingPersonalData: false))
        case .contact(let contact):
            model(Self.masked(contact, showingPersonalData))
        case .payment(var payment):
            payment.token.paymentData = "•••"
            payment.billingContact = payment.billingContact.map { Self.masked($0, showingPersonalData) }
            payment.shippingContact = payment.shippingContact.map { Self.masked($0, showingPersonalData) }
            model(payment)
        }
    }

    /// A merchant's answer as recorded: a ``model(description:json:)`` when it has a JSON shape of
    /// its own (``TranscriptModel``), else its description as text.
    package static func answer(_ answer: some CustomStringConvertible & Sendable) -> TranscriptValue {
        guard let model = answer as? any TranscriptModel, let json = model.transcriptJSON else {
            return .text(answer.description)
        }
        return .model(description: answer.description, json: json)
    }

    /// A model value recorded with `description` for people and its own JSON for machines (the
    /// description alone when it has no JSON).
    package static func model(_ value: some Encodable, description: String) -> TranscriptValue {
        modelJSON(value).map { .model(description: description, json: $0) } ?? .text(description)
    }

    /// A payment token as a transcript records it (spec E8): its description, and its JSON with
    /// the payment data masked, as a payment's.
    package static func token(_ token: PaymentToken) -> TranscriptValue {
        var masked = token
        masked.paymentData = "•••"
        return model(masked, description: token.description)
    }

    /// `value` in CheckoutCore's JSON shape, keys sorted as `JSONSerialization` writes them
    /// (``ModelJSON``).
    package static func modelJSON(_ value: some Encodable) -> String? {
        ModelJSON.text(value) ?? ModelJSON.foundationText(value)
    }

    /// `contact` with name, email, phone and street as `•••`, unless `unmasked`.
    private static func masked(_ contact: Contact, _ unmasked: Bool) -> Contact {
        guard !unmasked else { return contact }
        var copy = contact
        let mask: (String) -> String = { _ in "•••" }
        copy.name = copy.name.map(mask)
        copy.emailAddress = copy.emailAddress.map(mask)
        copy.phoneNumber = copy.phoneNumber.map(mask)
        if var address = copy.postalAddress {
            address.line1 = address.line1.map(mask)
            address.line2 = address.line2.map(mask)
            copy.postalAddress = address
        }
        return copy
    }
}
