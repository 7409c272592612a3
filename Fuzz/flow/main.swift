// libFuzzer target `flow`: the input bytes are a session. The first bytes choose the flow
// (`PaymentAuthorizationFlow` or `ShippingAddressFlow`), its request or configuration and the
// deadline; the rest are read one at a time as the driver's actions (present, select,
// enter, authorize, back, done, cancel, advance the `ManualClock`, answer a held completion) and,
// whenever the merchant's delegate is called, as its answer: now, later, twice, never, an invalid
// update, a cancel from inside the callback, now and again later.
//
// Everything runs on the fuzzer's thread on virtual time, so a session replays exactly. The
// harness keeps its own model of the contract and checks, after every step:
//   - exactly one terminal call once the flow has ended, none before, and no delegate call after it;
//   - delegate calls never nest or overlap, and one callback is outstanding at a time;
//   - actions after the end are refused with `finished`, before `present` with `notPresented`,
//     while a callback is pending with `callbackPending`; a refused action calls no delegate method;
//   - the merchant sees shipping contacts redacted, and the payment it authorizes is the sheet's;
//   - at the end, the violations recorded are exactly those the model expects (repeated, late and
//     timed-out completions, invalid updates), reported through `onViolation` in the same order;
//   - masked transcripts show no personal data, and the transcript shows one outstanding callback
//     at a time.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import CheckoutFlows
import Foundation

/// Set FUZZ_VERBOSE=1 to print each session's transcript when replaying an input.
private let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] != nil

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("flow invariant broken: \(message())") }
}

// MARK: - Input

private struct ByteStream {
    let bytes: [UInt8]
    var index = 0

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        index += 1
        return bytes[index - 1]
    }

    mutating func pick<T>(_ options: [T]) -> T { options[Int(byte()) % options.count] }

    mutating func bool() -> Bool { byte() & 1 == 1 }
}

// MARK: - Fixtures (personal data carries the marker QZX, which no masked rendering may show)

private let usd = CurrencyCode.usd
private let eur = CurrencyCode.eur

private func money(_ minorUnits: Int64, _ currency: CurrencyCode) -> Money {
    Money(minorUnits: minorUnits, currency: currency)
}

private func address(_ line1: String?, _ city: String, _ state: String?, _ zip: String?, _ country: String) -> Address {
    Address(line1: line1, city: city, state: state, postalCode: zip, country: try! CountryCode(country))
}

private let contacts: [Contact] = [
    Contact(
        name: "QZXName Hopper", emailAddress: "qzxmail@example.com", phoneNumber: "+1 512 555 0199",
        postalAddress: address("QZXStreet 1 Congress Ave", "Austin", "TX", "78701-1234", "US")),
    Contact(
        name: "QZXName Lovelace", postalAddress: address("QZXStreet 10 Downing St", "London", nil, "SW1A 2AA", "GB")),
    Contact(name: "QZXName North", postalAddress: address("QZXStreet 1 Main St", "Anchorage", "AK", "99501", "US")),
    Contact(name: "QZXName Nowhere"),
    Contact(postalAddress: address(nil, "Toronto", "ON", "M5V 3L9", "CA")),
    Contact(
        name: "Bad Email", emailAddress: "not-an-email", postalAddress: address("1 A St", "Austin", "TX", "78701", "US")
    ),
    Contact(name: "Bad ZIP", postalAddress: address("1 A St", "Austin", "TX", "ABCDE", "US")),
    Contact(postalAddress: address(nil, "Austin", "TX", "78701", "US"), isRedacted: true),
    Contact(name: "QZXName Dubai", postalAddress: address("QZXStreet 1 Sheikh Zayed Rd", "Dubai", nil, nil, "AE")),
]

private let methodIdentifiers = ["ground", "express", "pickup", "unknown", ""]

private let paymentMethods = [
    PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit),
    PaymentMethod(displayName: "Amex 0005", network: .amex, type: .debit),
    PaymentMethod(),
]

private let couponCodes = ["TEN", "", "EXPIRED", "TEN"]

