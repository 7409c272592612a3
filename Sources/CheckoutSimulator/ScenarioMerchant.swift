import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import Dispatch

/// The delegate a ``MerchantSpec`` declares, for all three flows: it prices the order from the
/// request's goods, shipping, coupon, surcharge and tax, creates Stripe intents on the scenario's
/// backend (on the in-memory one at once; through Stripe's HTTP API as a real server does, the
/// answer following when Stripe's does), and misbehaves as declared. It also records what it
/// saw, for the invariants.
package final class ScenarioMerchant: ShippingAddressDelegate, PaymentAuthorizationDelegate, PayContextForwarding {
    struct Log {
        var calls: [String] = []
        var inside = 0
        var overlaps = 0
        var terminals = 0
        var callsAfterTerminal = 0
        var unredactedContacts = 0
        var secrets: [String] = []
        /// How many times each delegate method was called (a handful of methods: a list).
        var counts: [(method: String, count: Int)] = []
        /// Completions the merchant never calls (`never`), kept so they are not released early.
        var held: [any Sendable] = []
        /// How many answers the merchant has put off (`late`, `never`): `checkout-sim relay` reads
        /// it to tell an event its merchant holds from one about to be answered.
        var deferred = 0
        // Pricing state.
        var address: Address?
        var methodID: String?
        var methods: [ShippingMethod] = []
        var coupon: String?
        var paymentMethod: PaymentMethod?
    }

    /// What pricing needs from the spec and the request, worked out once: the runs of a
    /// scenario's variants (the explorer's sessions) share it.
    package struct Pricing: Sendable {
        /// The request's currency (USD without a request or with an unknown code).
        package let currency: CurrencyCode
        /// The request's last summary item (the total), and the goods: the items before it, or the
        /// last one alone.
        let last: SummaryItem?
        let goods: [SummaryItem]
        let subtotal: Money
        /// `spec.taxRate`, and each coupon's `percentOff` and each surcharge's `percent`, parsed.
        package let taxRate: Rate?
        package let couponRates: [Rate?]
        let surchargeRates: [Rate?]

        package init(spec: MerchantSpec, request: PaymentRequest?) {
            let currency = request?.currency ?? .usd
            self.currency = currency
            last = request?.summaryItems.last
            if let request, let last {
                goods = request.summaryItems.count > 1 ? Array(request.summaryItems.dropLast()) : [last]
            } else {
                goods = []
            }
            subtotal = (try? Money.sum(goods.map(\.amount), currency: currency)) ?? .zero(currency)
            taxRate = spec.taxRate.flatMap(Rate.init)
            couponRates = spec.coupons.map { $0.percentOff.flatMap(Rate.init) }
            surchargeRates = spec.surcharges.map { $0.percent.flatMap(Rate.init) }
        }
    }

    let spec: MerchantSpec
    let request: PaymentRequest?
    let pricing: Pricing
    /// Test cards by their payment data, looked up before (the explorer's); others are looked up
    /// when charged.
    let cards: [String: StripeTestCard]
    let clock: any CheckoutClock
    let backend: Backend
    /// Answers in flight on other threads.
    let activity = ActivityCounter()
    let log = LockedValue(Log())

    /// A merchant for `spec`; `pricing` must have been worked out from the same spec's coupons,
    /// surcharges and tax rate and from `request`.
    init(
        spec: MerchantSpec,
        request: PaymentRequest?,
        pricing: Pricing? = nil,
        cards: [String: StripeTestCard] = [:],
        clock: any CheckoutClock,
        backend: Backend
    ) {
        self.spec = spec
        self.request = request
        self.pricing = pricing ?? Pricing(spec: spec, request: request)
        self.cards = cards
        self.clock = clock
        self.backend = backend
        log.withLock { log in
            log.methods = request?.shippingMethods ?? []
            log.methodID = request?.shippingMethods.first?.identifier
            log.coupon = request?.couponCode
        }
    }

    /// Where the merchant's server creates its intents: the backend the pay context talks to.
    enum Backend: Sendable {
        case memory(InMemoryStripeBackend)
        case http(StripeHTTPBackend)

        /// The backend as the pay context sees it.
        var payment: any PaymentBackend {
            switch self {
            case .memory(let backend): backend
            case .http(let backend): backend
            }
        }
    }

    // MARK: Bookkeeping

    private func enter(_ delegateMethod: DelegateMethod, terminal: Bool = false) -> MerchantSpec.Misbehaviour? {
        let method = delegateMethod.name
        let count = log.withLock { log in
            if log.inside > 0 { log.overlaps += 1 }
            if log.terminals > 0 { log.callsAfterTerminal += 1 }
            if terminal { log.terminals += 1 }
            log.inside += 1
            log.calls.append(method)
            guard let index = log.counts.firstIndex(where: { $0.method == method }) else {
                log.counts.append((method, 1))
                return 1
            }
            log.counts[index].count += 1
            return log.counts[index].count
        }
        return spec.misbehaviour.first { $0.callback == method && count <= ($0.times ?? Int.max) }
    }

    private func exit() {
        log.withLock { $0.inside -= 1 }
    }

    /// Calls `answer` as the misbehaviour says: at once, late, twice, never, from another thread.
    private func deliver(_ misbehaviour: MerchantSpec.Misbehaviour?, _ answer: @escaping @Sendable () -> Void) {
        switch misbehaviour?.kind {
        case .late:
            log.withLock { $0.deferred += 1 }
            _ = clock.schedule(at: clock.now + .seconds(misbehaviour?.seconds ?? 0), answer)
        case .twice:
            answer()
            answer()
        case .never:
            log.withLock {
                $0.deferred += 1
                $0.held.append(answer)
            }
        case .fromAnotherThread:
            // Counted before the hand-off, inside the callback: the runner's `settle` stops once two
            // looks find the merchant idle with no answer started in between, so an answer counted
            // only once its thread runs could be missed.
            activity.begin()
            DispatchQueue.global().async { [activity] in
                answer()
                activity.end()
            }
        case nil, .invalidUpdate, .malformedSecret:
            answer()
        }
    }

    /// Answers callback `method` as the misbehaviour says, with what `make` builds (told whether
    /// the answer is to be an invalid update).
    private func answer<Update: Sendable>(
        _ method: DelegateMethod,
        _ handler: @escaping @Sendable (Update) -> Void,
        _ make: (_ invalid: Bool) -> Update
    ) {
        let misbehaviour = enter(method)
        defer { exit() }
        let update = make(misbehaviour?.kind == .invalidUpdate)
        deliver(misbehaviour) { handler(update) }
    }

    // MARK: Pricing

    private var currency: CurrencyCode { pricing.currency }

    func summary(invalid: Bool = false) -> [SummaryItem] {
        guard let last = pricing.last else { return [] }
        if invalid {
            return [SummaryItem(label: last.label, amount: Money(minorUnits: -100, currency: currency))]
        }
        // What pricing reads of the merchant's state, taken at one instant.
        let (method, couponCode, paymentMethod) = log.withLock { state in
            (state.methods.first(where: { $0.identifier == state.methodID }), state.coupon, state.paymentMethod)
        }
        var lines = pricing.goods
        let subtotal = pricing.subtotal
        var shippingAmount = Money.zero(currency)
        if let method {
            lines.append(SummaryItem(label: "Shipping (\(method.label))", amount: method.amount))
            if method.amount.currency == currency { shippingAmount = method.amount }
        }
        var discount = Money.zero(currency)
        if let code = couponCode, let index = spec.coupons.firstIndex(where: { $0.code == code }),
            spec.coupons[index].expired != true
        {
            let coupon = spec.coupons[index]
            if let percent = pricing.couponRates[index] {
                discount = percent.applied(to: subtotal, scale: 100)
            } else if let amount = coupon.amountOff, amount.currency == currency {
                discount = Money(minorUnits: min(amount.minorUnits, subtotal.minorUnits), currency: currency)
            }
            if !discount.isZero {
                // The one discount whose negation does not fit (Int64.min) shows as the largest amount.
                let line = (try? discount.negated()) ?? Money(minorUnits: .max, currency: currency)
                lines.append(SummaryItem(label: "Coupon \(code)", amount: line))
            }
        }
        var surcharge = Money.zero(currency)
        if let index = spec.surcharges.firstIndex(where: { $0.applies(to: paymentMethod) }) {
            let rule = spec.surcharges[index]
            if let amount = rule.amount, amount.currency == currency {
                surcharge = amount
            } else if let percent = pricing.surchargeRates[index] {
                let base = (try? subtotal + shippingAmount) ?? subtotal
                surcharge = percent.applied(to: base, scale: 100)
            }
            if !surcharge.isZero { lines.append(SummaryItem(label: "Card surcharge", amount: surcharge)) }
        }
        var tax = Money.zero(currency)
        if let rate = pricing.taxRate {
            let taxable = (try? subtotal - discount) ?? subtotal
            tax = rate.applied(to: taxable)
            lines.append(SummaryItem(label: "Tax", amount: tax))
        }
        // `Money.sum([subtotal, shippingAmount, surcharge, tax], currency: currency)`: the same
        // additions from zero, in the same order, without the array.
        let total =
            (try? Money.zero(currency) + subtotal + shippingAmount + surcharge + tax - discount)
            ?? subtotal
        lines.append(SummaryItem(label: last.label, amount: total))
        return lines
    }

    private func methods(for address: Address?) -> [ShippingMethod]? {
        spec.shippingRates.first { $0.region.contains(address) }?.methods
    }

    private func isUnserviceable(_ address: Address?) -> Bool {
        spec.unserviceable.contains { $0.contains(address) }
    }

    // MARK: Shipping-address flow

    package func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        _ = enter(.didCancel, terminal: true)
        exit()
    }

    package func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        let misbehaviour = enter(.didEnterAddress)
        defer { exit() }
        let place = address.postalAddress
        let answer: ShippingAddressValidation
        if misbehaviour?.kind == .invalidUpdate {
            let broken = ShippingMethod(identifier: "dup", label: "Broken", amount: .zero(.usd))
            answer = .valid(shippingMethods: [broken, broken], selected: nil)
        } else if isUnserviceable(place) {
            answer = .invalid(message: "We do not ship to \(place?.country?.code ?? "this region")")
        } else if let methods = methods(for: place) {
            answer = .valid(shippingMethods: methods, selected: nil)
        } else if spec.shippingRates.isEmpty {
            answer = .valid
        } else {
            answer = .invalid(message: "No shipping rates for \(place?.country?.code ?? "this region")")
        }
        deliver(misbehaviour) { completion(answer) }
    }

    package func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didFinishWith address: Contact,
        shippingMethod: ShippingMethod?
    ) {
        _ = enter(.didFinish, terminal: true)
        exit()
    }

    // MARK: Payment-authorization flow (and the pay context's forwarded callbacks)

    package func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        _ = enter(.didFinish, terminal: true)
        exit()
    }

    package func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        _ = enter(.willAuthorizePayment)
        exit()
    }

    package func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        answer(.didAuthorizePayment, handler) { _ in charge(payment) }
    }

    /// The auth-flow merchant charges the test card itself.
    private func charge(_ payment: Payment) -> PaymentAuthorizationResult {
        let missing =
            payment.shippingContact.map { $0.missingFields(required: spec.requiredContactFields) }
            ?? spec.requiredContactFields.sorted()
        if let field = missing.first {
            let errorField = PaymentErrorField(rawValue: field.rawValue) ?? .postalAddress
            return PaymentAuthorizationResult(
                status: .failure,
                errors: [.shippingContactInvalid(errorField, "\(field) is required")]
            )
        }
        guard let card = cards[payment.token.paymentData] ?? StripeTestCard(paymentData: payment.token.paymentData)
        else {
            return PaymentAuthorizationResult(
                status: .failure, errors: [PaymentError(code: .unknown, message: "Unknown card")])
        }
        switch card {
        case .success:
            return .success
        case .incorrectZIP:
            return PaymentAuthorizationResult(
                status: .failure,
                errors: [.billingContactInvalid(.postalCode, "The ZIP code does not match the card")]
            )
        default:
            let message = card.error?.message ?? "The card needs authentication"
            return PaymentAuthorizationResult(
                status: .failure, errors: [PaymentError(code: .unknown, message: message)])
        }
    }

    private func contactUpdate(_ contact: Contact, invalid: Bool) -> ShippingContactUpdate {
        let seesPersonalData =
            contact.name != nil || contact.emailAddress != nil || contact.phoneNumber != nil
            || contact.postalAddress?.line1 != nil || contact.postalAddress?.line2 != nil
        let address = contact.postalAddress
        let available = methods(for: address)
        log.withLock { log in
            if seesPersonalData || !contact.isRedacted { log.unredactedContacts += 1 }
            log.address = address
            if let available {
                log.methods = available
                if !available.contains(where: { $0.identifier == log.methodID }) {
                    log.methodID = available.first?.identifier
                }
            }
        }
        if invalid { return ShippingContactUpdate(summaryItems: summary(invalid: true)) }
        if isUnserviceable(address) {
            let error = PaymentError.shippingAddressUnserviceable(
                "We do not ship to \(address?.state.map { "\($0), " } ?? "")\(address?.country?.code ?? "")"
            )
            return ShippingContactUpdate(errors: [error], summaryItems: summary(), shippingMethods: nil)
        }
        return ShippingContactUpdate(summaryItems: summary(), shippingMethods: available)
    }

    package func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        answer(.didSelectShippingContact, handler) { contactUpdate(contact, invalid: $0) }
    }

    private func methodUpdate(_ method: ShippingMethod, invalid: Bool) -> ShippingMethodUpdate {
        log.withLock { $0.methodID = method.identifier }
        return ShippingMethodUpdate(summaryItems: summary(invalid: invalid))
    }

    package func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        answer(.didSelectShippingMethod, handler) { methodUpdate(method, invalid: $0) }
    }

    package func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    ) {
        log.withLock { $0.paymentMethod = method }
        answer(.didSelectPaymentMethod, handler) { PaymentMethodUpdate(summaryItems: summary(invalid: $0)) }
    }

    /// The merchant session the scenario's merchant gets from Apple: a stand-in, since no
    /// request leaves the machine (spec W5).
    private func merchantSessionUpdate(_ request: MerchantSessionRequest) -> MerchantSessionUpdate {
        let identifier = self.request?.merchantIdentifier ?? "merchant"
        let host = request.validationURL.host ?? ""
        return .success(
            MerchantSession(json: "{\"merchantIdentifier\":\"\(identifier)\",\"validationHost\":\"\(host)\"}"))
    }

    package func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didRequestMerchantSessionUpdate request: MerchantSessionRequest,
        handler: @escaping @Sendable (MerchantSessionUpdate) -> Void
    ) {
        answer(.didRequestMerchantSessionUpdate, handler) { _ in merchantSessionUpdate(request) }
    }

    private func couponUpdate(_ code: String, invalid: Bool) -> CouponCodeUpdate {
        let coupon = spec.coupons.first { $0.code == code }
        log.withLock { $0.coupon = coupon == nil ? nil : code }
        var errors: [PaymentError] = []
        if coupon == nil {
            errors = [.couponCodeInvalid("\(code) is not a coupon code")]
        } else if coupon?.expired == true {
            errors = [.couponCodeExpired("\(code) has expired")]
        }
        return CouponCodeUpdate(errors: errors, summaryItems: summary(invalid: invalid))
    }

    package func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        answer(.didChangeCouponCode, handler) { couponUpdate(code, invalid: $0) }
    }

    // MARK: Pay context

    package func payContext(
        _ context: PayContext,
        didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment,
        completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        let misbehaviour = enter(.didCreatePaymentMethod)
        defer { exit() }
        if misbehaviour?.kind == .malformedSecret {
            return handOver(.clientSecret("pi_malformed"), misbehaviour, completion)
        }
        switch backend {
        case .memory(let memory):
            handOver(createIntent(paymentMethod, paymentInformation, on: memory), misbehaviour, completion)
        case .http(let http):
            // Counted before the hand-off, as an answer from another thread is: the runner's
            // `settle` waits for it. The answer starts the context's next backend call before the
            // count ends.
            activity.begin()
            let intent = spec.intent
            let total = summary().last?.amount ?? .zero(currency)
            Task {
                let answer = await Self.createIntent(intent, total: total, method: paymentMethod, on: http)
                self.handOver(answer, misbehaviour, completion)
                self.activity.end()
            }
        }
    }

    /// Records a client secret the merchant hands over (the P7 check looks for it) and answers.
    private func handOver(
        _ answer: IntentAnswer,
        _ misbehaviour: MerchantSpec.Misbehaviour?,
        _ completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        if case .clientSecret(let text) = answer {
            log.withLock { $0.secrets.append(text) }
        }
        deliver(misbehaviour) { completion(answer) }
    }

    /// Creates the intent on the in-memory backend, at once.
    private func createIntent(
        _ method: StripePaymentMethod, _ payment: Payment, on backend: InMemoryStripeBackend
    ) -> IntentAnswer {
        let intent = spec.intent
        do {
            switch intent.kind {
            case .setupIntent:
                return .secret(
                    try backend.createSetupIntent(paymentMethodID: method.id, confirm: intent.confirmOnServer))
            case .paymentIntent:
                let total = summary().last?.amount ?? .zero(currency)
                return .secret(
                    try backend.createPaymentIntent(
                        amount: total,
                        confirmationMethod: intent.confirmationMethod,
                        captureMethod: intent.captureMethod,
                        paymentMethodID: intent.confirmOnServer ? method.id : nil,
                        confirm: intent.confirmOnServer,
                        shipping: ShippingDetails(payment.shippingContact)
                    )
                )
            }
        } catch {
            return .failure(error)
        }
    }

    /// Creates the intent through Stripe's API as a merchant's server does: creates it, and for
    /// `confirmOnServer` confirms it with the payment method. A card error from that confirmation
    /// leaves the intent as Stripe left it (as the in-memory backend's does); the context then
    /// finds its state. Shipping is not sent here: the context sends it with its confirmation.
    private static func createIntent(
        _ intent: MerchantSpec.IntentSpec,
        total: Money,
        method: StripePaymentMethod,
        on backend: StripeHTTPBackend
    ) async -> IntentAnswer {
        do {
            let secret: IntentClientSecret
            switch intent.kind {
            case .setupIntent:
                secret = try await backend.createSetupIntent()
            case .paymentIntent:
                secret = try await backend.createPaymentIntent(
                    amount: total, confirmationMethod: intent.confirmationMethod, captureMethod: intent.captureMethod)
            }
            if intent.confirmOnServer {
                do {
                    _ = try await backend.confirmIntent(secret, paymentMethodID: method.id, shipping: nil)
                } catch let error as StripeError where error.type == "card_error" {
                    // The intent keeps the decline (`last_payment_error`); the context retrieves it.
                }
            }
            return .secret(secret)
        } catch {
            return .failure(error)
        }
    }

    package func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        _ = enter(.didComplete, terminal: true)
        exit()
    }

    /// The pay context's sheet callbacks (shipping, coupon, merchant session) are answered as the
    /// authorization flow's of the same name are.
    package func forward(_ callback: PayContextCallback, context: PayContext) {
        switch callback {
        case .didCreatePaymentMethod(let paymentMethod, let paymentInformation, let completion):
            payContext(
                context, didCreatePaymentMethod: paymentMethod, paymentInformation: paymentInformation,
                completion: completion)
        case .didComplete(let status, let error):
            payContext(context, didCompleteWith: status, error: error)
        case .willComplete(let result, let handler):
            answer(.willComplete, handler) { _ in result }
        default:
            guard let sheetCallback = PaymentAuthorizationCallback(callback) else {
                // A pay-context callback the sheet does not have, and that this merchant does not
                // answer: the protocol's default answers, and the transcript says so (spec E11).
                _ = callback.answerByDefault(context: context)
                return
            }
            sheetCallback.deliver(to: self, flow: context.sheet)
        }
    }
}
