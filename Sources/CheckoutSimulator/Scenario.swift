import CheckoutCore
import CheckoutFlows
import Foundation

/// A checkout described as data: which flow, the request, a merchant declared by its rules, the
/// customer's steps, and what should happen. `docs/scenarios.md` documents the JSON.
public struct Scenario: Sendable, Codable {
    /// Which coordinator runs.
    public enum Flow: String, Sendable, Codable, CaseIterable {
        case shippingAddress
        case paymentAuthorization
        case payContext
    }

    /// A name for reports.
    public var name: String
    public var flow: Flow
    /// For `paymentAuthorization` and `payContext`: the payment request.
    public var paymentRequest: PaymentRequest?
    /// For `shippingAddress`: the configuration.
    public var shippingConfiguration: ShippingAddressConfiguration?
    /// The merchant's delegate, declared.
    public var merchant: MerchantSpec
    /// The customer's actions, in order.
    public var steps: [Step]
    /// What should happen (for `checkout-sim test`).
    public var expect: Expectation?
    /// The callback deadline in seconds of virtual time; nil or absent: 30; 0 switches it off.
    public var deadlineSeconds: Int?
    /// Strict mode (spec E2): for `checkout-sim test`, a violation that is the delegate's fault
    /// (`completionCalledTwice`, `completionTimedOut`, `invalidUpdate`) fails the scenario unless
    /// `expect.violations` lists the violations; the flow runs as it does without it.
    public var strict: Bool

    /// The most seconds a `wait` step, `deadlineSeconds` or a `late` answer may take (about 31
    /// years), so that virtual time stays far inside what `Duration` and its renderings hold.
    static let maximumSeconds = 1_000_000_000

    /// The most seconds a scenario's `wait` steps may take in all (about 222 years), so that its
    /// virtual time, with a deadline and a `late` answer after the last wait, stays inside what a
    /// flow counts: nanoseconds in 64 bits, about 292 years (``FlowOptions/clock``).
    static let maximumTotalWaitSeconds = 7_000_000_000

    public init(
        name: String,
        flow: Flow,
        paymentRequest: PaymentRequest? = nil,
        shippingConfiguration: ShippingAddressConfiguration? = nil,
        merchant: MerchantSpec = MerchantSpec(),
        steps: [Step],
        expect: Expectation? = nil,
        deadlineSeconds: Int? = nil,
        strict: Bool = false
    ) {
        self.name = name
        self.flow = flow
        self.paymentRequest = paymentRequest
        self.shippingConfiguration = shippingConfiguration
        self.merchant = merchant
        self.steps = steps
        self.expect = expect
        self.deadlineSeconds = deadlineSeconds
        self.strict = strict
    }

    private enum CodingKeys: String, CodingKey {
        case name
        case flow
        case request
        case merchant
        case steps
        case expect
        case deadlineSeconds
        case strict
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? "scenario"
        flow = try container.decode(Flow.self, forKey: .flow)
        switch flow {
        case .shippingAddress:
            shippingConfiguration =
                try container.decodeIfPresent(ShippingAddressConfiguration.self, forKey: .request)
                ?? ShippingAddressConfiguration()
        case .paymentAuthorization, .payContext:
            paymentRequest = try container.decode(PaymentRequest.self, forKey: .request)
        }
        merchant = try container.decodeIfPresent(MerchantSpec.self, forKey: .merchant) ?? MerchantSpec()
        steps = try container.decode([Step].self, forKey: .steps)
        var waited = 0
        for (index, step) in steps.enumerated() {
            guard case .wait(let seconds) = step else { continue }
            waited += seconds
            if waited > Self.maximumTotalWaitSeconds {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: container.codingPath + [CodingKeys.steps, IndexKey(index), IndexKey("seconds")],
                        debugDescription:
                            "expected waits of at most \(Self.maximumTotalWaitSeconds) seconds in all, got \(waited) "
                            + "seconds by this step"
                    )
                )
            }
        }
        expect = try container.decodeIfPresent(Expectation.self, forKey: .expect)
        deadlineSeconds = try container.decodeIfPresent(Int.self, forKey: .deadlineSeconds)
        strict = try container.decodeIfPresent(Bool.self, forKey: .strict) ?? false
        if let deadlineSeconds, deadlineSeconds < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .deadlineSeconds,
                in: container,
                debugDescription: "expected a number of seconds of zero or more, got \(deadlineSeconds)"
            )
        }
        if let deadlineSeconds, deadlineSeconds > Self.maximumSeconds {
            throw DecodingError.dataCorruptedError(
                forKey: .deadlineSeconds,
                in: container,
                debugDescription: "expected at most \(Self.maximumSeconds) seconds, got \(deadlineSeconds)"
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(flow, forKey: .flow)
        try container.encodeIfPresent(paymentRequest, forKey: .request)
        try container.encodeIfPresent(shippingConfiguration, forKey: .request)
        try container.encode(merchant, forKey: .merchant)
        try container.encode(steps, forKey: .steps)
        try container.encodeIfPresent(expect, forKey: .expect)
        try container.encodeIfPresent(deadlineSeconds, forKey: .deadlineSeconds)
        if strict { try container.encode(strict, forKey: .strict) }
    }
}

