import CheckoutCore
import CheckoutFlows

/// What a scenario must say, beyond its shape, to be a test that can pass for the right reason:
/// a request the flow can present (every problem at once), merchant rules that mean something
/// (a percentage of at most 100, amounts in the request's currency, a surcharge that can apply),
/// keys used by the flow that runs. Checked when the file is loaded, so that a broken test is
/// refused instead of running into the flow's refusal or the merchant's `invalidUpdate`.
enum ScenarioRules {
    struct Problem {
        var path: String
        var message: String
        var hint: String?
    }

    /// The first problem of `scenario`, if any.
    static func problem(in scenario: Scenario, flow: Scenario.Flow) -> Problem? {
        var currency: CurrencyCode?
        switch flow {
        case .shippingAddress:
            let configuration = scenario.shippingConfiguration ?? ShippingAddressConfiguration()
            if let problem = presentable(configuration.problems, what: "the shipping configuration") { return problem }
            currency = configuration.currency
        case .paymentAuthorization, .payContext:
            guard let request = scenario.paymentRequest else {
                return Problem(path: "request", message: "missing key `request` (the payment request)")
            }
            if let problem = presentable(request.problems, what: "the payment request") { return problem }
            currency = request.currency
        }
        guard let problem = merchantProblem(scenario.merchant, flow: flow, currency: currency) ?? stepProblem(scenario)
        else { return nil }
        return named(problem)
    }

    /// `problem` with its JSON path in the message, when the message does not name it yet
    /// (`at \`merchant.surcharges[0]\`: a surcharge needs ...`), so that every refusal says where.
    static func named(_ problem: Problem) -> Problem {
        guard !problem.path.isEmpty, !problem.message.contains("`\(problem.path)`") else { return problem }
        var named = problem
        named.message = ScenarioSchema.at(problem.path) + problem.message
        return named
    }

    /// The first step whose card is no card: an `authorize` step names a card number (digits, with
    /// spaces or dashes between groups) or a Stripe test token (`tok_visa`). A number that is no
    /// test card is a card Stripe refuses (`incorrect_number`), which a scenario may mean; text
    /// that is no number at all is a typo.
    private static func stepProblem(_ scenario: Scenario) -> Problem? {
        for (index, step) in scenario.steps.enumerated() {
            guard case .authorize(let card, _, _) = step, !isCard(card) else { continue }
            return Problem(
                path: "steps[\(index)].card",
                message: "\(card.quotedForMessage) at `steps[\(index)].card` is not a card number",
                hint: "expected a card number (12 to 19 digits, spaces or dashes between groups, "
                    + "such as \"4242 4242 4242 4242\") or a Stripe test token such as \"tok_visa\"")
        }
        return nil
    }

