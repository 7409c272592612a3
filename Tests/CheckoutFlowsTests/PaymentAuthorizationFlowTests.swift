import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Foundation
import XCTest

/// The payment-authorization flow with its delegate: recording delegates, a manual clock, no
/// sleeping.
final class PaymentAuthorizationFlowTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Recorder = RecordingPaymentAuthorizationDelegate

    private func makeFlow(
        _ request: PaymentRequest = FlowsFixture.request(),
        _ delegate: Recorder,
        clock: ManualClock = ManualClock(),
        timeout: Duration? = .seconds(30),
        sink: FlowsFixture.ViolationSink? = nil,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> PaymentAuthorizationFlow {
        let flow = try! PaymentAuthorizationFlow(
            request: request,
            delegate: delegate,
            options: F.options(clock, timeout: timeout, sink: sink)
        )
        XCTAssertEqual(flow.present(), .accepted, file: file, line: line)
        return flow
    }

    private func contactUpdate(
        _ total: String = "20.00",
        methods: [ShippingMethod]? = nil,
        errors: [PaymentError] = []
    ) -> ShippingContactUpdate {
        ShippingContactUpdate(errors: errors, summaryItems: F.summary(total), shippingMethods: methods)
    }

    /// A presented flow whose shipping contact (Jane) has been selected and answered.
    private func readyToAuthorize(
        _ delegate: Recorder,
        _ request: PaymentRequest = FlowsFixture.request(),
        clock: ManualClock = ManualClock(),
        sink: FlowsFixture.ViolationSink? = nil
    ) -> PaymentAuthorizationFlow {
        let flow = makeFlow(request, delegate, clock: clock, sink: sink)
        delegate.didSelectShippingContact.script(.answer(contactUpdate()))
        XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
        XCTAssertEqual(flow.step, .sheet)
        return flow
    }

    // MARK: The happy path

    // spec A2, A3, A4, A6, A7: each selection calls its delegate method, authorization calls
    // willAuthorize then didAuthorize, success ends with didFinish.
    func testFullAuthorizationCallsTheDelegateInOrder() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(requiredShipping: [.postalAddress, .emailAddress]), delegate)
        flow.selectShippingContact(F.jane())
        delegate.didSelectShippingContact.complete(contactUpdate("20.00", methods: [F.standard, F.express]))
        flow.selectShippingMethod("express")
        delegate.didSelectShippingMethod.complete(ShippingMethodUpdate(summaryItems: F.summary("29.99")))
        flow.selectPaymentMethod(F.amex)
        delegate.didSelectPaymentMethod.complete(PaymentMethodUpdate(summaryItems: F.summary("30.89")))
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("30.89"))
        XCTAssertEqual(flow.authorize(F.token(F.amex)), .accepted)
        XCTAssertEqual(flow.step, .awaiting("didAuthorizePayment"))
        delegate.didAuthorizePayment.complete(.success)

        XCTAssertEqual(
            delegate.calledMethods,
            [
                "didSelectShippingContact", "didSelectShippingMethod", "didSelectPaymentMethod", "willAuthorizePayment",
                "didAuthorizePayment", "didFinish",
            ]
        )
        assertNoNesting(delegate)
        let payments = delegate.didAuthorizePayment.arguments
        XCTAssertEqual(delegate.didSelectShippingMethod.arguments, [F.express])
        XCTAssertEqual(delegate.didSelectPaymentMethod.arguments, [F.amex])
        XCTAssertEqual(payments.first?.shippingMethod, F.express)
        XCTAssertEqual(payments.first?.token, F.token(F.amex))
        XCTAssertEqual(flow.outcome, payments.first.map { PaymentAuthorizationOutcome.success($0) })
        XCTAssertEqual(flow.violations, [])
    }

    // MARK: A1

    // spec A1: an invalid request is refused when the flow is made, with every problem found at
    // once.
    func testInitRefusesAnInvalidRequestListingEveryProblem() {
        var negative = F.express
        negative.amount = F.money("-1.00")
        let request = PaymentRequest(
            merchantIdentifier: " ",
            countryCode: "USA",
            currencyCode: "ABC",
            supportedNetworks: [],
            merchantCapabilities: [.credit],
            shippingMethods: [F.standard, F.standard, negative],
            summaryItems: [SummaryItem(label: "Total", amount: F.money("-5.00"))]
        )
        let refusal = initError(request)
        XCTAssertEqual(refusal?.code, .invalidRequest)
        let fields = refusal?.problems.compactMap(\.field) ?? []
        for field in [
            "merchantIdentifier", "countryCode", "currencyCode", "supportedNetworks", "merchantCapabilities",
            "summaryItems[0].amount", "shippingMethods[1].identifier", "shippingMethods[2].amount",
        ] {
            XCTAssertTrue(fields.contains(field), "\(field) not in \(fields)")
        }
        XCTAssertGreaterThanOrEqual(refusal?.problems.count ?? 0, 8)
        XCTAssertTrue(refusal?.problems.contains { $0.code == .duplicateIdentifier } ?? false)
        XCTAssertTrue(refusal?.problems.contains { $0.code == .negativeAmount } ?? false)

        let mismatch = initError(
            PaymentRequest(
                merchantIdentifier: "merchant.com.example",
                countryCode: "US",
                currencyCode: "USD",
                summaryItems: [SummaryItem(label: "Total", amount: F.money("5.00", .eur))]
            )
        )
        XCTAssertEqual(mismatch?.problems.map(\.code), [.currencyMismatch])
        XCTAssertEqual(mismatch?.problems.map(\.field), ["summaryItems[0].amount"])

        let empty = initError(
            PaymentRequest(merchantIdentifier: "m", countryCode: "US", currencyCode: "USD", summaryItems: [])
        )
        XCTAssertEqual(empty?.problems.map(\.code), [.emptyList])
    }

    /// The error a flow's init throws for `request`, or nil when it made a flow.
    private func initError(_ request: PaymentRequest) -> CheckoutError? {
        do {
            _ = try PaymentAuthorizationFlow(
                request: request, delegate: Recorder(holdingUnscriptedCalls: true), options: F.options(ManualClock()))
            return nil
        } catch {
            return error as? CheckoutError
        }
    }

    // spec A1: an invalid request is refused when the flow is made (PassKit's failable init),
    // with every problem at once; no delegate call.
    func testAnInvalidRequestIsRefusedAtInit() throws {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        var request = F.request(methods: [F.express, F.express])
        request.merchantIdentifier = ""
        request.countryCode = "XX"
        request.supportedNetworks = []
        request.summaryItems = [SummaryItem(label: "Total", amount: F.money("-1.00"))]
        XCTAssertThrowsError(
            try PaymentAuthorizationFlow(request: request, delegate: delegate, options: F.options(ManualClock()))
        ) { error in
            guard let error = error as? CheckoutError else { return XCTFail("not a CheckoutError: \(error)") }
            XCTAssertEqual(error.code, .invalidRequest)
            XCTAssertEqual(
                error.problems.map(\.field),
                [
                    "merchantIdentifier", "countryCode", "supportedNetworks", "summaryItems[0].amount",
                    "shippingMethods[1].identifier",
                ]
            )
        }
        XCTAssertEqual(delegate.calledMethods, [])
    }

    // MARK: A2

    // spec A2: the delegate receives the contact redacted; the payment holds the full contact
    // limited to the requested fields.
    func testRedactedContactForTheDelegateFullContactInThePayment() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(requiredShipping: [.postalAddress, .phoneNumber]), delegate)
        delegate.didSelectShippingContact.script(.answer(contactUpdate()))
        delegate.didAuthorizePayment.script(.answer(.success))
        flow.selectShippingContact(F.jane(zip: "95014-2083"))
        let seen = delegate.didSelectShippingContact.arguments.first
        XCTAssertEqual(
            seen,
            Contact(
                postalAddress: Address(city: "Cupertino", state: "CA", postalCode: "95014", country: F.country("US")),
                isRedacted: true
            )
        )
        flow.authorize(F.token())
        let payment = delegate.didAuthorizePayment.arguments.first
        XCTAssertEqual(
            payment?.shippingContact,
            Contact(phoneNumber: "+1 408 555 0100", postalAddress: F.jane(zip: "95014-2083").postalAddress)
        )
        XCTAssertEqual(payment?.shippingContact?.postalAddress?.line1, "1 Infinite Loop")
        XCTAssertNil(payment?.billingContact)
        XCTAssertEqual(flow.outcome, payment.map { PaymentAuthorizationOutcome.success($0) })
    }

    // spec A2: a list in the update replaces the methods and reselects the first when the
    // selection vanished, without a didSelectShippingMethod call.
    func testContactUpdateReplacesMethodsWithoutSelectionCallback() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate)
        delegate.didSelectShippingMethod.script(.answer(ShippingMethodUpdate(summaryItems: F.summary("29.99"))))
        flow.selectShippingMethod("express")
        XCTAssertEqual(flow.sheet?.selectedShippingMethodID, "express")
        delegate.didSelectShippingContact.script(.answer(contactUpdate("44.00", methods: [F.overnight, F.standard])))
        flow.selectShippingContact(F.jane())
        XCTAssertEqual(flow.sheet?.shippingMethods, [F.overnight, F.standard])
        XCTAssertEqual(flow.sheet?.selectedShippingMethod, F.overnight)
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("44.00"))
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingMethod", "didSelectShippingContact"])
    }

    // spec A2, A6: contact errors block authorize (blockedByError naming the error) until another
    // contact is selected.
    func testContactErrorsBlockAuthorizationUntilAnotherContact() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate)
        let error = PaymentError.shippingAddressUnserviceable("We do not deliver there")
        delegate.didSelectShippingContact.script(.answer(contactUpdate(errors: [error])), .answer(contactUpdate()))
        flow.selectShippingContact(F.jane())
        XCTAssertEqual(flow.sheet?.shownErrors, [error])
        let refusal = flow.authorize(F.token()).refusal
        XCTAssertEqual(refusal?.code, .blockedByError)
        XCTAssertEqual(refusal?.blockingError, error)
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact"])

        flow.selectShippingContact(F.john())
        XCTAssertEqual(flow.authorize(F.token()), .accepted)
        XCTAssertEqual(
            delegate.calledMethods,
            ["didSelectShippingContact", "didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment"]
        )
    }

    // MARK: A3

    // spec A3: an unknown shipping method is refused; no delegate call.
    func testUnknownShippingMethodIsRefused() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate)
        let refusal = flow.selectShippingMethod("overnight").refusal
        XCTAssertEqual(refusal?.code, .unknownShippingMethod)
        XCTAssertEqual(delegate.calledMethods, [])
        XCTAssertEqual(flow.sheet?.selectedShippingMethodID, "standard")
    }

    // MARK: A4

    // spec A4: payment-method errors block authorization until another payment method is
    // selected; authorize implies no selection callback.
    func testPaymentMethodErrorsBlockUntilAnotherPaymentMethod() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate)
        let error = PaymentError(code: .unknown, message: "Debit cards only")
        delegate.didSelectPaymentMethod.script(
            .answer(PaymentMethodUpdate(errors: [error], summaryItems: F.summary("20.00"))),
            .answer(PaymentMethodUpdate(summaryItems: F.summary("20.00")))
        )
        flow.selectPaymentMethod(F.amex)
        XCTAssertEqual(flow.authorize(F.token(F.amex)).refusal?.blockingError, error)
        flow.selectPaymentMethod(F.visa)
        XCTAssertEqual(flow.authorize(F.token(F.amex)), .accepted)
        XCTAssertEqual(delegate.didAuthorizePayment.arguments.first?.token.paymentMethod, F.amex)
        XCTAssertEqual(delegate.calledMethods.filter { $0 == "didSelectPaymentMethod" }.count, 2)
    }

    // MARK: A5

    // spec A5: coupons refused when unsupported; the initial code fires nothing; coupon errors do
    // not block.
    func testCouponCodes() {
        let unsupportedDelegate = Recorder(holdingUnscriptedCalls: true)
        let unsupported = makeFlow(F.request(), unsupportedDelegate)
        XCTAssertEqual(unsupported.changeCouponCode("SAVE").refusal?.code, .couponCodesNotSupported)
        XCTAssertEqual(unsupportedDelegate.calledMethods, [])

        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate, F.request(couponCode: "WELCOME", supportsCouponCode: true))
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact"], "the initial coupon fires no event")
        let expired = PaymentError.couponCodeExpired("This coupon expired")
        delegate.didChangeCouponCode.script(
            .answer(CouponCodeUpdate(errors: [expired], summaryItems: F.summary("20.00"))))
        flow.changeCouponCode("OLD")
        XCTAssertEqual(delegate.didChangeCouponCode.arguments, ["OLD"])
        XCTAssertEqual(flow.sheet?.shownErrors, [expired])
        XCTAssertEqual(flow.authorize(F.token()), .accepted)
    }

    // MARK: A6

    // spec A6: authorize is refused listing the missing required fields; otherwise
    // willAuthorizePayment (no completion) then didAuthorizePayment.
    func testAuthorizeRequiresTheRequestedFields() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(
            F.request(requiredShipping: [.emailAddress, .postalAddress], requiredBilling: [.postalAddress]), delegate)
        let refusal = flow.authorize(F.token()).refusal
        XCTAssertEqual(refusal?.code, .missingRequiredFields)
        XCTAssertEqual(
            refusal?.fields,
            ["shippingContact.emailAddress", "shippingContact.postalAddress", "billingContact.postalAddress"]
        )
        XCTAssertEqual(delegate.calledMethods, [])

        delegate.didSelectShippingContact.script(.answer(contactUpdate()))
        flow.selectShippingContact(F.jane())
        XCTAssertEqual(flow.authorize(F.token(), billingContact: F.john()), .accepted)
        XCTAssertEqual(
            delegate.calledMethods, ["didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment"])
        let payment = delegate.didAuthorizePayment.arguments.first
        XCTAssertEqual(payment?.billingContact, Contact(postalAddress: F.john().postalAddress))
        XCTAssertEqual(
            payment?.shippingContact, Contact(emailAddress: "jane@example.com", postalAddress: F.jane().postalAddress))
        XCTAssertEqual(payment?.shippingMethod, F.standard)
    }

    // MARK: A7

    // spec A7: failure keeps the sheet with its errors; a second authorize is a second
    // willAuthorize/didAuthorize pair; success then ends with didFinish after the result.
    func testFailureThenSecondAuthorization() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate)
        let error = PaymentError.billingContactInvalid(.postalCode, "ZIP mismatch")
        flow.authorize(F.token())
        delegate.didAuthorizePayment.complete(PaymentAuthorizationResult(status: .failure, errors: [error]))
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(flow.sheet?.shownErrors, [error])
        XCTAssertNil(flow.outcome)
        XCTAssertEqual(flow.authorize(F.token(F.visa, "txn-2")), .accepted, "billing errors do not block")
        delegate.didAuthorizePayment.complete(.success)
        XCTAssertEqual(
            delegate.calledMethods,
            [
                "didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment", "willAuthorizePayment",
                "didAuthorizePayment", "didFinish",
            ]
        )
        XCTAssertEqual(delegate.didAuthorizePayment.arguments.map(\.token.transactionIdentifier), ["txn-1", "txn-2"])
        XCTAssertEqual(
            flow.outcome, delegate.didAuthorizePayment.arguments.last.map { PaymentAuthorizationOutcome.success($0) }
        )
    }

    // spec A7: pinRequired, then the next authorize is the re-entry; pinLockout ends failed.
    func testPinRequiredReentryAndLockout() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate)
        delegate.didAuthorizePayment.script(
            .answer(PaymentAuthorizationResult(status: .pinRequired)),
            .answer(PaymentAuthorizationResult(status: .pinLockout))
        )
        flow.authorize(F.token())
        XCTAssertEqual(flow.sheet?.isAwaitingPIN, true)
        XCTAssertEqual(flow.selectShippingMethod("express").refusal?.code, .notAllowedInThisStep)
        flow.authorize(F.token())
        XCTAssertEqual(flow.outcome, .failed(.pinLockout))
        XCTAssertEqual(
            delegate.calledMethods,
            [
                "didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment", "willAuthorizePayment",
                "didAuthorizePayment", "didFinish",
            ]
        )
        XCTAssertTrue(F.kinds(flow.transcript).contains("action:authorize (PIN re-entry)"))
    }

    // spec A7, A8: a cancel after a failed authorization ends as cancelled.
    func testCancelAfterFailureEndsCancelled() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate)
        delegate.didAuthorizePayment.script(.answer(PaymentAuthorizationResult(status: .failure)))
        flow.authorize(F.token())
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(delegate.calledMethods.last, "didFinish")
        XCTAssertEqual(delegate.calledMethods.filter { $0 == "didFinish" }.count, 1)
    }

    // MARK: A8

    // spec A8: cancel before authorization calls only didFinish.
    func testCancelBeforeAuthorizationOnlyFinishes() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate)
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didFinish"])
        XCTAssertEqual(flow.outcome, .cancelled)
    }

    // MARK: A9

    // spec A9: a delegate with only the required methods gets default answers, recorded with
    // byDefault: true.
    func testDefaultAnswersForUnimplementedMethods() throws {
        let merchant = MinimalMerchant()
        let flow = try PaymentAuthorizationFlow(
            request: F.request(supportsCouponCode: true),
            delegate: merchant,
            options: F.options(ManualClock())
        )
        flow.present()
        XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
        XCTAssertEqual(flow.selectPaymentMethod(F.amex), .accepted)
        XCTAssertEqual(flow.changeCouponCode("SAVE"), .accepted)
        XCTAssertEqual(flow.sheet?.summaryItems, F.request().summaryItems)
        XCTAssertEqual(flow.sheet?.selectedShippingMethodID, "express")
        XCTAssertEqual(flow.sheet?.couponCode, "SAVE")

        let defaults = flow.transcript.entries.compactMap { entry -> String? in
            guard case .completion(let method, _, _, true) = entry.event else { return nil }
            return method
        }
        XCTAssertEqual(
            defaults,
            ["didSelectShippingContact", "didSelectShippingMethod", "didSelectPaymentMethod", "didChangeCouponCode"]
        )
        XCTAssertTrue(flow.transcript.text().contains("[default answer]"))
        let completions = F.jsonObjects(flow.transcript.json()).filter { $0["kind"] as? String == "completion" }
        XCTAssertEqual(completions.compactMap { $0["byDefault"] as? Bool }, [true, true, true, true])
        // spec E8: each update in CheckoutCore's own JSON, its summary items as the request's.
        for completion in completions {
            let update = (completion["answer"] as? [[String: Any]])?.first
            let items = update?["summaryItems"] as? [[String: Any]]
            XCTAssertEqual(items?.compactMap { $0["label"] as? String }, F.request().summaryItems.map(\.label))
            XCTAssertEqual(
                (items?.last?["amount"] as? [String: String])?["value"],
                F.request().summaryItems.last?.amount.amountString)
        }

        flow.authorize(F.token())
        XCTAssertEqual(flow.outcome, .success(merchant.payments[0]))
        XCTAssertEqual(merchant.calls, ["didAuthorizePayment", "didFinish"])
        XCTAssertEqual(flow.violations, [])
    }

    // MARK: E1

    // spec E1: while a completion is outstanding, actions are refused with callbackPending
    // naming it, recorded, not queued.
    func testActionsWhileACompletionIsOutstandingAreRefused() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(supportsCouponCode: true), delegate)
        flow.selectShippingContact(F.jane())
        let responses = [
            flow.selectShippingContact(F.john()), flow.selectShippingMethod("express"),
            flow.selectPaymentMethod(F.visa),
            flow.changeCouponCode("X"), flow.authorize(F.token()),
        ]
        for response in responses {
            XCTAssertEqual(response.refusal?.code, .callbackPending)
            XCTAssertEqual(response.refusal?.pendingCallback, "didSelectShippingContact")
        }
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact"])
        XCTAssertEqual(F.kinds(flow.transcript).filter { $0.hasSuffix(":callbackPending") }.count, 5)
        delegate.didSelectShippingContact.complete(contactUpdate())
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact"], "nothing was queued")
        XCTAssertEqual(flow.step, .sheet)
    }

    // MARK: E2

    // spec E2: a completion called twice is completionCalledTwice; after a cancel or a timeout
    // it is lateCompletion; none changes anything.
    func testRepeatedAndLateCompletions() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate)
        flow.selectShippingContact(F.jane())
        delegate.didSelectShippingContact.complete(contactUpdate("21.00"))
        delegate.didSelectShippingContact.complete(contactUpdate("99.00"))
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("21.00"))
        XCTAssertEqual(flow.violations.map(\.kind), [.completionCalledTwice])

        let clock = ManualClock()
        let timedDelegate = Recorder(holdingUnscriptedCalls: true)
        let timed = makeFlow(F.request(), timedDelegate, clock: clock)
        timed.selectShippingContact(F.jane())
        clock.advance(by: .seconds(30))
        timedDelegate.didSelectShippingContact.complete(contactUpdate())
        XCTAssertEqual(timed.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertEqual(timed.outcome, .timedOut)
        XCTAssertEqual(timedDelegate.calledMethods, ["didSelectShippingContact", "didFinish"])
    }

    // MARK: E3

    // spec E3, E2: cancel while didAuthorizePayment is outstanding ends at once with didFinish;
    // the result then is late and the outcome stays cancelled.
    func testCancelWhileAuthorizationIsOutstanding() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate)
        flow.authorize(F.token())
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(delegate.calledMethods.suffix(3), ["willAuthorizePayment", "didAuthorizePayment", "didFinish"])
        XCTAssertEqual(flow.outcome, .cancelled)
        delegate.didAuthorizePayment.complete(.success)
        XCTAssertEqual(flow.outcome, .cancelled)
        XCTAssertEqual(flow.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(flow.violations.first?.callback, "didAuthorizePayment")
        XCTAssertEqual(delegate.calledMethods.filter { $0 == "didFinish" }.count, 1)
    }

    // MARK: E4

    // spec E4: default 30 s deadline: the flow ends timedOut with didFinish.
    func testDefaultDeadlineEndsTimedOut() throws {
        let clock = ManualClock()
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: delegate, options: FlowOptions(clock: clock))
        flow.present()
        delegate.didSelectShippingContact.script(.answer(contactUpdate()))
        flow.selectShippingContact(F.jane())
        flow.authorize(F.token())
        clock.advance(by: .seconds(30) - .nanoseconds(1))
        XCTAssertEqual(flow.step, .awaiting("didAuthorizePayment"))
        clock.advance(by: .nanoseconds(1))
        XCTAssertEqual(flow.outcome, .timedOut)
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(flow.violations.first?.callback, "didAuthorizePayment")
        XCTAssertEqual(delegate.calledMethods.last, "didFinish")
        XCTAssertEqual(flow.authorize(F.token()).refusal?.code, .finished)
    }

    // spec E4, E6: a callback's deadline starts when its delegate method is called. The second
    // callback is queued while the first one's merchant, having answered, keeps the drain busy for
    // 40 s of the clock; the second still has its full 30 s and its in-time answer takes effect.
    func testDeadlineStartsWhenTheDelegateIsCalledNotWhenTheCallIsQueued() throws {
        let clock = ManualClock()
        let merchant = BusyFirstAnswerSheetMerchant(clock: clock)
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: merchant, options: F.options(clock, timeout: .seconds(30)))
        XCTAssertEqual(flow.present(), .accepted)
        XCTAssertEqual(flow.selectShippingContact(F.jane()), .accepted)
        XCTAssertEqual(clock.now, .seconds(40))
        XCTAssertEqual(flow.violations, [])
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(flow.sheet?.selectedShippingMethod?.identifier, "express")
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("31.00"))
        XCTAssertNil(flow.outcome)
    }

    // spec E4, E5: an answer exactly at the deadline is late: the flow times out and its one
    // didFinish is still called.
    func testAnswerExactlyAtTheDeadlineIsLate() {
        let clock = ManualClock()
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate, clock: clock)
        clock.advance(by: .seconds(10))
        // Scheduled before the flow's own deadline, so it runs first at the same instant.
        _ = clock.schedule(at: .seconds(40)) { delegate.didAuthorizePayment.complete(.success) }
        flow.authorize(F.token())
        clock.advance(by: .seconds(30))
        XCTAssertEqual(flow.outcome, .timedOut)
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertEqual(flow.violations.map(\.time), [.seconds(40), .seconds(40)])
        XCTAssertEqual(delegate.calledMethods.last, "didFinish")
        XCTAssertEqual(delegate.calledMethods.filter { $0 == "didFinish" }.count, 1)
    }

    // spec E4: each callback gets its own full deadline; nil disables deadlines.
    func testEachCallbackGetsItsOwnDeadlineAndNilDisables() {
        let clock = ManualClock()
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate, clock: clock)
        flow.selectShippingContact(F.jane())
        clock.advance(by: .seconds(25))
        delegate.didSelectShippingContact.complete(contactUpdate())
        flow.selectShippingMethod("express")
        clock.advance(by: .seconds(29))
        XCTAssertEqual(flow.step, .awaiting("didSelectShippingMethod"))
        clock.advance(by: .seconds(1))
        XCTAssertEqual(flow.outcome, .timedOut)
        XCTAssertEqual(flow.violations.first?.time, .seconds(55))
        XCTAssertEqual(flow.violations.first?.callback, "didSelectShippingMethod")

        let untimedClock = ManualClock()
        let untimedDelegate = Recorder(holdingUnscriptedCalls: true)
        let untimed = makeFlow(F.request(), untimedDelegate, clock: untimedClock, timeout: nil)
        untimed.selectShippingContact(F.jane())
        XCTAssertEqual(untimedClock.pendingDeadlines, 0)
        untimedClock.advance(by: .seconds(86_400))
        untimedDelegate.didSelectShippingContact.complete(contactUpdate())
        XCTAssertEqual(untimed.step, .sheet)
        XCTAssertEqual(untimed.violations, [])
    }

    // MARK: E5

    // spec E5: after didFinish every action is refused with finished and nothing is called.
    func testEverythingAfterDidFinishIsRefused() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(supportsCouponCode: true), delegate)
        flow.cancel()
        let responses = [
            flow.present(), flow.selectShippingContact(F.jane()), flow.selectShippingMethod("standard"),
            flow.selectPaymentMethod(F.visa), flow.changeCouponCode("X"), flow.authorize(F.token()), flow.cancel(),
        ]
        for response in responses {
            XCTAssertEqual(response.refusal?.code, .finished)
        }
        XCTAssertEqual(delegate.calledMethods, ["didFinish"])
        XCTAssertNil(flow.sheet)
    }

    /// A flow whose delegate only the flow holds, with `didAuthorizePayment` outstanding.
    private func flowHoldingTheOnlyReference() -> (PaymentAuthorizationFlow, FlowsFixture.WeakBox<Recorder>) {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate)
        flow.authorize(F.token())
        return (flow, FlowsFixture.WeakBox(delegate))
    }

    // spec E5: the delegate is held until didFinish and released then, the flow still alive.
    func testTheDelegateIsReleasedAfterDidFinish() {
        let (flow, weakDelegate) = flowHoldingTheOnlyReference()
        XCTAssertNotNil(weakDelegate.object)
        weakDelegate.object?.didAuthorizePayment.complete(.success)
        XCTAssertNil(weakDelegate.object, "released after didFinish")
        guard case .success = flow.outcome else { return XCTFail("expected success") }
    }

    // spec E5: a flow freed before its terminal call, never presented or dropped while the sheet
    // waits for the customer, releases its delegate with it (the runner holds the delegate's box
    // with a retain of its own, given back when the flow ends or is freed).
    func testAFlowFreedBeforeItsEndReleasesItsDelegate() throws {
        for presented in [false, true] {
            let delegate = Recorder(holdingUnscriptedCalls: true)
            let weakDelegate = FlowsFixture.WeakBox(delegate)
            var flow: PaymentAuthorizationFlow? = try PaymentAuthorizationFlow(
                request: F.request(), delegate: delegate, options: F.options(ManualClock(), timeout: nil))
            if presented { XCTAssertEqual(flow?.present(), .accepted) }
            let weakFlow = FlowsFixture.WeakBox(try XCTUnwrap(flow))
            _ = consume delegate
            XCTAssertNotNil(weakDelegate.object, "held by the flow (presented: \(presented))")
            flow = nil
            XCTAssertNil(weakFlow.object, "the flow is freed (presented: \(presented))")
            XCTAssertNil(weakDelegate.object, "and its delegate with it (presented: \(presented))")
        }
    }

    // spec E5: a flow refused at its making (an invalid request) releases its delegate.
    func testARefusedRequestReleasesItsDelegate() {
        var request = F.request()
        request.merchantIdentifier = ""
        var delegate: Recorder? = Recorder()
        let weakDelegate = FlowsFixture.WeakBox(delegate!)
        XCTAssertThrowsError(
            try PaymentAuthorizationFlow(
                request: request, delegate: delegate!, options: F.options(ManualClock(), timeout: nil)))
        delegate = nil
        XCTAssertNil(weakDelegate.object, "released with the refused flow")
    }

    // spec E5: an async delegate is released after the terminal call, as one with completion
    // handlers is.
    func testAnAsyncDelegateIsReleasedAfterDidFinish() async throws {
        final class Quiet: AsyncPaymentAuthorizationDelegate {
            func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
            func paymentAuthorizationFlow(
                _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment
            ) async -> PaymentAuthorizationResult { .success }
        }
        var delegate: Quiet? = Quiet()
        let weakDelegate = FlowsFixture.WeakBox(try XCTUnwrap(delegate))
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: try XCTUnwrap(delegate), options: F.options(ManualClock(), timeout: nil))
        delegate = nil
        XCTAssertEqual(flow.present(), .accepted)
        XCTAssertNotNil(weakDelegate.object, "held until didFinish")
        _ = try await flow.cancelAndWait()
        XCTAssertNil(weakDelegate.object, "released after didFinish")
    }

    // MARK: E6

    // spec E6: a delegate answering every callback synchronously: no deadlock, no nesting, the
    // next call only after the previous returned.
    func testSynchronousAnswersInsideCallbacks() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        delegate.didSelectShippingContact.script(.answer(contactUpdate()))
        delegate.didSelectShippingMethod.script(.answer(ShippingMethodUpdate(summaryItems: F.summary("29.99"))))
        delegate.didAuthorizePayment.script(.answer(.success))
        let flow = makeFlow(F.request(), delegate)
        flow.selectShippingContact(F.jane())
        flow.selectShippingMethod("express")
        flow.authorize(F.token())
        XCTAssertEqual(
            delegate.trace,
            [
                ">didSelectShippingContact", "<didSelectShippingContact", ">didSelectShippingMethod",
                "<didSelectShippingMethod", ">willAuthorizePayment", "<willAuthorizePayment", ">didAuthorizePayment",
                "<didAuthorizePayment", ">didFinish", "<didFinish",
            ]
        )
        assertNoNesting(delegate)
        guard case .success = flow.outcome else { return XCTFail("expected success") }
    }

    // spec E6, E3: cancel() from inside didAuthorizePayment: accepted, didFinish after the
    // callback returned.
    func testCancelInsideTheCallback() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate)
        delegate.didAuthorizePayment.script(.cancel)
        XCTAssertEqual(flow.authorize(F.token()), .accepted)
        XCTAssertEqual(delegate.cancelResponses, [.accepted])
        XCTAssertEqual(
            Array(delegate.trace.suffix(6)),
            [
                ">willAuthorizePayment", "<willAuthorizePayment", ">didAuthorizePayment", "<didAuthorizePayment",
                ">didFinish", "<didFinish",
            ]
        )
        assertNoNesting(delegate)
        XCTAssertEqual(flow.outcome, .cancelled)
    }

    // MARK: E7

    // spec E7: invalid updates (negative total, wrong currency, duplicate method ids, empty
    // summary) end the flow failed with the violation and didFinish.
    func testInvalidUpdatesEndTheFlowFailed() {
        var euro = F.summary("20.00")
        euro[1].amount = F.money("20.00", .eur)
        let updates: [(String, ShippingContactUpdate)] = [
            ("negative total", contactUpdate("-0.01")),
            ("wrong currency", ShippingContactUpdate(summaryItems: euro)),
            ("duplicate ids", contactUpdate(methods: [F.standard, F.express, F.standard])),
            ("empty summary", ShippingContactUpdate(summaryItems: [])),
        ]
        for (name, update) in updates {
            let delegate = Recorder(holdingUnscriptedCalls: true)
            delegate.didSelectShippingContact.script(.answer(update))
            let flow = makeFlow(F.request(), delegate)
            flow.selectShippingContact(F.jane())
            guard case .failed(.violation(let violation)) = flow.outcome else {
                XCTFail("\(name): expected failed, got \(String(describing: flow.outcome))")
                continue
            }
            XCTAssertEqual(violation.kind, .invalidUpdate, name)
            XCTAssertEqual(violation.callback, "didSelectShippingContact", name)
            XCTAssertEqual(flow.violations, [violation], name)
            XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact", "didFinish"], name)
        }
    }

    // MARK: E8

    // spec E8: the transcript masks the payment's personal data unless asked, with virtual
    // times, refusals, calls, completions, violations and the outcome.
    func testTranscriptOfAnAuthorization() {
        let clock = ManualClock()
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(
            F.request(requiredShipping: [.postalAddress, .name, .emailAddress]), delegate, clock: clock)
        flow.authorize(F.token())
        clock.advance(by: .seconds(1))
        flow.selectShippingContact(F.jane())
        clock.advance(by: .milliseconds(250))
        delegate.didSelectShippingContact.complete(contactUpdate())
        delegate.didSelectShippingContact.complete(contactUpdate())
        clock.advance(by: .seconds(2))
        flow.authorize(F.token())
        clock.advance(by: .seconds(3))
        delegate.didAuthorizePayment.complete(.success)

        XCTAssertEqual(
            F.kinds(flow.transcript),
            [
                "action:present", "refused:authorize:missingRequiredFields", "action:selectShippingContact",
                "call:didSelectShippingContact", "completion:didSelectShippingContact",
                "violation:completionCalledTwice",
                "action:authorize", "call:willAuthorizePayment", "call:didAuthorizePayment",
                "completion:didAuthorizePayment", "outcome:success", "call:didFinish",
            ]
        )
        let text = flow.transcript.text()
        let unmasked = flow.transcript.text(showingPersonalData: true)
        for personal in ["1 Infinite Loop", "Jane Appleseed", "jane@example.com"] {
            XCTAssertFalse(text.contains(personal), personal)
            XCTAssertFalse(flow.transcript.json().contains(personal), personal)
            XCTAssertTrue(unmasked.contains(personal), personal)
        }
        XCTAssertFalse(text.contains("tok_visa"), "payment data is never shown")
        XCTAssertTrue(text.contains("RedactedContact"))
        XCTAssertEqual(
            F.jsonObjects(flow.transcript.json()).compactMap { ($0["time"] as? NSNumber).map { "\($0)" } },
            ["0", "0", "1", "1", "1.25", "1.25", "3.25", "3.25", "3.25", "6.25", "6.25", "6.25"]
        )
    }

    // MARK: E9

    // spec E9: refusals change nothing and call nothing.
    func testRefusalsChangeNothing() {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(requiredShipping: [.postalAddress]), delegate)
        let sheet = flow.sheet
        var badEmail = F.jane()
        badEmail.emailAddress = "@"
        let refusals = [
            flow.present(), flow.selectShippingMethod("nope"), flow.changeCouponCode("X"), flow.authorize(F.token()),
            flow.selectShippingContact(badEmail),
        ]
        XCTAssertEqual(
            refusals.map { $0.refusal?.code },
            [
                .alreadyPresented, .unknownShippingMethod, .couponCodesNotSupported, .missingRequiredFields,
                .invalidField,
            ]
        )
        XCTAssertEqual(flow.sheet, sheet)
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(delegate.calledMethods, [])
        XCTAssertEqual(flow.transcript.delegateCalls, [])
        XCTAssertEqual(flow.violations, [])
    }

    // spec E2, E9: a violation is reported to onViolation and changes nothing else: the sheet
    // stays and authorizes; onViolation receives the violations in order.
    func testViolationsChangeNothingAndReachTheObserver() {
        let sink = FlowsFixture.ViolationSink()
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = readyToAuthorize(delegate, sink: sink)
        delegate.didSelectShippingContact.complete(contactUpdate("99.00"))
        XCTAssertNil(flow.outcome)
        XCTAssertEqual(flow.step, .sheet)
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("20.00"))
        XCTAssertEqual(sink.violations.map(\.kind), [.completionCalledTwice])
        delegate.didAuthorizePayment.script(.answer(.success))
        XCTAssertEqual(flow.authorize(F.token()), .accepted)
        guard case .success = flow.outcome else {
            return XCTFail("expected success, got \(String(describing: flow.outcome))")
        }
        XCTAssertEqual(
            delegate.calledMethods,
            ["didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment", "didFinish"])
        XCTAssertEqual(sink.violations, flow.violations)

        let clock = ManualClock()
        let orderSink = FlowsFixture.ViolationSink()
        let lenient = Recorder(holdingUnscriptedCalls: true)
        let lenientFlow = readyToAuthorize(lenient, clock: clock, sink: orderSink)
        lenient.didSelectShippingContact.complete(contactUpdate())
        lenientFlow.authorize(F.token())
        clock.advance(by: .seconds(30))
        lenient.didAuthorizePayment.complete(.success)
        XCTAssertEqual(
            orderSink.violations.map(\.kind), [.completionCalledTwice, .completionTimedOut, .lateCompletion])
        XCTAssertEqual(orderSink.violations, lenientFlow.violations)
    }

    // MARK: Async forms

    // spec A2, A6, A7, E1: an async delegate bridged onto the engine; the async driver awaits
    // each answer.
    func testAsyncDelegateAndAsyncDriver() async throws {
        let merchant = AsyncMerchant()
        let flow = try PaymentAuthorizationFlow(
            request: F.request(), delegate: merchant, options: F.options(ManualClock()))
        flow.present()
        let update = try await flow.selectShippingContactAndWait(F.jane())
        XCTAssertEqual(update.summaryItems, F.summary("25.00"))
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("25.00"))
        let methodUpdate = try await flow.selectShippingMethodAndWait("express")
        XCTAssertEqual(methodUpdate.summaryItems, F.summary("25.00"), "the default answer keeps the summary")
        let result = try await flow.authorizeAndWait(F.token())
        XCTAssertEqual(result, .success)
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, merchant.payments.first.map { PaymentAuthorizationOutcome.success($0) })
        XCTAssertEqual(
            merchant.calls,
            ["didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment", "didFinish"]
        )
        XCTAssertEqual(merchant.contacts.first?.isRedacted, true)
        XCTAssertNil(merchant.contacts.first?.name)
        let defaults = flow.transcript.entries.filter {
            if case .completion(_, _, _, true) = $0.event { return true }
            return false
        }
        XCTAssertEqual(defaults.count, 1, "the unimplemented didSelectShippingMethod is answered by default")
    }

    // spec E9, E3: the async driver throws the refusal, and CallbackEnded when the flow is
    // cancelled inside the awaited callback.
    func testAsyncDriverRefusalAndCallbackEnded() async throws {
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate)
        do {
            _ = try await flow.selectShippingMethodAndWait("teleport")
            XCTFail("expected a refusal")
        } catch let refusal as Refusal {
            XCTAssertEqual(refusal.code, .unknownShippingMethod)
        }
        delegate.didSelectShippingContact.script(.cancel)
        do {
            _ = try await flow.selectShippingContactAndWait(F.jane())
            XCTFail("expected CallbackEnded")
        } catch let ended as CallbackEnded {
            XCTAssertEqual(ended.callback, "didSelectShippingContact")
        }
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .cancelled)
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact", "didFinish"])
    }

    // spec E4, E3, A8: the first action a driver awaits, whose callback then times out: the flow
    // ends timed out and the async driver throws CallbackEnded (the machine keeps resolutions
    // from that first await on).
    func testAsyncDriverThrowsWhenTheAwaitedCallbackTimesOut() async throws {
        let clock = ManualClock()
        let delegate = Recorder(holdingUnscriptedCalls: true)
        let flow = makeFlow(F.request(), delegate, clock: clock)
        let ended = await F.callbackEnded(
            in: self, by: { _ = try await flow.selectShippingContactAndWait(F.jane()) },
            after: {
                await delegate.waitUntilCalled("didSelectShippingContact")
                clock.advance(by: .seconds(30))
            })
        XCTAssertEqual(ended?.callback, "didSelectShippingContact")
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .timedOut)
        XCTAssertEqual(delegate.calledMethods, ["didSelectShippingContact", "didFinish"])
    }

    // spec A2, A6, E1: a type conforming to both forms is driven through its completion-handler
    // methods, and the async driver still gets the answers.
    func testBothFormsUseTheCompletionHandlerMethods() async throws {
        let merchant = BothFormsMerchant()
        let flow = try PaymentAuthorizationFlow(
            request: F.request(requiredShipping: []), delegate: merchant, options: F.options(ManualClock()))
        flow.present()
        let update = try await flow.selectShippingContactAndWait(F.jane())
        XCTAssertEqual(update.summaryItems, F.summary("21.00"))
        let result = try await flow.authorizeAndWait(F.token())
        XCTAssertEqual(result, .success)
        _ = await flow.waitUntilEnded()
        XCTAssertEqual(
            merchant.calls,
            [
                "didSelectShippingContact(handler:)", "willAuthorizePayment", "didAuthorizePayment(handler:)",
                "didFinish",
            ]
        )
    }
}

