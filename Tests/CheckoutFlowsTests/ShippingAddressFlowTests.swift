import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Foundation
import XCTest

/// The shipping-address flow with its delegate: recording delegates, a manual clock, no sleeping.
final class ShippingAddressFlowTests: XCTestCase {
    private typealias F = FlowsFixture
    private typealias Recorder = RecordingShippingAddressDelegate

    private func makeFlow(
        _ configuration: ShippingAddressConfiguration = .init(),
        _ delegate: Recorder,
        clock: ManualClock = ManualClock(),
        timeout: Duration? = .seconds(30),
        sink: FlowsFixture.ViolationSink? = nil,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> ShippingAddressFlow {
        let flow = try ShippingAddressFlow(
            configuration: configuration,
            delegate: delegate,
            options: F.options(clock, timeout: timeout, sink: sink)
        )
        XCTAssertEqual(flow.present(), .accepted, file: file, line: line)
        return flow
    }

    // MARK: The happy path

    // spec S3, S4: didEnterAddress with the address, the method step, then didFinish with the
    // address and the selected method.
    func testEnterSelectAndDoneCallTheDelegateInOrder() throws {
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate)
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
        XCTAssertEqual(delegate.didEnterAddress.arguments, [F.jane()])
        XCTAssertEqual(flow.step, .validatingAddress)

        delegate.didEnterAddress.complete(.valid(shippingMethods: [F.standard, F.express], selected: nil))
        XCTAssertEqual(flow.step, .shippingMethod(methods: [F.standard, F.express], selected: F.standard))
        XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
        XCTAssertEqual(flow.done(), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didFinish"])
        XCTAssertEqual(delegate.didFinish.arguments.map(\.address), [F.jane()])
        XCTAssertEqual(delegate.didFinish.arguments.map(\.shippingMethod), [F.express])
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: F.express))
        XCTAssertEqual(flow.violations, [])
        assertNoNesting(delegate)
    }

    // spec S (configuration), S1: the required fields must not be empty; the flow refuses to start,
    // listing the problem.
    func testEmptyRequiredFieldsAreRejected() {
        XCTAssertThrowsError(
            try ShippingAddressFlow(
                configuration: .init(requiredShippingAddressFields: []),
                delegate: Recorder(),
                options: F.options(ManualClock())
            )
        ) { error in
            XCTAssertEqual((error as? CheckoutError)?.code, .invalidRequest)
            XCTAssertEqual((error as? CheckoutError)?.problems.map(\.code), [.emptyList])
            XCTAssertEqual((error as? CheckoutError)?.problems.map(\.field), ["requiredShippingAddressFields"])
        }
    }

    // spec E5: a flow refused at its making releases its delegate: the hold taken for the runner
    // is given back when the configuration is refused (the flow fuzzer found it kept).
    func testARefusedConfigurationReleasesItsDelegate() {
        var delegate: Recorder? = Recorder()
        let weakDelegate = FlowsFixture.WeakBox(delegate!)
        XCTAssertThrowsError(
            try ShippingAddressFlow(
                configuration: .init(requiredShippingAddressFields: []),
                delegate: delegate!,
                options: F.options(ManualClock())
            ))
        delegate = nil
        XCTAssertNil(weakDelegate.object, "released with the refused flow")
    }

    // MARK: S1

    // spec S1: missing fields are listed and invalid ones named; the delegate is not called.
    func testIncompleteOrInvalidAddressesAreRefusedWithoutCallingTheDelegate() throws {
        let delegate = Recorder()
        let flow = try makeFlow(.init(requiredShippingAddressFields: [.postalAddress, .phoneNumber]), delegate)
        var noPhone = F.jane(state: nil)
        noPhone.phoneNumber = nil
        let missing = flow.enterAddress(noPhone).refusal
        XCTAssertEqual(missing?.code, .missingRequiredFields)
        XCTAssertEqual(missing?.fields, ["phoneNumber", "postalAddress.state"])

        let invalid = flow.enterAddress(F.jane(zip: "123456")).refusal
        XCTAssertEqual(invalid?.code, .invalidField)
        XCTAssertEqual(invalid?.fields, ["postalAddress.postal_code"])
        XCTAssertEqual(delegate.calledMethods, [])
        XCTAssertEqual(flow.step, .address(error: nil))
        XCTAssertEqual(flow.enterAddress(F.jane(zip: "95014")), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
    }

    // MARK: S2

    // spec S2: delivery finishes at once with didFinish(address, nil); no didEnterAddress.
    func testDeliveryFinishesAtOnce() throws {
        let delegate = Recorder()
        let flow = try makeFlow(.init(shippingType: .delivery), delegate)
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didFinish"])
        XCTAssertEqual(delegate.didFinish.arguments.map(\.shippingMethod), [nil])
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
    }

    // MARK: S3

    // spec S3: invalid keeps the address step with the default message; the customer enters
    // another address; valid with no methods finishes with a nil method.
    func testInvalidThenValidWithoutMethods() throws {
        let delegate = Recorder(didEnterAddress: .answer(.invalid(message: nil)))
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        XCTAssertEqual(flow.step, .address(error: "Invalid Shipping Address"))
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])

        flow.enterAddress(F.john())
        XCTAssertEqual(delegate.didEnterAddress.arguments, [F.jane(), F.john()])
        delegate.didEnterAddress.complete(.valid(shippingMethods: [], selected: nil))
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didEnterAddress", "didFinish"])
        XCTAssertEqual(delegate.didFinish.arguments.map(\.address), [F.john()])
        XCTAssertEqual(delegate.didFinish.arguments.map(\.shippingMethod), [nil])
    }

    // spec S3: the selection is the answer's (by identifier) if listed, else the configuration's
    // previous one if listed, else the first; done reports it.
    func testSelectionRule() throws {
        let methods = [F.standard, F.express, F.overnight]
        let cases: [(ShippingMethod?, ShippingMethod?, ShippingMethod)] = [
            (F.overnight, F.express, F.overnight),
            (nil, F.express, F.express),
            (ShippingMethod(identifier: "gone", label: "Gone", amount: F.money("1.00")), F.express, F.express),
            (nil, nil, F.standard),
            (nil, ShippingMethod(identifier: "old", label: "Old", amount: F.money("1.00")), F.standard),
        ]
        for (answered, configured, expected) in cases {
            let delegate = Recorder(didEnterAddress: .answer(.valid(shippingMethods: methods, selected: answered)))
            let flow = try makeFlow(.init(selectedShippingMethod: configured), delegate)
            flow.enterAddress(F.jane())
            XCTAssertEqual(flow.step, .shippingMethod(methods: methods, selected: expected))
            flow.done()
            XCTAssertEqual(delegate.didFinish.arguments.map(\.shippingMethod), [expected])
        }
    }

    // MARK: S4

    // spec S4: unknown ids are refused; back returns to the address step; done finishes.
    func testMethodStep() throws {
        let methods = [F.standard, F.express]
        let delegate = Recorder(didEnterAddress: .answer(.valid(shippingMethods: methods, selected: nil)))
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        let unknown = flow.selectShippingMethod("drone").refusal
        XCTAssertEqual(unknown?.code, .unknownShippingMethod)
        XCTAssertEqual(flow.step, .shippingMethod(methods: methods, selected: F.standard))
        XCTAssertEqual(flow.back(), .accepted)
        XCTAssertEqual(flow.step, .address(error: nil))
        XCTAssertEqual(flow.done().refusal?.code, .notAllowedInThisStep)

        delegate.didEnterAddress.script(.answer(.valid(shippingMethods: methods, selected: F.express)))
        flow.enterAddress(F.john())
        XCTAssertEqual(flow.done(), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didEnterAddress", "didFinish"])
        XCTAssertEqual(flow.outcome, .finished(address: F.john(), shippingMethod: F.express))
    }

    // MARK: S5

    // spec S5: cancel at every step calls didCancel and never didFinish.
    func testCancelAtEveryStep() throws {
        let atAddress = Recorder()
        try makeFlow(.init(), atAddress).cancel()

        let validating = Recorder()
        let validatingFlow = try makeFlow(.init(), validating)
        validatingFlow.enterAddress(F.jane())
        validatingFlow.cancel()

        let atMethods = Recorder(didEnterAddress: .answer(.valid(shippingMethods: [F.standard], selected: nil)))
        let methodFlow = try makeFlow(.init(), atMethods)
        methodFlow.enterAddress(F.jane())
        methodFlow.cancel()
        methodFlow.done()

        XCTAssertEqual(atAddress.calledMethods, ["didCancel"])
        XCTAssertEqual(validating.calledMethods, ["didEnterAddress", "didCancel"])
        XCTAssertEqual(atMethods.calledMethods, ["didEnterAddress", "didCancel"])
        XCTAssertEqual(validatingFlow.outcome, .cancelled)
        XCTAssertEqual(methodFlow.outcome, .cancelled)
    }

    // MARK: E1

    // spec E1: while the completion is outstanding, driver actions are refused with
    // callbackPending naming didEnterAddress, recorded, and not queued.
    func testActionsWhileTheCompletionIsOutstandingAreRefused() throws {
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        for response in [flow.enterAddress(F.john()), flow.done(), flow.back(), flow.selectShippingMethod("standard")] {
            XCTAssertEqual(response.refusal?.code, .callbackPending)
            XCTAssertEqual(response.refusal?.pendingCallback, "didEnterAddress")
        }
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
        XCTAssertEqual(
            F.kinds(flow.transcript).filter { $0.hasPrefix("refused") },
            [
                "refused:enterAddress:callbackPending", "refused:done:callbackPending", "refused:back:callbackPending",
                "refused:selectShippingMethod:callbackPending",
            ]
        )
        delegate.didEnterAddress.complete(.valid)
        // Not queued: John's address was never entered.
        XCTAssertEqual(delegate.didEnterAddress.arguments, [F.jane()])
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
    }

    // MARK: E2

    // spec E2: a second call of the completion is ignored and recorded as completionCalledTwice.
    func testCompletionCalledTwice() throws {
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        delegate.didEnterAddress.complete(.invalid(message: "No"))
        delegate.didEnterAddress.complete(.valid)
        XCTAssertEqual(flow.step, .address(error: "No"))
        XCTAssertEqual(flow.violations.map(\.kind), [.completionCalledTwice])
        XCTAssertEqual(flow.violations.first?.callback, "didEnterAddress")
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
    }

    // MARK: E3

    // spec E3, E2: cancel while didEnterAddress is outstanding ends at once with didCancel; the
    // completion then is late and changes nothing.
    func testCancelWhileOutstandingEndsAtOnceAndTheCompletionIsLate() throws {
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        XCTAssertEqual(flow.cancel(), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didCancel"])
        XCTAssertEqual(flow.outcome, .cancelled)
        delegate.didEnterAddress.complete(.valid)
        XCTAssertEqual(flow.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didCancel"])
        XCTAssertEqual(flow.outcome, .cancelled)
    }

    // MARK: E4

    // spec E4: the default deadline is 30 s; at it the flow returns to the address step with an
    // error, no delegate call; the answer is then late; the driver may try again.
    func testDefaultDeadlineReturnsToTheAddressStep() throws {
        let clock = ManualClock()
        let delegate = Recorder()
        let flow = try ShippingAddressFlow(
            configuration: .init(), delegate: delegate, options: FlowOptions(clock: clock))
        flow.present()
        flow.enterAddress(F.jane())
        XCTAssertEqual(clock.pendingDeadlines, 1)
        clock.advance(by: .seconds(30) - .milliseconds(1))
        XCTAssertEqual(flow.step, .validatingAddress)
        XCTAssertEqual(flow.violations, [])
        clock.advance(by: .milliseconds(1))
        guard case .address(let error?) = flow.step else { return XCTFail("expected the address step") }
        XCTAssertFalse(error.isEmpty)
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(flow.violations.first?.time, .seconds(30))
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])

        delegate.didEnterAddress.complete(.valid)
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertNil(flow.outcome)

        delegate.didEnterAddress.script(.answer(.valid))
        XCTAssertEqual(flow.enterAddress(F.john()), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didEnterAddress", "didFinish"])
        XCTAssertEqual(flow.outcome, .finished(address: F.john(), shippingMethod: nil))
    }

    // spec E4: an answer arriving exactly at the deadline is late.
    func testAnswerExactlyAtTheDeadlineIsLate() throws {
        let clock = ManualClock()
        let delegate = Recorder()
        // Scheduled before the flow's own deadline, so it runs first at the same instant.
        _ = clock.schedule(at: .seconds(30)) { delegate.didEnterAddress.complete(.valid) }
        let flow = try makeFlow(.init(), delegate, clock: clock)
        flow.enterAddress(F.jane())
        clock.advance(by: .seconds(30))
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertEqual(flow.violations.map(\.time), [.seconds(30), .seconds(30)])
        guard case .address = flow.step else { return XCTFail("expected the address step, got \(flow.step)") }
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
    }

    // spec E4: each callback gets its own full deadline.
    func testEachCallbackGetsItsOwnFullDeadline() throws {
        let clock = ManualClock()
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate, clock: clock)
        flow.enterAddress(F.jane())
        clock.advance(by: .seconds(20))
        delegate.didEnterAddress.complete(.invalid(message: nil))
        clock.advance(by: .seconds(5))
        flow.enterAddress(F.john())
        clock.advance(by: .seconds(29))
        XCTAssertEqual(flow.step, .validatingAddress)
        XCTAssertEqual(flow.violations, [])
        clock.advance(by: .seconds(1))
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut])
        XCTAssertEqual(flow.violations.first?.time, .seconds(55))
        XCTAssertEqual(flow.violations.first?.callbackID, 2)
    }

    // spec E4, E6: the deadline of a callback starts when its delegate method is called. Here the
    // second didEnterAddress waits behind the first, whose merchant answers, has the customer
    // enter another address and then keeps the flow's drain busy for 40 s of the clock: the second
    // callback still gets its full 30 s, counted from its own call.
    func testDeadlineStartsWhenTheDelegateIsCalledNotWhenTheCallIsQueued() throws {
        for answersSecond in [true, false] {
            let clock = ManualClock()
            let merchant = BusyFirstAnswerMerchant(clock: clock, answersSecond: answersSecond)
            let flow = try ShippingAddressFlow(
                configuration: .init(), delegate: merchant, options: F.options(clock, timeout: .seconds(30)))
            XCTAssertEqual(flow.present(), .accepted)
            XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
            XCTAssertEqual(clock.now, .seconds(40))
            if answersSecond {
                XCTAssertEqual(flow.violations, [])
                XCTAssertEqual(flow.outcome, .finished(address: F.john(), shippingMethod: nil))
                XCTAssertEqual(merchant.calls, ["didEnterAddress", "didEnterAddress", "didFinish"])
            } else {
                // Called at 40 s: it times out at 70 s, not at 31 s.
                clock.advance(by: .seconds(29))
                XCTAssertEqual(flow.step, .validatingAddress)
                XCTAssertEqual(flow.violations, [])
                clock.advance(by: .seconds(1))
                XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut])
                XCTAssertEqual(flow.violations.map(\.time), [.seconds(70)])
                XCTAssertEqual(merchant.calls, ["didEnterAddress", "didEnterAddress"])
            }
        }
    }

    // spec E4: callbackTimeout nil disables deadlines.
    func testNilTimeoutDisablesDeadlines() throws {
        let clock = ManualClock()
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate, clock: clock, timeout: nil)
        flow.enterAddress(F.jane())
        XCTAssertEqual(clock.pendingDeadlines, 0)
        clock.advance(by: .seconds(3_600))
        XCTAssertEqual(flow.step, .validatingAddress)
        delegate.didEnterAddress.complete(.valid)
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(flow.violations, [])
    }

    // MARK: E5

    // spec E5: exactly one terminal call; afterwards every action is refused with finished and
    // nothing is called.
    func testEverythingAfterTheTerminalCallIsRefused() throws {
        let delegate = Recorder(didEnterAddress: .answer(.valid(shippingMethods: [F.standard], selected: nil)))
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        flow.done()
        let responses = [
            flow.present(), flow.enterAddress(F.john()), flow.selectShippingMethod("standard"), flow.back(),
            flow.done(), flow.cancel(),
        ]
        for response in responses {
            XCTAssertEqual(response.refusal?.code, .finished)
        }
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didFinish"])
        XCTAssertEqual(F.kinds(flow.transcript).filter { $0.hasPrefix("refused:") }.count, responses.count)
    }

    /// A flow whose delegate only the flow holds, with `didEnterAddress` outstanding.
    private func flowHoldingTheOnlyReference() throws -> (ShippingAddressFlow, FlowsFixture.WeakBox<Recorder>) {
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        return (flow, FlowsFixture.WeakBox(delegate))
    }

    // spec E5: the delegate is held strongly until the terminal call and released then, while
    // the flow itself is still alive (its kept completions capture the flow: no retain cycle).
    func testTheDelegateIsReleasedAfterTheTerminalCall() throws {
        let (flow, weakDelegate) = try flowHoldingTheOnlyReference()
        XCTAssertNotNil(weakDelegate.object, "held strongly mid-flow")
        XCTAssertEqual(weakDelegate.object?.calledMethods, ["didEnterAddress"])
        flow.cancel()
        XCTAssertNil(weakDelegate.object, "released after didCancel")
        XCTAssertEqual(flow.outcome, .cancelled)
    }

    // MARK: E6

    // spec E6: a delegate that completes synchronously inside its callback: no deadlock, and the
    // next delegate call (didFinish) happens only after the callback returned.
    func testSynchronousCompletionInsideTheCallback() throws {
        let delegate = Recorder(didEnterAddress: .answer(.valid))
        let probe = AnswerProbe(delegate)
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: probe, options: F.options(ManualClock()))
        XCTAssertEqual(flow.present(), .accepted)
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didFinish"])
        XCTAssertEqual(delegate.trace, [">didEnterAddress", "<didEnterAddress", ">didFinish", "<didFinish"])
        assertNoNesting(delegate)
        XCTAssertEqual(probe.callsAfterAnswer, [1], "didFinish ran inside didEnterAddress")
        XCTAssertEqual(probe.stepsAfterAnswer, [.ended(.finished(address: F.jane(), shippingMethod: nil))])
    }

    // spec E6, E3: a delegate that calls flow.cancel() inside its callback: accepted, no
    // deadlock, didCancel after the callback returned.
    func testCancelInsideTheCallback() throws {
        let delegate = Recorder(didEnterAddress: .cancel)
        let flow = try makeFlow(.init(), delegate)
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        XCTAssertEqual(delegate.cancelResponses, [.accepted])
        XCTAssertEqual(delegate.trace, [">didEnterAddress", "<didEnterAddress", ">didCancel", "<didCancel"])
        assertNoNesting(delegate)
        XCTAssertEqual(flow.outcome, .cancelled)
        delegate.didEnterAddress.complete(.valid)
        XCTAssertEqual(flow.violations.map(\.kind), [.lateCompletion])
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didCancel"])
    }

    // MARK: E7

    // spec E7: invalid methods (duplicate ids, negative amount, other currency) are an
    // invalidUpdate violation and the flow stays on the address step.
    func testInvalidUpdatesKeepTheAddressStep() throws {
        var negative = F.express
        negative.amount = F.money("-0.01")
        var euro = F.express
        euro.amount = F.money("3.00", .eur)
        for methods in [[F.standard, F.standard], [negative], [F.standard, euro]] {
            let delegate = Recorder(didEnterAddress: .answer(.valid(shippingMethods: methods, selected: nil)))
            let flow = try makeFlow(.init(currency: .usd), delegate)
            flow.enterAddress(F.jane())
            XCTAssertEqual(flow.step, .address(error: "Invalid Shipping Address"))
            XCTAssertEqual(flow.violations.map(\.kind), [.invalidUpdate])
            XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
            XCTAssertNil(flow.outcome)
        }
    }

    // MARK: E8

    // spec E8: the transcript, as text and JSON, has every event with virtual times and masks
    // street, name, email and phone unless asked.
    func testTranscriptRenderingsMaskPersonalData() throws {
        let clock = ManualClock()
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate, clock: clock)
        flow.enterAddress(F.jane(state: nil))
        clock.advance(by: .milliseconds(1_500))
        flow.enterAddress(F.jane())
        clock.advance(by: .seconds(1))
        delegate.didEnterAddress.complete(.valid(shippingMethods: [F.standard, F.express], selected: nil))
        delegate.didEnterAddress.complete(.invalid(message: nil))
        clock.advance(by: .seconds(1))
        flow.selectShippingMethod("express")
        flow.done()

        XCTAssertEqual(
            F.kinds(flow.transcript),
            [
                "action:present", "refused:enterAddress:missingRequiredFields", "action:enterAddress",
                "call:didEnterAddress", "completion:didEnterAddress", "violation:completionCalledTwice",
                "action:selectShippingMethod", "action:done", "outcome:finished(method: express)", "call:didFinish",
            ]
        )
        let personal = ["1 Infinite Loop", "Suite 7", "Jane Appleseed", "jane@example.com", "+1 408 555 0100"]
        let text = flow.transcript.text()
        let json = flow.transcript.json()
        for secret in personal {
            XCTAssertFalse(text.contains(secret), "\(secret) in \(text)")
            XCTAssertFalse(json.contains(secret), "\(secret) in \(json)")
            XCTAssertTrue(flow.transcript.text(showingPersonalData: true).contains(secret), secret)
            XCTAssertTrue(flow.transcript.json(showingPersonalData: true).contains(secret), secret)
        }
        XCTAssertTrue(text.contains("•••"))
        XCTAssertTrue(text.contains("Cupertino"))
        XCTAssertTrue(text.contains("VIOLATION"))
        XCTAssertTrue(text.contains("didEnterAddress #1"))
        XCTAssertTrue(text.contains("missingRequiredFields"))

        let objects = F.jsonObjects(json)
        XCTAssertEqual(
            objects.compactMap { $0["kind"] as? String },
            ["action", "refused", "action", "call", "completion", "violation", "action", "action", "outcome", "call"]
        )
        XCTAssertEqual(
            objects.compactMap { ($0["time"] as? NSNumber).map { "\($0)" } },
            ["0", "0", "1.5", "1.5", "2.5", "2.5", "3.5", "3.5", "3.5", "3.5"]
        )
        XCTAssertEqual(objects[1]["reason"] as? String, "missingRequiredFields")
        XCTAssertEqual(objects[3]["method"] as? String, "didEnterAddress")
        XCTAssertEqual(objects[3]["callbackID"] as? Int, 1)
        XCTAssertEqual(objects[4]["byDefault"] as? Bool, false)
        // spec E8: the answer in the models' own JSON.
        let answer = (objects[4]["answer"] as? [[String: Any]])?.first
        XCTAssertEqual(answer?["status"] as? String, "valid")
        XCTAssertEqual(
            (answer?["shippingMethods"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String },
            ["standard", "express"])
        XCTAssertEqual(
            ((answer?["shippingMethods"] as? [[String: Any]])?.last?["amount"] as? [String: String])?["value"], "9.99")
        XCTAssertEqual(objects[5]["violation"] as? String, "completionCalledTwice")
        XCTAssertEqual(objects[8]["outcome"] as? String, "finished(method: express)")
    }

    // MARK: E9

    // spec E9: a refused action changes nothing and calls nothing.
    func testRefusalsChangeNothing() throws {
        let delegate = Recorder(
            didEnterAddress: .answer(.valid(shippingMethods: [F.standard, F.express], selected: nil)))
        let flow = try makeFlow(.init(), delegate)
        let step = flow.step
        let refusals = [flow.done(), flow.back(), flow.selectShippingMethod("standard"), flow.enterAddress(Contact())]
        XCTAssertEqual(
            refusals.map { $0.refusal?.code },
            [.notAllowedInThisStep, .notAllowedInThisStep, .notAllowedInThisStep, .missingRequiredFields])
        XCTAssertEqual(flow.step, step)
        XCTAssertEqual(delegate.calledMethods, [])
        XCTAssertEqual(flow.transcript.delegateCalls, [])

        flow.enterAddress(F.jane())
        let methodStep = flow.step
        XCTAssertEqual(flow.selectShippingMethod("none").refusal?.code, .unknownShippingMethod)
        XCTAssertEqual(flow.enterAddress(F.john()).refusal?.code, .notAllowedInThisStep)
        XCTAssertEqual(flow.present().refusal?.code, .alreadyPresented)
        XCTAssertEqual(flow.step, methodStep)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
        XCTAssertEqual(flow.violations, [])
    }

    // spec E2: a repeated answer is recorded and changes nothing else: the flow stays on the
    // address step the first answer chose and goes on.
    func testARepeatedAnswerChangesNothingElse() throws {
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate)
        flow.enterAddress(F.jane())
        delegate.didEnterAddress.complete(.invalid(message: nil))
        delegate.didEnterAddress.complete(.valid)
        XCTAssertNil(flow.outcome)
        XCTAssertEqual(flow.step, .address(error: "Invalid Shipping Address"))
        XCTAssertEqual(flow.violations.map(\.kind), [.completionCalledTwice])
        delegate.didEnterAddress.script(.answer(.valid))
        XCTAssertEqual(flow.enterAddress(F.jane()), .accepted)
        guard case .finished = flow.outcome else { return XCTFail("expected finished") }
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didEnterAddress", "didFinish"])
    }

    // spec E4, E2: an answer exactly at the deadline is late: the flow is back on the address
    // step with the timeout error, and the answer changes nothing.
    func testAnswerAtTheDeadlineIsLateAndChangesNothing() throws {
        let clock = ManualClock()
        let delegate = Recorder()
        _ = clock.schedule(at: .seconds(30)) { delegate.didEnterAddress.complete(.valid) }
        let flow = try makeFlow(.init(), delegate, clock: clock)
        flow.enterAddress(F.jane())
        clock.advance(by: .seconds(30))
        XCTAssertNil(flow.outcome)
        XCTAssertEqual(flow.step, .address(error: "The merchant did not answer in time"))
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut, .lateCompletion])
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress"])
    }

    // spec E9: onViolation receives every violation in order.
    func testOnViolationReceivesViolationsInOrder() throws {
        let clock = ManualClock()
        let sink = FlowsFixture.ViolationSink()
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate, clock: clock, sink: sink)
        flow.enterAddress(F.jane())
        delegate.didEnterAddress.complete(.invalid(message: nil))
        delegate.didEnterAddress.complete(.invalid(message: nil))
        flow.enterAddress(F.john())
        clock.advance(by: .seconds(30))
        delegate.didEnterAddress.complete(.valid)
        XCTAssertEqual(sink.violations.map(\.kind), [.completionCalledTwice, .completionTimedOut, .lateCompletion])
        XCTAssertEqual(sink.violations, flow.violations)
        XCTAssertEqual(sink.violations.map(\.callbackID), [1, 2, 2])
    }

    // MARK: Async forms

    // spec S3, E1: the async driver awaits the answer of an async delegate; sequential async use
    // never sees callbackPending.
    func testAsyncDelegateAndAsyncDriver() async throws {
        let methods = [F.standard, F.express]
        let merchant = AsyncMerchant([
            .invalid(message: "Try again"), .valid(shippingMethods: methods, selected: F.express),
        ])
        let flow = try ShippingAddressFlow(
            configuration: .init(), delegate: merchant, options: F.options(ManualClock()))
        flow.present()
        let first = try await flow.enterAddressAndWait(F.jane())
        XCTAssertEqual(first, .invalid(message: "Try again"))
        XCTAssertEqual(flow.step, .address(error: "Try again"))
        let second = try await flow.enterAddressAndWait(F.john())
        XCTAssertEqual(second, .valid(shippingMethods: methods, selected: F.express))
        XCTAssertEqual(flow.step, .shippingMethod(methods: methods, selected: F.express))
        let outcome = try await flow.doneAndWait()
        XCTAssertEqual(outcome, .finished(address: F.john(), shippingMethod: F.express))
        XCTAssertEqual(merchant.calls, ["didEnterAddress", "didEnterAddress", "didFinish"])
        XCTAssertFalse(F.kinds(flow.transcript).contains { $0.hasPrefix("refused") })
    }

    // spec E1, S3: an answer that finishes the flow (valid, no methods) is still returned to the
    // async driver, not reported as a callback ended without an answer.
    func testAsyncDriverReturnsAnAnswerThatFinishesTheFlow() async throws {
        let merchant = AsyncMerchant([.valid(shippingMethods: [], selected: nil)])
        let flow = try ShippingAddressFlow(
            configuration: .init(), delegate: merchant, options: F.options(ManualClock()))
        flow.present()
        let answer = try await flow.enterAddressAndWait(F.jane())
        XCTAssertEqual(answer, .valid(shippingMethods: [], selected: nil))
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(merchant.calls, ["didEnterAddress", "didFinish"])
    }

    // spec E9, S2: the async driver throws the refusal, and returns nil when the flow finished
    // without asking (delivery).
    func testAsyncDriverRefusalsAndDelivery() async throws {
        let merchant = AsyncMerchant([])
        let flow = try ShippingAddressFlow(
            configuration: .init(shippingType: .delivery), delegate: merchant, options: F.options(ManualClock()))
        do {
            _ = try await flow.enterAddressAndWait(F.jane())
            XCTFail("expected a refusal before presenting")
        } catch let refusal as Refusal {
            XCTAssertEqual(refusal.code, .notPresented)
        }
        flow.present()
        let answer = try await flow.enterAddressAndWait(F.jane())
        XCTAssertNil(answer)
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .finished(address: F.jane(), shippingMethod: nil))
        XCTAssertEqual(merchant.calls, ["didFinish"])
    }

    // spec E3, E6: the awaited callback ends without an answer when the delegate cancels inside
    // it: the async driver throws CallbackEnded.
    func testAsyncDriverThrowsWhenTheCallbackEndsWithoutAnswer() async throws {
        let delegate = Recorder(didEnterAddress: .cancel)
        let flow = try makeFlow(.init(), delegate)
        do {
            _ = try await flow.enterAddressAndWait(F.jane())
            XCTFail("expected CallbackEnded")
        } catch let ended as CallbackEnded {
            XCTAssertEqual(ended.callback, "didEnterAddress")
        }
        let outcome = await flow.waitUntilEnded()
        XCTAssertEqual(outcome, .cancelled)
        XCTAssertEqual(delegate.calledMethods, ["didEnterAddress", "didCancel"])
    }

    // spec E4, E3: the first action a driver awaits, whose callback then times out: the async
    // driver throws CallbackEnded (the machine keeps resolutions from that first await on).
    func testAsyncDriverThrowsWhenTheAwaitedCallbackTimesOut() async throws {
        let clock = ManualClock()
        let delegate = Recorder()
        let flow = try makeFlow(.init(), delegate, clock: clock)
        let ended = await F.callbackEnded(
            in: self, by: { _ = try await flow.enterAddressAndWait(F.jane()) },
            after: {
                await delegate.waitUntilCalled("didEnterAddress")
                clock.advance(by: .seconds(30))
            })
        XCTAssertEqual(ended?.callback, "didEnterAddress")
        XCTAssertEqual(ended?.reason, "timed out")
        XCTAssertEqual(flow.violations.map(\.kind), [.completionTimedOut])
    }

    // spec S3, E1: a type conforming to both forms is driven through its completion-handler method,
    // and the async driver still gets the answer.
    func testBothFormsUseTheCompletionHandlerMethod() async throws {
        let merchant = BothFormsMerchant()
        let flow = try ShippingAddressFlow(
            configuration: .init(), delegate: merchant, options: F.options(ManualClock()))
        flow.present()
        let answer = try await flow.enterAddressAndWait(F.jane())
        XCTAssertEqual(answer, .valid)
        XCTAssertEqual(merchant.calls, ["didEnterAddress(completion:)", "didFinish"])
        XCTAssertEqual(flow.outcome, .finished(address: F.jane(), shippingMethod: nil))
    }
}

