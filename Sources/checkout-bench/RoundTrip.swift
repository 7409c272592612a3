import CheckoutCore
import CheckoutFlows

/// (1) The delegate round trip: the driver selects a shipping method on an authorization sheet,
/// the merchant's `didSelectShippingMethod` answers synchronously with a new summary, and the
/// sheet takes it (validated against the request, the selection and summary replaced).
///
/// The baseline runs the same merchant methods through plain closures in the same process: a
/// closure for the driver's action that finds the method and calls the delegate through an
/// `any PaymentAuthorizationDelegate` whose concrete type the optimizer cannot see
/// (``Merchants/opaque(_:)``), handing it a real escaping completion that stores the selection
/// and the summary. No state machine, lock, validation, deadline or transcript: the cost of a
/// real delegate call and nothing else, the honest baseline. Each is measured with the shop's
/// merchant (a new summary per answer) and with a prebuilt-summary merchant (the engine's own
/// cost). The baseline as it was before (the merchant's concrete type visible, so the delegate
/// call, the completion and its allocation inlined away) is measured too, for reference only.
enum RoundTripBench {
    /// How many round trips one flow takes before a fresh one replaces it: a transcript that is
    /// on grows with every round trip, and a real sheet sees a handful. Creating, presenting,
    /// cancelling and releasing the flows is counted in the figures. (A flow dropped without
    /// being ended would stay alive until its system-clock timer fires, up to 30 s later.)
    static let roundTripsPerFlow = 1_000

    /// The flow variants measured beside the baseline.
    enum Variant: CaseIterable {
        /// Default options (30-second deadlines on the shared system clock), no transcript.
        case transcriptOff
        /// Default options: deadlines and a transcript.
        case transcriptOn
        /// No deadlines, no transcript: the engine alone.
        case bare

        var options: FlowOptions {
            switch self {
            case .transcriptOff: FlowOptions(recordsTranscript: false)
            case .transcriptOn: FlowOptions()
            case .bare: FlowOptions(callbackTimeout: nil, recordsTranscript: false)
            }
        }
    }

