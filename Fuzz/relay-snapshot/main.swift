// libFuzzer target `relay-snapshot`: a session resumed from a sealed snapshot (spec W6) made of
// the input's bytes, in both layers of the format:
//   - the bytes as they are, as a sealed snapshot, resumed by a relay whose key sealed none of
//     them: refused with `malformedSnapshot` or `tamperedSnapshot`, never a crash, no session;
//   - the bytes as the payload, sealed with the target's own key (so the MAC verifies and the
//     payload's decoding, the request's checks and the replay are reached): a refusal is a
//     `RelayError` (or the request's `CheckoutError`) naming the field, and leaves no session; a
//     snapshot accepted holds the payload's session, which is written out again as the same
//     payload, its merchant is not asked anything during the replay, and a page's cancel ends
//     it once, with `didFinish` and `onSessionEnd` told exactly once;
//   - spec W10, the payload's owner (the keyed digest of the caller that opened the session): a
//     resume for a caller other than the owner (or for any caller, when there is none) is refused
//     as `unknownSession` and leaves no session; a resume for the owner ends as one without a
//     caller does; a resumed session answers only its owner's events (another caller's or none's
//     cancel gets `unknownSession` and ends nothing); no identity is written into a snapshot.
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

/// The identities a server authenticated: `customer-ada` owns the owned seeds, `customer-bo` none.
private let ada = "customer-ada"
private let bo = "customer-bo"

/// Each identity's digest as a snapshot's `owner` holds it, under the target's key: read from a
/// snapshot of a session opened for it, once, by `LLVMFuzzerInitialize`.
nonisolated(unsafe) private var owners: [String: String] = [:]

private func readOwners() async {
    for identity in [ada, bo] {
        let clock = ManualClock()
        let relay = WebRelay(options: RelayOptions(clock: clock, snapshotKey: key))
        let id = SessionID.random()
        try! relay.open(
            id, request: request, merchant: .authorization(delegate: Merchant()), caller: RelayCaller(identity))
        owners[identity] = try! RelaySnapshot.open(try! relay.snapshot(id), key: key).owner!
        await relay.close(id)
        clock.discardPendingDeadlines()
    }
}

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

/// How a resume ended: with the session, or refused with the error's code.
private enum Resumed: Equatable {
    case accepted(String)
    case refused(String)
}

/// The payload layer: the input sealed with the target's own key, resumed without a caller, then
/// for each identity (spec W10).
private func resumeSealed(_ input: Data) async {
    let sealed = seal(input)
    let plain = await resume(sealed, for: nil, input: input)
    guard let payload = try? RelaySnapshot.open(sealed, key: key) else { return }
    for identity in [ada, bo] {
        let resumed = await resume(sealed, for: identity, input: input)
        if payload.owner == owners[identity] {
            require(
                resumed == plain, "\(identity)'s resume of their session gave \(resumed), without a caller \(plain)")
        } else if plain == .refused(RelayError.Code.malformedSnapshot.rawValue) {
            // An owner that is no caller's digest: malformed for every caller alike.
            require(resumed == plain, "\(identity)'s resume of a malformed snapshot gave \(resumed)")
        } else {
            require(
                resumed == .refused(RelayError.Code.unknownSession.rawValue),
                "\(identity) resumed a session of another owner (\(payload.owner ?? "none")): \(resumed)")
        }
    }
}