private let tokens = paymentMethods.enumerated().map { index, method in
    PaymentToken(paymentMethod: method, transactionIdentifier: "txn-\(index)", paymentData: "QZXData\(index)")
}

private let billingContacts: [Contact?] = [
    nil,
    Contact(name: "QZXName Billing", emailAddress: "qzxbilling@example.com", phoneNumber: "(512) 555-0100"),
    Contact(name: "QZXName Billing", postalAddress: address("QZXStreet 2 Main", "Austin", "TX", "78702", "US")),
    Contact(emailAddress: "bad email"),
]

private let durations: [Duration] = [.zero, .seconds(1), .seconds(29), .seconds(30), .seconds(31), .seconds(3600)]

private let fieldSets: [Set<ContactField>] = (0..<16).map { bits in
    Set(ContactField.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
}

private func shippingMethod(_ identifier: String, _ minorUnits: Int64, _ currency: CurrencyCode) -> ShippingMethod {
    ShippingMethod(identifier: identifier, label: identifier.capitalized, amount: money(minorUnits, currency))
}

// MARK: - The model

/// One completion handed to the merchant, with the value it will carry, counting its calls.
private final class Handler: @unchecked Sendable {
    let method: String
    let isInvalid: Bool
    let body: () -> Void
    var calls = 0

    init(_ method: String, isInvalid: Bool, _ body: @escaping () -> Void) {
        self.method = method
        self.isInvalid = isInvalid
        self.body = body
    }
}

private enum ActionKind {
    case present
    case cancel
    case other
}

/// The session: the input, the clock, the harness's model of the contract, and what the merchant
/// saw.
private final class Session: @unchecked Sendable {
    var stream: ByteStream
    let clock = ManualClock()
    var timeout: Duration? = .seconds(30)

    // The model.
    var current: Handler?
    var currentDeadline: Duration?
    var expected: [Violation.Kind: Int] = [:]
    var held: [Handler] = []
    var unanswered: [Handler] = []

    // What the merchant saw.
    var depth = 0
    var terminals = 0
    var calls: [String] = []
    var reported: [Violation] = []

    // The flow, seen through closures so that one session type serves both flows.
    var isEnded: () -> Bool = { false }
    var isPresented: () -> Bool = { false }
    var isPending: () -> Bool = { false }
    var cancelFromInside: () -> DriverResponse = { .accepted }

    init(_ bytes: [UInt8]) { stream = ByteStream(bytes: bytes) }

    /// A delegate method starts.
    func enter(_ method: String, terminal: Bool = false) {
        require(depth == 0, "\(method) called inside \(calls.last ?? "another delegate call")")
        require(terminals == 0, "\(method) called after the terminal call")
        if terminal { terminals += 1 }
        depth += 1
        calls.append(method)
    }

    func exit() { depth -= 1 }

    /// A callback with a completion was called: it is the outstanding one now.
    func opened(_ handler: Handler) {
        require(current == nil, "\(handler.method) called while \(current?.method ?? "") is outstanding")
        current = handler
        currentDeadline = timeout.map { clock.now + $0 }
    }

    /// Calls a completion, noting the violation the flow must record for it.
    func invoke(_ handler: Handler) {
        handler.calls += 1
        if handler.calls > 1 {
            expected[.completionCalledTwice, default: 0] += 1
        } else if handler === current, !isEnded(), currentDeadline.map({ clock.now < $0 }) ?? true {
            current = nil
            if handler.isInvalid { expected[.invalidUpdate, default: 0] += 1 }
        } else {
            expected[.lateCompletion, default: 0] += 1
        }
        handler.body()
        if isEnded() { current = nil }
    }

    /// How the merchant answers a callback, read from the input.
    enum Mode: UInt8 {
        case now = 0
        case later
        case twice
        case never
        case invalid
        case cancelFirst
        case nowAndLater
        case withErrors
    }

    func mode() -> Mode { Mode(rawValue: stream.byte() % 8)! }

    func answer(_ handler: Handler, _ mode: Mode) {
        opened(handler)
        switch mode {
        case .now, .invalid, .withErrors: invoke(handler)
        case .later: held.append(handler)
        case .twice:
            invoke(handler)
            invoke(handler)
        case .never: unanswered.append(handler)
        case .cancelFirst:
            let response = cancelFromInside()
            require(response.isAccepted, "cancel from inside a callback: \(response)")
            invoke(handler)
        case .nowAndLater:
            invoke(handler)
            held.append(handler)
        }
    }

    func advance(by duration: Duration) {
        let target = clock.now + duration
        if current != nil, let deadline = currentDeadline, !isEnded(), target >= deadline {
            expected[.completionTimedOut, default: 0] += 1
            current = nil
        }
        clock.advance(by: duration)
        if isEnded() { current = nil }
    }

    func releaseHeld() {
        guard !held.isEmpty else { return }
        let index = Int(stream.byte()) % held.count
        let handler = held[index]
        if stream.bool() { held.remove(at: index) }
        invoke(handler)
    }

    func releaseAll(_ handlers: [Handler]) {
        for handler in handlers { invoke(handler) }
    }

    /// A driver action, with the answer the contract requires of it.
    func act(_ name: String, _ kind: ActionKind, _ body: () -> DriverResponse) {
        let ended = isEnded()
        let presented = isPresented()
        let pending = isPending()
        let callsBefore = calls.count
        let response = body()
        let code = response.refusal?.code
        if response.refusal != nil {
            require(calls.count == callsBefore, "the refused \(name) called \(calls[callsBefore...])")
        }
        if ended {
            require(code == .finished, "\(name) after the end answered \(response)")
        } else if !presented {
            if kind != .present { require(code == .notPresented, "\(name) before present answered \(response)") }
        } else if kind == .present {
            require(code == .alreadyPresented, "present again answered \(response)")
        } else if kind == .cancel {
            require(response.isAccepted && isEnded(), "cancel answered \(response)")
        } else if pending {
            require(code == .callbackPending, "\(name) while a callback is pending answered \(response)")
        }
        if isEnded() { current = nil }
        checkTerminal()
    }

    /// Outside delegate calls: exactly one terminal call once ended, none before.
    func checkTerminal() {
        require(depth == 0, "a delegate call did not return")
        require(terminals == (isEnded() ? 1 : 0), "\(terminals) terminal calls, ended: \(isEnded())")
    }

    /// The end of the session: late answers, then the recorded violations against the model.
    func finish(violations: () -> [Violation], transcript: () -> Transcript) {
        releaseAll(held)
        releaseAll(unanswered)
        checkTerminal()
        let recorded = violations()
        var counts: [Violation.Kind: Int] = [:]
        for violation in recorded { counts[violation.kind, default: 0] += 1 }
        require(
            counts == expected.filter { $0.value > 0 },
            "violations \(recorded.map(\.kind)) do not match the expected \(expected)")
        require(reported == recorded, "onViolation reported \(reported.map(\.kind)), recorded \(recorded.map(\.kind))")
        checkTranscript(transcript())
        if verbose { print(transcript().text(), "\nexpected violations: \(expected)\n") }
        // Drop the clock's remaining deadlines: their actions hold the flow, which holds the clock.
        advance(by: .seconds(1_000_000))
        checkTerminal()
        held = []
        unanswered = []
        current = nil
    }

    func checkTranscript(_ transcript: Transcript) {
        for rendering in [transcript.text(), transcript.json()] {
            require(!rendering.contains("QZX"), "a masked transcript shows personal data:\n\(rendering)")
        }
        _ = transcript.text(showingPersonalData: true)
        require(transcript.violations == reported, "the transcript's violations differ")
        // E1: between a callback's call and its end, no other callback is called.
        var open: UInt64?
        for entry in transcript.entries {
            switch entry.event {
            case .call(_, .some(let id), _):
                require(open == nil || open == id, "callback #\(id) called while #\(open ?? 0) is outstanding")
                open = id
            case .completion(_, let id, _, _):
                if open == id { open = nil }
            case .violation(let violation) where violation.kind == .completionTimedOut:
                if open == violation.callbackID { open = nil }
            case .outcome, .action("cancel", _):
                open = nil
            default:
                break
            }
        }
    }
}

// MARK: - The payment-authorization flow

private final class AuthorizationMerchant: PaymentAuthorizationDelegate, @unchecked Sendable {
    let session: Session
    let request: PaymentRequest
    var lastContact: Contact?
    var lastAuthorization: (token: PaymentToken, billing: Contact?)?
    var authorized: Payment?
    var expectingAuthorization = false

    init(_ session: Session, _ request: PaymentRequest) {
        self.session = session
        self.request = request
    }

    var currency: CurrencyCode { request.currency ?? usd }

    /// A summary in the request's currency, valid or broken as `mode` says; the second value
    /// says whether it is invalid.
    func summary(_ mode: Session.Mode) -> ([SummaryItem], Bool) {
        let total = Int64(session.stream.byte()) * 100
        let valid = [
            SummaryItem(label: "Tea", amount: money(total, currency)),
            SummaryItem(label: "Tea Shop", amount: money(total, currency)),
        ]
        guard mode == .invalid else { return (valid, false) }
        let other = currency == eur ? usd : eur
        switch session.stream.byte() % 3 {
        case 0: return ([SummaryItem(label: "Tea Shop", amount: money(-total - 1, currency))], true)
        case 1: return ([], true)
        default: return ([SummaryItem(label: "Tea", amount: money(total, other))] + valid, true)
        }
    }

    /// Shipping methods for an update, valid or not; nil leaves them unchanged.
    func methods(_ mode: Session.Mode) -> ([ShippingMethod]?, Bool) {
        if mode == .invalid, session.stream.bool() {
            let ground = shippingMethod("ground", 0, currency)
            return session.stream.bool() ? ([ground, ground], true) : ([shippingMethod("ground", -1, currency)], true)
        }
        switch session.stream.byte() % 4 {
        case 0: return (nil, false)
        case 1: return ([], false)
        case 2: return ([shippingMethod("ground", 0, currency), shippingMethod("express", 1500, currency)], false)
        default: return ([shippingMethod("express", 1500, currency)], false)
        }
    }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        session.enter("didFinish", terminal: true)
        defer { session.exit() }
        require(!expectingAuthorization, "didFinish between willAuthorize and didAuthorize")
        require(flow.outcome != nil, "didFinish before the flow ended")
    }

    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        session.enter("willAuthorizePayment")
        defer { session.exit() }
        expectingAuthorization = true
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        session.enter("didAuthorizePayment")
        defer { session.exit() }
        require(expectingAuthorization, "didAuthorizePayment without willAuthorizePayment")
        expectingAuthorization = false
        let sheet = flow.sheet
        let shippingRequired = request.requiredShippingContactFields
        let billingRequired = request.requiredBillingContactFields
        require(payment.token == lastAuthorization?.token, "the payment's token is not the one authorized")
        require(
            payment.billingContact == lastAuthorization?.billing?.limited(to: billingRequired),
            "the billing contact is not limited to the requested fields")
        require(
            payment.shippingContact == sheet?.shippingContact?.limited(to: shippingRequired),
            "the shipping contact is not the sheet's, limited to the requested fields")
        require(payment.shippingContact?.isRedacted != true || lastContact?.isRedacted == true, "redacted payment")
        require(payment.shippingMethod == sheet?.selectedShippingMethod, "the shipping method is not the sheet's")
        let mode = session.mode()
        let status = session.stream.pick(PaymentAuthorizationStatus.allCases)
        let errors: [PaymentError] = mode == .withErrors ? [.billingContactInvalid(.postalCode, "ZIP")] : []
        let result = PaymentAuthorizationResult(status: status, errors: errors)
        authorized = payment
        session.answer(Handler("didAuthorizePayment", isInvalid: false) { handler(result) }, mode)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        session.enter("didSelectShippingContact")
        defer { session.exit() }
        // Spec A2: the merchant sees the contact redacted.
        require(contact.isRedacted, "the shipping contact is not redacted")
        require(contact.name == nil && contact.emailAddress == nil && contact.phoneNumber == nil, "personal data")
        require(contact.postalAddress?.line1 == nil && contact.postalAddress?.line2 == nil, "street lines")
        require(contact == lastContact?.redactedForShipping(), "not the redaction of the contact selected")
        let mode = session.mode()
        let (items, badItems) = summary(mode)
        let (methods, badMethods) = methods(mode)
        let errors: [PaymentError] =
            mode == .withErrors
            ? [session.stream.pick([.shippingAddressUnserviceable("No"), .couponCodeInvalid("x")])] : []
        let update = ShippingContactUpdate(errors: errors, summaryItems: items, shippingMethods: methods)
        session.answer(Handler("didSelectShippingContact", isInvalid: badItems || badMethods) { handler(update) }, mode)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        session.enter("didSelectShippingMethod")
        defer { session.exit() }
        require(flow.sheet?.shippingMethods.contains(method) == true, "a method the sheet does not offer")
        let mode = session.mode()
        let (items, bad) = summary(mode)
        let update = ShippingMethodUpdate(summaryItems: items)
        session.answer(Handler("didSelectShippingMethod", isInvalid: bad) { handler(update) }, mode)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectPaymentMethod method: PaymentMethod,
        handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
    ) {
        session.enter("didSelectPaymentMethod")
        defer { session.exit() }
        let mode = session.mode()
        let (items, bad) = summary(mode)
        let errors: [PaymentError] = mode == .withErrors ? [PaymentError(code: .unknown, message: "Card")] : []
        let update = PaymentMethodUpdate(errors: errors, summaryItems: items)
        session.answer(Handler("didSelectPaymentMethod", isInvalid: bad) { handler(update) }, mode)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        session.enter("didChangeCouponCode")
        defer { session.exit() }
        require(request.supportsCouponCode, "a coupon code for a request without coupons")
        let mode = session.mode()
        let (items, badItems) = summary(mode)
        let (methods, badMethods) = methods(mode)
        let errors: [PaymentError] = mode == .withErrors ? [.couponCodeExpired("Expired")] : []
        let update = CouponCodeUpdate(errors: errors, summaryItems: items, shippingMethods: methods)
        session.answer(Handler("didChangeCouponCode", isInvalid: badItems || badMethods) { handler(update) }, mode)
    }
}