/// Wraps a recording delegate and notes, right after each answer its script gives inside
/// `didEnterAddress` has returned, the flow's step and how many delegate calls had been made.
private final class AnswerProbe: ShippingAddressDelegate {
    let recorder: RecordingShippingAddressDelegate
    private let seen = LockedValue<(steps: [ShippingAddressStep], calls: [Int])>(([], []))

    init(_ recorder: RecordingShippingAddressDelegate) { self.recorder = recorder }

    var stepsAfterAnswer: [ShippingAddressStep] { seen.withLock { $0.steps } }
    var callsAfterAnswer: [Int] { seen.withLock { $0.calls } }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        recorder.shippingAddressFlowDidCancel(flow)
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        recorder.shippingAddressFlow(flow, didEnter: address) { [recorder, seen] validation in
            completion(validation)
            let step = flow.step
            let calls = recorder.calls.count
            seen.withLock {
                $0.steps.append(step)
                $0.calls.append(calls)
            }
        }
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didFinishWith address: Contact,
        shippingMethod: ShippingMethod?
    ) {
        recorder.shippingAddressFlow(flow, didFinishWith: address, shippingMethod: shippingMethod)
    }
}

/// An async shipping delegate that answers from a list (valid once it is used up).
private final class AsyncMerchant: AsyncShippingAddressDelegate {
    private let state: LockedValue<(calls: [String], answers: [ShippingAddressValidation])>

