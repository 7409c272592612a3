import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import Foundation
import XCTest

/// What the explorer shares between its sessions (the merchant's pricing, the cards' tokens, the
/// renderings of transcript entries) and leaves out of their results changes none of what it
/// reports: each session gives what a run of its own gives.
final class ExplorerSharingTests: XCTestCase {
    private static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

    private static func scenarios() throws -> [(String, Scenario)] {
        let names = try XCTUnwrap(FileManager.default.enumerator(atPath: examples.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            (
                name,
                try JSONDecoder().decode(Scenario.self, from: Data(contentsOf: examples.appendingPathComponent(name)))
            )
        }
    }

    // Every shipped example, 60 sessions each: a session run with the explorer's shared setup has
    // the outcome, broken invariants, violations and delegate calls of the same session run alone,
    // with a fresh setup that looks at a pay context eight times after every step (no early stop).
    func testSharedSetupGivesWhatARunOfItsOwnGives() async throws {
        for (name, scenario) in try Self.scenarios() {
            let setup = Explorer.sharedSetup(scenario)
            XCTAssertEqual(setup.renderings != nil, scenario.flow == .payContext, name)
            for index in 0..<60 {
                let seed = Explorer.sessionSeed(1, index)
                let (steps, variation) = Explorer.generate(for: scenario, seed: seed)
                let session = Explorer.variant(scenario, steps, variation)
                var reference = ScenarioRunner.Setup(scenario)
                reference.settlesFully = true
                let alone = await ScenarioRunner.run(session, reference)
                let shared = await ScenarioRunner.run(session, setup)
                let what = "\(name) session \(index)"
                XCTAssertEqual(shared.outcome, alone.outcome, what)
                XCTAssertEqual(shared.brokenInvariants, alone.brokenInvariants, what)
                XCTAssertEqual(shared.violations, alone.violations, what)
                XCTAssertEqual(shared.delegateCalls, alone.delegateCalls, what)
                XCTAssertEqual(Explorer.problems(shared), Explorer.problems(alone), what)
                XCTAssertTrue(shared.refusals.isEmpty, what)
            }
        }
    }

    // The report of an exploration counts under each failure the sessions that show a problem of
    // its kind, as the sessions run one by one show them, and gives the first of them as its seed;
    // the misbehaviour examples break the contract in many ways.
    func testReportCountsEachKindOfProblemAsTheSessionsShowIt() async throws {
        let kind = { (problem: String) in String(problem.prefix { $0 != ":" && $0 != "#" }) }
        var failures = 0
        for (name, scenario) in try Self.scenarios() where name.hasPrefix("misbehaviour/") {
            let sessions = 40
            let report = await Explorer.explore(scenario, sessions: sessions, seed: 3)
            var kinds: [Set<String>] = []
            for index in 0..<sessions {
                let seed = Explorer.sessionSeed(3, index)
                let (steps, variation) = Explorer.generate(for: scenario, seed: seed)
                let result = await ScenarioRunner.run(Explorer.variant(scenario, steps, variation))
                kinds.append(Set(Explorer.problems(result).map(kind)))
            }
            XCTAssertEqual(report.failedSessions, kinds.filter { !$0.isEmpty }.count, name)
            XCTAssertEqual(
                Set(report.failures.flatMap { $0.problems.map(kind) }), kinds.reduce(into: Set()) { $0.formUnion($1) },
                name)
            for failure in report.failures {
                let first = kind(failure.problems[0])
                XCTAssertEqual(failure.sessions, kinds.filter { $0.contains(first) }.count, "\(name): \(first)")
                let firstSession = try XCTUnwrap(kinds.firstIndex { $0.contains(first) })
                XCTAssertEqual(failure.seed, Explorer.sessionSeed(3, firstSession), "\(name): \(first)")
            }
            failures += report.failures.count
        }
        XCTAssertGreaterThan(failures, 2)
    }

    // The pricing worked out once prices as the spec and request say, for every example.
    func testSharedPricingPricesAsTheSpecSays() throws {
        for (name, scenario) in try Self.scenarios() where scenario.paymentRequest != nil {
            let pricing = ScenarioMerchant.Pricing(spec: scenario.merchant, request: scenario.paymentRequest)
            XCTAssertEqual(pricing.currency, scenario.paymentRequest?.currency ?? .usd, name)
            XCTAssertEqual(pricing.taxRate, scenario.merchant.taxRate.flatMap(Rate.init), name)
            XCTAssertEqual(
                pricing.couponRates, scenario.merchant.coupons.map { $0.percentOff.flatMap(Rate.init) }, name)
        }
    }

    // MARK: Renderings

    /// Entries with text that every separator and escape of the renderings shows up in, text that
    /// looks like the time and callback number the cache renders entries at to find where theirs
    /// go, and entries that come again at other times (short and long) and with other numbers.
    private static func hostileTranscript() throws -> Transcript {
        let us = try CountryCode("US")
        let texts = [
            "plain", "a,b", "[x]", "{\"q\":1}", "line\nbreak", "tab\there", "back\\slash/", "é e\u{301} 🇺🇸",
            "\u{1}\u{1f}\u{7f}", "s0001234", "", "  ", "86399.123456789", "#987654321987",
        ]
        let regular = Contact(
            name: "Ada", postalAddress: Address(line1: "1 Main St", city: "Austin", postalCode: "78701", country: us))
        let secret = try IntentClientSecret("pi_000001_secret_s0007919")
        var entries: [TranscriptEntry] = []
        for (index, text) in texts.enumerated() {
            let time = Duration.milliseconds(index * 1_500)
            let contact = Contact(
                name: text, emailAddress: "\(text)@example.com", phoneNumber: "+1 555 0100",
                postalAddress: Address(line1: text, city: "Austin", state: "TX", postalCode: "78701", country: us))
            // A payment whose contacts are masked in the masked renderings, the token data always.
            let payment = Payment(
                token: PaymentToken(
                    paymentMethod: PaymentMethod(displayName: text, network: .visa, type: .credit),
                    transactionIdentifier: text, paymentData: "tok_\(text)"),
                billingContact: contact, shippingContact: index.isMultiple(of: 2) ? contact : nil)
            entries += [
                TranscriptEntry(time: time, event: .action(text, [.text(text), .contact(contact), .secret(secret)])),
                TranscriptEntry(time: time, event: .call(text, callbackID: UInt64(index), [.contact(contact)])),
                TranscriptEntry(time: time, event: .completion(text, callbackID: 7, [.text(text)], byDefault: true)),
                // The same contact and payment in two entries: the second takes their renderings
                // from the first.
                TranscriptEntry(
                    time: time, event: .call("pay", callbackID: UInt64(index), [.payment(payment), .contact(contact)])),
                TranscriptEntry(
                    time: time + .seconds(1),
                    event: .completion("pay", callbackID: UInt64(index), [.payment(payment)], byDefault: false)),
                TranscriptEntry(time: time, event: .outcome(text)),
            ]
            // The same events again and again, at times of one to fifteen digits and with numbers
            // of one to four.
            let again = index == 3 ? Duration.seconds(123_456) + .nanoseconds(789) : time
            let id = UInt64(index * index * 37 + 1)
            entries += [
                TranscriptEntry(time: again, event: .action("again", [.contact(regular)])),
                TranscriptEntry(time: again, event: .call("again", callbackID: id, [.text("fixed")])),
                TranscriptEntry(time: again, event: .call("notification", callbackID: nil, [])),
                TranscriptEntry(
                    time: again, event: .completion("again", callbackID: id, [.contact(regular)], byDefault: false)),
                TranscriptEntry(time: again, event: .outcome("again")),
            ]
        }
        return Transcript(entries: entries)
    }

    // The renderings put together from the entries' are the transcript's own, byte for byte, and
    // a needle is found in them exactly when it is found in the transcript's own, whether or not
    // it takes in a separator.
    func testRenderingsFromEntriesAreTheTranscriptsOwn() throws {
        let cache = try XCTUnwrap(RenderingCache(for: Scenario(name: "ascii", flow: .payContext, steps: [])))
        let transcript = try Self.hostileTranscript()
        for _ in 0..<2 {  // made, then looked up
            let renderings = cache.renderings(of: transcript)
            let own = [
                transcript.text(), transcript.text(showingPersonalData: true), transcript.json(),
                transcript.json(showingPersonalData: true),
            ]
            XCTAssertEqual(renderings.whole.map { Array($0.utf8) }, own.map { Array($0.utf8) })
            let needles = [
                "s0001234", "s0007919", "tok_plain", "transaction", "a,b", "k\n0", "\"},{\"", "[{", "}]", "x]",
                "e\u{301}", "é", "secret_•",
                "Austin", "78701", "nowhere", "\n", ",", "1.500", "\\/",
            ]
            for needle in needles {
                XCTAssertEqual(
                    renderings.contain(needle), own.contains { Invariants.occurs(needle, in: $0) },
                    needle.debugDescription)
            }
        }
        XCTAssertEqual(cache.renderings(of: Transcript()).whole, ["", "", "[]", "[]"])
        XCTAssertFalse(cache.renderings(of: Transcript()).contain("s0007919"))
    }

    // Sessions of the shipped pay-context examples: the renderings put together from entries, many
    // of them looked up, are the transcripts' own.
    func testRenderingsOfExplorerSessionsAreTheTranscriptsOwn() async throws {
        for (name, scenario) in try Self.scenarios() where scenario.flow == .payContext {
            let cache = try XCTUnwrap(RenderingCache(for: scenario), name)
            for index in 0..<25 {
                let (steps, variation) = Explorer.generate(for: scenario, seed: Explorer.sessionSeed(5, index))
                let transcript = await ScenarioRunner.run(Explorer.variant(scenario, steps, variation)).transcript
                let own = [
                    transcript.text(), transcript.text(showingPersonalData: true), transcript.json(),
                    transcript.json(showingPersonalData: true),
                ]
                XCTAssertEqual(cache.renderings(of: transcript).whole, own, "\(name) session \(index)")
            }
        }
    }

    // The merchant's answers described once an exploration (`RenderingCache` as an
    // `AnswerDescriber`): the transcript of every session of every flow, run with the cache, is
    // the one the same session has without it, entry for entry and in the renderings; and the
    // runs did describe their answers through the cache.
    func testAnswersDescribedOnceAreTheTranscriptsOwn() async throws {
        var sessions = 0
        for (name, scenario) in try Self.scenarios() {
            let cache = try XCTUnwrap(RenderingCache(for: scenario), name)
            var setup = ScenarioRunner.Setup(scenario)
            setup.renderings = cache
            var described = 0
            for index in 0..<12 {
                let (steps, variation) = Explorer.generate(for: scenario, seed: Explorer.sessionSeed(9, index))
                let variant = Explorer.variant(scenario, steps, variation)
                let cached = await ScenarioRunner.run(variant, setup).transcript
                let own = await ScenarioRunner.run(variant).transcript
                XCTAssertEqual(cached.entries.map(\.event), own.entries.map(\.event), "\(name) session \(index)")
                XCTAssertEqual(cached.entries.map(\.time), own.entries.map(\.time))
                XCTAssertEqual(cached.text(showingPersonalData: true), own.text(showingPersonalData: true))
                XCTAssertEqual(cached.json(), own.json())
                if own.entries.contains(where: Self.answeredWithAModel) { described += 1 }
            }
            sessions += described
            if described > 0 { XCTAssertGreaterThan(cache.describedAnswerCount, 0, name) }
        }
        XCTAssertGreaterThan(sessions, 50)
    }

    /// Whether `entry` is a completion whose answer is described as a model (an update or result).
    private static func answeredWithAModel(_ entry: TranscriptEntry) -> Bool {
        guard case .completion(_, _, let values, _) = entry.event, case .model? = values.first else { return false }
        return true
    }

    /// An answer that counts how often it is described.
    private struct CountedAnswer: Hashable, CustomStringConvertible, Sendable {
        final class Count: @unchecked Sendable {
            var value = 0
        }

        let name: String
        let count: Count

        var description: String {
            count.value += 1
            return name
        }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
        func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    // The cache describes a `Hashable` answer once: equal answers get the description it made
    // first, an answer of another value its own, and an answer that is not `Hashable` is
    // described each time.
    func testTheCacheDescribesEachAnswerOnce() throws {
        let cache = try XCTUnwrap(RenderingCache(for: Scenario(name: "ascii", flow: .payContext, steps: [])))
        let count = CountedAnswer.Count()
        for _ in 0..<3 { XCTAssertEqual(cache.describe(CountedAnswer(name: "one", count: count)), .text("one")) }
        XCTAssertEqual(count.value, 1)
        XCTAssertEqual(cache.describe(CountedAnswer(name: "two", count: count)), .text("two"))
        XCTAssertEqual(count.value, 2)
        XCTAssertEqual(cache.describedAnswerCount, 2)
        let update = ShippingMethodUpdate(summaryItems: [
            SummaryItem(label: "Total", amount: try Money("9.99", currency: .usd))
        ])
        let answer = PaymentAuthorizationAnswer.shippingMethod(update)
        XCTAssertEqual(cache.describe(answer), TranscriptValue.answer(answer))
        XCTAssertEqual(cache.describe(answer), TranscriptValue.answer(answer))
        var other = update
        other.summaryItems[0].amount = try Money("10.00", currency: .usd)
        let otherAnswer = PaymentAuthorizationAnswer.shippingMethod(other)
        XCTAssertEqual(cache.describe(otherAnswer), TranscriptValue.answer(otherAnswer))
        XCTAssertNotEqual(cache.describe(otherAnswer), cache.describe(answer))
        struct Plain: CustomStringConvertible, Sendable { var description: String }
        XCTAssertEqual(cache.describe(Plain(description: "one")), .text("one"))
        XCTAssertEqual(cache.describedAnswerCount, 4)
    }

    // Entries that are equal but spelled differently (`é` as one scalar or two) would share
    // renderings: a scenario with text other than ASCII gets no cache.
    func testNoCacheForTextOtherThanASCII() throws {
        var scenario = Scenario(name: "ascii", flow: .payContext, steps: [])
        XCTAssertNotNil(RenderingCache(for: scenario))
        scenario.name = "caf\u{e9}"
        XCTAssertNil(RenderingCache(for: scenario))
        scenario.name = "ascii"
        scenario.steps = [.changeCouponCode("K\u{212A}")]
        XCTAssertNil(RenderingCache(for: scenario))
    }

    // MARK: Merchant

    // The region check's ASCII path agrees with Foundation's case-insensitive comparison.
    func testRegionStateComparisonAgreesWithFoundation() throws {
        let us = try CountryCode("US")
        let samples = [
            "TX", "tx", "Tx", "TX ", "T", "", "ON", "on", "@x", "`x", "[x", "{x", "T\u{0}", "t\u{0}", "AK", "ak-1",
        ]
        for state in samples {
            let region = MerchantSpec.Region(country: us, state: state)
            for other in samples {
                let address = Address(city: "Austin", state: other, postalCode: "78701", country: us)
                XCTAssertEqual(
                    region.contains(address), other.caseInsensitiveCompare(state) == .orderedSame,
                    "\(other.debugDescription) against \(state.debugDescription)")
            }
        }
        var bytes: [UInt8] = Array(0..<0x80)
        bytes.removeAll { $0 == 0 }
        for first in bytes {
            for second in bytes where first <= second {
                let a = String(decoding: [first], as: UTF8.self)
                let b = String(decoding: [second], as: UTF8.self)
                let region = MerchantSpec.Region(country: us, state: a)
                let address = Address(city: "Austin", state: b, postalCode: "78701", country: us)
                XCTAssertEqual(region.contains(address), b.caseInsensitiveCompare(a) == .orderedSame, "\(a) \(b)")
            }
        }
    }

    // The activity counter the merchant counts its answers with: idle with the number started, nil
    // while one runs.
    func testActivityCounterMarksIdleLooks() async {
        let counter = ActivityCounter()
        XCTAssertEqual(counter.idleMark, 0)
        counter.begin()
        XCTAssertNil(counter.idleMark)
        let waited = Task { await counter.waitUntilIdle() }
        counter.end()
        await waited.value
        XCTAssertEqual(counter.idleMark, 1)
        await counter.waitUntilIdle()
    }
}
