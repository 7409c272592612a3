import CheckoutCore
import CheckoutFlows
import CheckoutPayContext

/// The scenario format's every key and value, checked before decoding (spec W2): a key the format
/// does not know, a value outside its set, a number of the wrong type or range, an array where an
/// object belongs, is refused with its JSON path, its place in the file and, for a misspelt key or
/// value, the nearest known one. `docs/scenarios.md` documents the same shapes.
enum ScenarioSchema {
    /// One problem: where, and what is wrong; `hint` is a second line (the values allowed).
    struct Problem: Error, Sendable {
        var path: String
        var location: ScenarioJSON.Location?
        var message: String
        var hint: String?
    }

    /// The shape a JSON value must have.
    indirect enum Shape: Sendable {
        /// An object with these keys, in the order documented; `required` must be present.
        case object(String, [(String, Shape)], required: Set<String> = [])
        case array(Shape)
        case string
        /// A string from a closed set; `what` names the set in messages (`an action`).
        case oneOf(String, [String])
        /// A whole number in a range.
        case integer(ClosedRange<Int>)
        case bool
        /// An object whose `key` selects the other keys allowed (a step: `action`).
        case tagged(String, key: String, [(String, [(String, Shape)], required: Set<String>)])
    }

    // MARK: The format

    static let flows = Scenario.Flow.allCases.map(\.rawValue)
    static let networks = [
        "amex", "cartesBancaires", "chinaUnionPay", "discover", "eftpos", "interac", "jcb", "maestro", "masterCard",
        "visa",
    ]
    static let contactFields = ContactField.allCases.map(\.rawValue)
    static let capabilities = ["threeDSecure", "emv", "credit", "debit"]
    static let shippingTypes = ["shipping", "delivery", "storePickup", "servicePickup"]
    static let cardTypes = ["unknown", "debit", "credit", "prepaid", "store", "eMoney"]
    static let violationKinds = ["completionCalledTwice", "lateCompletion", "completionTimedOut", "invalidUpdate"]

    /// The merchant's delegate methods that take a completion, per flow: what `misbehaviour` may name.
    static func callbacks(_ flow: Scenario.Flow) -> [String] {
        let methods =
            switch flow {
            case .shippingAddress: ShippingAddressCallback.callbackMethods
            case .paymentAuthorization: PaymentAuthorizationCallback.callbackMethods
            case .payContext: PayContextCallback.callbackMethods
            }
        return methods.map(\.name)
    }

    /// Every delegate method of a flow, notifications included: what `expect.delegateCalls` may name.
    static func delegateMethods(_ flow: Scenario.Flow) -> [String] {
        let methods =
            switch flow {
            case .shippingAddress: ShippingAddressCallback.methods
            case .paymentAuthorization: PaymentAuthorizationCallback.methods
            case .payContext: PayContextCallback.methods
            }
        return methods.map(\.name)
    }

    /// The outcomes a flow ends with (a detail in parentheses may follow), and `running`.
    static func outcomes(_ flow: Scenario.Flow) -> [String] {
        switch flow {
        case .shippingAddress: ["finished", "cancelled", "running"]
        case .paymentAuthorization: ["success", "cancelled", "timedOut", "failed", "running"]
        case .payContext: ["success", "error", "userCancellation", "running"]
        }
    }

    /// The customer's actions a flow takes.
    static func actions(_ flow: Scenario.Flow) -> [String] {
        switch flow {
        case .shippingAddress: ["enterAddress", "selectShippingMethod", "back", "done", "cancel", "wait"]
        case .paymentAuthorization, .payContext:
            [
                "requestMerchantSession", "selectShippingContact", "selectShippingMethod", "selectPaymentMethod",
                "changeCouponCode", "authorize", "cancel", "wait",
            ]
        }
    }

    static let allActions = [
        "enterAddress", "requestMerchantSession", "selectShippingContact", "selectShippingMethod",
        "selectPaymentMethod", "changeCouponCode",
        "authorize", "back", "done", "cancel", "wait",
    ]

    /// Every flow's actions and delegate methods.
    static let otherFlows = Set(allActions + Scenario.Flow.allCases.flatMap(delegateMethods))

