import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What running a scenario gave.
public struct ScenarioResult: Sendable {
    public var name: String
    public var flow: Scenario.Flow
    /// How the flow ended (`finished(method: express)`, `success`, ...), or
    /// `running` when the steps ran out before the end.
    public var outcome: String
    /// The merchant's delegate methods, in the order they were called.
    public var delegateCalls: [String]
    /// The violations recorded, in order.
    public var violations: [Violation]
    /// The flow's record (for the pay context: the context's and its sheet's, merged).
    public var transcript: Transcript
    /// Driver actions that were refused, with the reason.
    public var refusals: [String]
    /// For the pay context: the sequence numbers of the entries its sheet recorded.
    public var sheetEntries: Set<UInt64> = []
    /// Spec invariants that broke (exactly one terminal call, nothing after it, no overlapping
    /// delegate calls, one outstanding callback at a time, redacted contacts before
    /// authorization, no secret in any rendering). Empty when all held.
    public var brokenInvariants: [String]
    /// When the steps ran out before the end (`running`): the callback whose answer was still
    /// owed (for the pay context, its sheet's), or nil when none was.
    public var waitingFor: String? = nil
}

/// Runs scenarios on virtual time: a clock that only the `wait` steps advance, one deadline at a
/// time (what a deadline starts on other threads is over before the next fires), and, for the pay
/// context, a ``ScenarioBackend``: the in-memory Stripe backend unless told otherwise.
public enum ScenarioRunner {
    /// What the runs of a scenario's variants (the explorer's sessions: other steps, more
    /// misbehaviour) can share, read-only, and what they can leave out of their results.
    package struct Setup: Sendable {
        /// The merchant's pricing, worked out from the scenario's merchant spec and request.
        var pricing: ScenarioMerchant.Pricing
        /// The renderings of transcript entries seen before, for the P7 check; nil: each
        /// transcript is rendered whole.
        package var renderings: RenderingCache?
        /// The token of each card an `authorize` step names without a network, made beforehand.
        var tokens: [String: PaymentToken] = [:]
        /// The test card of each of those tokens' payment data, looked up beforehand.
        var cards: [String: StripeTestCard] = [:]
        /// Whether the result describes refused steps (`refusals`), lists the pay context's sheet
        /// entries (`sheetEntries`) and keeps the whole transcript (`transcript`, otherwise empty
        /// unless the P7 check needed it); the explorer reads none of them.
        var keepsDetails = true
        /// Whether the pay context is looked at eight times after every step, without stopping
        /// once it is found idle twice with no answer started in between: the reference the
        /// early stop is tested against.
        package var settlesFully = false

        package init(_ scenario: Scenario) {
            pricing = ScenarioMerchant.Pricing(spec: scenario.merchant, request: scenario.paymentRequest)
        }
    }

    /// Runs `scenario` to the end of its steps and reports what happened; a pay-context scenario
    /// runs on `backend`.
    public static func run(_ scenario: Scenario, backend: ScenarioBackend = .memory) async -> ScenarioResult {
        await run(scenario, Setup(scenario), backend: backend)
    }

