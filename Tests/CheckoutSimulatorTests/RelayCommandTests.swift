import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import CheckoutWeb
import Foundation
import XCTest

/// `checkout-sim relay`: a scenario's merchant behind a relay, fed a page's events as JSON Lines
/// (spec W1-W6), and the recorded sessions of `Examples/relay/` replayed as regression tests.
final class RelayCommandTests: XCTestCase {
    let harness = SimHarness()
    static let relayExamples = CommandLineTests.root.appendingPathComponent("Examples/relay")

    /// A session id with the entropy a page's id carries (spec W10), readable by its prefix.
    static func id(_ name: String) -> String { "\(name)-Kx8Qm2Vz7Lp4Wn9B" }

    static let redacted =
        #"{"locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}"#
    static let express = #"{"label": "Express", "detail": "1-2 days", "amount": "15.00", "identifier": "express"}"#

    private func scenario(_ name: String) -> String { Self.relayExamples.appendingPathComponent(name).path }

    private func events(_ lines: [String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func objects(_ text: String) -> [[String: JSONValue]] {
        text.split(separator: "\n").compactMap { line in
            guard case .object(let members)? = JSONValue(jsonText: String(line)) else { return nil }
            return members
        }
    }

    // MARK: Recorded sessions

    /// Every recording in Examples/relay replays as recorded, and together they cover every event
    /// type, a refusal while an answer is owed, a timeout, an invalid update, merchant
    /// validation and a resumed snapshot.
    func testEveryRecordedSessionReplaysAsRecorded() async throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.relayExamples.path)
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        XCTAssertFalse(files.isEmpty)
        var answers: [[String: JSONValue]] = []
        for file in files {
            let recording = Self.relayExamples.appendingPathComponent(file).path
            // NAME.jsonl and NAME.WALLET.jsonl replay against NAME.json (spec W9).
            let shop = scenario(String(file.prefix { $0 != "." }) + ".json")
            let run = await harness.sim("relay", shop, "--events", recording, "--expect", recording)
            XCTAssertEqual(run.code, 0, "\(file): \(run.err)")
            XCTAssertTrue(run.err.contains("relay: PASS"), run.err)
            answers += objects(run.out)
        }
        func has(_ type: String, _ check: ([String: JSONValue]) -> Bool) -> Bool {
            answers.contains { $0["type"] == .string(type) && check($0) }
        }
        for type in [
            "validatemerchant", "shippingcontactselected", "shippingmethodselected", "paymentmethodselected",
            "couponcodechanged", "paymentauthorized", "cancel", "shippingaddresschange", "shippingoptionchange",
            "paymentmethodchange", "paymentresponse", "payerdetailchange",
        ] {
            XCTAssertTrue(has(type) { $0["complete"] != nil || $0["ended"] != nil }, "no answered \(type)")
        }
        func reason(_ members: [String: JSONValue], _ key: String) -> JSONValue? {
            guard case .object(let body)? = members[key] else { return nil }
            return body["reason"]
        }
        XCTAssertTrue(has("couponcodechanged") { reason($0, "refused") == .string("callbackPending") }, "spec W4")
        XCTAssertTrue(has("shippingmethodselected") { reason($0, "ended") == .string("completionTimedOut") }, "E4")
        XCTAssertTrue(has("couponcodechanged") { reason($0, "ended") == .string("invalidUpdate") }, "spec E7")
        XCTAssertTrue(has("validatemerchant") { $0["complete"] == .string("completeMerchantValidation") }, "W5")
        XCTAssertTrue(has("resume") { $0["resumed"] != nil }, "spec W6")
        XCTAssertTrue(has("paymentauthorized") { $0["complete"] == .string("completePayment") })
        // spec W7: a W3C response retried, then completed; payer details answered updateWith.
        XCTAssertTrue(has("paymentresponse") { $0["complete"] == .string("retry") }, "spec W7")
        XCTAssertTrue(
            has("paymentresponse") { $0["complete"] == .string("complete") && $0["argument"] == .string("success") },
            "spec W7")
        XCTAssertTrue(has("payerdetailchange") { $0["complete"] == .string("updateWith") }, "spec W7")
        // Google Pay
        // spec W9: a several-change event answered once, an authorization declined, then one paid.
        XCTAssertTrue(has("googlepay.paymentdatachanged") { $0["complete"] == .string("onPaymentDataChanged") })
        XCTAssertTrue(
            has("googlepay.paymentauthorized") {
                guard case .object(let result)? = $0["argument"] else { return false }
                return result["transactionState"] == .string("ERROR")
            }, "spec W9")
        XCTAssertTrue(
            has("googlepay.paymentauthorized") {
                guard case .object(let result)? = $0["argument"] else { return false }
                return result["transactionState"] == .string("SUCCESS")
            }, "spec W9")
        // Express Checkout Element: an address refused, a confirm declined, then one paid.
        XCTAssertTrue(has("expresscheckout.click") { $0["complete"] == .string("resolve") }, "spec W9")
        XCTAssertTrue(has("expresscheckout.shippingaddresschange") { $0["complete"] == .string("reject") }, "spec W9")
        XCTAssertTrue(has("expresscheckout.confirm") { $0["complete"] == .string("paymentFailed") }, "spec W9")
        XCTAssertTrue(has("expresscheckout.confirm") { $0["complete"] == .string("paymentSucceeded") }, "spec W9")
    }