    static let seconds = Shape.integer(0...Scenario.maximumSeconds)
    static let money = Shape.object(
        "an amount", [("currency", .string), ("value", .string)], required: ["currency", "value"])
    static let address = Shape.object(
        "an address",
        [
            ("line1", .string), ("line2", .string), ("city", .string), ("state", .string), ("postal_code", .string),
            ("country", .string), ("sub_locality", .string), ("sub_administrative_area", .string),
            ("sorting_code", .string),
        ])
    static let contact = Shape.object(
        "a contact",
        [
            ("name", .string), ("organization_name", .string), ("email", .string), ("phone", .string),
            ("address", address), ("redacted", .bool),
        ])
    static let shippingMethod = Shape.object(
        "a shipping method",
        [
            ("identifier", .string), ("label", .string), ("detail", .string), ("amount", money),
            (
                "deliveryDateRange",
                .object("a date range", [("start", .string), ("end", .string)], required: ["start", "end"])
            ),
        ],
        required: ["identifier", "label", "amount"])
    static let summaryItem = Shape.object(
        "a summary item",
        [("label", .string), ("amount", money), ("type", .oneOf("an item type", ["final", "pending"]))],
        required: ["label", "amount"])
    static let paymentMethod = Shape.object(
        "a payment method",
        [
            ("displayName", .string), ("network", .oneOf("a card network", networks)),
            ("type", .oneOf("a card type", cardTypes)),
        ])
    static let paymentRequest = Shape.object(
        "a payment request",
        [
            ("merchantIdentifier", .string), ("countryCode", .string), ("currencyCode", .string),
            ("supportedNetworks", .array(.oneOf("a card network", networks))),
            ("merchantCapabilities", .array(.oneOf("a merchant capability", capabilities))),
            ("requiredBillingContactFields", .array(.oneOf("a contact field", contactFields))),
            ("requiredShippingContactFields", .array(.oneOf("a contact field", contactFields))),
            ("shippingType", .oneOf("a shipping type", shippingTypes)), ("shippingMethods", .array(shippingMethod)),
            ("summaryItems", .array(summaryItem)), ("couponCode", .string), ("supportsCouponCode", .bool),
        ],
        required: ["merchantIdentifier", "countryCode", "currencyCode", "summaryItems"])
    static let shippingConfiguration = Shape.object(
        "a shipping configuration",
        [
            ("requiredShippingAddressFields", .array(.oneOf("a contact field", contactFields))),
            ("shippingType", .oneOf("a shipping type", shippingTypes)), ("prefilledAddress", contact),
            ("selectedShippingMethod", shippingMethod), ("currency", .string),
        ],
        required: ["requiredShippingAddressFields", "shippingType"])
    static let region: [(String, Shape)] = [("country", .string), ("state", .string)]

    static func merchant(_ flow: Scenario.Flow) -> Shape {
        .object(
            "the merchant",
            [
                (
                    "shippingRates",
                    .array(
                        .object(
                            "a shipping rate", region + [("methods", .array(shippingMethod))],
                            required: ["country", "methods"]))
                ),
                ("unserviceable", .array(.object("a region", region, required: ["country"]))),
                ("requiredContactFields", .array(.oneOf("a contact field", contactFields))),
                ("taxRate", .string),
                (
                    "coupons",
                    .array(
                        .object(
                            "a coupon",
                            [("code", .string), ("percentOff", .string), ("amountOff", money), ("expired", .bool)],
                            required: ["code"]))
                ),
                (
                    "surcharges",
                    .array(
                        .object(
                            "a surcharge",
                            [
                                ("network", .oneOf("a card network", networks)),
                                ("cardType", .oneOf("a card type", cardTypes)),
                                ("amount", money), ("percent", .string),
                            ]))
                ),
                (
                    "intent",
                    .object(
                        "an intent",
                        [
                            ("kind", .oneOf("an intent kind", ["paymentIntent", "setupIntent"])),
                            ("confirmationMethod", .oneOf("a confirmation method", ["automatic", "manual"])),
                            ("captureMethod", .oneOf("a capture method", ["automatic", "manual"])),
                            ("confirmOnServer", .bool),
                        ])
                ),
                (
                    "radar",
                    .object(
                        "Radar rules",
                        [
                            ("blocksFailedCVCCheck", .bool), ("blocksFailedPostalCodeCheck", .bool),
                            ("blocksHighestRisk", .bool),
                        ])
                ),
                (
                    "misbehaviour",
                    .array(
                        .object(
                            "a misbehaviour",
                            [
                                ("callback", .oneOf("a callback of the \(flow.rawValue) flow", callbacks(flow))),
                                (
                                    "kind",
                                    .oneOf("a misbehaviour", MerchantSpec.Misbehaviour.Kind.allCases.map(\.rawValue))
                                ),
                                ("seconds", seconds), ("times", .integer(1...Int(Int32.max))),
                            ],
                            required: ["callback", "kind"]))
                ),
            ])
    }

