import CheckoutCore
import CheckoutFlows
import CheckoutWeb

/// One of the flow's callbacks a Google Pay `onPaymentDataChanged` leads to (spec W9).
enum GooglePayChange: Hashable, Sendable {
    /// The redacted shipping address, as a contact selection.
    case shippingAddress(Contact)
    /// The shipping option, as a method selection by identifier.
    case shippingOption(String)
    /// One redemption code, as a coupon code change (`""`: the codes were removed).
    case offer(String)
    /// The payment method, as a method selection.
    case paymentMethod(PaymentMethod)

    /// The Google intent an error of this callback's answer is for.
    var intent: GooglePayCallbackIntent {
        switch self {
        case .shippingAddress: .shippingAddress
        case .shippingOption: .shippingOption
        case .offer: .offer
        case .paymentMethod: .paymentMethod
        }
    }

    /// The callbacks `data` leads to, in the order the relay delivers them (spec W9, FlowRules):
    /// shipping address, shipping option, redemption codes (each in the order Google lists them),
    /// payment method. `INITIALIZE` delivers every member present; another trigger delivers its own
    /// member only (the others restate what the sheet already holds) and requires it. An `OFFER`
    /// without codes while the flow holds one is the removal of the code (`""`).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming the member that is missing or cannot be read
    ///   (`shippingAddress`, `shippingAddress.countryCode`, `offerData`, ...).
    static func changes(in data: GooglePayIntermediatePaymentData, couponHeld: String?) throws -> [GooglePayChange] {
        func required<T>(_ value: T?, _ member: String) throws -> T {
            guard let value else {
                throw CheckoutError(
                    code: .missingField,
                    message: "\(member) is absent: callbackTrigger \(data.callbackTrigger.rawValue) is a change of it",
                    field: member)
            }
            return value
        }
        func address(_ wire: GooglePayIntermediateAddress) throws -> GooglePayChange {
            .shippingAddress(try googlePath("shippingAddress") { try wire.core() })
        }
        func offers(_ codes: [String]) -> [GooglePayChange] {
            if codes.isEmpty { return couponHeld.map { _ in [.offer("")] } ?? [] }
            return codes.map(GooglePayChange.offer)
        }
        switch data.callbackTrigger {
        case .initialize:
            var changes: [GooglePayChange] = []
            if let wire = data.shippingAddress { changes.append(try address(wire)) }
            if let option = data.shippingOptionData { changes.append(.shippingOption(option.id)) }
            changes += offers(data.offerData?.redemptionCodes ?? [])
            if let method = data.paymentMethodData { changes.append(.paymentMethod(method.core())) }
            return changes
        case .shippingAddress:
            return [try address(try required(data.shippingAddress, "shippingAddress"))]
        case .shippingOption:
            return [.shippingOption(try required(data.shippingOptionData, "shippingOptionData").id)]
        case .offer:
            return offers(try required(data.offerData, "offerData").redemptionCodes)
        case .paymentMethod:
            return [.paymentMethod(try required(data.paymentMethodData, "paymentMethodData").core())]
        }
    }
}

/// What one `onPaymentDataChanged` led to: each callback delivered with the merchant's answer.
struct GooglePayRound: Sendable {
    var answers: [(change: GooglePayChange, driven: PaymentAuthorizationAnswer)] = []
}

extension RelaySession {
    /// Delivers a Google Pay `onPaymentDataChanged` to the flow one callback at a time (spec W9),
    /// each answer added to `round` as it comes; stops early when an answer ends the flow (an
    /// invalid update, spec E7). Every member is read before anything is delivered, so an event that
    /// cannot be read changes nothing.
    ///
    /// - Throws: ``InvalidEvent``, the flow's ``/CheckoutFlows/Refusal`` (the callbacks before it
    ///   stay answered, as they are in `round`), or ``/CheckoutFlows/CallbackEnded``.
    func driveGooglePayChange(_ data: GooglePayIntermediatePaymentData, into round: inout GooglePayRound)
        async throws
    {
        try claimWire(for: .googlePayPaymentDataChanged)
        let changes = try read("intermediatePaymentData") {
            try GooglePayChange.changes(in: data, couponHeld: flow.sheet.sheet?.couponCode)
        }
        for change in changes {
            let driven: Driven =
                switch change {
                case .shippingAddress(let contact): .shippingContact(try await flow.selectShippingContact(contact))
                case .shippingOption(let id): .shippingMethod(try await flow.selectShippingMethod(id))
                case .offer(let code): .couponCode(try await flow.changeCouponCode(code))
                case .paymentMethod(let method): .paymentMethod(try await flow.selectPaymentMethod(method))
                }
            round.answers.append((change, driven))
            if flow.isEnded || flow.sheet.outcome != nil { return }
        }
    }