/// Resumes `sealed` for `identity` (none: the server resumes it without a caller) and checks what
/// follows.
private func resume(_ sealed: Data, for identity: String?, input: Data) async -> Resumed {
    let clock = ManualClock()
    defer { clock.discardPendingDeadlines() }
    let ends = Locked<[String: Int]>([:])
    let relay = relay(key: key, clock: clock, ends: ends)
    let merchant = Merchant()
    let session: RelaySession
    do {
        session = try await relay.resume(
            sealed, merchant: .authorization(delegate: merchant), caller: identity.map(RelayCaller.init))
    } catch let error as RelayError {
        let allowed: [RelayError.Code] =
            [.malformedSnapshot, .snapshotDiverged] + (identity == nil ? [] : [.unknownSession])
        require(
            allowed.contains(error.code), "a snapshot sealed with the relay's key refused with \(error.code): \(error)")
        require(error.field != nil, "a refused snapshot does not name the field: \(error)")
        require(relay.sessionCount == 0, "a refused snapshot left a session")
        require(merchant.counts.with { $0 } == (0, 0), "a refused snapshot's merchant was asked or told didFinish")
        require(ends.with { $0.isEmpty }, "a refused snapshot's session was reported ended")
        return .refused(error.code.rawValue)
    } catch let error as CheckoutError {
        // An invalid request lists every problem at once (spec E1), each naming its field.
        require(
            error.field != nil || (!error.problems.isEmpty && error.problems.allSatisfy { $0.field != nil }),
            "a snapshot's request refused without naming the field: \(error)")
        require(relay.sessionCount == 0, "a refused snapshot left a session")
        return .refused("CheckoutError")
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
        let written = try relay.snapshot(payload.session)
        let again = try RelaySnapshot.open(written, key: key)
        require(again == payload, "a resumed session is written out differently")
        // Spec W10: a snapshot keeps its owner's digest, never an identity.
        for name in [ada, bo] where written.range(of: Data(name.utf8)) != nil {
            require(input.range(of: Data(name.utf8)) != nil, "the identity \(name) was written into a snapshot")
        }
    } catch {
        fatalError("relay-snapshot: a resumed session cannot be written out again: \(error)")
    }
    // Spec W10: the session answers its owner only; the others' cancel is answered as for an
    // unknown session and ends nothing.
    let owner: String?? =
        payload.owner == nil ? .some(nil) : [ada, bo].first { owners[$0] == payload.owner }.map { .some($0) }
    let cancel = try! JSONEncoder().encode(RelayEvent(session: payload.session, .cancel))
    for caller in [nil, ada, bo] where owner != .some(caller) {
        let reply = try? JSONDecoder().decode(
            RelayReply.self, from: await relay.handle(json: cancel, caller: caller.map(RelayCaller.init)))
        require(
            reply?.refusal?.reason == RelayError.Code.unknownSession.rawValue,
            "\(caller ?? "no caller")'s cancel of a session of \(payload.owner ?? "none") got \(String(describing: reply))"
        )
        require(!session.isEnded, "\(caller ?? "no caller")'s cancel ended a session of another owner")
    }
    if let owner {
        let reply = try? JSONDecoder().decode(
            RelayReply.self, from: await relay.handle(json: cancel, caller: owner.map(RelayCaller.init)))
        require(
            reply?.end?.outcome == "cancelled",
            "the page's cancel did not end a resumed session: \(String(describing: reply))")
    }
    await relay.close(payload.session)
    require(relay.sessionCount == 0, "a closed session is still held")
    require(ends.with { $0 } == [payload.session: 1], "ends told: \(ends.with { $0 })")
    require(merchant.counts.with { $0.finished } == 1, "didFinish told \(merchant.counts.with { $0.finished }) times")
    return .accepted(payload.session)
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

/// Writes the payload of each shop session after each of its events into `directory`.
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
    // Each session opened by the server itself (its ids are not a page's), without a caller and
    // for customer-ada (spec W10: the payload then holds her digest as its owner).
    for (identity, prefix) in [(nil, ""), (ada, "owned-")] as [(String?, String)] {
        for events in sessions {
            let clock = ManualClock()
            let relay = WebRelay(options: RelayOptions(clock: clock, snapshotKey: key))
            let caller = identity.map(RelayCaller.init)
            for (index, line) in events.enumerated() {
                let id = try! JSONDecoder().decode(RelayEvent.self, from: Data(line.utf8)).session
                if relay.session(id) == nil {
                    try! relay.open(
                        id, request: request, merchant: .authorization(delegate: Merchant()), caller: caller)
                }
                _ = await relay.handle(json: Data(line.utf8), caller: caller)
                guard let sealed = try? relay.snapshot(id) else { continue }
                let payload = try! RelaySnapshot.open(sealed, key: key)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                try! encoder.encode(payload).write(
                    to: URL(fileURLWithPath: "\(directory)/payload-\(prefix)\(id)-\(index + 1).json"))
                if index == events.count - 1 {
                    try! sealed.write(to: URL(fileURLWithPath: "\(directory)/sealed-\(prefix)\(id)-\(index + 1)"))
                }
            }
            for id in relay.sessionIDs { await relay.close(id) }
            clock.discardPendingDeadlines()
        }
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    runBlocking { await readOwners() }
    if let directory = ProcessInfo.processInfo.environment["FUZZ_SNAPSHOT_SEEDS"] {
        runBlocking { await writeSeeds(to: directory) }
        exit(0)
    }
    return 0
}