    /// Round trips through the flow; returns the CPU time of the calling thread, in nanoseconds.
    @inline(never)
    static func flow(_ count: Int, _ variant: Variant, _ merchant: any PaymentAuthorizationDelegate) -> UInt64 {
        let options = variant.options
        let start = Clocks.threadCPU()
        var done = 0
        while done < count {
            let flow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: merchant, options: options)
            flow.present()
            let batch = min(roundTripsPerFlow, count - done)
            for index in 0..<batch {
                flow.selectShippingMethod(index & 1 == 0 ? "express" : "ground")
            }
            flow.cancel()
            done += batch
        }
        return Clocks.threadCPU() - start
    }

    /// The state the baseline's closures change: what a sheet shows.
    final class BareSheet: @unchecked Sendable {
        // Unchecked: only the benchmark's thread touches it (the merchant answers synchronously).
        let methods: [ShippingMethod]
        var selectedShippingMethodID: String?
        var summaryItems: [SummaryItem]

        init(methods: [ShippingMethod], summaryItems: [SummaryItem]) {
            self.methods = methods
            self.summaryItems = summaryItems
        }
    }

    /// Round trips through plain closures; returns the CPU time of the calling thread.
    @inline(never)
    static func baseline(
        _ count: Int,
        _ delegate: any PaymentAuthorizationDelegate,
        _ flow: PaymentAuthorizationFlow,
        _ sheet: BareSheet
    ) -> UInt64 {
        let select: (String) -> Void = { identifier in
            guard let method = sheet.methods.first(where: { $0.identifier == identifier }) else { return }
            delegate.paymentAuthorizationFlow(flow, didSelectShippingMethod: method) { update in
                sheet.selectedShippingMethodID = method.identifier
                sheet.summaryItems = update.summaryItems
            }
        }
        let start = Clocks.threadCPU()
        for index in 0..<count {
            select(index & 1 == 0 ? "express" : "ground")
        }
        return Clocks.threadCPU() - start
    }

    /// Round trips through plain closures with the merchant's concrete type visible to the
    /// optimizer (the old baseline, see BENCHMARKS.md): the delegate call and the completion are inlined
    /// away, so this is not the cost of a delegate call. For reference only.
    @inline(never)
    static func concreteBaseline(_ count: Int, _ flow: PaymentAuthorizationFlow, _ sheet: BareSheet) -> UInt64 {
        baseline(count, Merchant(), flow, sheet)
    }

    struct Result {
        /// Round trips per second of the honest baseline, shop merchant and prebuilt merchant.
        var baseline: [Double] = []
        var baselinePrebuilt: [Double] = []
        /// The old baseline (concrete merchant, inlined), for reference.
        var baselineConcrete: [Double] = []
        var rates: [Variant: [Double]] = [:]
        /// Ratios to the honest baseline with the same merchant: ours' time per round trip over
        /// the baseline's.
        var ratios: [Variant: [Double]] = [:]
        /// Transcripts off with the prebuilt merchant: the engine alone.
        var engineOnlyRates: [Double] = []
        var engineOnlyRatios: [Double] = []
        /// Transcripts off, shop merchant: ours minus the baseline, nanoseconds per round trip.
        var engineNanoseconds: [Double] = []
    }

    /// Runs `runs` interleaved samples of the baselines and each variant after a warm-up; each
    /// sample lasts about `sampleSeconds` of CPU time.
    static func run(runs: Int, sampleSeconds: Double, log: (String) -> Void) -> Result {
        let shop = Merchants.opaque(.shop)
        let prebuilt = Merchants.opaque(.prebuilt)
        let argumentFlow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: Merchant())
        let sheet = BareSheet(methods: Shop.methods, summaryItems: Shop.request.summaryItems)

        // Warm-up, and the sizes of the samples.
        let probe = 20_000
        func size(_ nanoseconds: UInt64) -> Int {
            let perRoundTrip = max(1, Double(nanoseconds) / Double(probe))
            return max(probe, Int(sampleSeconds * 1e9 / perRoundTrip))
        }
        func rate(_ count: Int, _ nanoseconds: UInt64) -> Double { Double(count) / (Double(nanoseconds) / 1e9) }
        _ = baseline(probe, shop, argumentFlow, sheet)
        let baselineCount = size(baseline(probe, shop, argumentFlow, sheet))
        _ = baseline(probe, prebuilt, argumentFlow, sheet)
        let prebuiltCount = size(baseline(probe, prebuilt, argumentFlow, sheet))
        _ = concreteBaseline(probe, argumentFlow, sheet)
        let concreteCount = size(concreteBaseline(probe, argumentFlow, sheet))
        var counts: [Variant: Int] = [:]
        for variant in Variant.allCases {
            _ = flow(probe, variant, shop)
            counts[variant] = size(flow(probe, variant, shop))
        }
        _ = flow(probe, .transcriptOff, prebuilt)
        let engineOnlyCount = size(flow(probe, .transcriptOff, prebuilt))
        guard let selected = sheet.selectedShippingMethodID,
            sheet.summaryItems.last?.amount.minorUnits == (selected == "express" ? 2_700 : 1_200)
        else { fatalError("the baseline did not change its state") }
        for merchant in [shop, prebuilt] {
            let check = try! PaymentAuthorizationFlow(request: Shop.request, delegate: merchant)
            check.present()
            check.selectShippingMethod("express")
            guard check.sheet?.selectedShippingMethodID == "express", check.sheet?.grandTotal?.minorUnits == 2_700
            else { fatalError("the flow did not take the merchant's update") }
            check.cancel()
        }

        var result = Result()
        for run in 0..<runs {
            let base = rate(baselineCount, baseline(baselineCount, shop, argumentFlow, sheet))
            result.baseline.append(base)
            let basePrebuilt = rate(prebuiltCount, baseline(prebuiltCount, prebuilt, argumentFlow, sheet))
            result.baselinePrebuilt.append(basePrebuilt)
            result.baselineConcrete.append(rate(concreteCount, concreteBaseline(concreteCount, argumentFlow, sheet)))
            for variant in Variant.allCases {
                let count = counts[variant] ?? probe
                let ours = rate(count, flow(count, variant, shop))
                result.rates[variant, default: []].append(ours)
                result.ratios[variant, default: []].append(base / ours)
                if variant == .transcriptOff { result.engineNanoseconds.append(1e9 / ours - 1e9 / base) }
            }
            let engineOnly = rate(engineOnlyCount, flow(engineOnlyCount, .transcriptOff, prebuilt))
            result.engineOnlyRates.append(engineOnly)
            result.engineOnlyRatios.append(basePrebuilt / engineOnly)
            log("round trip: run \(run + 1)/\(runs)")
        }
        return result
    }
}
