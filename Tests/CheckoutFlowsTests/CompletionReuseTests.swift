import CheckoutCore
import CheckoutFlows
import Dispatch
import XCTest

/// The completion object reused once the merchant has let go of it (issue 16): reused only then,
/// re-armed for its new callback, and never a reference cycle with its flow.
final class CompletionReuseTests: XCTestCase {
    private typealias F = FlowsFixture

    /// A flow whose completions nobody calls: enough for a shell type.
    private final class Quiet: PaymentAuthorizationDelegate {
        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) {}
    }

    /// Answers `didSelectShippingMethod` at once with a total that names the method's amount
    /// (unless `answering` is false), and keeps the handlers of the calls whose numbers (1, 2, ...)
    /// are in `keeping`.
    private final class Merchant: PaymentAuthorizationDelegate, @unchecked Sendable {
        // Unchecked: the test's thread alone calls the flows, which call this synchronously.
        let keeping: Set<Int>
        let answering: Bool
        var calls = 0
        var kept: [Int: @Sendable (ShippingMethodUpdate) -> Void] = [:]
        var finished = 0

        init(keeping: Set<Int> = [], answering: Bool = true) {
            self.keeping = keeping
            self.answering = answering
        }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { finished += 1 }
        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(.success) }
        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) {
            calls += 1
            if keeping.contains(calls) { kept[calls] = handler }
            if answering { handler(ShippingMethodUpdate(summaryItems: CompletionReuseTests.summary(for: method))) }
        }
    }

    /// Answers `didSelectShippingMethod` from a queue of its own: after the call returns, or, for
    /// the express method when `answeringExpressAtOnce`, before it (answered and released inside).
    private final class Elsewhere: PaymentAuthorizationDelegate {
        let queue = DispatchQueue(label: "merchant")
        let answeringExpressAtOnce: Bool

        init(answeringExpressAtOnce: Bool) { self.answeringExpressAtOnce = answeringExpressAtOnce }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}
        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) { handler(.success) }
        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) {
            let update = ShippingMethodUpdate(summaryItems: CompletionReuseTests.summary(for: method))
            if answeringExpressAtOnce && method.identifier == "express" {
                queue.sync { handler(update) }
            } else {
                queue.async { handler(update) }
            }
        }
    }

    fileprivate static func summary(for method: ShippingMethod) -> [SummaryItem] {
        F.summary(method.identifier == "express" ? "29.99" : "20.00")
    }

    private func makeFlow(_ delegate: some PaymentAuthorizationDelegate) -> PaymentAuthorizationFlow {
        let flow = try! PaymentAuthorizationFlow(
            request: F.request(), delegate: delegate, options: F.options(ManualClock(), timeout: nil))
        XCTAssertEqual(flow.present(), .accepted)
        return flow
    }

    // The spare slot: a completion comes back re-armed only when the caller's reference was the
    // only one; one still held elsewhere is left alone and a new object is made.
    func testTheSpareReusesOnlyAnObjectNobodyElseHolds() {
        let shell = makeFlow(Quiet())
        var spare = SpareCompletion()
        let first = spare.make(1, shell)
        let firstObject = ObjectIdentifier(first)
        spare.recycle(consume first)
        let second = spare.make(2, shell)
        XCTAssertEqual(ObjectIdentifier(second), firstObject, "a completion nobody else holds is reused")
        XCTAssertEqual(second.id, 2)

        let elsewhere = second  // the merchant keeps it
        spare.recycle(consume second)
        let third = spare.make(3, shell)
        XCTAssertNotEqual(ObjectIdentifier(third), ObjectIdentifier(elsewhere), "a held completion is not reused")
        XCTAssertEqual(third.id, 3)
        XCTAssertEqual(elsewhere.id, 2, "the held completion keeps its callback")
    }

    // spec E2: a reused completion is claimed afresh for its new callback (its first call is the
    // first), and delivers its new id.
    func testAReusedCompletionAnswersItsNewCallback() {
        let merchant = Merchant()
        let flow = makeFlow(merchant)
        for round in 0..<6 {
            let method = round.isMultiple(of: 2) ? "express" : "standard"
            XCTAssertEqual(flow.selectShippingMethod(method), .accepted)
            XCTAssertEqual(flow.sheet?.selectedShippingMethodID, method)
            XCTAssertEqual(flow.sheet?.grandTotal, F.money(method == "express" ? "29.99" : "20.00"))
        }
        XCTAssertEqual(merchant.calls, 6)
        XCTAssertEqual(flow.violations, [], "each answer was its callback's first")
    }

    // spec E2: a completion the merchant kept is never reused: called again after later
    // callbacks, it is a repeat of its own callback and changes nothing.
    func testAKeptCompletionStaysItsOwnCallbacks() {
        let merchant = Merchant(keeping: [1, 3])
        let flow = makeFlow(merchant)
        for method in ["express", "standard", "express", "standard"] {
            XCTAssertEqual(flow.selectShippingMethod(method), .accepted)
        }
        XCTAssertEqual(flow.sheet?.selectedShippingMethodID, "standard")
        merchant.kept[1]?(ShippingMethodUpdate(summaryItems: F.summary("99.00")))
        merchant.kept[3]?(ShippingMethodUpdate(summaryItems: F.summary("98.00")))
        XCTAssertEqual(flow.sheet?.grandTotal, F.money("20.00"), "a repeat changes nothing")
        XCTAssertEqual(flow.violations.map(\.kind), [.completionCalledTwice, .completionCalledTwice])
        XCTAssertEqual(flow.violations.map(\.callbackID), [1, 3])
    }

    // spec E2, across threads: completions answered from another thread, some before the delegate
    // method returns, some after it; every answer is applied once, to its own callback.
    func testCompletionsAnsweredFromAnotherThread() {
        let merchant = Elsewhere(answeringExpressAtOnce: true)
        let flow = makeFlow(merchant)
        for round in 0..<200 {
            let method = round.isMultiple(of: 2) ? "express" : "standard"
            XCTAssertEqual(flow.selectShippingMethod(method), .accepted)
            merchant.queue.sync {}  // the async answer has been given
            XCTAssertEqual(flow.sheet?.selectedShippingMethodID, method)
        }
        XCTAssertEqual(flow.violations, [])
    }

    // A flow made small between events, as the relay makes its idle sessions (its transcript
    // packed, its spare completion and empty waiters' box let go of), goes on as one never made
    // small: while answers come from another thread, some while a drain is under way, every answer
    // is applied once, and the transcript reads the same calls and answers (spec E2, E8).
    func testAFlowMadeSmallBetweenEventsGoesOnAsBefore() {
        let merchant = Elsewhere(answeringExpressAtOnce: false)
        let small = makeFlow(merchant)
        let twin = makeFlow(Merchant())
        for round in 0..<300 {
            let method = round.isMultiple(of: 2) ? "express" : "standard"
            XCTAssertEqual(small.selectShippingMethod(method), .accepted)
            XCTAssertEqual(twin.selectShippingMethod(method), .accepted)
            // Made small while the answer may be under way, and again once it has come.
            small.compactWhileIdle()
            merchant.queue.sync {}
            small.compactWhileIdle()
            XCTAssertEqual(small.sheet?.selectedShippingMethodID, method)
            XCTAssertEqual(small.sheet?.grandTotal, twin.sheet?.grandTotal)
        }
        XCTAssertEqual(small.violations, [])
        XCTAssertEqual(small.transcript.entries.map(\.event), twin.transcript.entries.map(\.event))
    }

    // A reused completion holds its flow only once the merchant keeps it past the delegate call:
    // kept, and answered later from another thread after the driver let go of the flow, it finds
    // the flow alive and its answer applied; the flow goes with the completion.
    func testAKeptCompletionKeepsItsFlowAfterTheDriverLetsGo() {
        let merchant = Merchant(keeping: [1], answering: false)
        weak var weakFlow: PaymentAuthorizationFlow?
        do {
            let flow = makeFlow(merchant)
            XCTAssertEqual(flow.selectShippingMethod("express"), .accepted)
            weakFlow = flow
        }
        XCTAssertNotNil(weakFlow, "the completion the merchant keeps holds its flow")
        // The other thread takes the handler out of a slot, so that nothing of it is left there
        // once it has answered (a block's captures are released after it returns).
        let slot = LockedValue(merchant.kept[1])
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do {
                let handler = slot.withLock { $0.take() }
                handler?(ShippingMethodUpdate(summaryItems: CompletionReuseTests.summary(for: F.express)))
            }
            answered.signal()
        }
        answered.wait()
        XCTAssertEqual(weakFlow?.sheet?.selectedShippingMethodID, "express", "the late answer was applied")
        XCTAssertEqual(weakFlow?.violations, [])
        merchant.kept = [:]
        XCTAssertNil(weakFlow, "released with the merchant's completion")
    }

    // The spare holds no reference to its flow: a flow whose completions were all reused is
    // released once its driver lets go; one whose completion the merchant keeps lives as long as
    // the merchant holds it, and its repeated answer is counted, not lost.
    func testNoReferenceCycle() {
        weak var released: PaymentAuthorizationFlow?
        let merchant = Merchant()
        do {
            let flow = makeFlow(merchant)
            flow.selectShippingMethod("express")
            flow.selectShippingMethod("standard")
            flow.cancel()
            released = flow
        }
        XCTAssertNil(released, "the flow is released with its spare completion")
        XCTAssertEqual(merchant.finished, 1)

        weak var kept: PaymentAuthorizationFlow?
        let keeper = Merchant(keeping: [2])
        do {
            let flow = makeFlow(keeper)
            flow.selectShippingMethod("express")
            flow.selectShippingMethod("standard")
            flow.cancel()
            kept = flow
        }
        XCTAssertNotNil(kept, "a completion the merchant holds keeps its flow")
        keeper.kept[2]?(ShippingMethodUpdate(summaryItems: F.summary("20.00")))
        XCTAssertEqual(kept?.violations.map(\.kind), [.completionCalledTwice])
        keeper.kept = [:]
        XCTAssertNil(kept, "released with the merchant's last completion")
    }
}