    /// Runs `scenario`, a variant of the scenario `setup` was made for.
    package static func run(_ scenario: Scenario, _ setup: Setup, backend choice: ScenarioBackend = .memory) async
        -> ScenarioResult
    {
        let clock = ManualClock()
        let backend: ScenarioMerchant.Backend =
            switch choice {
            case .memory: .memory(InMemoryStripeBackend(radar: scenario.merchant.radar ?? .stripeDefault))
            case .stripeHTTP(let configuration): .http(StripeHTTPBackend(configuration: configuration))
            }
        let timeout: Duration? =
            switch scenario.deadlineSeconds {
            case .none: .seconds(30)
            case .some(0): nil
            case .some(let seconds): .seconds(seconds)
            }
        let options = FlowOptions(callbackTimeout: timeout, clock: clock)
        let merchant = ScenarioMerchant(
            spec: scenario.merchant,
            request: scenario.paymentRequest,
            pricing: setup.pricing,
            cards: setup.cards,
            clock: clock,
            backend: backend
        )
        defer {
            // The run is over: late answers still scheduled and completions the merchant never
            // calls would keep the flow, merchant and clock alive in a cycle.
            clock.discardPendingDeadlines()
            merchant.log.withLock { $0.held = [] }
        }
        var refusals: [String] = []
        func note(_ step: Step, _ response: DriverResponse) {
            guard setup.keepsDetails, let refusal = response.refusal else { return }
            refusals.append("\(step): \(refusal)")
        }
        func refuse(_ step: Step, _ reason: String) {
            if setup.keepsDetails { refusals.append("\(step): \(reason)") }
        }
        func token(_ card: String, _ network: PaymentNetwork?) -> PaymentToken {
            if network == nil, let token = setup.tokens[card] { return token }
            return Self.token(card, network)
        }

        switch scenario.flow {
        case .shippingAddress:
            let configuration = scenario.shippingConfiguration ?? ShippingAddressConfiguration()
            let flow: ShippingAddressFlow
            do {
                flow = try ShippingAddressFlow(configuration: configuration, delegate: merchant, options: options)
            } catch {
                return refusedAtStart(scenario, "\(error)")
            }
            flow.present()
            for step in scenario.steps {
                switch step {
                case .enterAddress(let contact): note(step, flow.enterAddress(contact))
                case .selectShippingMethod(let identifier): note(step, flow.selectShippingMethod(identifier))
                case .back: note(step, flow.back())
                case .done: note(step, flow.done())
                case .cancel: note(step, flow.cancel())
                case .wait(let seconds):
                    await clock.advance(by: .seconds(seconds)) { await merchant.activity.waitUntilIdle() }
                default: refuse(step, "not a step of the shipping-address flow")
                }
                await merchant.activity.waitUntilIdle()
            }
            var waiting: String?
            if case .validatingAddress = flow.step { waiting = DelegateMethod.didEnterAddress.name }
            return result(
                scenario, flow.outcome.map { "\($0)" },
                { setup.renderings.map(flow.transcript(describingAnswersWith:)) ?? flow.transcript }, [flow.outline],
                flow.violations, refusals,
                merchant, setup, waitingFor: waiting)

        case .paymentAuthorization:
            guard let request = scenario.paymentRequest else { return refusedAtStart(scenario, "no request") }
            let flow: PaymentAuthorizationFlow
            do {
                flow = try PaymentAuthorizationFlow(request: request, delegate: merchant, options: options)
            } catch {
                return refusedAtStart(scenario, "\(error)")
            }
            if let refusal = flow.present().refusal { return refusedAtStart(scenario, "\(refusal)") }
            for step in scenario.steps {
                switch step {
                case .requestMerchantSession(let url):
                    note(step, flow.requestMerchantSession(MerchantSessionRequest(validationURL: url)))
                case .selectShippingContact(let contact): note(step, flow.selectShippingContact(contact))
                case .selectShippingMethod(let identifier): note(step, flow.selectShippingMethod(identifier))
                case .selectPaymentMethod(let method): note(step, flow.selectPaymentMethod(method))
                case .changeCouponCode(let code): note(step, flow.changeCouponCode(code))
                case .authorize(let card, let network, let billing):
                    note(step, flow.authorize(token(card, network), billingContact: billing))
                case .cancel: note(step, flow.cancel())
                case .wait(let seconds):
                    await clock.advance(by: .seconds(seconds)) { await merchant.activity.waitUntilIdle() }
                default: refuse(step, "not a step of the payment-authorization flow")
                }
                await merchant.activity.waitUntilIdle()
            }
            var waiting: String?
            if case .awaiting(let callback) = flow.step { waiting = callback }
            return result(
                scenario, flow.outcome.map { "\($0)" },
                { setup.renderings.map(flow.transcript(describingAnswersWith:)) ?? flow.transcript }, [flow.outline],
                flow.violations, refusals,
                merchant, setup, waitingFor: waiting)

        case .payContext:
            guard let request = scenario.paymentRequest else { return refusedAtStart(scenario, "no request") }
            let context: PayContext
            do {
                context = try PayContext(
                    request: request, backend: backend.payment, delegate: merchant, options: options)
            } catch {
                return refusedAtStart(scenario, "\(error)")
            }
            if let refusal = context.present().refusal { return refusedAtStart(scenario, "\(refusal)") }
            func settle() async {
                // Backend calls and merchant answers from other threads may queue more of each.
                // Each hands over before it ends: a backend task starts the next backend call or
                // the merchant's answer before it finishes, and an answer from another thread
                // starts the next backend call before it ends; nothing else starts work without a
                // step. So once the context is found idle between two looks that find the merchant
                // idle with no answer started in between, nothing is left to run, and the rounds
                // left would each find both idle at once.
                for _ in 0..<8 {
                    let before = merchant.activity.idleMark
                    await context.waitUntilIdle()
                    await merchant.activity.waitUntilIdle()
                    if !setup.settlesFully, let before, merchant.activity.idleMark == before { return }
                }
            }
            for step in scenario.steps {
                switch step {
                case .requestMerchantSession(let url):
                    note(step, context.requestMerchantSession(MerchantSessionRequest(validationURL: url)))
                case .selectShippingContact(let contact): note(step, context.selectShippingContact(contact))
                case .selectShippingMethod(let identifier): note(step, context.selectShippingMethod(identifier))
                case .selectPaymentMethod(let method): note(step, context.selectPaymentMethod(method))
                case .changeCouponCode(let code): note(step, context.changeCouponCode(code))
                case .authorize(let card, let network, let billing):
                    note(step, context.authorize(token(card, network), billingContact: billing))
                case .cancel: note(step, context.cancel())
                case .wait(let seconds):
                    // What a deadline starts (a late answer's next backend request) is over
                    // before the next deadline fires.
                    await clock.advance(by: .seconds(seconds)) { await settle() }
                default: refuse(step, "not a step of the pay context")
                }
                await settle()
            }
            let outcome = context.outcome.map { "\($0.status.rawValue)" + ($0.error.map { "(\(describe($0)))" } ?? "") }
            // The invariants read the outlines (no answer described); the whole transcript,
            // `context.transcript`, is made only when the result keeps it or P7 searches it.
            var waiting: String?
            if context.outcome == nil, case .awaiting(let callback) = context.sheet.step { waiting = callback }
            let sheetOutline = context.sheet.outline
            let contextOutline = context.contextOutline
            var report = result(
                scenario,
                outcome,
                { setup.renderings.map(context.transcript(describingAnswersWith:)) ?? context.transcript },
                [sheetOutline, contextOutline],
                setup.keepsDetails ? context.violations : violations(sheet: sheetOutline, context: contextOutline),
                refusals,
                merchant,
                setup,
                waitingFor: waiting
            )
            if setup.keepsDetails { report.sheetEntries = Set(sheetOutline.entries.map(\.sequence)) }
            return report
        }
    }

