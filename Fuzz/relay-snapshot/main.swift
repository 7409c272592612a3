// libFuzzer target `relay-snapshot`: a session resumed from a sealed snapshot (spec W6) made of
// the input's bytes, in both layers of the format:
//   - the bytes as they are, as a sealed snapshot, resumed by a relay whose key sealed none of
//     them: refused with `malformedSnapshot` or `tamperedSnapshot`, never a crash, no session;
//   - the bytes as the payload, sealed with the target's own key (so the MAC verifies and the
//     payload's decoding, the request's checks and the replay are reached): a refusal is a
//     `RelayError` (or the request's `CheckoutError`) naming the field, and leaves no session; a
//     snapshot accepted holds the payload's session, which is written out again as the same
//     payload, its merchant is not asked anything during the replay, and a page's cancel ends
//     it once, with `didFinish` and `onSessionEnd` told exactly once.
//
// Seeds: with FUZZ_SNAPSHOT_SEEDS=<directory>, the target runs sessions of Examples/relay's shop
// through a relay, writes each one's payload out after every event, and exits (see
// RELIABILITY.md, Fuzzing).
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import CheckoutFlows
import CheckoutWebRelay
import Dispatch
import Foundation

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("relay-snapshot invariant broken: \(message())") }
}

private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func with<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The key the target seals payloads with, and the other relay's key, which sealed nothing.
private let key = [UInt8](repeating: 0x5a, count: 32)
private let otherKey = [UInt8](repeating: 0xa5, count: 32)

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// `payload` sealed as a relay seals a snapshot of version 1, under `key`.
private func seal(_ payload: some Collection<UInt8>) -> Data {
    var signed = Array("checkout-web-relay-snapshot/\(RelaySnapshot.version)\n".utf8)
    signed.append(contentsOf: payload)
    let mac = HMACSHA256.authenticationCode(for: signed, key: key)
    return Data(signed + [UInt8(ascii: "\n")] + Array(hex(mac).utf8))
}

// MARK: - The merchant

private let usd = CurrencyCode.usd

private func items(_ cents: Int64) -> [SummaryItem] {
    [
        SummaryItem(label: "Oolong tea", amount: Money(minorUnits: 2_400, currency: usd)),
        SummaryItem(label: "Tea Shop", amount: Money(minorUnits: cents, currency: usd)),
    ]
}

private let ground = ShippingMethod(identifier: "ground", label: "Ground", amount: Money(minorUnits: 0, currency: usd))
private let express = ShippingMethod(
    identifier: "express", label: "Express", amount: Money(minorUnits: 1_500, currency: usd))

/// The shop's request, for the seeds.
private let request = PaymentRequest(
    merchantIdentifier: "merchant.com.example.tea", countryCode: "US", currencyCode: "USD",
    shippingMethods: [ground, express], summaryItems: items(2_400), supportsCouponCode: true)

/// A merchant that answers at once, counting what it is asked.
private final class Merchant: PaymentAuthorizationDelegate {
    let counts = Locked<(calls: Int, finished: Int)>((0, 0))

