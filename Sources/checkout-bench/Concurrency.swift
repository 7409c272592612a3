import CheckoutCore
import CheckoutFlows
import Dispatch
import Synchronization

/// (4) Concurrency: many authorization sessions at once whose merchant answers from a pool of
/// worker queues, with default options (deadlines on the shared system clock, transcripts on).
///
/// Each session selects a contact, a shipping method and a coupon, then authorizes. Every
/// delegate call hands its answer to one of the pool's serial queues; the worker calls the
/// completion and then, playing the customer, takes the session's next action, which makes the
/// next delegate call (after the authorization's answer, the flow's own `didFinish`). The
/// sessions are started from the pool's queues in batches, so that all of them are in flight at
/// once. Two ways of choosing the queue:
///
/// - hopping (the main figure): sessions and steps spread over the queues, so a completion
///   usually comes from another thread than its call, and each step moves the flow's state to the
///   other core;
/// - pinned: each session keeps to one queue (the queue its batch started on), as a server that
///   binds a connection to one event loop does; the completion still comes from a pool thread,
///   but always the same one for a session.
///
/// Measured: sessions per second (wall time from the first start to the last `didFinish`) with
/// one worker queue and with two; the process's CPU time per session and how many CPUs it kept
/// busy (CPU time over wall time: below 2 with two workers means the machine did not give it two
/// cores, or its threads waited); and the delay from the moment a worker calls a completion to
/// the session's next delegate call, over every step of every session.
enum ConcurrencyBench {
    static let steps = 4
    /// How many sessions one queue starts at a time.
    static let batch = 500

    final class Pool: @unchecked Sendable {
        // Unchecked: `delays` is written at distinct indexes, each once, by whichever worker
        // runs that step; it is read after every session has ended.
        let queues: [DispatchQueue]
        let pinned: Bool
        /// Whether the sessions run without a flow (see ``Session``).
        let baseline: Bool
        let options: FlowOptions
        let delays: UnsafeMutableBufferPointer<UInt64>
        private let remaining: Atomic<Int>
        private let done = DispatchSemaphore(value: 0)

        init(workers: Int, sessions: Int, pinned: Bool, baseline: Bool) {
            queues = (0..<workers).map { DispatchQueue(label: "checkout-bench.pool.\($0)") }
            self.pinned = pinned
            self.baseline = baseline
            options = FlowOptions()
            delays = .allocate(capacity: sessions * ConcurrencyBench.steps)
            delays.initialize(repeating: 0)
            remaining = Atomic(sessions)
        }

        deinit { delays.deallocate() }

        /// Hands `answer` to a worker; it then takes the session's next action.
        func answer(_ session: Session, _ answer: @escaping @Sendable () -> Void) {
            let queue =
                pinned
                ? queues[(session.index / ConcurrencyBench.batch) % queues.count]
                : queues[(session.index &+ session.step) % queues.count]
            queue.async {
                session.step += 1
                session.completedAt = Clocks.wall()
                answer()
                if session.step < ConcurrencyBench.steps { session.next() }
            }
        }

        func ended() {
            if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { done.signal() }
        }

        func wait() { done.wait() }
    }

    /// One session: its own merchant and customer. Its state is touched by one worker at a time;
    /// the hand-over between workers goes through a dispatch queue, which orders the accesses.
    ///
    /// In the baseline (`flow` nil from the start) no flow runs: the customer's action calls the
    /// merchant's method at once, through an existential the optimizer cannot see through (as the
    /// round trip's honest baseline does), and the completion keeps the answer in the session's
    /// bare sheet; after the authorization's answer the merchant's `didFinish` is called the same
    /// way. The same merchant, the same hand-overs between workers: what is left is the pool's own
    /// cost, and its growth from one worker to two is the floor of any flow's.
    final class Session: PaymentAuthorizationDelegate, @unchecked Sendable {
        let index: Int
        let pool: Pool
        var flow: PaymentAuthorizationFlow?
        var step = 0
        var completedAt: UInt64 = 0
        /// The baseline's sheet: what the merchant answered last.
        var summaryItems: [SummaryItem] = []
        var selectedShippingMethodID: String?
        var authorized = false

        init(index: Int, pool: Pool) {
            self.index = index
            self.pool = pool
        }

        func start() {
            if pool.baseline { return next() }
            let flow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: self, options: pool.options)
            self.flow = flow
            flow.present()
            next()
        }

        func next() {
            guard let flow else { return baselineNext() }
            switch step {
            case 0: flow.selectShippingContact(Shop.contact)
            case 1: flow.selectShippingMethod("express")
            case 2: flow.changeCouponCode("TEN")
            default: flow.authorize(Shop.token)
            }
        }

        /// The baseline's customer action: the merchant called directly.
        private func baselineNext() {
            let merchant = ConcurrencyBench.opaque(self)
            let flow = ConcurrencyBench.argumentFlow
            switch step {
            case 0:
                merchant.paymentAuthorizationFlow(flow, didSelectShippingContact: Shop.contact) { [self] update in
                    summaryItems = update.summaryItems
                }
            case 1:
                guard let method = Shop.methods.first(where: { $0.identifier == "express" }) else { return }
                merchant.paymentAuthorizationFlow(flow, didSelectShippingMethod: method) { [self] update in
                    selectedShippingMethodID = method.identifier
                    summaryItems = update.summaryItems
                }
            case 2:
                merchant.paymentAuthorizationFlow(flow, didChangeCouponCode: "TEN") { [self] update in
                    summaryItems = update.summaryItems
                }
            default:
                let method = Shop.methods.first { $0.identifier == selectedShippingMethodID }
                let payment = Payment(token: Shop.token, shippingContact: Shop.contact, shippingMethod: method)
                merchant.paymentAuthorizationFlow(flow, didAuthorizePayment: payment) { [self] result in
                    authorized = result.status == .success
                    merchant.paymentAuthorizationFlowDidFinish(flow)
                }
            }
        }