    /// `PayContext.violations` from the outlines of the sheet and the pay context, read already for
    /// the E1 check: the violations of the two merged and numbered as the pay context's transcript
    /// numbers them (`Transcript.payContext`), put together only when there is one (most sessions
    /// have none).
    package static func violations(sheet: Transcript, context: Transcript) -> [Violation] {
        func hasViolation(_ outline: Transcript) -> Bool {
            outline.entries.contains { entry in
                if case .violation = entry.event { return true }
                return false
            }
        }
        guard hasViolation(sheet) || hasViolation(context) else { return [] }
        return Transcript.payContext(sheet: sheet, context: context).violations
    }

    static func token(_ card: String, _ network: PaymentNetwork?) -> PaymentToken {
        let digits = card.filter(\.isNumber)
        let brand = network ?? (digits.hasPrefix("4") || card == "tok_visa" ? .visa : .masterCard)
        return PaymentToken(
            paymentMethod: PaymentMethod(
                displayName: "\(brand.rawValue.capitalized) \(digits.suffix(4))",
                network: brand,
                type: .credit
            ),
            transactionIdentifier: "sim-\(digits.suffix(4))",
            paymentData: card
        )
    }

    private static func describe(_ error: any Error) -> String {
        if let stripe = error as? StripeError { return stripe.declineCode ?? stripe.code ?? stripe.type }
        if let context = error as? PayContextError { return context.code.rawValue }
        if let checkout = error as? CheckoutError { return checkout.code.rawValue }
        return "\(error)"
    }

