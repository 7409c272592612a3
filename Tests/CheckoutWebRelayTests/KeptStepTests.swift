import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// A session keeps the page's text of each event for its snapshot (spec W6) and reads it again
/// only when the snapshot is written: what it reads must be the event the page sent, and the
/// snapshot the same bytes as one of a session given the events as values.
final class KeptStepTests: XCTestCase {
    /// Events with escapes, whitespace, members of other types and members no event reads.
    private static let awkward = [
        #"{"session": "s1", "type": "validatemerchant", "validationURL": "https:\/\/apple-pay-gateway.apple.com/x"}"#,
        "{\n  \"type\" : \"shippingcontactselected\" ,\t\"shippingContact\" : { \"locality\" : \"Aust\\u0069n\", \"administrativeArea\": \"TX\", \"postalCode\": \"78701\", \"countryCode\": \"US\" } , \"session\":\"s1\", \"junk\": [1, {\"a\": null}] }",
        #"{"session": "s1", "type": "shippingmethodselected", "couponCode": "kept, never read", "shippingMethod": {"label": "x", "detail": "", "amount": "5.00", "identifier": "express", "unknown": [1, 2.5, -0, 1e3, null, true, {"a": "\u00e9\ud83d\ude00\n"}]}}"#,
        #"{"session": "s1", "type": "couponcodechanged", "couponCode": "T\"E\\N\/\b\f\r\t"}"#,
        #"{"session": "s1", "type": "paymentmethodchange", "methodName": "https://apple.com/apple-pay", "methodDetails": {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}"#,
        #"{"session": "s1", "type": "paymentmethodchange", "methodName": "basic-card"}"#,
        #"{"session": "s1", "type": "payerdetailchange", "payerName": "", "payerEmail": null, "payerPhone": "+1 555"}"#,
        #"{"type": "cancel", "session": "s1"}"#,
    ]

    // spec W6: the kept text reads as the event the page sent, and keeps no member the event
    // does not read.
    func testTheKeptTextReadsAsTheEvent() throws {
        for text in Self.awkward {
            let bytes = Data(text.utf8)
            let (event, kept) = try XCTUnwrap(EventJSONDecoder.decodeEvent(from: bytes), text)
            XCTAssertEqual(event, try JSONDecoder().decode(RelayEvent.self, from: bytes), text)
            XCTAssertEqual(try kept.payload(), event.payload, text)
            guard case .page(let type, let members) = kept else { return XCTFail("not kept as text: \(text)") }
            XCTAssertEqual(type, event.type)
            let keptText = String(decoding: members, as: UTF8.self)
            XCTAssertFalse(keptText.contains("junk"), keptText)
            XCTAssertFalse(keptText.contains("\"session\""), keptText)
            XCTAssertLessThan(members.count, bytes.count, text)
        }
        let (_, cancel) = try XCTUnwrap(EventJSONDecoder.decodeEvent(from: Data(Self.awkward.last!.utf8)))
        guard case .page(.cancel, let members) = cancel else { return XCTFail("cancel not kept as text") }
        XCTAssertEqual(members, [])
    }

