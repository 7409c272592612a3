import CheckoutCore
import CheckoutFlows
import CheckoutPayContextTesting
import CheckoutTesting
import XCTest

/// The kit's waits never hang: each returns when what it waits for happens, and otherwise fails
/// the test after its timeout with what it saw. The timeouts here are short real time; nothing
/// sleeps.
final class WaitTests: XCTestCase {
    private typealias F = KitFixture

    // A wait for a call that never comes, after a refused action: the failure shows the calls,
    // the flow's last refusal and its transcript.
    func testWaitUntilCalledTimesOutWithWhatItSaw() async throws {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .hold)
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: .testing())
        flow.present()
        flow.enterAddress(F.jane())
        XCTAssertEqual(flow.enterAddress(F.john()).refusal?.code, .callbackPending)

        var line: UInt = 0
        var returned = true
        let failures = await withRecordedFailures {
            line = #line + 1
            returned = await delegate.waitUntilCalled("didFinish", timeout: .milliseconds(50), flow: flow)
        }
        XCTAssertFalse(returned)
        XCTAssertEqual(failures.count, 1)
        let message = failures.first?.message ?? ""
        XCTAssertEqual(failures.first?.location.line, Int(line))
        XCTAssertTrue(message.hasPrefix("timed out after 0.05 seconds waiting for didFinish"), message)
        XCTAssertTrue(message.contains(#"calls so far: ["didEnterAddress"]"#), message)
        XCTAssertTrue(message.contains("last refusal: enterAddress: "), message)
        XCTAssertTrue(message.contains("callbackPending"), message)
        XCTAssertTrue(message.contains(flow.transcript.text()), message)

        let counted = await withRecordedFailures {
            let twice = await delegate.waitUntilCalled("didEnterAddress", times: 2, timeout: .milliseconds(20))
            XCTAssertFalse(twice)
        }
        XCTAssertEqual(counted.count, 1)
        XCTAssertFalse(counted.first?.message.contains("last refusal") ?? true, "no flow given, no transcript")
        flow.cancel()
    }

    // The waits return at once for what already happened, and when it happens later (from
    // another thread), and fail nothing.
    func testWaitUntilCalledReturnsWhenTheCallComes() async throws {
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .answerFromAnotherThread(.valid))
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: .testing())
        let failures = await withRecordedFailures {
            flow.present()
            flow.enterAddress(F.jane())
            let finished = await delegate.waitUntilCalled("didFinish", flow: flow)
            XCTAssertTrue(finished)
            let again = await delegate.wait(for: "didEnterAddress", times: 1, timeout: .zero)
            XCTAssertTrue(again, "already called")
            let outcome = await waitUntilEnded(flow)
            XCTAssertEqual(outcome, .finished(address: F.jane(), shippingMethod: nil))
            let idle = await waitUntilIdle(flow)
            XCTAssertTrue(idle)
        }
        XCTAssertEqual(failures, [])
    }

    // spec P8: the backend's wait, both ways.
    func testTheBackendsWait() async throws {
        let backend = RecordingPaymentBackend()
        let failures = await withRecordedFailures {
            _ = try? await backend.createPaymentMethod(from: Payment(token: F.card(.success)))
            let created = await backend.waitUntilCalled("createPaymentMethod")
            XCTAssertTrue(created)
            let confirmed = await backend.waitUntilCalled("confirmIntent", timeout: .milliseconds(20))
            XCTAssertFalse(confirmed)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.message.contains(#"calls so far: ["createPaymentMethod"]"#) ?? false)
    }

    // A flow that does not end within the timeout (its authorization was refused: no shipping
    // contact yet): the failure shows the merchant's calls, the refusal and the transcript, and
    // the wait returns nil; the flow may end later.
    func testWaitUntilEndedTimesOut() async throws {
        let delegate = RecordingPaymentAuthorizationDelegate()
        let flow = try PaymentAuthorizationFlow(request: F.request(), delegate: delegate, options: .testing())
        flow.present()
        XCTAssertEqual(flow.authorize(F.token()).refusal?.code, .missingRequiredFields)
        var outcome: PaymentAuthorizationOutcome? = .cancelled
        let failures = await withRecordedFailures {
            outcome = await waitUntilEnded(flow, timeout: .milliseconds(50))
        }
        XCTAssertNil(outcome)
        XCTAssertEqual(failures.count, 1)
        let message = failures.first?.message ?? ""
        XCTAssertTrue(message.hasPrefix("timed out after 0.05 seconds waiting for the flow to end"), message)
        XCTAssertTrue(message.contains("delegate calls so far: []"), message)
        XCTAssertTrue(message.contains("last refusal: authorize: "), message)
        XCTAssertTrue(message.contains(flow.transcript.text()), message)

        flow.selectShippingContact(F.jane())
        flow.authorize(F.token())
        let held = await withRecordedFailures {
            let outcome = await waitUntilEnded(flow, timeout: .milliseconds(20))
            XCTAssertNil(outcome, "didAuthorizePayment holds")
        }
        XCTAssertEqual(held.count, 1)
        XCTAssertTrue(
            held.first?.message.contains(
                #"delegate calls so far: ["didSelectShippingContact", "willAuthorizePayment", "didAuthorizePayment"]"#)
                ?? false, "\(held)")
        delegate.didAuthorizePayment.complete(.success)
        let ended = await waitUntilEnded(flow)
        guard case .success = ended else { return XCTFail("\(String(describing: ended))") }
    }

    // Hostile timeouts: one past what Dispatch can count in nanoseconds waits (it used to trap
    // on an overflow), and a negative one fails at once, without waiting.
    func testHugeAndNegativeTimeoutsNeitherTrapNorHang() async throws {
        let huge = Duration.seconds(9_223_372_036) + .nanoseconds(999_999_999)
        let delegate = RecordingShippingAddressDelegate(didEnterAddress: .hold)
        let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: .testing())
        flow.present()
        flow.enterAddress(F.jane())
        let failures = await withRecordedFailures {
            let waiting = Task { await delegate.waitUntilCalled("didFinish", timeout: huge, flow: flow) }
            let idle = await waitUntilIdle(flow, timeout: huge)
            XCTAssertTrue(idle)
            delegate.didEnterAddress.complete(.valid)
            let called = await waiting.value
            XCTAssertTrue(called)
            let outcome = await waitUntilEnded(flow, timeout: huge)
            XCTAssertEqual(outcome, .finished(address: F.jane(), shippingMethod: nil))
        }
        XCTAssertEqual(failures, [])

        let held = RecordingShippingAddressDelegate(didEnterAddress: .hold)
        let stuck = try ShippingAddressFlow(configuration: .init(), delegate: held, options: .testing())
        stuck.present()
        stuck.enterAddress(F.jane())
        let negative = await withRecordedFailures {
            let called = await held.waitUntilCalled("didFinish", timeout: .seconds(-1))
            XCTAssertFalse(called)
            let ended = await waitUntilEnded(stuck, timeout: .seconds(-1))
            XCTAssertNil(ended)
        }
        XCTAssertEqual(negative.count, 2, "\(negative)")
        stuck.cancel()
    }
}