private func runAuthorization(_ session: Session) {
    var stream = session.stream
    let currency = stream.pick([usd, CurrencyCode.jpy, CurrencyCode.kwd])
    let total = money(Int64(stream.byte()) * 100, currency)
    let summaryItems: [SummaryItem] =
        switch stream.byte() % 16 {
        case 0: []
        case 1: [SummaryItem(label: "Refund", amount: money(-1, currency))]
        default: [SummaryItem(label: "Tea", amount: total), SummaryItem(label: "Tea Shop", amount: total)]
        }
    let methods: [ShippingMethod] =
        stream.bool()
        ? [shippingMethod("ground", 0, currency), shippingMethod("express", 1500, currency)] : []
    let request = PaymentRequest(
        merchantIdentifier: stream.byte() % 32 == 0 ? "" : "merchant.com.example.fuzz",
        countryCode: "US",
        currencyCode: currency.code,
        supportedNetworks: stream.byte() % 32 == 0 ? [] : [.visa, .amex],
        requiredBillingContactFields: stream.pick(fieldSets),
        requiredShippingContactFields: stream.pick(fieldSets),
        shippingMethods: methods,
        summaryItems: summaryItems,
        couponCode: stream.bool() ? "WELCOME" : nil,
        supportsCouponCode: stream.bool()
    )
    session.stream = stream

    let merchant = AuthorizationMerchant(session, request)
    let options = FlowOptions(
        callbackTimeout: session.timeout, clock: session.clock,
        onViolation: { [session] violation in session.reported.append(violation) })
    // Spec A1: an invalid request is refused when the flow is made, a valid one never.
    guard let flow = try? PaymentAuthorizationFlow(request: request, delegate: merchant, options: options) else {
        require(!request.problems.isEmpty, "a valid request was refused")
        return
    }
    require(request.problems.isEmpty, "an invalid request made a flow")
    session.isEnded = { [unowned flow] in flow.outcome != nil }
    session.isPresented = { [unowned flow] in flow.step != .notPresented }
    session.isPending = { [unowned flow] in
        if case .awaiting = flow.step { return true }
        return false
    }
    session.cancelFromInside = { [unowned flow] in flow.cancel() }

    var steps = 0
    while !session.stream.isAtEnd, steps < 256 {
        steps += 1
        switch session.stream.byte() % 11 {
        case 0:
            let notPresented = flow.step == .notPresented
            session.act("present", .present) { flow.present() }
            if notPresented { require(flow.step == .sheet, "present of a valid request") }
        case 1:
            let contact = session.stream.pick(contacts)
            session.act("selectShippingContact", .other) {
                merchant.lastContact = contact
                return flow.selectShippingContact(contact)
            }
        case 2:
            let identifier = session.stream.pick(methodIdentifiers)
            session.act("selectShippingMethod", .other) { flow.selectShippingMethod(identifier) }
        case 3:
            let method = session.stream.pick(paymentMethods)
            session.act("selectPaymentMethod", .other) { flow.selectPaymentMethod(method) }
        case 4:
            let code = session.stream.pick(couponCodes)
            session.act("changeCouponCode", .other) { flow.changeCouponCode(code) }
        case 5:
            let token = session.stream.pick(tokens)
            let billing = session.stream.pick(billingContacts)
            session.act("authorize", .other) {
                merchant.lastAuthorization = (token, billing)
                return flow.authorize(token, billingContact: billing)
            }
        case 6:
            session.act("cancel", .cancel) { flow.cancel() }
        case 7:
            session.advance(by: session.stream.pick(durations))
            session.checkTerminal()
        case 8:
            session.releaseHeld()
            session.checkTerminal()
        case 9:
            let held = session.held
            session.held = []
            session.releaseAll(held)
            session.checkTerminal()
        default:
            _ = flow.sheet?.grandTotal
            _ = flow.transcript.text()
        }
        if case .success(let payment) = flow.outcome {
            require(payment == merchant.authorized, "authorized a payment the merchant did not see")
        }
    }
    session.finish(violations: { flow.violations }, transcript: { flow.transcript })
}