    // spec W6: every event of the relay recordings (Chromium's among them) is kept as its text
    // and reads again as JSONDecoder reads the whole event.
    func testEveryRecordedEventReadsAgain() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/relay")
        var events = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".jsonl") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.isEmpty {
                let bytes = Data(line.utf8)
                guard let event = try? JSONDecoder().decode(RelayEvent.self, from: bytes) else { continue }
                let (ours, kept) = try XCTUnwrap(EventJSONDecoder.decodeEvent(from: bytes), "\(file): \(line)")
                XCTAssertEqual(ours, event, "\(file): \(line)")
                XCTAssertEqual(try kept.payload(), event.payload, "\(file): \(line)")
                events += 1
            }
        }
        XCTAssertGreaterThan(events, 20)
    }

    /// The events of a session with accepted events, a flow refusal and a declined authorization,
    /// as the page's text (with whitespace and a member no event reads).
    private static let session = [
        #"{"session": "k1", "type": "validatemerchant", "validationURL": "https://apple-pay-gateway.apple.com/paymentservices/startSession"}"#,
        #"{"session": "k1", "type": "shippingcontactselected", "shippingContact": {"locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}, "sentAt": 1}"#,
        #"{"session": "k1", "type": "shippingmethodselected", "shippingMethod": {"label": "x", "detail": "", "amount": "5.00", "identifier": "overnight"}}"#,
        #"{ "type" : "shippingmethodselected" , "session" : "k1" , "shippingMethod" : { "label" : "x" , "detail" : "" , "amount" : "5.00" , "identifier" : "express" } }"#,
        #"{"session": "k1", "type": "paymentmethodselected", "paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}}"#,
        #"{"session": "k1", "type": "couponcodechanged", "couponCode": "NOPE"}"#,
        #"{"session": "k1", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}, "transactionIdentifier": "decline-1", "paymentData": {"version": "EC_v1", "data": "abc"}}, "shippingContact": {"givenName": "Ravi", "familyName": "Patel", "addressLines": ["1 Main St"], "locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}}"#,
    ]

    // spec W6: a snapshot is the same bytes whether its session kept the page's text (events
    // given as bytes) or the decoded events (events given as values), and resumes either way.
    func testASnapshotIsTheSameBytesWhicheverFormTheEventsWereKeptIn() async throws {
        func opened() throws -> WebRelay {
            let relay = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
            try relay.open(
                "k1", request: Shop.request,
                merchant: .authorization(delegate: ShopMerchant(), validator: ShopValidator()))
            return relay
        }
        let asText = try opened()
        let asValues = try opened()
        for text in Self.session {
            let bytes = Data(text.utf8)
            let fromText = try JSONDecoder().decode(RelayReply.self, from: await asText.handle(json: bytes))
            let fromValue = await asValues.handle(try JSONDecoder().decode(RelayEvent.self, from: bytes))
            XCTAssertEqual(fromText, fromValue, text)
        }
        let snapshot = try asText.snapshot("k1")
        XCTAssertEqual(
            String(decoding: snapshot, as: UTF8.self), String(decoding: try asValues.snapshot("k1"), as: UTF8.self))
        XCTAssertFalse(String(decoding: snapshot, as: UTF8.self).contains("sentAt"))
        let resumed = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        let session = try await resumed.resume(snapshot, merchant: .authorization(delegate: ShopMerchant()))
        XCTAssertEqual(session.authorizationFlow.sheet?.selectedShippingMethodID, "express")
        // Written out again from the steps read back from the snapshot: the same bytes.
        XCTAssertEqual(try resumed.snapshot("k1"), snapshot)
    }
}

extension KeptStepTests {
    // spec W6: the members kept are every one the event reads but `session` and `type`.
    func testTheKeptMembersAreTheOnesTheEventReads() {
        let names = RelayEvent.memberNames
        XCTAssertTrue(names.contains("session") && names.contains("type"))
        for name in names {
            XCTAssertEqual(RelayEvent.isPayloadMember(name), name != "session" && name != "type", name)
        }
        XCTAssertFalse(RelayEvent.isPayloadMember("junk"))
        XCTAssertFalse(RelayEvent.isPayloadMember("Payment"))
    }
}

extension KeptStepTests {
    // spec W6: steps kept as the page's text and as values, with an answer, a refusal and later
    // answers, are written out as the record they were, in order.
    func testKeptStepsAreWrittenOutAsTheRecord() throws {
        var steps = KeptSteps()
        var expected: [RecordedStep] = []
        let answers: [RecordedAnswer] = [
            .merchantSession(validated: true, byDefault: false),
            .authorization(.success, willAuthorizeByDefault: true),
        ]
        for (index, text) in Self.awkward.enumerated() {
            let (event, kept) = try XCTUnwrap(EventJSONDecoder.decodeEvent(from: Data(text.utf8)))
            let answer = index % 3 == 0 ? answers[index % 2] : nil
            let refusal = index % 3 == 1 ? "notAllowedInThisStep" : nil
            let later = index % 3 == 2 ? answers : nil
            // Every other event given as a value.
            steps.append(
                index.isMultiple(of: 2) ? kept : .decoded(event.payload), of: event.payload, answer: answer,
                refusal: refusal, laterAnswers: later)
            expected.append(
                RecordedStep(
                    event: RelayEvent(session: "k", event.payload), answer: answer, refusal: refusal,
                    laterAnswers: later))
        }
        XCTAssertEqual(steps.count, Self.awkward.count)
        XCTAssertEqual(try steps.recorded(session: "k"), expected)
        XCTAssertEqual(try KeptSteps(expected).recorded(session: "k"), expected)
    }

    // An event of more members than the decoder marks is kept decoded, and reads the same.
    func testAnEventOfManyMembersIsKeptDecoded() throws {
        let junk = (0..<70).map { #""junk\#($0)": \#($0)"# }.joined(separator: ", ")
        let text = #"{"session": "s1", "type": "couponcodechanged", "couponCode": "TEN", \#(junk)}"#
        let (event, kept) = try XCTUnwrap(EventJSONDecoder.decodeEvent(from: Data(text.utf8)))
        guard case .decoded(let payload) = kept else { return XCTFail("kept as text") }
        XCTAssertEqual(payload, .couponCodeChanged("TEN"))
        XCTAssertEqual(event.payload, payload)
    }
}