/// A delegate implementing only the required methods (spec A9); it approves every payment.
private final class MinimalMerchant: PaymentAuthorizationDelegate {
    private let state = LockedValue<(calls: [String], payments: [Payment])>(([], []))

    var calls: [String] { state.withLock { $0.calls } }
    var payments: [Payment] { state.withLock { $0.payments } }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        state.withLock { $0.calls.append("didFinish") }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        state.withLock {
            $0.calls.append("didAuthorizePayment")
            $0.payments.append(payment)
        }
        handler(.success)
    }
}

/// An async authorization delegate: a new total for every contact, default answers elsewhere.
private final class AsyncMerchant: AsyncPaymentAuthorizationDelegate {
    private let state = LockedValue<(calls: [String], contacts: [Contact], payments: [Payment])>(([], [], []))

    var calls: [String] { state.withLock { $0.calls } }
    var contacts: [Contact] { state.withLock { $0.contacts } }
    var payments: [Payment] { state.withLock { $0.payments } }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        state.withLock { $0.calls.append("didFinish") }
    }

    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        state.withLock { $0.calls.append("willAuthorizePayment") }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment
    ) async -> PaymentAuthorizationResult {
        await Task.yield()
        state.withLock {
            $0.calls.append("didAuthorizePayment")
            $0.payments.append(payment)
        }
        return .success
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact
    ) async -> ShippingContactUpdate {
        await Task.yield()
        state.withLock {
            $0.calls.append("didSelectShippingContact")
            $0.contacts.append(contact)
        }
        return ShippingContactUpdate(summaryItems: FlowsFixture.summary("25.00"))
    }
}