    /// One scenario, the shop's, drives its merchant through all four sheets: a recording for
    /// each wallet replays against `shop.json` and ends in a payment (spec W9).
    func testTheShopsScenarioDrivesEverySheet() async throws {
        let shop = scenario("shop.json")
        let sheets = [
            ("shop.jsonl", "paymentauthorized", "completePayment"),
            ("shop.w3c.jsonl", "paymentresponse", "complete"),
            ("shop.googlepay.jsonl", "googlepay.paymentauthorized", "onPaymentAuthorized"),
            ("shop.expresscheckout.jsonl", "expresscheckout.confirm", "paymentSucceeded"),
        ]
        for (file, type, complete) in sheets {
            let recording = Self.relayExamples.appendingPathComponent(file).path
            let run = await harness.sim("relay", shop, "--events", recording, "--expect", recording)
            XCTAssertEqual(run.code, 0, "\(file): \(run.err)")
            let paid = objects(run.out).contains {
                $0["type"] == .string(type) && $0["complete"] == .string(complete)
                    && ($0["argument"] == nil || $0["argument"] == .string("success")
                        || $0["argument"]?.objectValue?["transactionState"] == .string("SUCCESS")
                        || $0["argument"]?.objectValue?["status"] == .integer(0))
            }
            XCTAssertTrue(paid, "\(file) ends in a payment: \(run.out)")
        }
    }

    /// A recording whose answer no longer matches fails, naming the answer and its line.
    func testAChangedAnswerFailsTheReplay() async throws {
        let shop = scenario("shop.json")
        let recorded = [
            #"{"session": "ca210d9f-554c-465e-aaee-d2c9e6a87377", "type": "couponcodechanged", "couponCode": "TEN"}"#,
            #"{"session": "ca210d9f-554c-465e-aaee-d2c9e6a87377", "type": "couponcodechanged", "refused": {"reason": "callbackPending", "message": "no"}}"#,
        ]
        let file = try events(recorded)
        let run = await harness.sim("relay", shop, "--events", file, "--expect", file)
        XCTAssertEqual(run.code, 1)
        XCTAssertTrue(run.err.contains("answer 1 (expect line 2): expected"), run.err)
        XCTAssertTrue(run.err.contains("FAIL: 1 of 1 answers differ"), run.err)
        // The answer the run gave is still printed.
        XCTAssertEqual(objects(run.out).first?["complete"], .string("completeCouponCodeChange"))
    }