    static func step(_ flow: Scenario.Flow) -> Shape {
        let all: [(String, [(String, Shape)], required: Set<String>)] = [
            ("enterAddress", [("contact", contact)], required: ["contact"]),
            ("requestMerchantSession", [("validationURL", .string)], required: ["validationURL"]),
            ("selectShippingContact", [("contact", contact)], required: ["contact"]),
            ("selectShippingMethod", [("identifier", .string)], required: ["identifier"]),
            ("selectPaymentMethod", [("paymentMethod", paymentMethod)], required: ["paymentMethod"]),
            ("changeCouponCode", [("code", .string)], required: ["code"]),
            (
                "authorize",
                [("card", .string), ("network", .oneOf("a card network", networks)), ("billingContact", contact)],
                required: ["card"]
            ),
            ("back", [], required: []),
            ("done", [], required: []),
            ("cancel", [], required: []),
            ("wait", [("seconds", seconds)], required: ["seconds"]),
        ]
        let mine = actions(flow)
        return .tagged("a step of the \(flow.rawValue) flow", key: "action", all.filter { mine.contains($0.0) })
    }

    static func scenario(_ flow: Scenario.Flow) -> Shape {
        .object(
            "a scenario",
            [
                ("name", .string), ("flow", .oneOf("a flow", flows)),
                ("request", flow == .shippingAddress ? shippingConfiguration : paymentRequest),
                ("merchant", merchant(flow)),
                ("steps", .array(step(flow))),
                (
                    "expect",
                    .object(
                        "an expectation",
                        [
                            ("outcome", .string),
                            (
                                "delegateCalls",
                                .array(.oneOf("a delegate method of the \(flow.rawValue) flow", delegateMethods(flow)))
                            ),
                            ("violations", .array(.oneOf("a violation kind", violationKinds))),
                        ])
                ),
                ("deadlineSeconds", seconds), ("strict", .bool),
            ],
            required: flow == .shippingAddress ? ["flow", "steps"] : ["flow", "request", "steps"])
    }

    // MARK: Checking

    /// Checks a whole scenario document and returns its flow.
    static func check(_ root: ScenarioJSON) throws(Problem) -> Scenario.Flow {
        guard case .object = root.value else {
            throw Problem(
                path: "", location: root.location, message: "expected a scenario (a JSON object), found \(root.kind)")
        }
        guard let flowNode = root["flow"] else {
            throw Problem(
                path: "", location: root.location, message: "missing key `flow`",
                hint: "expected one of: \(flows.joined(separator: ", "))")
        }
        let name = try oneOf(flowNode, "flow", "a flow", flows)
        let flow = Scenario.Flow(rawValue: name)!
        try check(root, "", scenario(flow))
        if let outcome = root["expect"]?["outcome"], case .string(let text) = outcome.value {
            let base = text.split(separator: "(", maxSplits: 1).first.map(String.init) ?? text
            let allowed = outcomes(flow)
            if !allowed.contains(base) || (text.contains("(") && !text.hasSuffix(")")) {
                throw Problem(
                    path: "expect.outcome", location: outcome.location,
                    message: "`\(text)` is not an outcome of the \(flow.rawValue) flow" + suggestion(base, allowed),
                    hint: "expected one of: \(allowed.joined(separator: ", ")) (a detail in parentheses may follow)")
            }
        }
        return flow
    }

    static func check(_ node: ScenarioJSON, _ path: String, _ shape: Shape) throws(Problem) {
        switch shape {
        case .object(let what, let keys, let required):
            try members(node, path, what, keys, required)
        case .tagged(let what, let key, let variants):
            guard case .object = node.value else {
                throw Problem(
                    path: path, location: node.location, message: "\(at(path))expected \(what), found \(node.kind)")
            }
            guard let tag = node[key] else {
                throw Problem(
                    path: path, location: node.location, message: "missing key `\(join(path, key))`",
                    hint: "expected one of: \(variants.map(\.0).joined(separator: ", "))")
            }
            let name = try oneOf(tag, join(path, key), what, variants.map(\.0), among: allActions)
            let variant = variants.first { $0.0 == name }!
            try members(node, path, what, [(key, .string)] + variant.1, variant.required.union([key]))
        case .array(let element):
            guard case .array(let elements) = node.value else {
                throw Problem(
                    path: path, location: node.location, message: "\(at(path))expected an array, found \(node.kind)")
            }
            for (index, element0) in elements.enumerated() {
                try check(element0, "\(path)[\(index)]", element)
            }
        case .string:
            guard case .string = node.value else {
                throw Problem(
                    path: path, location: node.location, message: "\(at(path))expected a string, found \(node.kind)")
            }
        case .oneOf(let what, let values):
            _ = try oneOf(node, path, what, values)
        case .integer(let range):
            _ = try integer(node, path, range)
        case .bool:
            guard case .bool = node.value else {
                throw Problem(
                    path: path, location: node.location,
                    message: "\(at(path))expected true or false, found \(node.kind)")
            }
        }
    }