        /// A delegate method was entered: the delay since the last completion.
        private func called() {
            guard step > 0 else { return }
            pool.delays[index * ConcurrencyBench.steps + step - 1] = Clocks.wall() &- completedAt
        }

        func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {
            called()
            // The baseline's sheet took every answer, as a flow's does.
            if pool.baseline, !authorized || summaryItems.isEmpty || selectedShippingMethodID == nil {
                fatalError("a baseline session did not keep its answers")
            }
            self.flow = nil
            pool.ended()
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectShippingContact contact: Contact,
            handler: @escaping @Sendable (ShippingContactUpdate) -> Void
        ) {
            called()
            let update = Merchant.contactUpdate(contact)
            pool.answer(self) { handler(update) }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didSelectShippingMethod method: ShippingMethod,
            handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
        ) {
            called()
            let update = ShippingMethodUpdate(summaryItems: Shop.summary(shipping: method.amount))
            pool.answer(self) { handler(update) }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didChangeCouponCode code: String,
            handler: @escaping @Sendable (CouponCodeUpdate) -> Void
        ) {
            called()
            let update = Merchant.couponUpdate(code)
            pool.answer(self) { handler(update) }
        }

        func paymentAuthorizationFlow(
            _ flow: PaymentAuthorizationFlow,
            didAuthorizePayment payment: Payment,
            handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
        ) {
            called()
            pool.answer(self) { handler(.success) }
        }
    }

    struct Sample {
        var sessionsPerSecond: Double
        /// Process CPU time per session, in nanoseconds.
        var cpuPerSession: Double
        /// Process CPU time over wall time: how many cores the run had.
        var cpusBusy: Double
        var p50: Double
        var p99: Double
    }

    /// The flow the baseline's merchant calls are made with (never presented).
    static let argumentFlow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: PrebuiltMerchant())

    /// `session` as a merchant whose concrete type the optimizer does not know at the call.
    @inline(never)
    static func opaque(_ session: Session) -> any PaymentAuthorizationDelegate { session }

    /// Runs `count` sessions on `workers` queues; `baseline` runs them without flows.
    static func sample(_ count: Int, workers: Int, pinned: Bool = false, baseline: Bool = false) -> Sample {
        let pool = Pool(workers: workers, sessions: count, pinned: pinned, baseline: baseline)
        let startWall = Clocks.wall()
        let startCPU = Clocks.processCPU()
        for (number, first) in stride(from: 0, to: count, by: ConcurrencyBench.batch).enumerated() {
            let end = min(count, first + ConcurrencyBench.batch)
            pool.queues[number % workers].async {
                for index in first..<end { Session(index: index, pool: pool).start() }
            }
        }
        pool.wait()
        let wall = Clocks.wall() - startWall
        let cpu = Clocks.processCPU() - startCPU
        let sorted = pool.delays.sorted()
        guard sorted.first != 0 || count == 0 else { fatalError("a step was not measured") }
        return Sample(
            sessionsPerSecond: Double(count) / (Double(wall) / 1e9),
            cpuPerSession: Double(cpu) / Double(count),
            cpusBusy: Double(cpu) / Double(wall),
            p50: percentile(sorted, 0.50),
            p99: percentile(sorted, 0.99)
        )
    }

    struct Result {
        var oneWorker: [Sample] = []
        var twoWorkers: [Sample] = []
        /// Per run: two workers' sessions per second over one worker's.
        var speedups: [Double] = []
        /// The same with each session pinned to one worker.
        var pinnedOneWorker: [Sample] = []
        var pinnedTwoWorkers: [Sample] = []
        var pinnedSpeedups: [Double] = []
        /// The baseline (no flow), hopping, one worker and two.
        var baselineOneWorker: [Sample] = []
        var baselineTwoWorkers: [Sample] = []
    }

    static func run(sessions: Int, runs: Int, log: (String) -> Void) -> Result {
        _ = sample(min(sessions, 10_000), workers: 1)
        _ = sample(min(sessions, 10_000), workers: 2)
        _ = sample(min(sessions, 10_000), workers: 2, baseline: true)
        var result = Result()
        for run in 0..<runs {
            let one = sample(sessions, workers: 1)
            let two = sample(sessions, workers: 2)
            result.oneWorker.append(one)
            result.twoWorkers.append(two)
            result.speedups.append(two.sessionsPerSecond / one.sessionsPerSecond)
            let pinnedOne = sample(sessions, workers: 1, pinned: true)
            let pinnedTwo = sample(sessions, workers: 2, pinned: true)
            result.pinnedOneWorker.append(pinnedOne)
            result.pinnedTwoWorkers.append(pinnedTwo)
            result.pinnedSpeedups.append(pinnedTwo.sessionsPerSecond / pinnedOne.sessionsPerSecond)
            result.baselineOneWorker.append(sample(sessions, workers: 1, baseline: true))
            result.baselineTwoWorkers.append(sample(sessions, workers: 2, baseline: true))
            log("concurrency: run \(run + 1)/\(runs)")
        }
        return result
    }
}
