import CheckoutCore
import CheckoutFlows

/// (3) Memory: authorization sessions parked while the merchant owes the answer to
/// `didSelectShippingContact`, each with its outstanding completion, its deadline and (by
/// default) its transcript.
///
/// The heap is read from the allocator before and after creating the sessions; the difference
/// divided by their number is what one parked session retains. Every session shares one
/// `PaymentRequest` and one customer contact, created before the first reading, so the request's
/// own storage (its arrays and strings) is not counted; the arrays that hold the flows and the
/// parked completions are allocated in full before it too. Each run uses a clock of its own, so
/// that the deadline heap's growth is counted rather than inherited from an earlier run.
enum MemoryBench {
    /// A completion the merchant keeps. (Wrapped in a struct: an array of bare closures stores
    /// each behind a thunk of its own, an allocation the merchant, not the flow, would cause.)
    struct Parked {
        let handler: @Sendable (ShippingContactUpdate) -> Void
    }

    /// The merchant that never answers in time: it keeps each completion.
    final class Parker: PaymentAuthorizationDelegate, @unchecked Sendable {
        // Unchecked: the benchmark's thread alone calls the flows, which call this synchronously.
        var handlers: [Parked] = []
        var finished = 0

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { finished += 1 }

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
            handlers.append(Parked(handler: handler))
        }
    }

    /// The request's own storage in a parked session: what its state machine keeps inline (one
    /// reference: the fields, copy on write, are the driver's, shared).
    static let requestBytes = MemoryLayout<PaymentRequest>.stride

    struct Sample {
        /// Heap bytes per parked session.
        var bytesPerSession: Double
        /// Heap bytes per session still in use after every session was cancelled and released.
        var bytesLeftPerSession: Double
    }

    /// Parks `count` sessions with `transcripts` on or off and measures them.
    @inline(never)
    static func sample(_ count: Int, transcripts: Bool) -> Sample {
        let request = Shop.request
        let contact = Shop.contact
        let options = FlowOptions(clock: SystemClock(), recordsTranscript: transcripts)
        let parker = Parker()
        parker.handlers.reserveCapacity(count)
        var flows: [PaymentAuthorizationFlow] = []
        flows.reserveCapacity(count)
        guard let before = Heap.bytesInUse() else { return Sample(bytesPerSession: .nan, bytesLeftPerSession: .nan) }

        for _ in 0..<count {
            let flow = try! PaymentAuthorizationFlow(request: request, delegate: parker, options: options)
            flow.present()
            flow.selectShippingContact(contact)
            flows.append(flow)
        }

        let parked = Heap.bytesInUse() ?? before
        guard parker.handlers.count == count,
            flows.allSatisfy({ $0.step == .awaiting(DelegateMethod.didSelectShippingContact.name) })
        else { fatalError("a session is not parked") }
        for flow in flows { flow.cancel() }
        guard parker.finished == count else { fatalError("a session did not finish") }
        flows.removeAll(keepingCapacity: true)
        parker.handlers.removeAll(keepingCapacity: true)
        let left = Heap.bytesInUse() ?? parked
        return Sample(
            bytesPerSession: Double(parked - before) / Double(count),
            bytesLeftPerSession: Double(left - before) / Double(count)
        )
    }

    struct Result {
        var transcriptOn: [Double] = []
        var transcriptOff: [Double] = []
        var leftAfterRelease: [Double] = []
        var peakResidentBytes = 0
    }

    static func run(sessions: Int, runs: Int, log: (String) -> Void) -> Result {
        _ = sample(min(sessions, 1_000), transcripts: true)
        _ = sample(min(sessions, 1_000), transcripts: false)
        var result = Result()
        for run in 0..<runs {
            let on = sample(sessions, transcripts: true)
            result.transcriptOn.append(on.bytesPerSession)
            result.leftAfterRelease.append(on.bytesLeftPerSession)
            result.transcriptOff.append(sample(sessions, transcripts: false).bytesPerSession)
            log("memory: run \(run + 1)/\(runs)")
        }
        result.peakResidentBytes = Heap.peakResidentBytes()
        return result
    }
}
