import CheckoutCore
import Foundation

/// Reads any field of a Stripe object by path, modeled or not (spec P10): the object is written
/// as Stripe's JSON, kept fields included, and the path walked.
///
/// ```swift
/// let tip = intent.field("amount_details.tip.amount")?.integerValue
/// let order = intent.field("metadata.order_id")?.stringValue
/// ```
public protocol StripeFieldReading: Encodable {}

extension StripeFieldReading {
    /// The object as Stripe's JSON: its members and every kept field; nil when a member cannot be
    /// written (an amount Stripe cannot represent).
    public var allFields: JSONValue? {
        guard let data = try? JSONEncoder().encode(self) else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The field at a path of keys and array indices separated by dots (`charges.data.0.id`);
    /// nil where the path leads nowhere. See ``/CheckoutCore/JSONValue/value(at:)``.
    public func field(_ path: String) -> JSONValue? { allFields?.value(at: path) }
}
