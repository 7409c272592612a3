import CheckoutCore
import CheckoutFlows
import XCTest

/// The payment-authorization state machine on its own: no threads, no delegate, explicit virtual
/// times.
final class PaymentAuthorizationStateMachineTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Machine = PaymentAuthorizationStateMachine

    private func makeMachine(
        _ request: PaymentRequest = FlowsFixture.request(),
        timeout: Duration? = .seconds(30)
    ) -> Machine {
        Machine(
            request: request, options: FlowOptions(callbackTimeout: timeout, clock: ManualClock()))
    }

    private func presented(
        _ request: PaymentRequest = FlowsFixture.request(),
        timeout: Duration? = .seconds(30),
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> Machine {
        var machine = makeMachine(request, timeout: timeout)
        XCTAssertTrue(F.isNone(machine.present(at: .zero)), file: file, line: line)
        XCTAssertEqual(machine.step, .sheet, file: file, line: line)
        return machine
    }

    /// Selects `contact` and returns the callback id and the contact the delegate would see.
    private func selectContact(
        _ machine: inout Machine,
        _ contact: Contact = FlowsFixture.jane(),
        at time: FlowInstant = .seconds(1),
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> (id: UInt64, seen: Contact) {
        let effect = machine.selectShippingContact(contact, at: time)
        guard case .didSelectShippingContact(let seen, let id) = F.call(effect) else {
            XCTFail("expected didSelectShippingContact", file: file, line: line)
            return (0, Contact())
        }
        called(&machine, effect, at: time)
        XCTAssertEqual(machine.step, .awaiting("didSelectShippingContact"), file: file, line: line)
        return (id, seen)
    }

    /// Authorizes and returns the callback id and the payment the delegate would get.
    private func authorize(
        _ machine: inout Machine,
        _ token: PaymentToken = FlowsFixture.token(),
        billing: Contact? = nil,
        at time: FlowInstant = .seconds(5),
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> (id: UInt64, payment: Payment) {
        let effect = machine.authorize(token, billingContact: billing, at: time)
        guard case .authorize(let payment, let id) = F.call(effect) else {
            XCTFail("expected willAuthorize/didAuthorize, got \(effect)", file: file, line: line)
            return (0, Payment(token: token))
        }
        called(&machine, effect, at: time)
        XCTAssertEqual(machine.step, .awaiting("didAuthorizePayment"), file: file, line: line)
        return (id, payment)
    }

    /// Plays the engine performing the effect's delegate call at `time`: the callback's deadline
    /// starts then (spec E4).
    private func called(_ machine: inout Machine, _ effect: Effect<Machine.Call>, at time: FlowInstant) {
        if case .call(let call) = effect { machine.delegateCalled(call, at: time) }
    }

    private func assertDidFinish(_ effect: Effect<Machine.Call>, file: StaticString = #filePath, line: UInt = #line) {
        guard case .didFinish = F.call(effect) else {
            return XCTFail("expected didFinish, got \(effect)", file: file, line: line)
        }
    }

    private func contactUpdate(
        _ total: String = "20.00",
        methods: [ShippingMethod]? = nil,
        errors: [PaymentError] = []
    ) -> PaymentAuthorizationAnswer {
        .shippingContact(
            ShippingContactUpdate(errors: errors, summaryItems: F.summary(total), shippingMethods: methods))
    }

    // MARK: A1

    // spec A1: a valid request (codes case-insensitive) shows the sheet with the first shipping
    // method selected and the request's summary.
    func testPresentShowsTheSheetWithTheFirstShippingMethodSelected() {
        var request = F.request(methods: [F.express, F.standard])
        request.countryCode = "us"
        request.currencyCode = "usd"
        request.merchantCapabilities = [.emv]
        var machine = makeMachine(request)
        XCTAssertTrue(F.isNone(machine.present(at: .zero)))
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "express")
        XCTAssertEqual(machine.sheet?.selectedShippingMethod, F.express)
        XCTAssertEqual(machine.sheet?.summaryItems, request.summaryItems)
        XCTAssertEqual(machine.sheet?.grandTotal, F.money("20.00"))
        XCTAssertEqual(F.refusal(machine.present(at: .seconds(1)))?.code, .alreadyPresented)

        var none = makeMachine(F.request(methods: []))
        _ = none.present(at: .zero)
        XCTAssertNil(none.sheet?.selectedShippingMethodID)
    }

    // MARK: A2

    // spec A2: the delegate sees the contact redacted (no street, name, email, phone; ZIP
    // truncated to 5 digits) and the full contact is kept for the payment.
    func testSelectShippingContactSendsTheRedactedContact() {
        var machine = presented()
        let (id, seen) = selectContact(&machine, F.jane(zip: "95014-2083"))
        XCTAssertTrue(seen.isRedacted)
        XCTAssertNil(seen.name)
        XCTAssertNil(seen.emailAddress)
        XCTAssertNil(seen.phoneNumber)
        XCTAssertNil(seen.postalAddress?.line1)
        XCTAssertNil(seen.postalAddress?.line2)
        XCTAssertEqual(seen.postalAddress?.city, "Cupertino")
        XCTAssertEqual(seen.postalAddress?.state, "CA")
        XCTAssertEqual(seen.postalAddress?.postalCode, "95014")
        XCTAssertEqual(seen.postalAddress?.country, F.country("US"))
        guard case .call(_, _, let arguments) = machine.log.transcript.entries.last?.event else {
            return XCTFail("expected the call")
        }
        XCTAssertEqual(arguments, [.contact(seen)])
        _ = machine.answer(id, first: true, contactUpdate(), at: .seconds(2))
        XCTAssertEqual(machine.sheet?.shippingContact, F.jane(zip: "95014-2083"))
    }

    // spec A2: British and Canadian postal codes lose their last three characters, spaces
    // trimmed; elsewhere the code stays.
    func testRedactionTruncatesBritishAndCanadianPostalCodes() {
        for (code, expected) in [("SW1A 1AA", "SW1A"), ("SW1A1AA", "SW1A"), ("NW1 6XE", "NW1")] {
            var machine = presented()
            let (_, seen) = selectContact(&machine, F.sherlock(postalCode: code))
            XCTAssertEqual(seen.postalAddress?.postalCode, expected, code)
            XCTAssertNil(seen.name, code)
        }
        var canada = presented()
        let toronto = Contact(
            name: "A",
            postalAddress: Address(
                line1: "1 Yonge St",
                city: "Toronto",
                state: "ON",
                postalCode: "M5E 1W7",
                country: F.country("CA")
            )
        )
        XCTAssertEqual(selectContact(&canada, toronto).seen.postalAddress?.postalCode, "M5E")
        var germany = presented()
        let berlin = Contact(
            postalAddress: Address(
                line1: "Unter den Linden 1", city: "Berlin", postalCode: "10117", country: F.country("DE"))
        )
        XCTAssertEqual(selectContact(&germany, berlin).seen.postalAddress?.postalCode, "10117")
    }

    // spec A2: a present but invalid field is refused, naming it under shippingContact.
    func testSelectShippingContactRefusesAnInvalidField() {
        var machine = presented()
        var contact = F.jane()
        contact.emailAddress = "not-an-email"
        let refusal = F.refusal(machine.selectShippingContact(contact, at: .seconds(1)))
        XCTAssertEqual(refusal?.code, .invalidField)
        XCTAssertEqual(refusal?.fields, ["shippingContact.emailAddress"])
        XCTAssertEqual(machine.step, .sheet)
        XCTAssertEqual(machine.log.transcript.delegateCalls, [])
    }

    // spec A2: the update replaces the summary, and the methods when it carries a list; when the
    // selection vanishes the first is selected (no didSelectShippingMethod); absent list: no
    // change; empty list: none.
    func testShippingContactUpdateReplacesSummaryAndMethods() {
        var machine = presented()
        _ = machine.selectShippingMethod("express", at: .seconds(1))
        _ = machine.answer(
            1, first: true, .shippingMethod(ShippingMethodUpdate(summaryItems: F.summary("29.99"))), at: .seconds(2))
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "express")

        let kept = selectContact(&machine, at: .seconds(3))
        _ = machine.answer(
            kept.id, first: true, contactUpdate("31.00", methods: [F.overnight, F.express]), at: .seconds(4))
        XCTAssertEqual(machine.sheet?.shippingMethods, [F.overnight, F.express])
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "express")
        XCTAssertEqual(machine.sheet?.grandTotal, F.money("31.00"))

        let vanished = selectContact(&machine, F.john(), at: .seconds(5))
        let effect = machine.answer(
            vanished.id, first: true, contactUpdate("44.00", methods: [F.overnight, F.standard]), at: .seconds(6))
        XCTAssertTrue(F.isNone(effect))
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "overnight")
        XCTAssertEqual(machine.step, .sheet)

        let absent = selectContact(&machine, F.jane(), at: .seconds(7))
        _ = machine.answer(absent.id, first: true, contactUpdate("45.00", methods: nil), at: .seconds(8))
        XCTAssertEqual(machine.sheet?.shippingMethods, [F.overnight, F.standard])
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "overnight")

        let empty = selectContact(&machine, F.john(), at: .seconds(9))
        _ = machine.answer(empty.id, first: true, contactUpdate("20.00", methods: []), at: .seconds(10))
        XCTAssertEqual(machine.sheet?.shippingMethods, [])
        XCTAssertNil(machine.sheet?.selectedShippingMethodID)
        XCTAssertEqual(
            machine.log.transcript.delegateCalls,
            ["didSelectShippingMethod"] + Array(repeating: "didSelectShippingContact", count: 4)
        )
    }

    // spec A2, A6: shipping-contact errors block authorization until another contact is selected.
    func testShippingContactErrorsBlockAuthorizationUntilAnotherContact() {
        for error in [
            PaymentError.shippingContactInvalid(.postalCode, "We cannot deliver to this ZIP code"),
            PaymentError.shippingAddressUnserviceable("Out of our area"),
        ] {
            var machine = presented()
            let bad = selectContact(&machine)
            _ = machine.answer(bad.id, first: true, contactUpdate(errors: [error]), at: .seconds(2))
            XCTAssertEqual(machine.sheet?.shippingContactErrors, [error])
            XCTAssertEqual(machine.sheet?.shownErrors, [error])
            let before = machine.sheet
            let refusal = F.refusal(machine.authorize(F.token(), billingContact: nil, at: .seconds(3)))
            XCTAssertEqual(refusal?.code, .blockedByError)
            XCTAssertEqual(refusal?.blockingError, error)
            XCTAssertEqual(machine.sheet, before)

            let good = selectContact(&machine, F.john(), at: .seconds(4))
            _ = machine.answer(good.id, first: true, contactUpdate(), at: .seconds(5))
            XCTAssertEqual(machine.sheet?.shippingContactErrors, [])
            _ = authorize(&machine)
        }
    }

    // MARK: A3

    // spec A3: an unknown identifier is refused; a known one asks the delegate and its update
    // replaces the summary.
    func testSelectShippingMethod() {
        var machine = presented()
        let refusal = F.refusal(machine.selectShippingMethod("teleport", at: .seconds(1)))
        XCTAssertEqual(refusal?.code, .unknownShippingMethod)
        XCTAssertEqual(machine.step, .sheet)
        XCTAssertEqual(machine.log.transcript.delegateCalls, [])

        guard
            case .didSelectShippingMethod(let methods, let index, let id) = F.call(
                machine.selectShippingMethod("express", at: .seconds(2)))
        else { return XCTFail("expected didSelectShippingMethod") }
        XCTAssertEqual(methods[index], F.express)
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "standard", "the selection waits for the answer")
        _ = machine.answer(
            id, first: true, .shippingMethod(ShippingMethodUpdate(summaryItems: F.summary("29.99"))), at: .seconds(3))
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "express")
        XCTAssertEqual(machine.sheet?.grandTotal, F.money("29.99"))
    }

    // MARK: A4

    // spec A4: a payment-method update (a surcharge) replaces the summary; its errors block
    // authorization until another payment method is selected.
    func testPaymentMethodErrorsBlockUntilAnotherPaymentMethod() {
        var machine = presented()
        guard
            case .didSelectPaymentMethod(let method, let id) = F.call(
                machine.selectPaymentMethod(F.amex, at: .seconds(1)))
        else { return XCTFail("expected didSelectPaymentMethod") }
        XCTAssertEqual(method, F.amex)
        let error = PaymentError(code: .unknown, message: "Amex is not accepted")
        let update = PaymentMethodUpdate(errors: [error], summaryItems: F.summary("20.60"))
        _ = machine.answer(id, first: true, .paymentMethod(update), at: .seconds(2))
        XCTAssertEqual(machine.sheet?.paymentMethod, F.amex)
        XCTAssertEqual(machine.sheet?.grandTotal, F.money("20.60"))
        let refusal = F.refusal(machine.authorize(F.token(F.amex), billingContact: nil, at: .seconds(3)))
        XCTAssertEqual(refusal?.code, .blockedByError)
        XCTAssertEqual(refusal?.blockingError, error)

        _ = machine.selectShippingContact(F.jane(), at: .seconds(4))
        _ = machine.answer(2, first: true, contactUpdate(), at: .seconds(5))
        XCTAssertEqual(
            F.refusal(machine.authorize(F.token(F.amex), billingContact: nil, at: .seconds(6)))?.code, .blockedByError)

        guard case .didSelectPaymentMethod(_, let next) = F.call(machine.selectPaymentMethod(F.visa, at: .seconds(7)))
        else {
            return XCTFail("expected didSelectPaymentMethod")
        }
        _ = machine.answer(
            next, first: true, .paymentMethod(PaymentMethodUpdate(summaryItems: F.summary("20.00"))), at: .seconds(8))
        XCTAssertEqual(machine.sheet?.paymentMethodErrors, [])
        // Spec A4: authorize uses the payment it is given, with no selection callback.
        let (_, payment) = authorize(&machine, F.token(F.amex, "txn-amex"))
        XCTAssertEqual(payment.token, F.token(F.amex, "txn-amex"))
        XCTAssertEqual(
            machine.log.transcript.delegateCalls,
            [
                "didSelectPaymentMethod", "didSelectShippingContact", "didSelectPaymentMethod", "willAuthorizePayment",
                "didAuthorizePayment",
            ]
        )
    }

    // MARK: A5

    // spec A5: coupon codes only when supported; the initial code fires nothing; coupon errors
    // do not block; the update may replace the methods.
    func testCouponCodes() {
        var unsupported = presented()
        let refusal = F.refusal(unsupported.changeCouponCode("SAVE10", at: .seconds(1)))
        XCTAssertEqual(refusal?.code, .couponCodesNotSupported)
        XCTAssertEqual(unsupported.step, .sheet)

        var machine = presented(F.request(couponCode: "WELCOME", supportsCouponCode: true))
        XCTAssertEqual(machine.sheet?.couponCode, "WELCOME")
        XCTAssertEqual(machine.log.transcript.delegateCalls, [])

        guard case .didChangeCouponCode(let code, let id) = F.call(machine.changeCouponCode("SAVE10", at: .seconds(1)))
        else { return XCTFail("expected didChangeCouponCode") }
        XCTAssertEqual(code, "SAVE10")
        let errors = [PaymentError.couponCodeInvalid("Unknown coupon"), PaymentError.couponCodeExpired("Expired")]
        let update = CouponCodeUpdate(errors: errors, summaryItems: F.summary("18.00"), shippingMethods: [F.express])
        _ = machine.answer(id, first: true, .couponCode(update), at: .seconds(2))
        XCTAssertEqual(machine.sheet?.couponCode, "SAVE10")
        XCTAssertEqual(machine.sheet?.shownErrors, errors)
        XCTAssertEqual(machine.sheet?.shippingMethods, [F.express])
        XCTAssertEqual(machine.sheet?.selectedShippingMethodID, "express")
        XCTAssertEqual(machine.sheet?.grandTotal, F.money("18.00"))
        _ = selectContact(&machine, at: .seconds(3))
        _ = machine.answer(2, first: true, contactUpdate("18.00"), at: .seconds(4))
        _ = authorize(&machine)
    }

    // MARK: A6

    // spec A6: authorize is refused listing every missing required field, then calls
    // willAuthorize/didAuthorize with the full contacts limited to the requested fields.
    func testAuthorizeRefusesMissingFieldsThenPassesLimitedContacts() {
        var machine = presented(F.request(requiredShipping: [.emailAddress, .postalAddress], requiredBilling: [.name]))
        let refusal = F.refusal(machine.authorize(F.token(), billingContact: nil, at: .seconds(1)))
        XCTAssertEqual(refusal?.code, .missingRequiredFields)
        XCTAssertEqual(
            refusal?.fields, ["shippingContact.emailAddress", "shippingContact.postalAddress", "billingContact.name"])
        XCTAssertEqual(machine.step, .sheet)

        var noEmail = F.jane()
        noEmail.emailAddress = nil
        let first = selectContact(&machine, noEmail, at: .seconds(2))
        _ = machine.answer(first.id, first: true, contactUpdate(), at: .seconds(3))
        let billing = Contact(name: "Jane Appleseed", emailAddress: "billing@example.com")
        XCTAssertEqual(
            F.refusal(machine.authorize(F.token(), billingContact: billing, at: .seconds(4)))?.fields,
            ["shippingContact.emailAddress"]
        )

        let second = selectContact(&machine, F.jane(), at: .seconds(5))
        _ = machine.answer(second.id, first: true, contactUpdate(), at: .seconds(6))
        // The shipping contact complete, the billing contact lacking its name: refused for it alone.
        let nameless = F.refusal(
            machine.authorize(F.token(), billingContact: Contact(emailAddress: "billing@example.com"), at: .seconds(7)))
        XCTAssertEqual(nameless?.code, .missingRequiredFields)
        XCTAssertEqual(nameless?.fields, ["billingContact.name"])
        let (_, payment) = authorize(&machine, billing: billing, at: .seconds(7))
        XCTAssertEqual(payment.token, F.token())
        XCTAssertEqual(payment.shippingContact?.emailAddress, "jane@example.com")
        XCTAssertEqual(payment.shippingContact?.postalAddress, F.jane().postalAddress)
        XCTAssertEqual(payment.shippingContact?.postalAddress?.line1, "1 Infinite Loop")
        XCTAssertNil(payment.shippingContact?.name)
        XCTAssertNil(payment.shippingContact?.phoneNumber)
        XCTAssertEqual(payment.billingContact, Contact(name: "Jane Appleseed"))
        XCTAssertEqual(payment.shippingMethod, F.standard)
        XCTAssertEqual(
            Array(F.kinds(machine.log.transcript).suffix(3)),
            [
                "action:authorize", "call:willAuthorizePayment", "call:didAuthorizePayment",
            ])
        guard case .call(_, let callbackID, _) = machine.log.transcript.entries.dropLast().last?.event else {
            return XCTFail("expected the willAuthorize call")
        }
        XCTAssertNil(callbackID, "willAuthorizePayment is a notification")
    }

    // spec A6: without requested contact fields the payment carries no contacts.
    func testPaymentHoldsNoContactWhenNoneWasRequested() {
        var machine = presented(F.request(requiredShipping: []))
        let selected = selectContact(&machine)
        _ = machine.answer(selected.id, first: true, contactUpdate(), at: .seconds(2))
        let (_, payment) = authorize(&machine, billing: F.john())
        XCTAssertNil(payment.shippingContact)
        XCTAssertNil(payment.billingContact)
        XCTAssertEqual(payment.shippingMethod, F.standard)
    }

    // MARK: A7

    // spec A7: success ends the flow with didFinish after the result, with the payment.
    func testSuccessEndsTheFlow() {
        var machine = presented()
        let selected = selectContact(&machine)
        _ = machine.answer(selected.id, first: true, contactUpdate(), at: .seconds(2))
        let (id, payment) = authorize(&machine)
        assertDidFinish(machine.answer(id, first: true, .authorization(.success), at: .seconds(6)))
        XCTAssertEqual(machine.outcome, .success(payment))
        XCTAssertEqual(
            Array(F.kinds(machine.log.transcript).suffix(3)),
            [
                "completion:didAuthorizePayment", "outcome:success", "call:didFinish",
            ])
    }

    // spec A7: failure keeps the sheet with the errors; authorizing again is a second pair;
    // shipping-contact errors in the result block, billing errors do not; a cancel afterwards
    // ends as cancelled.
    func testFailureKeepsTheSheetAndAllowsAnotherAuthorization() {
        var machine = presented()
        let selected = selectContact(&machine)
        _ = machine.answer(selected.id, first: true, contactUpdate(), at: .seconds(2))
        let first = authorize(&machine, at: .seconds(3))
        let billingError = PaymentError.billingContactInvalid(.postalCode, "ZIP does not match")
        XCTAssertTrue(
            F.isNone(
                machine.answer(
                    first.id, first: true, .authorization(.init(status: .failure, errors: [billingError])),
                    at: .seconds(4))))
        XCTAssertEqual(machine.step, .sheet)
        XCTAssertEqual(machine.sheet?.shownErrors, [billingError])
        XCTAssertNil(machine.outcome)

        let second = authorize(&machine, at: .seconds(5))
        XCTAssertNotEqual(second.id, first.id)
        let contactError = PaymentError.shippingContactInvalid(.postalAddress, "Cannot deliver")
        _ = machine.answer(
            second.id, first: true, .authorization(.init(status: .failure, errors: [contactError])), at: .seconds(6))
        XCTAssertEqual(
            F.refusal(machine.authorize(F.token(), billingContact: nil, at: .seconds(7)))?.blockingError, contactError)
        XCTAssertEqual(
            machine.log.transcript.delegateCalls,
            [
                "didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment", "willAuthorizePayment",
                "didAuthorizePayment",
            ]
        )
        assertDidFinish(machine.cancel(at: .seconds(8)))
        XCTAssertEqual(machine.outcome, .cancelled)
    }

    // spec A7: the invalidShippingPostalAddress status blocks like a shipping-contact error.
    func testInvalidShippingAddressStatusBlocksUntilAnotherContact() {
        var machine = presented()
        let selected = selectContact(&machine)
        _ = machine.answer(selected.id, first: true, contactUpdate(), at: .seconds(2))
        let (id, _) = authorize(&machine)
        _ = machine.answer(
            id, first: true, .authorization(.init(status: .invalidShippingPostalAddress)), at: .seconds(6))
        XCTAssertEqual(
            F.refusal(machine.authorize(F.token(), billingContact: nil, at: .seconds(7)))?.code, .blockedByError)
        let other = selectContact(&machine, F.john(), at: .seconds(8))
        _ = machine.answer(other.id, first: true, contactUpdate(), at: .seconds(9))
        _ = authorize(&machine, at: .seconds(10))
    }

    // spec A7: pinRequired waits for the PIN (other actions refused), the next authorize is the
    // re-entry; pinLockout ends as failure.
    func testPinRequiredThenReentryAndLockout() {
        var machine = presented()
        let selected = selectContact(&machine)
        _ = machine.answer(selected.id, first: true, contactUpdate(), at: .seconds(2))
        let first = authorize(&machine, at: .seconds(3))
        _ = machine.answer(first.id, first: true, .authorization(.init(status: .pinRequired)), at: .seconds(4))
        XCTAssertEqual(machine.sheet?.isAwaitingPIN, true)
        XCTAssertEqual(machine.step, .sheet)
        XCTAssertEqual(F.refusal(machine.selectShippingContact(F.john(), at: .seconds(5)))?.code, .notAllowedInThisStep)
        XCTAssertEqual(F.refusal(machine.selectPaymentMethod(F.amex, at: .seconds(5)))?.code, .notAllowedInThisStep)

        let reentry = authorize(&machine, at: .seconds(6))
        XCTAssertTrue(F.kinds(machine.log.transcript).contains("action:authorize (PIN re-entry)"))
        _ = machine.answer(reentry.id, first: true, .authorization(.init(status: .pinIncorrect)), at: .seconds(7))
        XCTAssertEqual(machine.sheet?.isAwaitingPIN, true)
        let last = authorize(&machine, at: .seconds(8))
        assertDidFinish(
            machine.answer(last.id, first: true, .authorization(.init(status: .pinLockout)), at: .seconds(9)))
        XCTAssertEqual(machine.outcome, .failed(.pinLockout))
        XCTAssertEqual(machine.log.transcript.delegateCalls.filter { $0 == "willAuthorizePayment" }.count, 3)
        XCTAssertEqual(machine.log.transcript.delegateCalls.last, "didFinish")

        var succeeds = presented(F.request(requiredShipping: []))
        let pin = authorize(&succeeds, at: .seconds(1))
        _ = succeeds.answer(pin.id, first: true, .authorization(.init(status: .pinRequired)), at: .seconds(2))
        let retry = authorize(&succeeds, at: .seconds(3))
        assertDidFinish(succeeds.answer(retry.id, first: true, .authorization(.success), at: .seconds(4)))
        XCTAssertEqual(succeeds.outcome, .success(retry.payment))
    }

    // MARK: A8, E3

    // spec A8: cancel before authorization asks only for didFinish; while a callback is
    // outstanding too (E3), whose answer is then late (E2).
    func testCancelBeforeAuthorizationOnlyFinishes() {
        var machine = presented()
        assertDidFinish(machine.cancel(at: .seconds(1)))
        XCTAssertEqual(machine.outcome, .cancelled)
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didFinish"])

        var pending = presented()
        let selected = selectContact(&pending)
        assertDidFinish(pending.cancel(at: .seconds(2)))
        XCTAssertEqual(pending.outcome, .cancelled)
        XCTAssertNil(pending.pending)
        XCTAssertTrue(F.isNone(pending.answer(selected.id, first: true, contactUpdate(), at: .seconds(3))))
        XCTAssertEqual(pending.log.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(pending.log.violations.first?.callback, "didSelectShippingContact")
        XCTAssertEqual(pending.log.transcript.delegateCalls, ["didSelectShippingContact", "didFinish"])
    }

    // MARK: A9

    // spec A9: a default answer is recorded with byDefault.
    func testDefaultAnswersAreMarkedInTheTranscript() {
        var machine = presented()
        let selected = selectContact(&machine)
        var update = ShippingContactUpdate(summaryItems: F.request().summaryItems)
        update.isDefaultAnswer = true
        _ = machine.answer(selected.id, first: true, .shippingContact(update), at: .seconds(2))
        guard case .completion(let method, _, _, let byDefault) = machine.log.transcript.entries.last?.event else {
            return XCTFail("expected the completion")
        }
        XCTAssertEqual(method, "didSelectShippingContact")
        XCTAssertTrue(byDefault)
        XCTAssertEqual(machine.sheet?.summaryItems, F.request().summaryItems)
    }

    // MARK: E1, E9

    // spec E1, E9: while a callback is outstanding every action but cancel is refused with
    // callbackPending naming it, and nothing changes.
    func testActionsWhileACallbackIsOutstandingAreRefused() {
        var machine = presented(F.request(supportsCouponCode: true))
        let selected = selectContact(&machine)
        let sheet = machine.sheet
        let effects = [
            machine.selectShippingContact(F.john(), at: .seconds(2)),
            machine.selectShippingMethod("express", at: .seconds(2)),
            machine.selectPaymentMethod(F.amex, at: .seconds(2)),
            machine.changeCouponCode("SAVE", at: .seconds(2)),
            machine.authorize(F.token(), billingContact: nil, at: .seconds(2)),
        ]
        for effect in effects {
            XCTAssertEqual(F.refusal(effect)?.code, .callbackPending)
            XCTAssertEqual(F.refusal(effect)?.pendingCallback, "didSelectShippingContact")
        }
        XCTAssertEqual(machine.sheet, sheet)
        XCTAssertEqual(machine.pending?.id, selected.id)
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didSelectShippingContact"])
        XCTAssertEqual(F.kinds(machine.log.transcript).filter { $0.hasPrefix("refused:") }.count, 5)
    }

    // MARK: E2

    // spec E2: a second call of a completion is ignored and recorded; strict mode ends the flow.
    func testCompletionCalledTwice() {
        var machine = presented()
        let selected = selectContact(&machine)
        _ = machine.answer(selected.id, first: true, contactUpdate("25.00"), at: .seconds(2))
        XCTAssertTrue(F.isNone(machine.answer(selected.id, first: false, contactUpdate("99.00"), at: .seconds(3))))
        XCTAssertEqual(machine.sheet?.grandTotal, F.money("25.00"))
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionCalledTwice])
        XCTAssertEqual(machine.log.violations.first?.callback, "didSelectShippingContact")

        // spec E2: before the end too, a repeated answer changes nothing else.
        var running = presented()
        let again = selectContact(&running)
        _ = running.answer(again.id, first: true, contactUpdate("25.00"), at: .seconds(2))
        XCTAssertTrue(F.isNone(running.answer(again.id, first: false, contactUpdate("99.00"), at: .seconds(3))))
        XCTAssertNil(running.outcome)
        XCTAssertEqual(running.step, .sheet)
        XCTAssertEqual(running.sheet?.grandTotal, F.money("25.00"))
        XCTAssertEqual(running.log.violations.map(\.kind), [.completionCalledTwice])
    }

    // MARK: E4

    // spec E4: at the deadline the flow ends timedOut with didFinish; the answer is then late.
    func testDeadlineEndsTheFlowTimedOut() {
        var machine = presented()
        let selected = selectContact(&machine, at: .seconds(2))
        XCTAssertEqual(machine.pending?.deadline, .seconds(32))
        assertDidFinish(machine.deadlinePassed(selected.id, at: .seconds(32)))
        XCTAssertEqual(machine.outcome, .timedOut)
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut])
        XCTAssertTrue(F.isNone(machine.answer(selected.id, first: true, contactUpdate(), at: .seconds(33))))
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didSelectShippingContact", "didFinish"])
    }

    // spec E4, E5: an answer exactly at the deadline is late: the flow times out and still asks
    // for its one didFinish.
    func testAnswerExactlyAtTheDeadlineTimesOutAndFinishes() {
        var machine = presented(F.request(requiredShipping: []))
        let (id, _) = authorize(&machine, at: .seconds(1))
        assertDidFinish(machine.answer(id, first: true, .authorization(.success), at: .seconds(31)))
        XCTAssertEqual(machine.outcome, .timedOut)
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertEqual(
            machine.log.transcript.delegateCalls, ["willAuthorizePayment", "didAuthorizePayment", "didFinish"])
        XCTAssertTrue(F.isNone(machine.deadlinePassed(id, at: .seconds(31))))
        XCTAssertEqual(machine.log.transcript.delegateCalls.count, 3)
    }

    // spec E4: each callback gets its own full deadline; nil disables them.
    func testEachCallbackGetsItsOwnDeadline() {
        var machine = presented()
        let first = selectContact(&machine, at: .seconds(1))
        XCTAssertEqual(machine.pending?.deadline, .seconds(31))
        _ = machine.answer(first.id, first: true, contactUpdate(), at: .seconds(20))
        let second = machine.selectShippingMethod("express", at: .seconds(25))
        XCTAssertNil(machine.pending?.deadline, "the deadline starts with the delegate call")
        called(&machine, second, at: .seconds(26))
        XCTAssertEqual(machine.pending?.deadline, .seconds(56))
        XCTAssertTrue(F.isNone(machine.deadlinePassed(first.id, at: .seconds(31))), "a stale timer does nothing")
        XCTAssertNil(machine.outcome)

        var untimed = presented(timeout: nil)
        _ = selectContact(&untimed)
        XCTAssertNil(untimed.pending?.deadline)
    }

    // MARK: E7

    // spec E7: an invalid update ends the flow failed with the violation and didFinish.
    func testInvalidUpdatesEndTheFlowFailed() {
        var euroItems = F.summary("20.00")
        euroItems[0].amount = F.money("20.00", .eur)
        let cases: [(String, PaymentAuthorizationAnswer, String)] = [
            ("negative total", contactUpdate("-1.00"), "summaryItems[1].amount"),
            (
                "wrong currency", .shippingMethod(ShippingMethodUpdate(summaryItems: euroItems)),
                "summaryItems[0].amount"
            ),
            ("duplicate ids", contactUpdate(methods: [F.express, F.express]), "shippingMethods[1].identifier"),
            ("empty summary", .paymentMethod(PaymentMethodUpdate(summaryItems: [])), "summaryItems"),
            ("coupon", .couponCode(CouponCodeUpdate(summaryItems: F.summary("-0.01"))), "summaryItems[1].amount"),
        ]
        for (name, answer, field) in cases {
            var machine = presented(F.request(supportsCouponCode: true))
            let effect: Effect<Machine.Call>
            switch answer {
            case .shippingContact: effect = machine.selectShippingContact(F.jane(), at: .seconds(1))
            case .shippingMethod: effect = machine.selectShippingMethod("express", at: .seconds(1))
            case .paymentMethod: effect = machine.selectPaymentMethod(F.amex, at: .seconds(1))
            case .couponCode: effect = machine.changeCouponCode("X", at: .seconds(1))
            case .authorization, .merchantSession: effect = .none
            }
            XCTAssertNotNil(F.call(effect), name)
            assertDidFinish(machine.answer(1, first: true, answer, at: .seconds(2)))
            guard case .failed(.violation(let violation)) = machine.outcome else {
                XCTFail("\(name): expected failed, got \(String(describing: machine.outcome))")
                continue
            }
            XCTAssertEqual(violation.kind, .invalidUpdate, name)
            XCTAssertTrue(violation.detail.contains(field), "\(name): \(violation.detail)")
            XCTAssertEqual(machine.log.violations, [violation], name)
        }
    }

    // MARK: E5

    // spec E5: after the end every action is refused with finished.
    func testEverythingAfterTheEndIsRefusedWithFinished() {
        var machine = presented(F.request(supportsCouponCode: true))
        _ = machine.cancel(at: .seconds(1))
        let effects = [
            machine.present(at: .seconds(2)),
            machine.selectShippingContact(F.jane(), at: .seconds(2)),
            machine.selectShippingMethod("standard", at: .seconds(2)),
            machine.selectPaymentMethod(F.visa, at: .seconds(2)),
            machine.changeCouponCode("X", at: .seconds(2)),
            machine.authorize(F.token(), billingContact: nil, at: .seconds(2)),
            machine.cancel(at: .seconds(2)),
        ]
        for effect in effects {
            XCTAssertEqual(F.refusal(effect)?.code, .finished)
        }
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didFinish"])
        XCTAssertEqual(machine.outcome, .cancelled)
    }
}
