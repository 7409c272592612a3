import CheckoutCore
import CheckoutSimulator
import CheckoutTestSupport
import CheckoutWeb
import Foundation
import XCTest

@testable import CheckoutWebRelay

/// The relay writes Apple Pay's replies directly (`RelayReply.writtenJSON`, the wire types'
/// `writeJSON(to:)`): spec W1, the page gets the wire shapes with their documented key names and
/// value types, byte for byte what `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`) writes,
/// so every optional member present or absent, every key in `JSONEncoder`'s order.
final class ReplyWriterTests: XCTestCase {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private func foundation(_ reply: RelayReply) throws -> String {
        String(decoding: try Self.encoder.encode(reply), as: UTF8.self)
    }

    /// Asserts that the reply is written directly, as JSONEncoder writes it.
    private func assertWrittenAsJSONEncoderWrites(
        _ reply: RelayReply, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let written = try XCTUnwrap(reply.writtenJSON, "not written directly: \(reply)", file: file, line: line)
        XCTAssertEqual(String(decoding: written, as: UTF8.self), try foundation(reply), file: file, line: line)
        XCTAssertEqual(WebRelay.encoded(reply), written, file: file, line: line)
    }

    private func assertWrittenAsJSONEncoderWrites(
        _ completion: RelayCompletion, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try assertWrittenAsJSONEncoderWrites(
            RelayReply(session: "s/1", type: "t", .complete(completion)), file: file, line: line)
    }

    private static let awkwardTexts = [
        "", "a/b </script>", "\"quoted\" back\\slash", "\u{8}\u{c}\n\r\t \u{0}\u{1}\u{1f}\u{7f}", "\u{2028}\u{2029}",
        "é 😀 e\u{301} 茶", "-1234567890123456789.99",
    ]