    /// Gives a recorded event to the flow again while a resume replays it (spec W6).
    func replay(_ payload: RelayEvent.Payload) async throws {
        if case .googlePayPaymentDataChanged(let data) = payload {
            var round = GooglePayRound()
            try await driveGooglePayChange(data, into: &round)
        } else {
            _ = try await drive(payload)
        }
    }

    /// The one `PaymentDataRequestUpdate` the page's `onPaymentDataChanged` resolves with, built
    /// from the round (spec W9): the transaction info from the last answer's summary items; the
    /// shipping options as the sheet holds them when an answer of the round set them (an empty list
    /// goes out as the error it stands for, W3); the offers, every code of the round whose answer
    /// did not refuse it, in order; the error, the latest answer's that has one (its first error,
    /// the others' messages joined to its message), its intent that of the callback it answered.
    /// A round without a callback is answered `{}`, which changes nothing. Google's rules are
    /// checked apart (``/CheckoutWeb/GooglePayPaymentDataRequestUpdate/check(answering:)``).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` when the answer has no Google form (a price with
    ///   three decimals, an error code Google has no reason for).
    func googlePayUpdate(for round: GooglePayRound) throws
        -> GooglePayPaymentDataRequestUpdate
    {
        guard let last = round.answers.last else { return GooglePayPaymentDataRequestUpdate() }
        guard let currency = request.currency else {
            throw CheckoutError(code: .unknownCurrency, message: "the request has no currency", field: "currencyCode")
        }
        let sheet = flow.sheet.sheet
        let lastSetMethods = round.answers.compactMap { Self.update(of: $0.driven).shippingMethods }.last
        let methods = lastSetMethods.map { $0.isEmpty ? [] : (sheet?.shippingMethods ?? $0) }
        var offers: [GooglePayOfferDetail]?
        for (change, driven) in round.answers {
            guard case .offer(let code) = change else { continue }
            var list = offers ?? []
            if !code.isEmpty, !Self.update(of: driven).errors.contains(where: \.isCouponCodeError),
                !list.contains(where: { $0.redemptionCode == code })
            {
                list.append(GooglePayOfferDetail(redemptionCode: code, description: code))
            }
            offers = list
        }
        var error: GooglePayPaymentDataError?
        if let (change, errors) = round.answers.reversed().lazy.map({ ($0.change, Self.update(of: $0.driven).errors) })
            .first(where: { !$0.1.isEmpty })
        {
            var first = try googlePath("error") { try GooglePayPaymentDataError(errors[0], intent: change.intent) }
            for other in errors.dropFirst() {
                _ = try googlePath("error") { try GooglePayPaymentDataError(other, intent: change.intent) }
                first.message += "\n" + other.message
            }
            error = first
        }
        let update = try GooglePayPaymentDataRequestUpdate(
            summaryItems: Self.update(of: last.driven).summaryItems, currency: currency,
            countryCode: request.countryCode.isEmpty ? nil : request.countryCode, shippingMethods: methods,
            selectedShippingMethod: sheet?.selectedShippingMethodID, offers: offers, error: error)
        return update
    }

    /// The parts of an answer a Google update is built from: summary items, shipping methods set,
    /// and the errors the sheet shows.
    private static func update(of driven: Driven) -> (
        summaryItems: [SummaryItem]?, shippingMethods: [ShippingMethod]?, errors: [PaymentError]
    ) {
        switch driven {
        case .shippingContact(let update): (update.summaryItems, update.shippingMethods, update.shownErrors)
        case .shippingMethod(let update): (update.summaryItems, nil, update.errors)
        case .paymentMethod(let update): (update.summaryItems, nil, update.errors)
        case .couponCode(let update): (update.summaryItems, update.shippingMethods, update.shownErrors)
        default: (nil, nil, [])  // not a sheet update: Google Pay's change events lead to none
        }
    }

    /// What Google Pay's `onPaymentAuthorized` resolves with for the merchant's `result` (checked
    /// as Google would by ``RelayCompletion/checkAsTheBrowserWould(applePayVersion:)``).
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` as ``/CheckoutWeb/GooglePayPaymentAuthorizationResult/init(_:)``.
    static func googlePayResult(_ result: PaymentAuthorizationResult) throws -> GooglePayPaymentAuthorizationResult {
        try GooglePayPaymentAuthorizationResult(result)
    }
}

/// Runs `body`, placing a ``/CheckoutCore/CheckoutError`` it throws under `prefix`.
private func googlePath<T>(_ prefix: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as CheckoutError {
        throw error.nested(under: prefix)
    }
}
