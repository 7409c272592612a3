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
        return merchantProblem(scenario.merchant, flow: flow, currency: currency)
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
            ("coupons", flow == .shippingAddress && !merchant.coupons.isEmpty),
            ("surcharges", flow == .shippingAddress && !merchant.surcharges.isEmpty),
            ("taxRate", flow == .shippingAddress && merchant.taxRate != nil),
            ("requiredContactFields", flow == .shippingAddress && !merchant.requiredContactFields.isEmpty),
        ]
        if let (key, _) = unused.first(where: \.1) {
            return Problem(
                path: "merchant.\(key)",
                message: "`merchant.\(key)` has no effect in the \(flow.rawValue) flow; remove it",
                hint: key == "intent"
                    ? "the intent is created by the merchant of the payContext flow only"
                    : "the shipping-address flow's merchant answers with shipping methods only")
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
                    path: "\(path).percentOff", message: "`percentOff` is \(percent); a percentage is at most 100")
            }
            if let amount = coupon.amountOff {
                if let problem = inCurrency(amount, "\(path).amountOff") { return problem }
                if amount.isNegative {
                    return Problem(
                        path: "\(path).amountOff", message: "`amountOff` must not be negative, got \(amount)")
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
                    return Problem(path: "\(path).amount", message: "`amount` must not be negative, got \(amount)")
                }
            case (nil, .some(let percent)):
                guard let rate = Rate(percent) else {
                    return Problem(
                        path: "\(path).percent",
                        message: "expected a decimal percentage such as \"2.5\", got \"\(percent)\"")
                }
                if rate.numerator > 100 * rate.denominator {
                    return Problem(path: "\(path).percent", message: "`percent` is \(percent); at most 100")
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
            if rule.kind == .malformedSecret, rule.callback != "didCreatePaymentMethod" {
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