    /// --record writes each event followed by its answers: a recording that replays as itself.
    func testARecordingReplaysAsItself() async throws {
        let shop = scenario("shop.json")
        let file = try events([
            #"{"session": "\#(Self.id("r1"))", "type": "shippingcontactselected", "shippingContact": \#(Self.redacted)}"#,
            #"{"session": "\#(Self.id("r1"))", "type": "shippingmethodselected", "shippingMethod": \#(Self.express)}"#,
            #"{"session": "\#(Self.id("r1"))", "type": "cancel"}"#,
        ])
        let recorded = await harness.sim("relay", shop, "--events", file, "--record")
        XCTAssertEqual(recorded.code, 0, recorded.err)
        let lines = recorded.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 6)
        XCTAssertEqual(objects(lines[1]).first?["complete"], .string("completeShippingContactSelection"))
        XCTAssertNotNil(objects(lines[5]).first?["ended"])
        let again = try events(lines)
        let replay = await harness.sim("relay", shop, "--events", again, "--expect", again)
        XCTAssertEqual(replay.code, 0, replay.err)
        XCTAssertTrue(replay.err.contains("PASS: 3 answers as recorded"), replay.err)
    }

    // MARK: Lines

    /// Malformed lines are refused one by one with their line number; the rest go on.
    func testMalformedLinesAreRefusedWithTheirNumberAndTheRestGoOn() async throws {
        let file = try events([
            #"{"session": "\#(Self.id("m1"))", "type": "shippingcontactselected", "shippingContact": "#,
            #"{"session": "\#(Self.id("m1"))", "type": "teleport"}"#,
            #"{"session": "\#(Self.id("m1"))", "type": "shippingmethodselected", "shippingMethod": {"label": "Express", "detail": "soon"}}"#,
            #"{"type": "wait", "seconds": "soon"}"#,
            #"{"session": "\#(Self.id("m1"))", "type": "shippingcontactselected", "shippingContact": \#(Self.redacted)}"#,
        ])
        let run = await harness.sim("relay", scenario("shop.json"), "--events", file)
        XCTAssertEqual(run.code, 0, run.err)
        let answers = objects(run.out)
        XCTAssertEqual(answers.count, 5)
        XCTAssertEqual(answers.prefix(4).map { $0["line"] }, [.integer(1), .integer(2), .integer(3), .integer(4)])
        for answer in answers.prefix(4) {
            guard case .object(let refused)? = answer["refused"] else { return XCTFail("\(answer)") }
            XCTAssertEqual(refused["reason"], .string("malformedEvent"))
        }
        XCTAssertTrue(run.out.contains("shippingMethod.amount"), "the refusal names the member")
        XCTAssertEqual(answers[4]["complete"], .string("completeShippingContactSelection"))
    }

    /// Spec W4, E4: an event whose merchant never answers is answered at its deadline; an event
    /// meanwhile is refused with callbackPending; a session idle past the timeout is ended.
    func testTheDeadlineAndTheIdleTimeoutRunOnTheScriptsClock() async throws {
        let file = try events([
            #"{"session": "\#(Self.id("t1"))", "type": "shippingcontactselected", "shippingContact": \#(Self.redacted)}"#,
            #"{"session": "\#(Self.id("t1"))", "type": "shippingmethodselected", "shippingMethod": \#(Self.express)}"#,
            #"{"session": "\#(Self.id("t1"))", "type": "couponcodechanged", "couponCode": "TEN"}"#,
            #"{"type": "wait", "seconds": 29}"#,
            #"{"session": "\#(Self.id("t2"))", "type": "shippingcontactselected", "shippingContact": \#(Self.redacted)}"#,
            #"{"type": "wait", "seconds": 1}"#,
            #"{"type": "wait", "seconds": 31}"#,
            #"{"session": "\#(Self.id("t2"))", "type": "couponcodechanged", "couponCode": "TEN"}"#,
        ])
        let run = await harness.sim("relay", scenario("slow-shop.json"), "--events", file)
        XCTAssertEqual(run.code, 0, run.err)
        let answers = objects(run.out)
        XCTAssertEqual(
            answers.map { $0["type"] },
            [
                .string("shippingcontactselected"), .string("couponcodechanged"), .string("shippingcontactselected"),
                .string("shippingmethodselected"), .string("couponcodechanged"),
            ])
        XCTAssertTrue(run.out.contains(#""reason":"callbackPending""#))
        // The method's answer came at its deadline, after the wait that reached it.
        XCTAssertEqual(answers[3]["complete"], .string("abort"))
        XCTAssertTrue(run.out.contains(#""reason":"completionTimedOut""#))
        XCTAssertTrue(run.out.contains(#""reason":"unknownSession""#), "t2 was ended while idle")
    }

    // MARK: The command

    /// --payment-request prints the ApplePayPaymentRequest the page gives ApplePaySession.
    func testPaymentRequestPrintsApplePaysRequest() async throws {
        let run = await harness.sim("relay", scenario("shop.json"), "--payment-request")
        XCTAssertEqual(run.code, 0, run.err)
        let request = try JSONDecoder().decode(ApplePayPaymentRequest.self, from: Data(run.out.utf8))
        XCTAssertEqual(request.total.amount, "24.00")
        XCTAssertEqual(request.total.label, "Tea Shop")
        XCTAssertEqual(request.currencyCode, "USD")
        XCTAssertEqual(request.shippingMethods?.map(\.identifier), ["ground", "express"])
        XCTAssertEqual(request.supportsCouponCode, true)
    }

    /// Usage errors exit 2 with the reason: a shipping-address scenario, options that do not go
    /// together, an unreadable events file.
    func testUsageErrors() async throws {
        let shipping = CommandLineTests.examples + "/shipping-address/delivery.json"
        let notASheet = await harness.sim("relay", shipping)
        XCTAssertEqual(notASheet.code, 2)
        XCTAssertTrue(notASheet.err.contains("must be paymentAuthorization or payContext"), notASheet.err)
        let both = await harness.sim("relay", scenario("shop.json"), "--payment-request", "--events", "x")
        XCTAssertEqual(both.code, 2)
        let missing = await harness.sim("relay", scenario("shop.json"), "--events", "/nonexistent.jsonl")
        XCTAssertEqual(missing.code, 2)
        XCTAssertTrue(missing.err.contains("/nonexistent.jsonl: cannot read the file"), missing.err)
        let unknown = await harness.sim("relay", scenario("shop.json"), "--expects", "x")
        XCTAssertEqual(unknown.code, 2)
        XCTAssertTrue(unknown.err.contains("did you mean '--expect'?"), unknown.err)
        let help = await harness.sim("help", "relay")
        XCTAssertEqual(help.code, 0)
        XCTAssertTrue(help.out.contains("USAGE: checkout-sim relay"), help.out)
    }
}