/// A delegate with both forms of its callbacks.
private final class BothFormsMerchant: PaymentAuthorizationDelegate, AsyncPaymentAuthorizationDelegate {
    private let recorded = LockedValue<[String]>([])

    var calls: [String] { recorded.withLock { $0 } }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
        recorded.withLock { $0.append("didFinish") }
    }

    func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
        recorded.withLock { $0.append("willAuthorizePayment") }
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        recorded.withLock { $0.append("didAuthorizePayment(handler:)") }
        handler(.success)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment
    ) async -> PaymentAuthorizationResult {
        recorded.withLock { $0.append("didAuthorizePayment async") }
        return PaymentAuthorizationResult(status: .failure)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        recorded.withLock { $0.append("didSelectShippingContact(handler:)") }
        handler(ShippingContactUpdate(summaryItems: FlowsFixture.summary("21.00")))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact
    ) async -> ShippingContactUpdate {
        recorded.withLock { $0.append("didSelectShippingContact async") }
        return ShippingContactUpdate(summaryItems: FlowsFixture.summary("99.00"))
    }
}

/// Answers the shipping contact at once; then, still inside that callback, has the customer pick
/// express (queued behind this call) and spends 40 s of the clock before returning. Answers the
/// method at once.
private final class BusyFirstAnswerSheetMerchant: PaymentAuthorizationDelegate {
    private let clock: ManualClock

    init(clock: ManualClock) { self.clock = clock }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        handler(.success)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        handler(ShippingContactUpdate(summaryItems: FlowsFixture.summary("20.00")))
        XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
        clock.advance(by: .seconds(40))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        handler(ShippingMethodUpdate(summaryItems: FlowsFixture.summary("31.00")))
    }
}