    // spec W1: every reply of every relay recording under Examples/relay (Chromium's among them)
    // is written as JSONEncoder writes it, and each of Apple Pay's is written directly.
    func testTheRecordingsRepliesAreWrittenAsJSONEncoderWritesThem() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/relay")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }
        XCTAssertFalse(files.isEmpty)
        var writtenByMethod: [String: Int] = [:]
        var replies = 0
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.isEmpty {
                let bytes = Data(line.utf8)
                guard (try? JSONDecoder().decode(RelayEvent.self, from: bytes)) == nil,
                    let reply = try? JSONDecoder().decode(RelayReply.self, from: bytes)
                else { continue }
                replies += 1
                let expected = try foundation(reply)
                XCTAssertEqual(String(decoding: WebRelay.encoded(reply), as: UTF8.self), expected, "\(file): \(line)")
                if let written = reply.writtenJSON {
                    XCTAssertEqual(String(decoding: written, as: UTF8.self), expected, "\(file): \(line)")
                    let kind =
                        reply.completion?.method ?? (reply.refusal != nil ? "refused" : "ended")
                    writtenByMethod[kind, default: 0] += 1
                }
            }
        }
        XCTAssertGreaterThan(replies, 50)
        for method in [
            "completeMerchantValidation", "completeShippingContactSelection", "completeShippingMethodSelection",
            "completePaymentMethodSelection", "completeCouponCodeChange", "completePayment", "complete", "updateWith",
            "retry", "refused", "ended",
        ] {
            XCTAssertNotNil(writtenByMethod[method], "no \(method) reply of the recordings was written directly")
        }
    }

    // spec W1: every optional member of every Apple Pay answer, present and absent.
    func testEveryAppleAnswerWithAndWithoutEachMemberIsWrittenAsJSONEncoderWritesIt() throws {
        for update in Self.updates(texts: Self.awkwardTexts) {
            for completion in update.answers { try assertWrittenAsJSONEncoderWrites(completion) }
        }
        let order = ApplePayPaymentOrderDetails(
            orderTypeIdentifier: "com.example.order", orderIdentifier: "o/1 \"x\"",
            webServiceURL: "https://shop.example/orders/", authenticationToken: "t\u{1}k")
        for status in [0, 1, 7, -1, Int.max, Int.min] {
            for errors in [nil, [], Self.everyError(message: "m/1")] {
                for orderDetails in [nil, order] {
                    try assertWrittenAsJSONEncoderWrites(
                        .payment(
                            ApplePayPaymentAuthorizationResult(
                                status: status, errors: errors, orderDetails: orderDetails)
                        ))
                }
            }
        }
        for result in PaymentComplete.allCases { try assertWrittenAsJSONEncoderWrites(.paymentComplete(result)) }
    }

    // spec W1, W5: the merchant session as Apple's server gave it, keys sorted by their bytes.
    func testMerchantSessionsAreWrittenAsJSONEncoderWritesThem() throws {
        let sessions: [JSONValue] = [
            .null, .bool(false), .integer(Int64.min), .string("a/b"), .array([]), .object([:]),
            .object([
                "nonce": .string("n/1"), "epochTimestamp": .integer(1_764_547_200_000), "signed": .bool(true),
                "Z": .null, "a10": .array([.integer(-1), .string(""), .object(["b": .null, "a": .array([])])]),
                "a9": .object([:]), "é": .string("x"), "e\u{301}x": .integer(Int64.max), "\u{FF01}": .string("\n"),
            ]),
        ]
        for session in sessions { try assertWrittenAsJSONEncoderWrites(.merchantValidation(session)) }
    }

    // spec W1: refusals and ends with and without each member; a session id and type with escapes.
    func testRefusalsAndEndsAreWrittenAsJSONEncoderWritesThem() throws {
        for text in Self.awkwardTexts {
            for refusal in [
                RelayRefusal(reason: "r", message: text),
                RelayRefusal(
                    reason: text, message: "m", pendingCallback: "didSelectShippingContact", fields: [text, "a.b[0]"],
                    limit: "maxEventBytes"),
                RelayRefusal(reason: "r", message: "m", fields: []),
            ] {
                try assertWrittenAsJSONEncoderWrites(RelayReply(session: text, type: text, .refused(refusal)))
            }
            for end in [
                RelayEnd(outcome: "cancelled", message: text, abort: false),
                RelayEnd(outcome: text, reason: "invalidUpdate", message: "m", abort: true),
            ] {
                try assertWrittenAsJSONEncoderWrites(RelayReply(session: "s", type: "cancel", .ended(end)))
            }
        }
    }

    // spec W1: the answers the relay builds from the merchant's core updates (today's terms among
    // them), as `RelaySession.completion(for:of:)` makes them.
    func testAnswersBuiltFromCoreUpdatesAreWrittenAsJSONEncoderWritesThem() throws {
        let items = [
            SummaryItem(label: "Tea", amount: Money(minorUnits: -2_000, currency: .usd), type: .pending),
            SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 9_223_372_036_854_775_807, currency: .usd)),
        ]
        let methods = [
            ShippingMethod(identifier: "a/b", label: "Ground", amount: Money(minorUnits: 0, currency: .usd)),
            ShippingMethod(
                identifier: "x", label: "Express", detail: "1 day", amount: Money(minorUnits: 1, currency: .usd),
                deliveryDateRange: try DeliveryDateRange(
                    start: CalendarDay(year: 2026, month: 1, day: 2), end: CalendarDay(year: 2026, month: 1, day: 3))),
        ]
        let errors = [
            PaymentError(code: .shippingContactInvalid, field: .postalCode, message: "no </script>"),
            PaymentError(code: .couponCodeExpired, message: ""),
        ]
        let contact = TodaysApplePay.with(ShippingContactUpdate(errors: errors, summaryItems: items)) {
            $0.shippingMethods = methods
            $0.terms.recurringPaymentRequest = TodaysApplePay.recurring
            $0.terms.multiTokenContexts = TodaysApplePay.contexts
        }
        let method = TodaysApplePay.with(ShippingMethodUpdate(summaryItems: items)) {
            $0.terms.deferredPaymentRequest = TodaysApplePay.deferred
        }
        let card = TodaysApplePay.with(PaymentMethodUpdate(errors: errors, summaryItems: items)) {
            $0.terms.automaticReloadPaymentRequest = TodaysApplePay.automaticReload
        }
        let coupon = CouponCodeUpdate(errors: errors, summaryItems: items, shippingMethods: [])
        let completions: [RelayCompletion] = [
            .shippingContactSelection(try ApplePayShippingContactUpdate(contact)),
            .shippingContactSelection(try ApplePayShippingContactUpdate(ShippingContactUpdate(summaryItems: items))),
            .shippingMethodSelection(try ApplePayShippingMethodUpdate(method)),
            .paymentMethodSelection(try ApplePayPaymentMethodUpdate(card)),
            .couponCodeChange(try ApplePayCouponCodeUpdate(coupon)),
            .payment(try ApplePayPaymentAuthorizationResult(PaymentAuthorizationResult(status: .success))),
            .payment(
                try ApplePayPaymentAuthorizationResult(
                    PaymentAuthorizationResult(status: .failure, errors: errors))),
        ]
        for completion in completions { try assertWrittenAsJSONEncoderWrites(completion) }
    }

    // spec W1: seeded random updates, each member present or absent at random, strings from an
    // awkward alphabet.
    func testRandomUpdatesAreWrittenAsJSONEncoderWritesThem() throws {
        var random = SeededGenerator(seed: 336)
        for _ in 0..<600 {
            let update = Self.randomUpdate(&random)
            let completions: [RelayCompletion] =
                update.answers + [
                    .payment(
                        ApplePayPaymentAuthorizationResult(
                            status: Int.random(in: -9...9, using: &random), errors: update.errors,
                            orderDetails: Bool.random(using: &random)
                                ? ApplePayPaymentOrderDetails(
                                    orderTypeIdentifier: Self.randomText(&random),
                                    orderIdentifier: Self.randomText(&random), webServiceURL: Self.randomText(&random),
                                    authenticationToken: Self.randomText(&random)) : nil))
                ]
            for completion in completions { try assertWrittenAsJSONEncoderWrites(completion) }
        }
    }

    // What has no direct writer, or holds what JSONEncoder writes its own way (a `Decimal`
    // number), is encoded through `Encodable`, still as JSONEncoder writes it.
    func testWhatIsNotWrittenDirectlyIsEncodedAsBefore() throws {
        let total = ApplePayLineItem(label: "Total", amount: "1.00")
        let decimal = JSONValue.object(["amount": .number(Decimal(string: "0.1")!)])
        let replies = [
            RelayReply(session: "s", type: "t", .complete(.merchantValidation(decimal))),
            RelayReply(
                session: "s", type: "t",
                .complete(.couponCodeChange(ApplePayCouponCodeUpdate(newTotal: total, newDisbursementRequest: decimal)))
            ),
            RelayReply(
                session: "s", type: "t",
                .complete(.retry(PaymentValidationErrors(error: "fix/it", paymentMethod: .array([decimal]))))),
            RelayReply(
                session: "s", type: "t", .complete(.updateWith(PaymentDetailsUpdate(paymentMethodErrors: decimal)))),
            RelayReply(
                session: "s", type: "t",
                .complete(
                    .updateWith(
                        PaymentDetailsUpdate(modifiers: [PaymentDetailsModifier(supportedMethods: "x", data: decimal)]))
                )),
            RelayReply(session: "s", type: "t", .complete(.expressCheckoutReject)),
            RelayReply(
                session: "s", type: "t",
                .complete(.googlePayPaymentAuthorized(GooglePayPaymentAuthorizationResult(transactionState: .success)))),
        ]
        for reply in replies {
            XCTAssertNil(reply.writtenJSON, "\(reply)")
            XCTAssertEqual(String(decoding: WebRelay.encoded(reply), as: UTF8.self), try foundation(reply))
        }
    }

    // spec W1, W7: the W3C update (`updateWith`) and retry (`retry`) with and without each member.
    func testW3CUpdatesAndRetriesAreWrittenAsJSONEncoderWritesThem() throws {
        for text in Self.awkwardTexts {
            let amount = PaymentCurrencyAmount(currency: "USD", value: text)
            let items = [
                PaymentItem(label: text, amount: amount),
                PaymentItem(label: "Tax", amount: PaymentCurrencyAmount(currency: text, value: "-1.00"), pending: true),
                PaymentItem(label: "", amount: amount, pending: false),
            ]
            let options = [
                PaymentShippingOption(id: text, label: "Ground", amount: amount),
                PaymentShippingOption(id: "express", label: text, amount: amount, selected: true),
                PaymentShippingOption(id: "x", label: "y", amount: amount, selected: false),
            ]
            let modifiers = [
                PaymentDetailsModifier(supportedMethods: text),
                PaymentDetailsModifier(
                    supportedMethods: "https://pay.example/a", total: items[0], additionalDisplayItems: items,
                    data: .object(["k/1": .string(text), "n": .integer(-1)])),
            ]
            let address = AddressErrors(
                addressLine: text, city: "c", country: "d", dependentLocality: "e", organization: "f", phone: "g",
                postalCode: "h", recipient: "i", region: "j", sortingCode: text)
            let payer = PayerErrors(email: text, name: "n", phone: "p")
            let full = PaymentDetailsUpdate(
                total: items[0], displayItems: items, shippingOptions: options, modifiers: modifiers, error: text,
                shippingAddressErrors: address, payerErrors: payer, paymentMethodErrors: .object(["m": .string(text)]))
            let dropEach: [(inout PaymentDetailsUpdate) -> Void] = [
                { $0.total = nil }, { $0.displayItems = nil }, { $0.shippingOptions = nil }, { $0.modifiers = nil },
                { $0.error = nil }, { $0.shippingAddressErrors = nil }, { $0.payerErrors = nil },
                { $0.paymentMethodErrors = nil },
            ]
            var updates = [full, PaymentDetailsUpdate(), PaymentDetailsUpdate(displayItems: [], shippingOptions: [])]
            updates += dropEach.map { drop in
                var update = full
                drop(&update)
                return update
            }
            updates.append(PaymentDetailsUpdate(shippingAddressErrors: AddressErrors(), payerErrors: PayerErrors()))
            for update in updates { try assertWrittenAsJSONEncoderWrites(.updateWith(update)) }
            for errors in [
                PaymentValidationErrors(), PaymentValidationErrors(error: text),
                PaymentValidationErrors(
                    error: text, payer: payer, shippingAddress: address, paymentMethod: .array([.string(text), .null])),
                PaymentValidationErrors(payer: PayerErrors(name: text), shippingAddress: AddressErrors(city: text)),
            ] {
                try assertWrittenAsJSONEncoderWrites(.retry(errors))
            }
        }
    }

    // spec W1, W7: the W3C answers the relay builds from the merchant's core updates and errors.
    func testW3CAnswersBuiltFromCoreUpdatesAreWrittenAsJSONEncoderWritesThem() throws {
        let items = [
            SummaryItem(label: "Tea/1", amount: Money(minorUnits: -2_000, currency: .usd), type: .pending),
            SummaryItem(label: "Tea Shop", amount: Money(minorUnits: 12_345, currency: .usd)),
        ]
        let methods = [
            ShippingMethod(identifier: "ground", label: "Ground", amount: Money(minorUnits: 0, currency: .usd)),
            ShippingMethod(identifier: "x", label: "Express", amount: Money(minorUnits: 1, currency: .usd)),
        ]
        let errors =
            PaymentErrorField.allCases.map {
                PaymentError(code: .shippingContactInvalid, field: $0, message: "fix \($0.rawValue) </b>")
            } + [
                PaymentError(code: .billingContactInvalid, field: .emailAddress, message: "e"),
                PaymentError(code: .couponCodeInvalid, message: "c"),
            ]
        let contact = ShippingContactUpdate(errors: errors, summaryItems: items, shippingMethods: methods)
        let completions: [RelayCompletion] = [
            .updateWith(try PaymentDetailsUpdate(contact, selectedShippingOptionID: "x")),
            .updateWith(try PaymentDetailsUpdate(ShippingContactUpdate(summaryItems: items, shippingMethods: []))),
            .updateWith(try PaymentDetailsUpdate(ShippingMethodUpdate(summaryItems: items))),
            .updateWith(try PaymentDetailsUpdate(PaymentMethodUpdate(errors: errors, summaryItems: items))),
            .retry(PaymentValidationErrors(errors)),
            .paymentComplete(.success),
        ]
        for completion in completions { try assertWrittenAsJSONEncoderWrites(completion) }
    }

    // MARK: Values

    /// One update's members.
    private struct UpdateMembers {
        var total: ApplePayLineItem
        var lines: [ApplePayLineItem]?
        var errors: [ApplePayError]?
        var methods: [ApplePayShippingMethod]?
        var recurring: ApplePayRecurringPaymentRequest?
        var automaticReload: ApplePayAutomaticReloadPaymentRequest?
        var contexts: [ApplePayPaymentTokenContext]?
        var deferred: ApplePayDeferredPaymentRequest?
        var disbursement: JSONValue?

        /// The four Apple Pay updates with these members (a shipping method update has no errors).
        var answers: [RelayCompletion] {
            [
                .shippingContactSelection(
                    ApplePayShippingContactUpdate(
                        newTotal: total, newLineItems: lines, errors: errors, newShippingMethods: methods,
                        newRecurringPaymentRequest: recurring, newAutomaticReloadPaymentRequest: automaticReload,
                        newMultiTokenContexts: contexts, newDeferredPaymentRequest: deferred,
                        newDisbursementRequest: disbursement)),
                .shippingMethodSelection(
                    ApplePayShippingMethodUpdate(
                        newTotal: total, newLineItems: lines, newShippingMethods: methods,
                        newRecurringPaymentRequest: recurring, newAutomaticReloadPaymentRequest: automaticReload,
                        newMultiTokenContexts: contexts, newDeferredPaymentRequest: deferred,
                        newDisbursementRequest: disbursement)),
                .paymentMethodSelection(
                    ApplePayPaymentMethodUpdate(
                        newTotal: total, newLineItems: lines, errors: errors, newShippingMethods: methods,
                        newRecurringPaymentRequest: recurring, newAutomaticReloadPaymentRequest: automaticReload,
                        newMultiTokenContexts: contexts, newDeferredPaymentRequest: deferred,
                        newDisbursementRequest: disbursement)),
                .couponCodeChange(
                    ApplePayCouponCodeUpdate(
                        newTotal: total, newLineItems: lines, errors: errors, newShippingMethods: methods,
                        newRecurringPaymentRequest: recurring, newAutomaticReloadPaymentRequest: automaticReload,
                        newMultiTokenContexts: contexts, newDeferredPaymentRequest: deferred,
                        newDisbursementRequest: disbursement)),
            ]
        }
    }

    /// Every error code, with no field and with each contact field.
    private static func everyError(message: String) -> [ApplePayError] {
        ApplePayErrorCode.allCases.flatMap { code in
            [ApplePayError(code: code, message: message)]
                + ApplePayErrorContactField.allCases.map { ApplePayError(code: code, contactField: $0, message: "") }
        }
    }

    /// Line items with every member, with none, pending and final, of every payment timing.
    private static func everyLineItem(_ text: String) -> [ApplePayLineItem] {
        [
            ApplePayLineItem(label: text, amount: "12.00"),
            ApplePayLineItem(type: .pending, label: "Shipping", amount: ""),
            ApplePayLineItem(type: .final, label: "Refund", amount: "-99999999999999999.99"),
            ApplePayLineItem(
                type: .final, label: text, amount: "9.99", paymentTiming: .recurring,
                recurringPaymentStartDate: "2025-01-08T00:00:00Z", recurringPaymentIntervalUnit: .month,
                recurringPaymentIntervalCount: Int.min, recurringPaymentEndDate: "2026-01-08",
                deferredPaymentDate: "2026-01-08", automaticReloadPaymentThresholdAmount: "5.00"),
            ApplePayLineItem(
                label: "Stay", amount: "25.00", paymentTiming: .deferred, deferredPaymentDate: text),
            ApplePayLineItem(
                label: "Top-up", amount: "20.00", paymentTiming: .automaticReload,
                automaticReloadPaymentThresholdAmount: text),
            ApplePayLineItem(
                label: "Club", amount: "1", paymentTiming: .immediate, recurringPaymentIntervalUnit: .minute,
                recurringPaymentIntervalCount: Int.max),
        ]
    }

    /// Updates with every member (each holding every variety above) and with each member absent.
    private static func updates(texts: [String]) -> [UpdateMembers] {
        texts.flatMap { text -> [UpdateMembers] in
            let lines = everyLineItem(text)
            let range = ApplePayDateComponentsRange(
                startDateComponents: ApplePayDateComponents(years: 2026, months: 1, days: 2, hours: -1),
                endDateComponents: ApplePayDateComponents())
            let full = UpdateMembers(
                total: lines[3],
                lines: lines,
                errors: everyError(message: text),
                methods: [
                    ApplePayShippingMethod(label: text, detail: "", amount: "0.00", identifier: "a/b"),
                    ApplePayShippingMethod(
                        label: "Express", detail: text, amount: "-1.00", identifier: text, dateComponentsRange: range),
                    ApplePayShippingMethod(
                        label: "x", detail: "y", amount: "1", identifier: "z",
                        dateComponentsRange: ApplePayDateComponentsRange(
                            startDateComponents: ApplePayDateComponents(days: 1),
                            endDateComponents: ApplePayDateComponents(years: 1, hours: 2))),
                ],
                recurring: ApplePayRecurringPaymentRequest(
                    paymentDescription: text, regularBilling: lines[3], trialBilling: lines[1],
                    billingAgreement: text, managementURL: "https://shop.example/a/b",
                    tokenNotificationURL: "https://shop.example/t?x=1&y=\"2\""),
                automaticReload: ApplePayAutomaticReloadPaymentRequest(
                    paymentDescription: text, automaticReloadBilling: lines[5], billingAgreement: text,
                    managementURL: text, tokenNotificationURL: "https://x/y"),
                contexts: [
                    ApplePayPaymentTokenContext(
                        merchantIdentifier: "merchant.com.example.tea", externalIdentifier: text,
                        merchantName: "Tea Shop", merchantDomain: "tea.example", amount: "15.00"),
                    ApplePayPaymentTokenContext(
                        merchantIdentifier: text, externalIdentifier: "cups-1", merchantName: text, amount: "-10.00"),
                ],
                deferred: ApplePayDeferredPaymentRequest(
                    paymentDescription: text, deferredBilling: lines[4], billingAgreement: text,
                    managementURL: "https://shop.example/", tokenNotificationURL: text,
                    freeCancellationDate: "2025-01-08T00:00:00Z", freeCancellationDateTimeZone: "Europe/Paris"),
                disbursement: .object(["a/b": .string(text), "n": .integer(-3), "list": .array([.null, .bool(true)])]))
            var bare = UpdateMembers(total: lines[0])
            bare.recurring = ApplePayRecurringPaymentRequest(
                paymentDescription: "", regularBilling: lines[0], managementURL: "")
            bare.automaticReload = ApplePayAutomaticReloadPaymentRequest(
                paymentDescription: "", automaticReloadBilling: lines[1], managementURL: "")
            bare.deferred = ApplePayDeferredPaymentRequest(
                paymentDescription: "", deferredBilling: lines[2], managementURL: "")
            bare.contexts = []
            bare.lines = []
            bare.errors = []
            bare.methods = []
            bare.disbursement = .null
            let dropEach: [(inout UpdateMembers) -> Void] = [
                { $0.lines = nil }, { $0.errors = nil }, { $0.methods = nil }, { $0.recurring = nil },
                { $0.automaticReload = nil }, { $0.contexts = nil }, { $0.deferred = nil }, { $0.disbursement = nil },
            ]
            let absentEach = dropEach.map { drop in
                var update = full
                drop(&update)
                return update
            }
            return [full, bare, UpdateMembers(total: lines[1])] + absentEach
        }
    }

    private static let alphabet: [Character] = [
        "a", "Z", "0", " ", "/", "\\", "\"", "\n", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "e\u{301}", "😀", "\u{2028}",
        "-", ".", "<", "茶",
    ]

    private static func randomText(_ random: inout SeededGenerator) -> String {
        String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    private static func maybe<T>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> T) -> T? {
        Bool.random(using: &random) ? make(&random) : nil
    }

    private static func randomItem(_ random: inout SeededGenerator) -> ApplePayLineItem {
        ApplePayLineItem(
            type: maybe(&random) { ApplePayLineItemType.allCases.randomElement(using: &$0)! },
            label: randomText(&random), amount: randomText(&random),
            paymentTiming: maybe(&random) { ApplePayPaymentTiming.allCases.randomElement(using: &$0)! },
            recurringPaymentStartDate: maybe(&random, randomText),
            recurringPaymentIntervalUnit: maybe(&random) {
                ApplePayRecurringPaymentDateUnit.allCases.randomElement(using: &$0)!
            },
            recurringPaymentIntervalCount: maybe(&random) { Int.random(in: Int.min...Int.max, using: &$0) },
            recurringPaymentEndDate: maybe(&random, randomText), deferredPaymentDate: maybe(&random, randomText),
            automaticReloadPaymentThresholdAmount: maybe(&random, randomText))
    }

    private static func randomList<T>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> T) -> [T] {
        (0..<Int.random(in: 0...3, using: &random)).map { _ in make(&random) }
    }

    private static func randomComponents(_ random: inout SeededGenerator) -> ApplePayDateComponents {
        let number = { (random: inout SeededGenerator) in Int.random(in: -5...3000, using: &random) }
        return ApplePayDateComponents(
            years: maybe(&random, number), months: maybe(&random, number), days: maybe(&random, number),
            hours: maybe(&random, number))
    }

    private static func randomUpdate(_ random: inout SeededGenerator) -> UpdateMembers {
        UpdateMembers(
            total: randomItem(&random),
            lines: maybe(&random) { randomList(&$0, randomItem) },
            errors: maybe(&random) {
                randomList(&$0) { random in
                    ApplePayError(
                        code: ApplePayErrorCode.allCases.randomElement(using: &random)!,
                        contactField: maybe(&random) { ApplePayErrorContactField.allCases.randomElement(using: &$0)! },
                        message: randomText(&random))
                }
            },
            methods: maybe(&random) {
                randomList(&$0) { random in
                    ApplePayShippingMethod(
                        label: randomText(&random), detail: randomText(&random), amount: randomText(&random),
                        identifier: randomText(&random),
                        dateComponentsRange: maybe(&random) { random in
                            ApplePayDateComponentsRange(
                                startDateComponents: randomComponents(&random),
                                endDateComponents: randomComponents(&random))
                        })
                }
            },
            recurring: maybe(&random) { random in
                ApplePayRecurringPaymentRequest(
                    paymentDescription: randomText(&random), regularBilling: randomItem(&random),
                    trialBilling: maybe(&random, randomItem), billingAgreement: maybe(&random, randomText),
                    managementURL: randomText(&random), tokenNotificationURL: maybe(&random, randomText))
            },
            automaticReload: maybe(&random) { random in
                ApplePayAutomaticReloadPaymentRequest(
                    paymentDescription: randomText(&random), automaticReloadBilling: randomItem(&random),
                    billingAgreement: maybe(&random, randomText), managementURL: randomText(&random),
                    tokenNotificationURL: maybe(&random, randomText))
            },
            contexts: maybe(&random) {
                randomList(&$0) { random in
                    ApplePayPaymentTokenContext(
                        merchantIdentifier: randomText(&random), externalIdentifier: randomText(&random),
                        merchantName: randomText(&random), merchantDomain: maybe(&random, randomText),
                        amount: randomText(&random))
                }
            },
            deferred: maybe(&random) { random in
                ApplePayDeferredPaymentRequest(
                    paymentDescription: randomText(&random), deferredBilling: randomItem(&random),
                    billingAgreement: maybe(&random, randomText), managementURL: randomText(&random),
                    tokenNotificationURL: maybe(&random, randomText), freeCancellationDate: maybe(&random, randomText),
                    freeCancellationDateTimeZone: maybe(&random, randomText))
            },
            disbursement: maybe(&random) { random in
                .object(
                    Dictionary(
                        randomList(&random) { (randomText(&$0), JSONValue.string(randomText(&$0))) },
                        uniquingKeysWith: { first, _ in first }))
            })
    }
}