    private static func refusedAtStart(_ scenario: Scenario, _ reason: String) -> ScenarioResult {
        ScenarioResult(
            name: scenario.name,
            flow: scenario.flow,
            outcome: "refused",
            delegateCalls: [],
            violations: [],
            transcript: Transcript(),
            refusals: ["present: \(reason)"],
            brokenInvariants: []
        )
    }

    /// The result of a run; `transcript` gives the flow's whole transcript, made only when the
    /// result keeps it (`setup.keepsDetails`) or the P7 check has a secret to look for.
    private static func result(
        _ scenario: Scenario,
        _ outcome: String?,
        _ transcript: () -> Transcript,
        _ parts: [Transcript],
        _ violations: [Violation],
        _ refusals: [String],
        _ merchant: ScenarioMerchant,
        _ setup: Setup,
        waitingFor: String?
    ) -> ScenarioResult {
        let log = merchant.log.withLock { $0 }
        var broken = Invariants.check(
            ended: outcome != nil,
            merchant: log,
            transcripts: parts,
            checksRedaction: scenario.flow != .shippingAddress
        )
        // Without a secret's hidden part the P7 check finds nothing to look for.
        let searched = log.secrets.contains { Invariants.hiddenPart(of: $0) != nil }
        let whole = setup.keepsDetails || searched ? transcript() : Transcript()
        broken += Invariants.secretsHidden(log.secrets, in: whole, renderings: setup.renderings)
        return ScenarioResult(
            name: scenario.name,
            flow: scenario.flow,
            outcome: outcome ?? "running",
            delegateCalls: log.calls,
            violations: violations,
            transcript: whole,
            refusals: refusals,
            brokenInvariants: broken,
            waitingFor: outcome == nil ? waitingFor : nil
        )
    }
}

