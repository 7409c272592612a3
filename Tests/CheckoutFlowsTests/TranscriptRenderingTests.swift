import CheckoutCore
import CheckoutFlows
import CheckoutTesting
import Foundation
import XCTest

/// The transcript's renderings are written directly (no `JSONSerialization`, no `NSString`
/// padding): they must stay byte for byte what those Foundation APIs give (spec E8).
final class TranscriptRenderingTests: XCTestCase {
    private typealias F = FlowsFixture

    /// Strings that exercise every escape: quotes, backslashes, slashes, each control character,
    /// DEL, non-ASCII letters, combining marks, emoji, the line and paragraph separators, a byte
    /// order mark and the last scalar; and times longer than the time column.
    private static let hostile: [String] = {
        var controls = ""
        for value in 0..<0x20 { controls.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        return [
            "", "plain", "a/b", "q\"x\\y", controls, "\u{7f}\u{80}\u{85}\u{a0}", "é e\u{301} 🇺🇸 👩‍👩‍👧",
            "\u{2028}\u{2029}\u{feff}\u{10FFFF}", "line\r\nbreak", "tab\there", String(repeating: "/\\\"", count: 20),
        ]
    }()

    private static func sampleTranscript() -> Transcript {
        var entries: [TranscriptEntry] = []
        let times: [Duration] = [
            .zero, .seconds(30), .milliseconds(1_500), .nanoseconds(1), .seconds(-2), .seconds(123_456),
        ]
        for (index, text) in hostile.enumerated() {
            let time = times[index % times.count]
            let contact = Contact(
                name: text, emailAddress: "\(text)@example.com", phoneNumber: "+1 555",
                postalAddress: Address(
                    line1: text, city: "Austin", state: "TX", postalCode: "78701", country: F.country("US")))
            let values: [TranscriptValue] = [.text(text), .contact(contact), .contact(contact.redactedForShipping())]
            entries += [
                TranscriptEntry(time: time, event: .action(text, values)),
                TranscriptEntry(time: time, event: .action("present", [])),
                TranscriptEntry(
                    time: time, event: .refused(text, Refusal(code: .notPresented, message: text, fields: [text]))),
                TranscriptEntry(time: time, event: .call(text, callbackID: UInt64(index), values)),
                TranscriptEntry(time: time, event: .call("didFinish", callbackID: nil, [])),
                TranscriptEntry(
                    time: time, event: .completion(text, callbackID: .max, [.text(text)], byDefault: index % 2 == 0)),
                TranscriptEntry(
                    time: time,
                    event: .violation(
                        Violation(kind: .init(rawValue: text), callback: text, callbackID: 7, time: time, detail: text))
                ),
                TranscriptEntry(time: time, event: .outcome(text)),
            ]
        }
        return Transcript(entries: entries)
    }

    // spec E8: the JSON rendering is what JSONSerialization with sorted keys writes.
    func testJSONIsWhatJSONSerializationWrites() {
        let transcript = Self.sampleTranscript()
        for unmasked in [false, true] {
            XCTAssertEqual(
                transcript.json(showingPersonalData: unmasked), Self.foundationJSON(transcript, unmasked))
        }
        XCTAssertEqual(Transcript().json(), "[]")
    }

    // spec E8: JSON Lines is the JSON rendering's objects, one a line, each line whole JSON (the
    // hostile strings' line and paragraph separators and control characters escaped).
    func testJSONLinesAreTheJSONObjectsOneALine() throws {
        let transcript = Self.sampleTranscript()
        for unmasked in [false, true] {
            let lines = transcript.jsonLines(showingPersonalData: unmasked).split(
                separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.count, transcript.entries.count + 1)
            XCTAssertEqual(lines.last, "")
            XCTAssertEqual(
                "[" + lines.dropLast().joined(separator: ",") + "]", transcript.json(showingPersonalData: unmasked))
            for line in lines.dropLast() {
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)), String(line))
            }
        }
        XCTAssertEqual(Transcript().jsonLines(), "")
    }

    // spec E8: the text rendering pads its time and kind columns to 8 and 10 characters and never
    // cuts a longer value ("0.000000001" stays whole).
    func testTextColumnsArePaddedNeverCut() {
        for entry in Self.sampleTranscript().entries {
            let kind: String
            switch entry.event {
            case .action: kind = "action"
            case .refused: kind = "refused"
            case .call: kind = "call"
            case .completion: kind = "completion"
            case .violation: kind = "VIOLATION"
            case .outcome: kind = "outcome"
            }
            func pad(_ text: String, _ width: Int) -> String {
                text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
            }
            let columns = pad(entry.time.secondsString, 8) + " " + pad(kind, 10) + " "
            for unmasked in [false, true] {
                let line = Transcript(entries: [entry]).text(showingPersonalData: unmasked)
                XCTAssertTrue(line.hasPrefix(columns), "\(line) does not start with \(columns)")
            }
        }
    }

    // MARK: The renderings as they were written with Foundation

    private static func foundationJSON(_ transcript: Transcript, _ unmasked: Bool) -> String {
        let objects: [[String: Any]] = transcript.entries.map { entry in
            // Times are JSON numbers (spec E8), written as their decimal text.
            var object: [String: Any] = [
                "time": NSDecimalNumber(string: entry.time.secondsString), "actor": entry.actor.rawValue,
            ]
            // Values in the models' own JSON (spec E8), as JSONSerialization reads them back.
            func values(_ values: [TranscriptValue]) -> [Any] {
                values.map { value in
                    (try? JSONSerialization.jsonObject(
                        with: Data(value.json(showingPersonalData: unmasked).utf8), options: .fragmentsAllowed))
                        ?? NSNull()
                }
            }
            switch entry.event {
            case .action(let name, let arguments):
                object["kind"] = "action"
                object["action"] = name
                object["arguments"] = values(arguments)
            case .refused(let name, let refusal):
                object["kind"] = "refused"
                object["action"] = name
                object["reason"] = refusal.code.rawValue
                object["message"] = refusal.message
            case .call(let method, let id, let arguments):
                object["kind"] = "call"
                object["method"] = method
                if let id { object["callbackID"] = id }
                object["arguments"] = values(arguments)
            case .completion(let method, let id, let answer, let byDefault):
                object["kind"] = "completion"
                object["method"] = method
                object["callbackID"] = id
                object["answer"] = values(answer)
                object["byDefault"] = byDefault
            case .violation(let violation):
                object["kind"] = "violation"
                object["violation"] = violation.kind.rawValue
                object["method"] = violation.callback
                object["callbackID"] = violation.callbackID
                object["detail"] = violation.detail
            case .outcome(let outcome):
                object["kind"] = "outcome"
                object["outcome"] = outcome
            }
            return object
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Spec E8: the customer's card and token are in CheckoutCore's own JSON in the JSON rendering,
/// the token's data masked, as a payment's is.
final class TranscriptModelArgumentTests: XCTestCase {
    private typealias F = FlowsFixture

    func testTheSelectedCardAndTheTokenAreModelJSON() async throws {
        let delegate = RecordingPaymentAuthorizationDelegate()
        delegate.didAuthorizePayment.script(.answer(.success))
        let flow = try PaymentAuthorizationFlow(request: F.request(requiredShipping: []), delegate: delegate)
        flow.present()
        let card = PaymentMethod(displayName: "Amex 0005", network: .amex, type: .credit)
        _ = try await flow.selectPaymentMethodAndWait(card)
        let token = PaymentToken(paymentMethod: card, transactionIdentifier: "tx-1", paymentData: "SECRET-DATA")
        _ = try await flow.authorizeAndWait(token)
        await flow.waitUntilEnded()

        let json = flow.transcript.json(showingPersonalData: true)
        XCTAssertFalse(json.contains("SECRET-DATA"), json)
        let entries = F.jsonObjects(json)
        func firstArgument(_ kind: String, _ key: String, _ name: String) -> [String: Any]? {
            let entry = entries.first { $0["kind"] as? String == kind && $0[key] as? String == name }
            return (entry?["arguments"] as? [Any])?.first as? [String: Any]
        }
        let expectedCard: [String: String] = ["displayName": "Amex 0005", "network": "amex", "type": "credit"]
        let places: [(kind: String, key: String, name: String)] = [
            ("action", "action", "selectPaymentMethod"), ("call", "method", "didSelectPaymentMethod"),
        ]
        for (kind, key, name) in places {
            let argument = try XCTUnwrap(firstArgument(kind, key, name), "\(kind) \(name): \(json)")
            XCTAssertEqual(argument as? [String: String], expectedCard, "\(kind) \(name)")
        }
        let authorized = try XCTUnwrap(firstArgument("action", "action", "authorize"), json)
        XCTAssertEqual(authorized["paymentData"] as? String, "•••")
        XCTAssertEqual(authorized["transactionIdentifier"] as? String, "tx-1")
        XCTAssertEqual(authorized["paymentMethod"] as? [String: String], expectedCard)
        // The text rendering keeps the short descriptions.
        let text = flow.transcript.text()
        XCTAssertTrue(text.contains("selectPaymentMethod") && text.contains("Amex 0005"), text)
    }
}