// MARK: - The shipping-address flow

private final class ShippingMerchant: ShippingAddressDelegate, @unchecked Sendable {
    let session: Session
    let configuration: ShippingAddressConfiguration
    var lastEntered: Contact?
    var finished: (Contact, ShippingMethod?)?
    var cancelled = false

    init(_ session: Session, _ configuration: ShippingAddressConfiguration) {
        self.session = session
        self.configuration = configuration
    }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        session.enter("didCancel", terminal: true)
        defer { session.exit() }
        cancelled = true
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        session.enter("didEnterAddress")
        defer { session.exit() }
        require(address == lastEntered, "didEnterAddress with another contact than entered")
        let mode = session.mode()
        let currency = configuration.currency ?? usd
        let other = currency == eur ? usd : eur
        let ground = shippingMethod("ground", 0, currency)
        let express = shippingMethod("express", 1500, currency)
        let validation: ShippingAddressValidation
        var invalid = false
        switch mode {
        case .invalid:
            invalid = true
            validation = .valid(
                shippingMethods: session.stream.pick([
                    [ground, ground], [shippingMethod("ground", -100, currency)],
                    [ground, shippingMethod("express", 1500, other)],
                ]),
                selected: nil)
        case .withErrors:
            validation = .invalid(message: session.stream.bool() ? "We do not ship there" : nil)
        default:
            let methods: [ShippingMethod]? = session.stream.pick([nil, [], [ground], [ground, express]])
            let selected: ShippingMethod? = session.stream.pick([nil, express, shippingMethod("pickup", 0, currency)])
            validation = .valid(shippingMethods: methods, selected: selected)
        }
        session.answer(Handler("didEnterAddress", isInvalid: invalid) { completion(validation) }, mode)
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {
        session.enter("didFinish", terminal: true)
        defer { session.exit() }
        finished = (address, shippingMethod)
    }
}

