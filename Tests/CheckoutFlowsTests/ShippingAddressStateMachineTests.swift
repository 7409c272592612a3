import CheckoutCore
import CheckoutFlows
import XCTest

/// The shipping-address state machine on its own: no threads, no delegate, explicit virtual times.
final class ShippingAddressStateMachineTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Machine = ShippingAddressStateMachine

    private func makeMachine(
        _ configuration: ShippingAddressConfiguration = .init(),
        timeout: Duration? = .seconds(30)
    ) -> Machine {
        Machine(
            configuration: configuration,
            options: FlowOptions(callbackTimeout: timeout, clock: ManualClock())
        )
    }

    /// A presented machine with `didEnterAddress` outstanding for `contact`, entered at `time`.
    private func validating(
        _ machine: inout Machine,
        _ contact: Contact = FlowsFixture.jane(),
        at time: FlowInstant = .seconds(1),
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> UInt64 {
        if machine.step == .notPresented {
            XCTAssertTrue(F.isNone(machine.present(at: .zero)), file: file, line: line)
        }
        let effect = machine.enterAddress(contact, at: time)
        guard case .didEnterAddress(let address, let id) = F.call(effect) else {
            XCTFail("enterAddress should call didEnterAddress", file: file, line: line)
            return 0
        }
        // As the engine does when it performs the call: the deadline starts (spec E4).
        if case .call(let call) = effect { machine.delegateCalled(call, at: time) }
        XCTAssertEqual(address, contact, file: file, line: line)
        XCTAssertEqual(machine.step, .validatingAddress, file: file, line: line)
        return id
    }

    private func assertDidCancel(
        _ effect: Effect<Machine.Call>,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        guard case .didCancel = F.call(effect) else {
            return XCTFail("expected didCancel, got \(effect)", file: file, line: line)
        }
    }

    private func assertDidFinish(
        _ effect: Effect<Machine.Call>,
        _ address: Contact,
        _ method: ShippingMethod?,
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        guard case .didFinish(let finishedAddress, let finishedMethod) = F.call(effect) else {
            return XCTFail("expected didFinish, got \(effect)", file: file, line: line)
        }
        XCTAssertEqual(finishedAddress, address, file: file, line: line)
        XCTAssertEqual(finishedMethod, method, file: file, line: line)
    }

    // MARK: Presenting

    // spec E9: actions before presenting are refused with notPresented, a second present with
    // alreadyPresented, and neither changes anything.
    func testActionsBeforePresentingAndPresentingTwiceAreRefused() {
        var machine = makeMachine()
        XCTAssertEqual(machine.step, .notPresented)
        XCTAssertEqual(F.refusal(machine.enterAddress(F.jane(), at: .zero))?.code, .notPresented)
        XCTAssertEqual(F.refusal(machine.done(at: .zero))?.code, .notPresented)
        XCTAssertEqual(F.refusal(machine.cancel(at: .zero))?.code, .notPresented)
        XCTAssertEqual(machine.step, .notPresented)

        XCTAssertTrue(F.isNone(machine.present(at: .seconds(1))))
        XCTAssertEqual(machine.step, .address(error: nil))
        XCTAssertEqual(F.refusal(machine.present(at: .seconds(2)))?.code, .alreadyPresented)
        XCTAssertEqual(machine.step, .address(error: nil))
        XCTAssertNil(machine.pending)
        XCTAssertEqual(
            F.kinds(machine.log.transcript),
            [
                "refused:enterAddress:notPresented", "refused:done:notPresented", "refused:cancel:notPresented",
                "action:present", "refused:present:alreadyPresented",
            ]
        )
    }

    // MARK: S1

    // spec S1: every missing required field is listed, the address's own fields as
    // `postalAddress.<field>`; nothing is called.
    func testMissingRequiredFieldsAreListed() {
        var machine = makeMachine(.init(requiredShippingAddressFields: [.name, .emailAddress, .postalAddress]))
        _ = machine.present(at: .zero)
        var contact = F.jane(state: nil)
        contact.name = "  "
        let refusal = F.refusal(machine.enterAddress(contact, at: .seconds(1)))
        XCTAssertEqual(refusal?.code, .missingRequiredFields)
        XCTAssertEqual(refusal?.fields, ["name", "postalAddress.state"])
        XCTAssertEqual(machine.step, .address(error: nil))
        XCTAssertNil(machine.pending)

        let bare = Contact(postalAddress: Address(country: F.country("US")))
        XCTAssertEqual(
            F.refusal(machine.enterAddress(bare, at: .seconds(2)))?.fields,
            [
                "name", "emailAddress", "postalAddress.line1", "postalAddress.city", "postalAddress.state",
                "postalAddress.postal_code",
            ]
        )
        XCTAssertEqual(F.refusal(machine.enterAddress(Contact(), at: .seconds(3)))?.fields.last, "postalAddress")
        XCTAssertEqual(machine.step, .address(error: nil))
    }

    // spec S1: a present but invalid field is refused with invalidField naming it (a US ZIP code
    // must be 5 digits or 9 with one optional separator).
    func testInvalidPostalCodeIsRefusedNamingTheField() {
        var machine = makeMachine()
        _ = machine.present(at: .zero)
        for zip in ["9501", "950145", "95014-20833", "95014--2083", "9501A", "95014_2083"] {
            let refusal = F.refusal(machine.enterAddress(F.jane(zip: zip), at: .seconds(1)))
            XCTAssertEqual(refusal?.code, .invalidField, zip)
            XCTAssertEqual(refusal?.fields, ["postalAddress.postal_code"], zip)
            XCTAssertEqual(refusal?.problems.map(\.code), [.invalidPostalCode], zip)
            XCTAssertEqual(machine.step, .address(error: nil), zip)
        }
        var contact = F.jane()
        contact.emailAddress = "jane.example.com"
        let refusal = F.refusal(machine.enterAddress(contact, at: .seconds(2)))
        XCTAssertEqual(refusal?.code, .invalidField)
        XCTAssertEqual(refusal?.fields, ["emailAddress"])
        XCTAssertNil(machine.pending)
    }

    // spec S1: the accepted ZIP forms, and a country without postal codes needs none.
    func testValidZIPFormsAndCountriesWithoutPostalCodesAreAccepted() {
        for zip in ["95014", "950142083", "95014-2083", "95014 2083"] {
            var machine = makeMachine()
            _ = validating(&machine, F.jane(zip: zip))
        }
        var machine = makeMachine()
        let hongKong = Contact(
            // HK requires its area (Google's address metadata, CheckoutCore's AddressRules).
            postalAddress: Address(
                line1: "1 Queen's Road Central", city: "Hong Kong", state: "Hong Kong Island", country: F.country("HK"))
        )
        _ = validating(&machine, hongKong)
        var britain = makeMachine()
        let noPostalCode = Contact(
            postalAddress: Address(line1: "1 High Street", city: "Leeds", country: F.country("GB")))
        _ = britain.present(at: .seconds(1))
        XCTAssertEqual(
            F.refusal(britain.enterAddress(noPostalCode, at: .seconds(1)))?.fields,
            ["postalAddress.postal_code"]
        )
    }

    // MARK: S2

    // spec S2: shipping type delivery finishes at once with didFinish(address, nil), without
    // asking the merchant.
    func testDeliveryFinishesAtOnceWithoutDidEnterAddress() {
        var machine = makeMachine(.init(shippingType: .delivery))
        _ = machine.present(at: .zero)
        let contact = F.jane()
        assertDidFinish(machine.enterAddress(contact, at: .seconds(2)), contact, nil)
        XCTAssertEqual(machine.outcome, .finished(address: contact, shippingMethod: nil))
        XCTAssertTrue(machine.isEnded)
        XCTAssertNil(machine.pending)
        XCTAssertFalse(machine.log.transcript.delegateCalls.contains("didEnterAddress"))
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didFinish"])
    }

    // MARK: S3

    // spec S3, E1: entering an address opens didEnterAddress with its deadline and the step
    // waits for the answer.
    func testEnterAddressOpensDidEnterAddress() {
        var machine = makeMachine()
        let id = validating(&machine, at: .seconds(4))
        XCTAssertEqual(id, 1)
        XCTAssertEqual(machine.pending?.id, 1)
        XCTAssertEqual(machine.pending?.deadline, .seconds(34))
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didEnterAddress"])
        guard case .call(_, let callbackID, let arguments) = machine.log.transcript.entries.last?.event else {
            return XCTFail("the last entry should be the call")
        }
        XCTAssertEqual(callbackID, 1)
        XCTAssertEqual(arguments, [.contact(F.jane())])
    }

    // spec S3: an invalid answer keeps the address step with the default message or the
    // merchant's, and the customer may enter another address.
    func testInvalidAnswerKeepsTheAddressStep() {
        var machine = makeMachine()
        let first = validating(&machine)
        XCTAssertTrue(F.isNone(machine.answer(first, first: true, .invalid(message: nil), at: .seconds(2))))
        XCTAssertEqual(machine.step, .address(error: "Invalid Shipping Address"))
        XCTAssertNil(machine.outcome)
        XCTAssertNil(machine.pending)

        let second = validating(&machine, F.john(), at: .seconds(3))
        XCTAssertEqual(second, 2)
        _ = machine.answer(second, first: true, .invalid(message: "We do not ship to New York"), at: .seconds(4))
        XCTAssertEqual(machine.step, .address(error: "We do not ship to New York"))

        struct Unserviceable: Error, CustomStringConvertible {
            var description: String { "No couriers there" }
        }
        let third = validating(&machine, F.john(), at: .seconds(5))
        _ = machine.answer(third, first: true, .invalid(Unserviceable()), at: .seconds(6))
        XCTAssertEqual(machine.step, .address(error: "No couriers there"))
        XCTAssertEqual(machine.log.violations, [])
    }

    // spec S3: valid with nil or empty methods finishes with no method.
    func testValidAnswerWithoutMethodsFinishesWithNoMethod() {
        for methods in [nil, [ShippingMethod]()] {
            var machine = makeMachine()
            let id = validating(&machine)
            let effect = machine.answer(
                id, first: true, .valid(shippingMethods: methods, selected: F.express), at: .seconds(2))
            assertDidFinish(effect, F.jane(), nil)
            XCTAssertEqual(machine.outcome, .finished(address: F.jane(), shippingMethod: nil))
            XCTAssertEqual(
                F.kinds(machine.log.transcript).suffix(3),
                [
                    "completion:didEnterAddress", "outcome:finished(method: none)", "call:didFinish",
                ])
        }
    }

    // spec E1, S3: the answer that finishes the flow is what the async driver receives; a
    // cancel while waiting ends the callback without an answer.
    func testResolutionOfTheOutstandingCallback() {
        var machine = makeMachine()
        machine.ledger.keepsResolutions = true
        let id = validating(&machine)
        XCTAssertNil(machine.ledger.takeResolution())
        _ = machine.answer(id, first: true, .valid, at: .seconds(2))
        guard case (id, .answered(let answer))? = machine.ledger.takeResolution() else {
            return XCTFail("the answer should resolve the callback")
        }
        XCTAssertEqual(answer, .valid)
        XCTAssertNil(machine.ledger.takeResolution(), "taken once")

        var cancelled = makeMachine()
        cancelled.ledger.keepsResolutions = true
        let other = validating(&cancelled)
        _ = cancelled.cancel(at: .seconds(2))
        guard case (other, .ended(let ended))? = cancelled.ledger.takeResolution() else {
            return XCTFail("the cancel should end the callback")
        }
        XCTAssertEqual(ended.callback, "didEnterAddress")
    }

    // Until a driver awaits an answer, the machine keeps no resolution (each would cost a copy
    // of the answer), neither of an answer nor of an ending.
    func testNoResolutionIsKeptUnlessAsked() {
        var machine = makeMachine()
        let id = validating(&machine)
        _ = machine.answer(id, first: true, .invalid(message: nil), at: .seconds(2))
        XCTAssertNil(machine.ledger.takeResolution())
        let next = validating(&machine)
        _ = machine.cancel(at: .seconds(3))
        XCTAssertNil(machine.ledger.takeResolution())
        XCTAssertNotEqual(id, next)
    }

    // spec S3: the answer's selected method wins when it is in the list, matched by identifier.
    func testSelectionPrefersTheAnswersSelectedMethod() {
        var machine = makeMachine(.init(selectedShippingMethod: F.standard))
        let id = validating(&machine)
        var stale = F.express
        stale.label = "Express (old label)"
        let methods = [F.standard, F.express, F.overnight]
        _ = machine.answer(id, first: true, .valid(shippingMethods: methods, selected: stale), at: .seconds(2))
        XCTAssertEqual(machine.step, .shippingMethod(methods: methods, selected: F.express))
    }

    // spec S3: else the configuration's previously selected method when in the list, else the
    // first (also when the answer's selection is nil: not the Swift port's bug).
    func testSelectionFallsBackToTheConfiguredMethodThenTheFirst() {
        let methods = [F.standard, F.express]
        var configured = makeMachine(.init(selectedShippingMethod: F.express))
        let one = validating(&configured)
        _ = configured.answer(
            one, first: true, .valid(shippingMethods: methods, selected: F.overnight), at: .seconds(2))
        XCTAssertEqual(configured.step, .shippingMethod(methods: methods, selected: F.express))

        var configuredNil = makeMachine(.init(selectedShippingMethod: F.express))
        let two = validating(&configuredNil)
        _ = configuredNil.answer(two, first: true, .valid(shippingMethods: methods, selected: nil), at: .seconds(2))
        XCTAssertEqual(configuredNil.step, .shippingMethod(methods: methods, selected: F.express))

        var neither = makeMachine(.init(selectedShippingMethod: F.overnight))
        let three = validating(&neither)
        _ = neither.answer(three, first: true, .valid(shippingMethods: methods, selected: nil), at: .seconds(2))
        XCTAssertEqual(neither.step, .shippingMethod(methods: methods, selected: F.standard))
    }

    // MARK: S4

    // spec S4: select (unknown ids refused), back to the address step, done finishes with the
    // selected method.
    func testMethodStepSelectBackAndDone() {
        var machine = makeMachine()
        let methods = [F.standard, F.express]
        let id = validating(&machine)
        _ = machine.answer(id, first: true, .valid(shippingMethods: methods, selected: nil), at: .seconds(2))

        let unknown = F.refusal(machine.selectShippingMethod("teleport", at: .seconds(3)))
        XCTAssertEqual(unknown?.code, .unknownShippingMethod)
        XCTAssertEqual(machine.step, .shippingMethod(methods: methods, selected: F.standard))
        XCTAssertEqual(F.refusal(machine.enterAddress(F.john(), at: .seconds(3)))?.code, .notAllowedInThisStep)

        XCTAssertTrue(F.isNone(machine.selectShippingMethod("express", at: .seconds(4))))
        XCTAssertEqual(machine.step, .shippingMethod(methods: methods, selected: F.express))

        XCTAssertTrue(F.isNone(machine.back(at: .seconds(5))))
        XCTAssertEqual(machine.step, .address(error: nil))
        XCTAssertEqual(F.refusal(machine.done(at: .seconds(5)))?.code, .notAllowedInThisStep)
        XCTAssertEqual(F.refusal(machine.back(at: .seconds(5)))?.code, .notAllowedInThisStep)
        XCTAssertEqual(F.refusal(machine.selectShippingMethod("express", at: .seconds(5)))?.code, .notAllowedInThisStep)

        let again = validating(&machine, F.john(), at: .seconds(6))
        XCTAssertEqual(again, 2)
        _ = machine.answer(again, first: true, .valid(shippingMethods: methods, selected: F.express), at: .seconds(7))
        _ = machine.selectShippingMethod("standard", at: .seconds(8))
        assertDidFinish(machine.done(at: .seconds(9)), F.john(), F.standard)
        XCTAssertEqual(machine.outcome, .finished(address: F.john(), shippingMethod: F.standard))
    }

    // MARK: S5, E3

    // spec S5, E3: cancel at every step (address, validating, method) ends with didCancel and
    // never a didFinish.
    func testCancelAtEveryStepEndsWithDidCancel() {
        var atAddress = makeMachine()
        _ = atAddress.present(at: .zero)
        assertDidCancel(atAddress.cancel(at: .seconds(1)))
        XCTAssertEqual(atAddress.outcome, .cancelled)

        var whileValidating = makeMachine()
        _ = validating(&whileValidating)
        assertDidCancel(whileValidating.cancel(at: .seconds(2)))
        XCTAssertEqual(whileValidating.outcome, .cancelled)
        XCTAssertNil(whileValidating.pending)

        var atMethods = makeMachine()
        let id = validating(&atMethods)
        _ = atMethods.answer(id, first: true, .valid(shippingMethods: [F.standard], selected: nil), at: .seconds(2))
        assertDidCancel(atMethods.cancel(at: .seconds(3)))
        XCTAssertEqual(atMethods.step, .ended(.cancelled))

        for machine in [atAddress, whileValidating, atMethods] {
            XCTAssertEqual(machine.log.transcript.delegateCalls.filter { $0 != "didEnterAddress" }, ["didCancel"])
            XCTAssertEqual(
                F.kinds(machine.log.transcript).suffix(3), ["action:cancel", "outcome:cancelled", "call:didCancel"])
        }
    }

    // MARK: E1, E9

    // spec E1, E9: while didEnterAddress is outstanding every driver action but cancel is refused
    // with callbackPending naming it; the refusals are recorded and change nothing.
    func testActionsWhileTheCallbackIsOutstandingAreRefused() {
        var machine = makeMachine()
        let id = validating(&machine)
        let before = machine.log.transcript.entries.count
        let refusals = [
            F.refusal(machine.enterAddress(F.john(), at: .seconds(2))),
            F.refusal(machine.selectShippingMethod("standard", at: .seconds(2))),
            F.refusal(machine.back(at: .seconds(2))),
            F.refusal(machine.done(at: .seconds(2))),
        ]
        for refusal in refusals {
            XCTAssertEqual(refusal?.code, .callbackPending)
            XCTAssertEqual(refusal?.pendingCallback, "didEnterAddress")
        }
        XCTAssertEqual(F.refusal(machine.present(at: .seconds(2)))?.code, .alreadyPresented)
        XCTAssertEqual(machine.step, .validatingAddress)
        XCTAssertEqual(machine.pending?.id, id)
        XCTAssertEqual(machine.pending?.deadline, .seconds(31))
        XCTAssertEqual(
            F.kinds(machine.log.transcript).dropFirst(before),
            [
                "refused:enterAddress:callbackPending", "refused:selectShippingMethod:callbackPending",
                "refused:back:callbackPending", "refused:done:callbackPending", "refused:present:alreadyPresented",
            ]
        )
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didEnterAddress"])
        XCTAssertEqual(machine.log.violations, [])
        // The answer still applies afterwards.
        _ = machine.answer(id, first: true, .invalid(message: nil), at: .seconds(3))
        XCTAssertEqual(machine.step, .address(error: "Invalid Shipping Address"))
    }

    // MARK: E2

    // spec E2: a second call of a completion is ignored and recorded as completionCalledTwice.
    func testCompletionCalledTwiceIsRecordedAndIgnored() {
        var machine = makeMachine()
        let id = validating(&machine)
        _ = machine.answer(id, first: true, .invalid(message: nil), at: .seconds(2))
        let effect = machine.answer(
            id, first: false, .valid(shippingMethods: [F.standard], selected: nil), at: .seconds(3))
        XCTAssertTrue(F.isNone(effect))
        XCTAssertEqual(machine.step, .address(error: "Invalid Shipping Address"))
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionCalledTwice])
        XCTAssertEqual(machine.log.violations.first?.callback, "didEnterAddress")
        XCTAssertEqual(machine.log.violations.first?.callbackID, id)
        XCTAssertEqual(machine.log.violations.first?.time, .seconds(3))
    }

    // spec E2, E3: a completion after a cancel is late; nothing changes.
    func testCompletionAfterCancelIsLate() {
        var machine = makeMachine()
        let id = validating(&machine)
        assertDidCancel(machine.cancel(at: .seconds(2)))
        XCTAssertTrue(F.isNone(machine.answer(id, first: true, .valid, at: .seconds(3))))
        XCTAssertEqual(machine.outcome, .cancelled)
        XCTAssertEqual(machine.log.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didEnterAddress", "didCancel"])
    }

    // MARK: E4

    // spec E4: at the deadline the flow returns to the address step with a timeout error; the
    // completion is then late; a new address gets its own full deadline.
    func testDeadlineReturnsToTheAddressStep() {
        var machine = makeMachine()
        let id = validating(&machine, at: .seconds(5))
        XCTAssertEqual(machine.pending?.deadline, .seconds(35))
        XCTAssertTrue(F.isNone(machine.deadlinePassed(id, at: .seconds(35))))
        guard case .address(let error?) = machine.step else { return XCTFail("expected the address step") }
        XCTAssertTrue(error.contains("in time"), error)
        XCTAssertNil(machine.pending)
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(machine.log.violations.first?.time, .seconds(35))

        XCTAssertTrue(F.isNone(machine.answer(id, first: true, .valid, at: .seconds(36))))
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertNil(machine.outcome)

        let next = validating(&machine, F.john(), at: .seconds(50))
        XCTAssertEqual(machine.pending?.deadline, .seconds(80))
        _ = machine.answer(next, first: true, .valid, at: .seconds(79))
        XCTAssertEqual(machine.outcome, .finished(address: F.john(), shippingMethod: nil))
    }

    // spec E4: an answer arriving exactly at the deadline is late, even before the timer fired.
    func testAnswerExactlyAtTheDeadlineIsLate() {
        var machine = makeMachine()
        let id = validating(&machine, at: .seconds(1))
        XCTAssertTrue(F.isNone(machine.answer(id, first: true, .valid, at: .seconds(31))))
        XCTAssertNil(machine.outcome)
        guard case .address(let error?) = machine.step else { return XCTFail("expected the address step") }
        XCTAssertFalse(error.isEmpty)
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        // The timer firing afterwards is stale.
        XCTAssertTrue(F.isNone(machine.deadlinePassed(id, at: .seconds(31))))
        XCTAssertEqual(machine.log.violations.count, 2)

        var inTime = makeMachine()
        let early = validating(&inTime, at: .seconds(1))
        _ = inTime.answer(early, first: true, .valid, at: .nanoseconds(31_000_000_000 - 1))
        XCTAssertEqual(inTime.outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(inTime.log.violations, [])
    }

    // spec E4: a callback's deadline starts when its delegate method is called, not when the
    // machine asks for the call (which may wait behind another delegate call).
    func testDeadlineStartsWhenTheDelegateIsCalled() {
        var machine = makeMachine()
        _ = machine.present(at: .zero)
        let effect = machine.enterAddress(F.jane(), at: .seconds(1))
        guard case .call(let call) = effect, case .didEnterAddress(_, let id) = call else {
            return XCTFail("expected didEnterAddress, got \(effect)")
        }
        XCTAssertEqual(machine.pending?.id, id)
        XCTAssertNil(machine.pending?.deadline, "no deadline before the call")
        // Not yet called: an answer any time later is in time as far as the deadline goes.
        machine.delegateCalled(call, at: .seconds(10))
        XCTAssertEqual(machine.pending?.deadline, .seconds(40))
        machine.delegateCalled(call, at: .seconds(20))
        XCTAssertEqual(machine.pending?.deadline, .seconds(40), "a deadline starts once")
        _ = machine.answer(id, first: true, .valid, at: .nanoseconds(40_000_000_000 - 1))
        XCTAssertEqual(machine.outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(machine.log.violations, [])
    }

    // spec E4: a timer for a callback answered in time does nothing.
    func testStaleDeadlineIsIgnored() {
        var machine = makeMachine()
        let id = validating(&machine)
        _ = machine.answer(id, first: true, .invalid(message: nil), at: .seconds(2))
        XCTAssertTrue(F.isNone(machine.deadlinePassed(id, at: .seconds(31))))
        XCTAssertEqual(machine.step, .address(error: "Invalid Shipping Address"))
        XCTAssertEqual(machine.log.violations, [])
    }

    // spec E4: no timeout, no deadline.
    func testNilTimeoutDisablesDeadlines() {
        var machine = makeMachine(timeout: nil)
        let id = validating(&machine)
        XCTAssertEqual(machine.pending?.id, id)
        XCTAssertNil(machine.pending?.deadline)
        _ = machine.answer(id, first: true, .valid, at: .seconds(86_400))
        XCTAssertEqual(machine.outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(machine.log.violations, [])
    }

    // MARK: E7

    // spec E7: invalid methods (duplicate ids, a negative amount, another currency) are a
    // violation and count as an invalid answer: the address step stays.
    func testInvalidMethodsAreTreatedAsAnInvalidAnswer() {
        var negative = F.express
        negative.amount = F.money("-1.00")
        var euro = F.express
        euro.amount = F.money("5.00", .eur)
        let cases: [(String, [ShippingMethod], ShippingAddressConfiguration)] = [
            ("duplicate", [F.standard, F.express, F.standard], .init()),
            ("negative", [F.standard, negative], .init()),
            ("mixed currencies", [F.standard, euro], .init()),
            ("configured currency", [euro], .init(currency: .usd)),
        ]
        for (name, methods, configuration) in cases {
            var machine = makeMachine(configuration)
            let id = validating(&machine)
            let effect = machine.answer(
                id, first: true, .valid(shippingMethods: methods, selected: nil), at: .seconds(2))
            XCTAssertTrue(F.isNone(effect), name)
            XCTAssertEqual(machine.step, .address(error: "Invalid Shipping Address"), name)
            XCTAssertNil(machine.outcome, name)
            XCTAssertEqual(machine.log.violations.map(\.kind), [.invalidUpdate], name)
            XCTAssertFalse(machine.log.violations.first?.detail.isEmpty ?? true, name)
        }
        var duplicate = makeMachine()
        let id = validating(&duplicate)
        _ = duplicate.answer(
            id, first: true, .valid(shippingMethods: [F.express, F.express], selected: nil), at: .seconds(2))
        XCTAssertTrue(duplicate.log.violations.first?.detail.contains("express") ?? false)
    }

    // MARK: E2 violations change nothing else

    // spec E2: a violation is recorded and changes nothing else: the flow is where the first
    // answer put it (strict mode is the test kit's reporting, not a flow option).
    func testAViolationChangesNothingElse() {
        var machine = makeMachine()
        let id = validating(&machine)
        _ = machine.answer(id, first: true, .invalid(message: nil), at: .seconds(2))
        XCTAssertTrue(F.isNone(machine.answer(id, first: false, .valid, at: .seconds(3))))
        XCTAssertNil(machine.outcome)
        XCTAssertEqual(machine.step, .address(error: ShippingAddressStateMachine.defaultInvalidMessage))
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionCalledTwice])

        var timedOut = makeMachine()
        let late = validating(&timedOut)
        XCTAssertTrue(F.isNone(timedOut.deadlinePassed(late, at: .seconds(31))))
        XCTAssertNil(timedOut.outcome)
        XCTAssertEqual(timedOut.step, .address(error: "The merchant did not answer in time"))

        var invalid = makeMachine()
        let bad = validating(&invalid)
        XCTAssertTrue(
            F.isNone(
                invalid.answer(
                    bad, first: true, .valid(shippingMethods: [F.express, F.express], selected: nil), at: .seconds(2))))
        XCTAssertNil(invalid.outcome)
        XCTAssertEqual(invalid.log.violations.map(\.kind), [.invalidUpdate])
    }

    // spec E4, E2: an answer exactly at the deadline is late: the flow times out back to the
    // address step and the answer changes nothing.
    func testAnswerAtTheDeadlineTimesOutAndIsLate() {
        var machine = makeMachine()
        let id = validating(&machine, at: .seconds(1))
        XCTAssertTrue(F.isNone(machine.answer(id, first: true, .valid, at: .seconds(31))))
        XCTAssertNil(machine.outcome)
        XCTAssertEqual(machine.step, .address(error: "The merchant did not answer in time"))
        XCTAssertEqual(machine.log.transcript.delegateCalls, ["didEnterAddress"])
        XCTAssertEqual(machine.log.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
    }

    // MARK: E5

    // spec E5: after the end every driver action is refused with finished and nothing is called.
    func testEverythingAfterTheEndIsRefusedWithFinished() {
        var machine = makeMachine()
        _ = machine.present(at: .zero)
        _ = machine.cancel(at: .seconds(1))
        let calls = machine.log.transcript.delegateCalls
        let effects = [
            machine.present(at: .seconds(2)),
            machine.enterAddress(F.jane(), at: .seconds(2)),
            machine.selectShippingMethod("standard", at: .seconds(2)),
            machine.back(at: .seconds(2)),
            machine.done(at: .seconds(2)),
            machine.cancel(at: .seconds(2)),
        ]
        for effect in effects {
            XCTAssertEqual(F.refusal(effect)?.code, .finished)
        }
        XCTAssertEqual(machine.log.transcript.delegateCalls, calls)
        XCTAssertEqual(machine.outcome, .cancelled)
    }

    // MARK: E8

    // spec E8: the transcript records actions, refusals, calls, completions, violations and the
    // outcome in order with their virtual times.
    func testTranscriptRecordsEveryEventWithItsTime() {
        var machine = makeMachine()
        _ = machine.present(at: .zero)
        _ = machine.enterAddress(F.jane(state: nil), at: .milliseconds(500))
        let id = validating(&machine, at: .seconds(1))
        _ = machine.answer(
            id, first: true, .valid(shippingMethods: [F.standard, F.express], selected: nil), at: .seconds(2))
        _ = machine.answer(id, first: false, .invalid(message: nil), at: .milliseconds(2_250))
        _ = machine.selectShippingMethod("express", at: .seconds(3))
        _ = machine.done(at: .seconds(4))
        XCTAssertEqual(
            F.kinds(machine.log.transcript),
            [
                "action:present", "refused:enterAddress:missingRequiredFields", "action:enterAddress",
                "call:didEnterAddress", "completion:didEnterAddress", "violation:completionCalledTwice",
                "action:selectShippingMethod", "action:done", "outcome:finished(method: express)", "call:didFinish",
            ]
        )
        XCTAssertEqual(
            machine.log.transcript.entries.map(\.time),
            [
                .zero, .milliseconds(500), .seconds(1), .seconds(1), .seconds(2), .milliseconds(2_250), .seconds(3),
                .seconds(4), .seconds(4), .seconds(4),
            ]
        )
        guard case .completion(_, let callbackID, let answer, let byDefault) = machine.log.transcript.entries[4].event
        else { return XCTFail("expected the completion") }
        XCTAssertEqual(callbackID, id)
        XCTAssertEqual(answer.map { $0.rendered(showingPersonalData: false) }, ["valid(methods: [standard, express])"])
        guard case .model(_, let json) = answer.first else { return XCTFail("expected the answer as a model") }
        XCTAssertTrue(json.hasPrefix(#"{"shippingMethods":[{"amount":{"currency":"USD","value":"0.00"}"#), json)
        XCTAssertTrue(json.hasSuffix(#""status":"valid"}"#), json)
        XCTAssertFalse(byDefault)
    }
}