/// The spec's invariants, checked from the merchant's own record and the transcripts.
package enum Invariants {
    static func check(
        ended: Bool,
        merchant log: ScenarioMerchant.Log,
        transcripts: [Transcript],
        checksRedaction: Bool
    ) -> [String] {
        var broken: [String] = []
        if ended, log.terminals != 1 { broken.append("E5: \(log.terminals) terminal calls instead of exactly one") }
        if !ended, log.terminals != 0 { broken.append("E5: a terminal call came but the flow reports no outcome") }
        if log.callsAfterTerminal > 0 {
            broken.append("E5: \(log.callsAfterTerminal) delegate calls after the terminal one")
        }
        if log.overlaps > 0 { broken.append("E6: \(log.overlaps) delegate calls overlapped or nested") }
        if checksRedaction, log.unredactedContacts > 0 {
            broken.append(
                "A2: the merchant saw \(log.unredactedContacts) unredacted shipping contacts before authorization")
        }
        for transcript in transcripts {
            broken += oneOutstandingAtATime(transcript)
        }
        return broken
    }

    /// E1: between a callback's call and its end (its completion, its timeout, the outcome), no
    /// other callback is called.
    static func oneOutstandingAtATime(_ transcript: Transcript) -> [String] {
        var open: (String, UInt64)?
        var broken: [String] = []
        for entry in transcript.entries {
            switch entry.event {
            case .call(let method, .some(let id), _):
                if method.hasPrefix("sheet.") { continue }
                if let (other, otherID) = open, otherID != id {
                    broken.append("E1: \(method) #\(id) was called while \(other) #\(otherID) was outstanding")
                }
                open = (method, id)
            case .completion(_, let id, _, _):
                if open?.1 == id { open = nil }
            case .violation(let violation) where violation.kind == .completionTimedOut:
                if open?.1 == violation.callbackID { open = nil }
            case .outcome:
                open = nil
            case .action("cancel", _):
                open = nil
            default:
                break
            }
        }
        return broken
    }

    /// P7: no rendering shows a secret the merchant handed over.
    ///
    /// With `cache`, the renderings are those of each entry, looked up or made once (see
    /// ``RenderingCache``): the same bytes are searched.
    package static func secretsHidden(
        _ secrets: [String],
        in transcript: Transcript,
        renderings cache: RenderingCache? = nil
    ) -> [String] {
        let hidden = secrets.map(hiddenPart(of:))
        // Rendered only when there is a secret to look for: most sessions hand over none.
        guard hidden.contains(where: { $0 != nil }) else { return [] }
        if let cache {
            let renderings = cache.renderings(of: transcript)
            return hidden.compactMap { hidden in
                guard let hidden else { return nil }
                return renderings.contain(hidden) ? "P7: a client secret appears in a transcript" : nil
            }
        }
        let renderings = [
            transcript.text(), transcript.text(showingPersonalData: true), transcript.json(),
            transcript.json(showingPersonalData: true),
        ]
        return hidden.compactMap { hidden in
            guard let hidden else { return nil }
            return renderings.contains { occurs(hidden, in: $0) } ? "P7: a client secret appears in a transcript" : nil
        }
    }

    /// What the P7 check looks for of a secret the merchant handed over: what follows its
    /// `_secret_`, which no rendering may show; nil when nothing does (a malformed secret).
    static func hiddenPart(of secret: String) -> String? {
        guard let range = secret.range(of: "_secret_"), range.upperBound < secret.endIndex else { return nil }
        return String(secret[range.upperBound...])
    }

    /// Whether `needle`'s UTF-8 bytes occur in `haystack`'s: a verbatim search, which also finds a
    /// secret that a combining mark follows (a search by characters would not), at a fraction of
    /// the cost of Foundation's: the C library's `memchr` finds each place where the first byte
    /// occurs, `memcmp` compares the rest there.
    package static func occurs(_ needle: String, in haystack: String) -> Bool {
        var needle = needle
        var haystack = haystack
        return needle.withUTF8 { needle in haystack.withUTF8 { haystack in occurs(needle, in: haystack) } }
    }

    /// ``occurs(_:in:)`` on bytes.
    package static func occurs(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        needle.isEmpty || firstOccurrence(of: needle, in: haystack) != nil
    }

    /// Where `needle`'s bytes first occur in `haystack`, as an offset; nil when they do not or
    /// `needle` is empty.
    package static func firstOccurrence(
        of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>
    ) -> Int? {
        guard let needleStart = needle.baseAddress, let first = needle.first else { return nil }
        guard let haystackStart = haystack.baseAddress, haystack.count >= needle.count else { return nil }
        // The last place the needle can start.
        let last = haystackStart + (haystack.count - needle.count)
        var start = haystackStart
        while start <= last {
            guard let found = memchr(start, Int32(first), last - start + 1) else { return nil }
            let candidate = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
            if memcmp(candidate + 1, needleStart + 1, needle.count - 1) == 0 { return candidate - haystackStart }
            start = candidate + 1
        }
        return nil
    }
}
