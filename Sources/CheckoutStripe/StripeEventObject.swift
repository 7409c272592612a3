import CheckoutCore

/// An event's `data.object`: the object the event is about, typed where the package has a type
/// for it and kept whole where not.
public enum StripeEventObject: Hashable, Sendable, Codable {
    /// A PaymentIntent or SetupIntent (`object` `payment_intent` or `setup_intent`).
    case intent(StripeIntent)
    /// A PaymentMethod (`object` `payment_method`).
    case paymentMethod(StripePaymentMethod)
    /// A Charge (`object` `charge`).
    case charge(StripeCharge)
    /// Any other object (a refund, a customer, a dispute, ...), whole as Stripe sent it.
    case other(JSONValue)

    /// The object's `object` name, such as `payment_intent`; nil when the JSON has none.
    public var objectName: String? {
        switch self {
        case .intent(let intent): intent.kind == .paymentIntent ? "payment_intent" : "setup_intent"
        case .paymentMethod: "payment_method"
        case .charge: "charge"
        case .other(let json): json["object"]?.stringValue
        }
    }

    /// The object's `id`, when it has one.
    public var id: String? {
        switch self {
        case .intent(let intent): intent.id
        case .paymentMethod(let method): method.id
        case .charge(let charge): charge.id
        case .other(let json): json["id"]?.stringValue
        }
    }

    /// Decodes the object as the type its `object` field names, or whole.
    public init(from decoder: any Decoder) throws {
        let json = try decoder.singleValueContainer().decode(JSONValue.self)
        let container = try decoder.singleValueContainer()
        switch json["object"]?.stringValue {
        case "payment_intent", "setup_intent": self = .intent(try container.decode(StripeIntent.self))
        case "payment_method": self = .paymentMethod(try container.decode(StripePaymentMethod.self))
        case "charge": self = .charge(try container.decode(StripeCharge.self))
        default: self = .other(json)
        }
    }

    /// Encodes the object as Stripe sent it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .intent(let intent): try container.encode(intent)
        case .paymentMethod(let method): try container.encode(method)
        case .charge(let charge): try container.encode(charge)
        case .other(let json): try container.encode(json)
        }
    }
}
