import CheckoutCore
import CheckoutFlows
import Dispatch
import XCTest

/// Real threads: thousands of flows whose delegates answer from other threads while the driver
/// races `cancel()` against the answers. After each flow: exactly one terminal call, no two
/// delegate calls overlapping, nothing after the end.
final class ConcurrencyTests: XCTestCase {
    /// Watches one flow's delegate calls from every thread.
    final class Monitor: Sendable {
        struct State {
            var inside = 0
            var overlaps = 0
            var terminals = 0
            var callsAfterTerminal = 0
            var calls = 0
        }

        let state = LockedValue(State())
        let ended = DispatchSemaphore(value: 0)

        func enter(terminal: Bool = false) {
            state.withLock { state in
                if state.inside > 0 { state.overlaps += 1 }
                if state.terminals > 0 { state.callsAfterTerminal += 1 }
                state.inside += 1
                state.calls += 1
                if terminal { state.terminals += 1 }
            }
        }

        func exit(terminal: Bool = false) {
            state.withLock { $0.inside -= 1 }
            if terminal { ended.signal() }
        }
    }

    /// Answers every callback from a global queue, sometimes twice.
    final class ThreadedMerchant: PaymentAuthorizationDelegate {
        let monitor: Monitor
        let items: [SummaryItem]
        let answerTwice: Bool

        init(monitor: Monitor, items: [SummaryItem], answerTwice: Bool) {
            self.monitor = monitor
            self.items = items
            self.answerTwice = answerTwice
        }

        private func later(_ body: @escaping @Sendable () -> Void) {
            let twice = answerTwice
            DispatchQueue.global().async {
                body()
                if twice { body() }
            }
        }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
            monitor.enter(terminal: true)
            monitor.exit(terminal: true)
        }

        func paymentAuthorizationFlowWillAuthorizePayment(_ flow: PaymentAuthorizationFlow) {
            monitor.enter()
            monitor.exit()
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) {
            monitor.enter()
            later { handler(.success) }
            monitor.exit()
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectShippingContact contact: Contact,
            handler: @escaping @Sendable (ShippingContactUpdate) -> Void
        ) {
            monitor.enter()
            let items = items
            later { handler(ShippingContactUpdate(summaryItems: items)) }
            monitor.exit()
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectPaymentMethod method: PaymentMethod,
            handler: @escaping @Sendable (PaymentMethodUpdate) -> Void
        ) {
            monitor.enter()
            let items = items
            later { handler(PaymentMethodUpdate(summaryItems: items)) }
            monitor.exit()
        }
    }

    // spec E1, E2, E3, E5, E6
    func testThousandsOfFlowsWithThreadedAnswersAndRacingCancels() throws {
        let usd = CurrencyCode.usd
        let items = [SummaryItem(label: "Shop", amount: Money(minorUnits: 1_000, currency: usd))]
        let request = PaymentRequest(
            merchantIdentifier: "merchant.test",
            countryCode: "US",
            currencyCode: "USD",
            summaryItems: items
        )
        let contact = Contact(
            postalAddress: Address(
                line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: .us)
        )
        let token = PaymentToken(
            paymentMethod: PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit),
            transactionIdentifier: "t",
            paymentData: "4242424242424242"
        )
        let flows = 2_000
        var started: [(PaymentAuthorizationFlow, Monitor)] = []
        for index in 0..<flows {
            let monitor = Monitor()
            let merchant = ThreadedMerchant(monitor: monitor, items: items, answerTwice: index % 3 == 0)
            let flow = try PaymentAuthorizationFlow(
                request: request,
                delegate: merchant,
                options: FlowOptions(callbackTimeout: nil)
            )
            XCTAssertTrue(flow.present().isAccepted)
            started.append((flow, monitor))
            // Each driver runs on a worker thread and never blocks; refusals while a callback is
            // outstanding are expected.
            DispatchQueue.global().async {
                var attempts = 0
                while flow.outcome == nil, attempts < 200 {
                    attempts += 1
                    switch attempts % 4 {
                    case 0: flow.selectShippingContact(contact)
                    case 1: flow.selectPaymentMethod(token.paymentMethod)
                    case 2: if index % 5 == 0 { flow.authorize(token) }
                    default: if index % 7 == attempts % 7 { flow.cancel() }
                    }
                }
                // Race a cancel from yet another thread against whatever is in flight.
                DispatchQueue.global().async { flow.cancel() }
            }
        }
        var outcomes: [String: Int] = [:]
        for (index, (flow, monitor)) in started.enumerated() {
            monitor.ended.wait()
            let state = monitor.state.withLock { $0 }
            XCTAssertEqual(state.terminals, 1, "flow \(index): terminal calls")
            XCTAssertEqual(state.overlaps, 0, "flow \(index): overlapping delegate calls")
            XCTAssertEqual(state.callsAfterTerminal, 0, "flow \(index): calls after the end")
            XCTAssertEqual(flow.cancel().refusal?.code, .finished)
            outcomes[flow.outcome.map { "\($0)" } ?? "none", default: 0] += 1
        }
        let seen = outcomes
        XCTAssertEqual(seen.values.reduce(0, +), flows)
        XCTAssertNil(seen["none"])
        XCTAssertGreaterThan(seen["cancelled"] ?? 0, 0)
    }

    /// A shipping merchant that completes from another thread while the driver cancels at once.
    final class RacingShippingMerchant: ShippingAddressDelegate {
        let monitor: Monitor

        init(monitor: Monitor) { self.monitor = monitor }

        func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
            monitor.enter(terminal: true)
            monitor.exit(terminal: true)
        }

        func shippingAddressFlow(
            _ flow: ShippingAddressFlow,
            didEnter address: Contact,
            completion: @escaping @Sendable (ShippingAddressValidation) -> Void
        ) {
            monitor.enter()
            DispatchQueue.global().async { completion(.valid) }
            monitor.exit()
        }

        func shippingAddressFlow(
            _ flow: ShippingAddressFlow,
            didFinishWith address: Contact,
            shippingMethod: ShippingMethod?
        ) {
            monitor.enter(terminal: true)
            monitor.exit(terminal: true)
        }
    }

    // spec E2, E3, E5, S5
    func testCompletionRacingCancelEndsExactlyOnce() throws {
        let contact = Contact(
            postalAddress: Address(
                line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: .us)
        )
        var started: [(ShippingAddressFlow, Monitor)] = []
        for _ in 0..<2_000 {
            let monitor = Monitor()
            let flow = try ShippingAddressFlow(
                configuration: ShippingAddressConfiguration(),
                delegate: RacingShippingMerchant(monitor: monitor),
                options: FlowOptions(callbackTimeout: nil)
            )
            flow.present()
            XCTAssertTrue(flow.enterAddress(contact).isAccepted)
            DispatchQueue.global().async { flow.cancel() }
            started.append((flow, monitor))
        }
        var totals = (finished: 0, cancelled: 0)
        for (flow, monitor) in started {
            monitor.ended.wait()
            let state = monitor.state.withLock { $0 }
            XCTAssertEqual(state.terminals, 1)
            XCTAssertEqual(state.overlaps, 0)
            XCTAssertEqual(state.callsAfterTerminal, 0)
            switch flow.outcome {
            case .finished: totals.finished += 1
            case .cancelled: totals.cancelled += 1
            default: XCTFail("unexpected outcome \(String(describing: flow.outcome))")
            }
        }
        XCTAssertEqual(totals.finished + totals.cancelled, 2_000)
    }
}

extension CountryCode {
    fileprivate static let us = try! CountryCode("US")
}
