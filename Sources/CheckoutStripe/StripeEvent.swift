import CheckoutCore

/// A Stripe event (`object: "event"`), what a webhook delivers: its id, type, creation time, mode,
/// API version, the object it is about (`data.object`), the values that changed
/// (`data.previous_attributes`) and the API request that caused it (`request`). Fields it does not
/// model are kept in ``unmodeledFields`` and written back.
///
/// Read it from a verified body with ``StripeWebhookVerifier/event(from:signature:)``.
public struct StripeEvent: Hashable, Sendable, Codable, StripeFieldReading {
    /// `evt_…`.
    public var id: String
    /// What happened, such as ``StripeEventType/paymentIntentSucceeded``.
    public var type: StripeEventType
    /// When the event happened, in seconds since 1970.
    public var created: Int64
    /// Whether the event happened in live mode.
    public var livemode: Bool
    /// The API version the event's object is rendered in (`api_version`), when Stripe sent one.
    public var apiVersion: String?
    /// How many of the account's endpoints have not yet acknowledged it (`pending_webhooks`).
    public var pendingWebhooks: Int?
    /// The connected account the event is about (`account`), for Connect.
    public var account: String?
    /// The object and what changed.
    public var data: EventData
    /// The API request that caused the event; nil for an event Stripe caused itself.
    public var request: Request?
    /// Every field of Stripe's JSON not modeled above, as Stripe sent it.
    public var unmodeledFields: [String: JSONValue]

    /// An event's `data`: the object as it stands after the event, and for an `*.updated` event
    /// the previous values of the fields that changed.
    public struct EventData: Hashable, Sendable, Codable {
        /// The object (`data.object`).
        public var object: StripeEventObject
        /// The previous values of the changed fields (`data.previous_attributes`), when sent.
        public var previousAttributes: [String: JSONValue]?
        /// Every other field of `data`, as Stripe sent it.
        public var unmodeledFields: [String: JSONValue]

        /// Data about an object.
        public init(
            object: StripeEventObject, previousAttributes: [String: JSONValue]? = nil,
            unmodeledFields: [String: JSONValue] = [:]
        ) {
            self.object = object
            self.previousAttributes = previousAttributes
            self.unmodeledFields = unmodeledFields
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case object
            case previousAttributes = "previous_attributes"
        }

        /// Decodes Stripe's `data` hash.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                object: try container.decode(StripeEventObject.self, forKey: .object),
                previousAttributes: try container.decodeIfPresent(
                    [String: JSONValue].self, forKey: .previousAttributes),
                unmodeledFields: try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self))
        }

        /// Encodes Stripe's `data` hash.
        public func encode(to encoder: any Encoder) throws {
            try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(object, forKey: .object)
            try container.encodeIfPresent(previousAttributes, forKey: .previousAttributes)
        }
    }

    /// An event's `request`: the API request's id (`req_…`) and its idempotency key. API versions
    /// before 2017-05-25 sent the id alone, as a string; it reads the same.
    public struct Request: Hashable, Sendable, Codable {
        /// The request's id; nil for an event Stripe caused itself (an automatic payout).
        public var id: String?
        /// The request's idempotency key (`idempotency_key`), if it had one.
        public var idempotencyKey: String?
        /// Every other field of `request`, as Stripe sent it.
        public var unmodeledFields: [String: JSONValue] = [:]

        /// A request.
        public init(id: String?, idempotencyKey: String? = nil) {
            self.id = id
            self.idempotencyKey = idempotencyKey
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id
            case idempotencyKey = "idempotency_key"
        }

        /// Decodes Stripe's `request` hash, or the id alone.
        public init(from decoder: any Decoder) throws {
            if let id = try? decoder.singleValueContainer().decode(String.self) {
                self.init(id: id)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                id: try container.decodeIfPresent(String.self, forKey: .id),
                idempotencyKey: try container.decodeIfPresent(String.self, forKey: .idempotencyKey))
            // Both members are written, `null` when nil: only other fields are kept.
            unmodeledFields = try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
                .filter { key, _ in CodingKeys(rawValue: key) == nil }
        }

        /// Encodes Stripe's `request` hash, with `null` for a missing id or key.
        public func encode(to encoder: any Encoder) throws {
            try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(idempotencyKey, forKey: .idempotencyKey)
        }
    }

    /// An event.
    public init(
        id: String,
        type: StripeEventType,
        created: Int64,
        livemode: Bool = false,
        apiVersion: String? = nil,
        pendingWebhooks: Int? = nil,
        account: String? = nil,
        data: EventData,
        request: Request? = nil,
        unmodeledFields: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.type = type
        self.created = created
        self.livemode = livemode
        self.apiVersion = apiVersion
        self.pendingWebhooks = pendingWebhooks
        self.account = account
        self.data = data
        self.request = request
        self.unmodeledFields = unmodeledFields
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, object, type, created, livemode, account, data, request
        case apiVersion = "api_version"
        case pendingWebhooks = "pending_webhooks"
    }

    /// Decodes Stripe's event; `object` must be `event` when present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try StripeObjectName.check(container, .object, expected: ["event"])
        self.init(
            id: try container.decode(String.self, forKey: .id),
            type: try container.decode(StripeEventType.self, forKey: .type),
            created: try container.decode(Int64.self, forKey: .created),
            livemode: try container.decodeIfPresent(Bool.self, forKey: .livemode) ?? false,
            apiVersion: try container.decodeIfPresent(String.self, forKey: .apiVersion),
            pendingWebhooks: try container.decodeIfPresent(Int.self, forKey: .pendingWebhooks),
            account: try container.decodeIfPresent(String.self, forKey: .account),
            data: try container.decode(EventData.self, forKey: .data),
            request: try container.decodeIfPresent(Request.self, forKey: .request),
            unmodeledFields: try StripeUnmodeledFields.read(from: decoder, modeled: CodingKeys.self)
        )
    }

    /// Encodes Stripe's event, with `object: "event"`.
    public func encode(to encoder: any Encoder) throws {
        try StripeUnmodeledFields.write(unmodeledFields, to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode("event", forKey: .object)
        try container.encode(type, forKey: .type)
        try container.encode(created, forKey: .created)
        try container.encode(livemode, forKey: .livemode)
        try container.encodeIfPresent(apiVersion, forKey: .apiVersion)
        try container.encodeIfPresent(pendingWebhooks, forKey: .pendingWebhooks)
        try container.encodeIfPresent(account, forKey: .account)
        try container.encode(data, forKey: .data)
        try container.encodeIfPresent(request, forKey: .request)
    }
}