    init(_ answers: [ShippingAddressValidation]) {
        state = LockedValue((calls: [], answers: answers))
    }

    var calls: [String] { state.withLock { $0.calls } }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        state.withLock { $0.calls.append("didCancel") }
    }

    func shippingAddressFlow(_ flow: ShippingAddressFlow, didEnter address: Contact) async -> ShippingAddressValidation
    {
        await Task.yield()
        return state.withLock { state in
            state.calls.append("didEnterAddress")
            return state.answers.isEmpty ? .valid : state.answers.removeFirst()
        }
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {
        state.withLock { $0.calls.append("didFinish") }
    }
}

/// A delegate with both forms of the address check.
private final class BothFormsMerchant: ShippingAddressDelegate, AsyncShippingAddressDelegate {
    private let recorded = LockedValue<[String]>([])

    var calls: [String] { recorded.withLock { $0 } }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        recorded.withLock { $0.append("didCancel") }
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        recorded.withLock { $0.append("didEnterAddress(completion:)") }
        completion(.valid)
    }

    func shippingAddressFlow(_ flow: ShippingAddressFlow, didEnter address: Contact) async -> ShippingAddressValidation
    {
        recorded.withLock { $0.append("didEnterAddress async") }
        return .invalid(message: "the async form must not be called")
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {
        recorded.withLock { $0.append("didFinish") }
    }
}

/// Answers the first address invalid at once; then, still inside that callback, has the customer
/// enter another address (queued behind this call) and spends 40 s of the clock before returning.
/// Answers the second address valid at once, or never.
private final class BusyFirstAnswerMerchant: ShippingAddressDelegate {
    private let clock: ManualClock
    private let answersSecond: Bool
    private let log = LockedValue<[String]>([])

    init(clock: ManualClock, answersSecond: Bool) {
        self.clock = clock
        self.answersSecond = answersSecond
    }

    var calls: [String] { log.withLock { $0 } }

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        log.withLock { $0.append("didCancel") }
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        let count = log.withLock { calls in
            calls.append("didEnterAddress")
            return calls.count
        }
        if count == 1 {
            completion(.invalid(message: nil))
            XCTAssertEqual(flow.enterAddress(FlowsFixture.john()), .accepted)
            clock.advance(by: .seconds(40))
        } else if answersSecond {
            completion(.valid)
        }
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {
        log.withLock { $0.append("didFinish") }
    }
}