    private func called() { counts.with { $0.calls += 1 } }

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { counts.with { $0.finished += 1 } }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        called()
        handler(ShippingContactUpdate(summaryItems: items(2_598), shippingMethods: [ground, express]))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        called()
        handler(ShippingMethodUpdate(summaryItems: items(2_400 + method.amount.minorUnits)))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        called()
        handler(
            code == "TEN"
                ? CouponCodeUpdate(summaryItems: items(2_160))
                : CouponCodeUpdate(errors: [.couponCodeInvalid("Unknown code")], summaryItems: items(2_400)))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        called()
        handler(PaymentAuthorizationResult(status: .failure))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow, didRequestMerchantSessionUpdate request: MerchantSessionRequest,
        handler: @escaping @Sendable (MerchantSessionUpdate) -> Void
    ) {
        called()
        handler(.success(MerchantSession(json: #"{"merchantSessionIdentifier":"SSH-FUZZ"}"#)))
    }
}

// MARK: - The checks

/// Runs each input's async body on one task that lives as long as the process, and returns once
/// the body has returned. A task per input would be torn down on its own thread after it signals,
/// so what its closure captured (the input) could still be held when LeakSanitizer looks, and be
/// reported as leaked (it was, by relay-snapshot's first 300-second run). Here the body's objects
/// are freed when it returns, before `done` is signalled, and the input is the caller's.
private final class Runner: @unchecked Sendable {
    private let inputs: AsyncStream<Void>.Continuation
    private let done = DispatchSemaphore(value: 0)
    /// The body of the input being run; set and cleared by the fuzzer's thread around a run.
    private var body: (@Sendable () async -> Void)?

    init() {
        let (stream, inputs) = AsyncStream<Void>.makeStream()
        self.inputs = inputs
        Task.detached { [unowned self] in
            for await _ in stream {
                await self.body?()
                self.done.signal()
            }
        }
    }

    func run(_ body: @escaping @Sendable () async -> Void) {
        self.body = body
        inputs.yield()
        done.wait()
        self.body = nil
    }
}

private let runner = Runner()

private func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    runner.run(body)
}

private func relay(key: [UInt8], clock: ManualClock, ends: Locked<[String: Int]>) -> WebRelay {
    WebRelay(
        options: RelayOptions(
            clock: clock, snapshotKey: key,
            onSessionEnd: { id, _ in ends.with { $0[id, default: 0] += 1 } }))
}

/// The raw layer: bytes no relay sealed under this key are refused before anything is built.
private func resumeRaw(_ input: Data) async {
    let clock = ManualClock()
    let ends = Locked<[String: Int]>([:])
    let relay = relay(key: otherKey, clock: clock, ends: ends)
    do {
        let session = try await relay.resume(input, merchant: .authorization(delegate: Merchant()))
        fatalError("relay-snapshot: bytes sealed under another key resumed session \(session.id.debugDescription)")
    } catch let error as RelayError {
        require(
            error.code == .malformedSnapshot || error.code == .tamperedSnapshot,
            "raw bytes refused with \(error.code): \(error)")
    } catch {
        fatalError("relay-snapshot: raw bytes refused with a \(type(of: error)): \(error)")
    }
    require(relay.sessionCount == 0, "a refused snapshot left a session")
}

/// The payload layer: the input sealed with the target's own key.
private func resumeSealed(_ input: Data) async {
    let clock = ManualClock()
    let ends = Locked<[String: Int]>([:])
    let relay = relay(key: key, clock: clock, ends: ends)
    let merchant = Merchant()
    let session: RelaySession
    do {
        session = try await relay.resume(seal(input), merchant: .authorization(delegate: merchant))
    } catch let error as RelayError {
        require(
            [.malformedSnapshot, .snapshotDiverged].contains(error.code),
            "a snapshot sealed with the relay's key refused with \(error.code): \(error)")
        require(error.field != nil, "a refused snapshot does not name the field: \(error)")
        require(relay.sessionCount == 0, "a refused snapshot left a session")
        require(merchant.counts.with { $0.finished } == 0, "a refused snapshot's merchant was told didFinish")
        clock.discardPendingDeadlines()
        return
    } catch let error as CheckoutError {
        // An invalid request lists every problem at once (spec E1), each naming its field.
        require(
            error.field != nil || (!error.problems.isEmpty && error.problems.allSatisfy { $0.field != nil }),
            "a snapshot's request refused without naming the field: \(error)")
        require(relay.sessionCount == 0, "a refused snapshot left a session")
        clock.discardPendingDeadlines()
        return
    } catch {
        fatalError("relay-snapshot: a snapshot refused with a \(type(of: error)): \(error)")
    }
    // Accepted: the payload's session, written out as it came in, with no merchant call made.
    guard let payload = try? JSONDecoder().decode(RelaySnapshot.Payload.self, from: input) else {
        fatalError("relay-snapshot: a snapshot resumed whose payload does not decode")
    }
    require(
        session.id == payload.session, "resumed \(session.id.debugDescription), not \(payload.session.debugDescription)"
    )
    require(relay.sessionIDs == [payload.session], "the relay holds \(relay.sessionIDs) after a resume")
    require(merchant.counts.with { $0.calls } == 0, "the merchant was asked during the replay")
    require(!session.isEnded && !session.isBusy, "a resumed session is ended or busy")
    do {
        let again = try RelaySnapshot.open(try relay.snapshot(payload.session), key: key)
        require(again == payload, "a resumed session is written out differently")
    } catch {
        fatalError("relay-snapshot: a resumed session cannot be written out again: \(error)")
    }
    let cancel = try! JSONEncoder().encode(RelayEvent(session: payload.session, .cancel))
    let reply = try? JSONDecoder().decode(RelayReply.self, from: await relay.handle(json: cancel))
    require(
        reply?.end?.outcome == "cancelled",
        "the page's cancel did not end a resumed session: \(String(describing: reply))")
    await relay.close(payload.session)
    require(relay.sessionCount == 0, "a closed session is still held")
    require(ends.with { $0 } == [payload.session: 1], "ends told: \(ends.with { $0 })")
    require(merchant.counts.with { $0.finished } == 1, "didFinish told \(merchant.counts.with { $0.finished }) times")
    clock.discardPendingDeadlines()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    runBlocking {
        await resumeRaw(input)
        await resumeSealed(input)
    }
    return 0
}

// MARK: - Seeds

/// Writes the payload of a shop session after each of its events into `directory`.
private func writeSeeds(to directory: String) async {
    let sessions: [[String]] = [
        [
            #"{"session": "s1", "type": "shippingcontactselected", "shippingContact": {"locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}"#,
            #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "Express", "detail": "1-2 days", "amount": "15.00", "identifier": "express"}}"#,
            #"{"session": "s1", "type": "couponcodechanged", "couponCode": "TEN"}"#,
            #"{"session": "s1", "type": "shippingmethodselected", "shippingMethod": {"label": "Nope", "detail": "", "amount": "1.00", "identifier": "nope"}}"#,
            #"{"session": "s1", "type": "paymentmethodselected", "paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}"#,
            #"{"session": "s1", "type": "paymentauthorized", "payment": {"token": {"paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "credit"}, "transactionIdentifier": "decline-1", "paymentData": {"version": "EC_v1", "data": "abc"}}, "shippingContact": {"givenName": "Ravi", "familyName": "Patel", "addressLines": ["1 Main St"], "locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}}"#,
        ],
        [
            #"{"session": "w1", "type": "validatemerchant", "validationURL": "https://apple-pay-gateway.apple.com/paymentservices/startSession"}"#,
            #"{"session": "w1", "type": "shippingaddresschange", "shippingAddress": {"country": "US", "addressLine": [], "region": "TX", "city": "Austin", "postalCode": "78701"}}"#,
            #"{"session": "w1", "type": "shippingoptionchange", "shippingOption": "ground"}"#,
            #"{"session": "w1", "type": "paymentmethodchange", "methodName": "https://apple.com/apple-pay", "methodDetails": {"displayName": "Visa 1234", "network": "Visa", "type": "debit"}}"#,
        ],
    ]
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for events in sessions {
        let clock = ManualClock()
        let relay = WebRelay(options: RelayOptions(clock: clock, snapshotKey: key)) { _ in
            .open(request, .authorization(delegate: Merchant()))
        }
        for (index, line) in events.enumerated() {
            _ = await relay.handle(json: Data(line.utf8))
            let id = try! JSONDecoder().decode(RelayEvent.self, from: Data(line.utf8)).session
            guard let sealed = try? relay.snapshot(id) else { continue }
            let payload = try! RelaySnapshot.open(sealed, key: key)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try! encoder.encode(payload).write(to: URL(fileURLWithPath: "\(directory)/payload-\(id)-\(index + 1).json"))
            if index == events.count - 1 {
                try! sealed.write(to: URL(fileURLWithPath: "\(directory)/sealed-\(id)-\(index + 1)"))
            }
        }
        for id in relay.sessionIDs { await relay.close(id) }
        clock.discardPendingDeadlines()
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    if let directory = ProcessInfo.processInfo.environment["FUZZ_SNAPSHOT_SEEDS"] {
        runBlocking { await writeSeeds(to: directory) }
        exit(0)
    }
    return 0
}