private func runShipping(_ session: Session) {
    var stream = session.stream
    let configuration = ShippingAddressConfiguration(
        requiredShippingAddressFields: stream.pick(fieldSets),
        shippingType: stream.pick([.shipping, .shipping, .delivery, .storePickup]),
        prefilledAddress: stream.bool() ? contacts[0] : nil,
        selectedShippingMethod: stream.bool() ? shippingMethod("express", 1500, usd) : nil,
        currency: stream.pick([nil, usd, eur])
    )
    session.stream = stream
    let merchant = ShippingMerchant(session, configuration)
    let options = FlowOptions(
        callbackTimeout: session.timeout, clock: session.clock,
        onViolation: { [session] violation in session.reported.append(violation) })
    let flow: ShippingAddressFlow
    do {
        flow = try ShippingAddressFlow(configuration: configuration, delegate: merchant, options: options)
        require(configuration.problems.isEmpty, "a flow was created for a configuration with problems")
    } catch {
        require(!configuration.problems.isEmpty, "the flow refused a configuration without problems: \(error)")
        return
    }
    session.isEnded = { [unowned flow] in flow.outcome != nil }
    session.isPresented = { [unowned flow] in flow.step != .notPresented }
    session.isPending = { [unowned flow] in flow.step == .validatingAddress }
    session.cancelFromInside = { [unowned flow] in flow.cancel() }

    var steps = 0
    while !session.stream.isAtEnd, steps < 256 {
        steps += 1
        switch session.stream.byte() % 10 {
        case 0:
            session.act("present", .present) { flow.present() }
        case 1:
            let contact = session.stream.pick(contacts)
            session.act("enterAddress", .other) {
                merchant.lastEntered = contact
                return flow.enterAddress(contact)
            }
        case 2:
            let identifier = session.stream.pick(methodIdentifiers)
            let before = flow.step
            session.act("selectShippingMethod", .other) { flow.selectShippingMethod(identifier) }
            if case .shippingMethod(let methods, _) = before {
                let known = methods.contains { $0.identifier == identifier }
                if case .shippingMethod(_, let selected) = flow.step {
                    require(!known || selected.identifier == identifier, "the selection did not change")
                }
            }
        case 3:
            session.act("back", .other) { flow.back() }
        case 4:
            let before = flow.step
            session.act("done", .other) { flow.done() }
            if case .shippingMethod(_, let selected) = before {
                require(merchant.finished?.1 == selected, "done finished with another method")
            }
        case 5:
            session.act("cancel", .cancel) { flow.cancel() }
        case 6:
            session.advance(by: session.stream.pick(durations))
            session.checkTerminal()
        case 7:
            session.releaseHeld()
            session.checkTerminal()
        case 8:
            let held = session.held
            session.held = []
            session.releaseAll(held)
            session.checkTerminal()
        default:
            _ = flow.transcript.text()
        }
        switch flow.outcome {
        case .finished(let address, let method):
            require(merchant.finished?.0 == address && merchant.finished?.1 == method, "didFinish differs")
            require(!merchant.cancelled, "didCancel and finished")
        case .cancelled:
            require(merchant.cancelled && merchant.finished == nil, "cancelled without didCancel")
        case nil:
            break
        }
    }
    session.finish(violations: { flow.violations }, transcript: { flow.transcript })
}

// MARK: - Entry point

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let session = Session(Array(UnsafeBufferPointer(start: data, count: size)))
    let setup = session.stream.byte()
    session.timeout = [.seconds(30), .seconds(30), .seconds(5), nil][Int(setup >> 2) % 4]
    if setup & 1 == 0 {
        runAuthorization(session)
    } else {
        runShipping(session)
    }
    return 0
}