/// One action of the customer's.
public enum Step: Sendable, Codable, Hashable, CustomStringConvertible {
    /// Shipping flow: enter an address (a contact with a postal address).
    case enterAddress(Contact)
    /// The sheet asks for a merchant session from this validation URL (spec W5).
    case requestMerchantSession(validationURL: URL)
    /// Select a shipping contact on the sheet.
    case selectShippingContact(Contact)
    /// Select a shipping method by identifier (both flows with methods).
    case selectShippingMethod(String)
    /// Select a card on the sheet.
    case selectPaymentMethod(PaymentMethod)
    /// Enter a coupon code.
    case changeCouponCode(String)
    /// Authorize with a test card number (or `tok_visa`) and an optional billing contact.
    case authorize(card: String, network: PaymentNetwork?, billingContact: Contact?)
    /// Shipping flow: back to the address step.
    case back
    /// Shipping flow: done.
    case done
    /// Cancel.
    case cancel
    /// Let virtual time pass.
    case wait(seconds: Int)

    private enum CodingKeys: String, CodingKey {
        case action
        case contact
        case identifier
        case paymentMethod
        case code
        case card
        case network
        case billingContact
        case seconds
        case validationURL
    }

    private static let actions =
        "enterAddress, requestMerchantSession, selectShippingContact, selectShippingMethod, selectPaymentMethod, "
        + "changeCouponCode, authorize, back, done, cancel, wait"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let action = try container.decode(String.self, forKey: .action)
        switch action {
        case "enterAddress": self = .enterAddress(try container.decode(Contact.self, forKey: .contact))
        case "requestMerchantSession":
            self = .requestMerchantSession(validationURL: try container.decode(URL.self, forKey: .validationURL))
        case "selectShippingContact":
            self = .selectShippingContact(try container.decode(Contact.self, forKey: .contact))
        case "selectShippingMethod":
            self = .selectShippingMethod(try container.decode(String.self, forKey: .identifier))
        case "selectPaymentMethod":
            self = .selectPaymentMethod(try container.decode(PaymentMethod.self, forKey: .paymentMethod))
        case "changeCouponCode": self = .changeCouponCode(try container.decode(String.self, forKey: .code))
        case "authorize":
            let card = try container.decode(String.self, forKey: .card)
            self = .authorize(
                card: card,
                network: try container.decodeIfPresent(PaymentNetwork.self, forKey: .network),
                billingContact: try container.decodeIfPresent(Contact.self, forKey: .billingContact)
            )
        case "back": self = .back
        case "done": self = .done
        case "cancel": self = .cancel
        case "wait":
            let seconds = try container.decode(Int.self, forKey: .seconds)
            guard seconds >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .seconds,
                    in: container,
                    debugDescription: "expected seconds of zero or more, got \(seconds)"
                )
            }
            guard seconds <= Scenario.maximumSeconds else {
                throw DecodingError.dataCorruptedError(
                    forKey: .seconds,
                    in: container,
                    debugDescription: "expected at most \(Scenario.maximumSeconds) seconds, got \(seconds)"
                )
            }
            self = .wait(seconds: seconds)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .action,
                in: container,
                debugDescription: "expected one of \(Self.actions), got \"\(action)\""
            )
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .enterAddress(let contact):
            try container.encode("enterAddress", forKey: .action)
            try container.encode(contact, forKey: .contact)
        case .requestMerchantSession(let url):
            try container.encode("requestMerchantSession", forKey: .action)
            try container.encode(url, forKey: .validationURL)
        case .selectShippingContact(let contact):
            try container.encode("selectShippingContact", forKey: .action)
            try container.encode(contact, forKey: .contact)
        case .selectShippingMethod(let identifier):
            try container.encode("selectShippingMethod", forKey: .action)
            try container.encode(identifier, forKey: .identifier)
        case .selectPaymentMethod(let method):
            try container.encode("selectPaymentMethod", forKey: .action)
            try container.encode(method, forKey: .paymentMethod)
        case .changeCouponCode(let code):
            try container.encode("changeCouponCode", forKey: .action)
            try container.encode(code, forKey: .code)
        case .authorize(let card, let network, let billing):
            try container.encode("authorize", forKey: .action)
            try container.encode(card, forKey: .card)
            try container.encodeIfPresent(network, forKey: .network)
            try container.encodeIfPresent(billing, forKey: .billingContact)
        case .back: try container.encode("back", forKey: .action)
        case .done: try container.encode("done", forKey: .action)
        case .cancel: try container.encode("cancel", forKey: .action)
        case .wait(let seconds):
            try container.encode("wait", forKey: .action)
            try container.encode(seconds, forKey: .seconds)
        }
    }

    /// A short form without personal data: `selectShippingContact(Austin, US)`.
    public var description: String {
        func place(_ contact: Contact) -> String {
            [contact.postalAddress?.city, contact.postalAddress?.state, contact.postalAddress?.country?.code]
                .compactMap { $0 }.joined(separator: ", ")
        }
        switch self {
        case .enterAddress(let contact): return "enterAddress(\(place(contact)))"
        case .requestMerchantSession(let url): return "requestMerchantSession(\(url.host ?? ""))"
        case .selectShippingContact(let contact): return "selectShippingContact(\(place(contact)))"
        case .selectShippingMethod(let identifier): return "selectShippingMethod(\(identifier))"
        case .selectPaymentMethod(let method):
            return "selectPaymentMethod(\(method.network?.rawValue ?? method.type.rawValue))"
        case .changeCouponCode(let code): return "changeCouponCode(\(code))"
        case .authorize(let card, _, _): return "authorize(card ending \(card.filter(\.isNumber).suffix(4)))"
        case .back: return "back"
        case .done: return "done"
        case .cancel: return "cancel"
        case .wait(let seconds): return "wait(\(seconds)s)"
        }
    }
}

/// What a scenario should end with (for `checkout-sim test`). Absent fields are not checked.
public struct Expectation: Sendable, Codable, Hashable {
    /// The outcome: `finished`, `cancelled`, `success`, `timedOut`, `failed`, `success`,
    /// `error`, `userCancellation`; a detail in parentheses may follow in the actual outcome
    /// (`finished(method: express)` matches `finished`, and matches itself).
    public var outcome: String?
    /// The merchant's delegate methods in the order they were called.
    public var delegateCalls: [String]?
    /// The violation kinds in order; `[]` expects none.
    public var violations: [String]?

    public init(outcome: String? = nil, delegateCalls: [String]? = nil, violations: [String]? = nil) {
        self.outcome = outcome
        self.delegateCalls = delegateCalls
        self.violations = violations
    }
}