    /// Whether `card` is a card number (12 to 19 digits, with spaces or dashes between groups)
    /// or a `tok_` token of letters, digits and underscores.
    static func isCard(_ card: String) -> Bool {
        if card.hasPrefix("tok_") {
            let rest = card.utf8.dropFirst(4)
            return !rest.isEmpty
                && rest.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                }
        }
        let digits = card.utf8.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
        return card.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: " ")
                || byte == UInt8(ascii: "-")
        } && (12...19).contains(digits)
    }

    private static func presentable(_ problems: [CheckoutError], what: String) -> Problem? {
        guard let first = problems.first else { return nil }
        return Problem(
            path: "request" + (first.field.map { $0.hasPrefix("[") ? $0 : ".\($0)" } ?? ""),
            message: "\(what) cannot be presented: "
                + problems.map(\.message).joined(separator: "; ")
        )
    }

    private static func merchantProblem(
        _ merchant: MerchantSpec, flow: Scenario.Flow, currency: CurrencyCode?
    ) -> Problem? {
        func inCurrency(_ money: Money, _ path: String) -> Problem? {
            guard let currency, money.currency != currency else { return nil }
            return Problem(path: path, message: "`\(path)` is in \(money.currency), the request in \(currency)")
        }
        let unused: [(String, Bool)] = [
            ("intent", flow != .payContext && merchant.intent != MerchantSpec.IntentSpec()),
            ("radar", flow != .payContext && merchant.radar != nil),
            ("coupons", flow == .shippingAddress && !merchant.coupons.isEmpty),
            ("surcharges", flow != .paymentAuthorization && !merchant.surcharges.isEmpty),
            ("taxRate", flow == .shippingAddress && merchant.taxRate != nil),
            ("requiredContactFields", flow != .paymentAuthorization && !merchant.requiredContactFields.isEmpty),
        ]
        if let (key, _) = unused.first(where: \.1) {
            let hint =
                switch key {
                case "intent": "the intent is created by the merchant of the payContext flow only"
                case "radar": "Radar rules apply to the payContext flow's Stripe backend only"
                case "surcharges" where flow == .payContext:
                    "the pay context answers the sheet's card selection itself, so a surcharge never applies"
                case "requiredContactFields" where flow == .payContext:
                    "the pay context authorizes with Stripe; the merchant checks contact fields in the "
                        + "paymentAuthorization flow only"
                default: "the shipping-address flow's merchant answers with shipping methods only"
                }
            return Problem(
                path: "merchant.\(key)",
                message: "`merchant.\(key)` has no effect in the \(flow.rawValue) flow; remove it",
                hint: hint)
        }
        for (index, rate) in merchant.shippingRates.enumerated() {
            let path = "merchant.shippingRates[\(index)]"
            for (methodIndex, method) in rate.methods.enumerated() {
                if let problem = inCurrency(method.amount, "\(path).methods[\(methodIndex)].amount") { return problem }
            }
            if let problem = ShippingMethod.problems(in: rate.methods, currency: currency).first {
                return Problem(
                    path:
                        "\(path).\(problem.field.map { $0.replacingOccurrences(of: "shippingMethods", with: "methods") } ?? "methods")",
                    message: problem.message)
            }
        }
        var codes: Set<String> = []
        for (index, coupon) in merchant.coupons.enumerated() {
            let path = "merchant.coupons[\(index)]"
            if !codes.insert(coupon.code).inserted {
                return Problem(path: "\(path).code", message: "the coupon code `\(coupon.code)` is declared twice")
            }
            if coupon.percentOff != nil, coupon.amountOff != nil {
                return Problem(path: path, message: "a coupon takes `percentOff` or `amountOff`, not both")
            }
            if let percent = coupon.percentOff, let rate = Rate(percent), rate.numerator > 100 * rate.denominator {
                return Problem(
                    path: "\(path).percentOff",
                    message: "`\(path).percentOff` is \(percent); a percentage is at most 100")
            }
            if let amount = coupon.amountOff {
                if let problem = inCurrency(amount, "\(path).amountOff") { return problem }
                if amount.isNegative {
                    return Problem(
                        path: "\(path).amountOff", message: "`\(path).amountOff` must not be negative, got \(amount)")
                }
            }
            if coupon.percentOff == nil, coupon.amountOff == nil, coupon.expired != true {
                return Problem(
                    path: path, message: "the coupon `\(coupon.code)` takes nothing off",
                    hint: "give `percentOff`, `amountOff` or `\"expired\": true`")
            }
        }
        for (index, rule) in merchant.surcharges.enumerated() {
            let path = "merchant.surcharges[\(index)]"
            if rule.network == nil, rule.cardType == nil {
                return Problem(path: path, message: "a surcharge needs `network` or `cardType`; this one never applies")
            }
            switch (rule.amount, rule.percent) {
            case (nil, nil):
                return Problem(path: path, message: "a surcharge needs `amount` or `percent`")
            case (.some, .some):
                return Problem(path: path, message: "a surcharge takes `amount` or `percent`, not both")
            case (.some(let amount), nil):
                if let problem = inCurrency(amount, "\(path).amount") { return problem }
                if amount.isNegative {
                    return Problem(
                        path: "\(path).amount", message: "`\(path).amount` must not be negative, got \(amount)")
                }
            case (nil, .some(let percent)):
                guard let rate = Rate(percent) else {
                    return Problem(
                        path: "\(path).percent",
                        message: "expected a decimal percentage such as \"2.5\", got \"\(percent)\"")
                }
                if rate.numerator > 100 * rate.denominator {
                    return Problem(
                        path: "\(path).percent", message: "`\(path).percent` is \(percent); a percentage is at most 100"
                    )
                }
            }
        }
        for (index, rule) in merchant.misbehaviour.enumerated() {
            let path = "merchant.misbehaviour[\(index)]"
            if rule.kind == .late, rule.seconds == nil {
                return Problem(path: path, message: "a `late` misbehaviour needs `seconds`")
            }
            if rule.kind != .late, rule.seconds != nil {
                return Problem(path: "\(path).seconds", message: "`seconds` applies to `late` only, not `\(rule.kind)`")
            }
            if rule.kind == .malformedSecret, rule.callback != DelegateMethod.didCreatePaymentMethod.name {
                return Problem(
                    path: "\(path).kind", message: "`malformedSecret` applies to `didCreatePaymentMethod` only")
            }
        }
        return nil
    }

    /// `merchant.coupons[0].percentOff` as keys and indexes.
    static func steps(of path: String) -> [(key: String, index: Int?)] {
        var result: [(key: String, index: Int?)] = []
        for part in path.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                result.append((String(rest[..<bracket]), nil))
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close]) ?? 0
                    result.append(("\(index)", index))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                result.append((String(rest), nil))
            }
        }
        return result
    }
}