    private static func members(
        _ node: ScenarioJSON, _ path: String, _ what: String, _ keys: [(String, Shape)], _ required: Set<String>
    ) throws(Problem) {
        guard case .object(let members) = node.value else {
            throw Problem(
                path: path, location: node.location,
                message: "\(at(path))expected \(what) (an object), found \(node.kind)")
        }
        let names = keys.map(\.0)
        for member in members {
            guard let shape = keys.first(where: { $0.0 == member.key })?.1 else {
                throw Problem(
                    path: join(path, member.key), location: member.location,
                    message: "unknown key `\(join(path, member.key))`" + suggestion(member.key, names),
                    hint: names.isEmpty
                        ? "\(what) takes no other key" : "the keys of \(what): \(names.joined(separator: ", "))")
            }
            try check(member.value, join(path, member.key), shape)
        }
        for key in names where required.contains(key) && !members.contains(where: { $0.key == key }) {
            throw Problem(path: path, location: node.location, message: "missing key `\(join(path, key))` of \(what)")
        }
    }

    @discardableResult
    private static func oneOf(
        _ node: ScenarioJSON, _ path: String, _ what: String, _ values: [String], among all: [String] = []
    ) throws(Problem) -> String {
        guard case .string(let text) = node.value else {
            throw Problem(
                path: path, location: node.location,
                message: "\(at(path))expected \(what) (a string), found \(node.kind)",
                hint: "expected one of: \(values.joined(separator: ", "))")
        }
        guard values.contains(text) else {
            // A name of another flow's: not a typo, the wrong flow.
            let known = all.contains(text) || otherFlows.contains(text)
            throw Problem(
                path: path, location: node.location,
                message: known
                    ? "`\(text)` at `\(path)` is not \(what)"
                    : "unknown value `\(text)` at `\(path)`" + suggestion(text, values),
                hint: known
                    ? "\(what): \(values.joined(separator: ", "))"
                    : "expected \(what), one of: \(values.joined(separator: ", "))")
        }
        return text
    }

    private static func integer(_ node: ScenarioJSON, _ path: String, _ range: ClosedRange<Int>) throws(Problem) -> Int
    {
        guard case .number(let literal) = node.value else {
            throw Problem(
                path: path, location: node.location,
                message:
                    "\(at(path))expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(node.kind)"
            )
        }
        guard let value = Int(literal) else {
            let whole = literal.allSatisfy { $0 == "-" || $0.isNumber }
            throw Problem(
                path: path, location: node.location,
                message: whole
                    ? "\(literal) at `\(path)` is out of range: expected \(range.lowerBound) to \(range.upperBound)"
                    : "expected a whole number at `\(path)`, found \(literal)")
        }
        guard range.contains(value) else {
            throw Problem(
                path: path, location: node.location,
                message: "\(value) at `\(path)` is out of range: expected \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// "at `steps[1].card`: ", or "at the top level: ".
    static func at(_ path: String) -> String { path.isEmpty ? "at the top level: " : "at `\(path)`: " }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// `; did you mean `X`?` for the nearest known word, when one is near enough.
    static func suggestion(_ word: String, _ known: [String]) -> String {
        guard let nearest = nearest(word, known) else { return "" }
        return "; did you mean `\(nearest)`?"
    }

    /// The known word nearest to `word` (edit distance, ignoring case), when it is within a third
    /// of the word's length (at least 1, at most 3 edits).
    static func nearest(_ word: String, _ known: [String]) -> String? {
        let limit = max(1, min(3, word.count / 3))
        let scored = known.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit, best.1 > 0 || best.0 != word else {
            return nil
        }
        return best.0
    }

    /// Edit distance by characters, a swap of two neighbours counting as one edit (optimal string
    /// alignment): `tset` is one edit from `test`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
