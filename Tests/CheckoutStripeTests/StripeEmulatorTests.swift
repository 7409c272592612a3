import CheckoutCore
import CheckoutFlows
import CheckoutStripe
import CheckoutStripeBackends
import Foundation
import Synchronization
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pay-context card scenarios of `InMemoryTestCardTests`, on the HTTP backend against a real
/// Stripe emulator (localstripe) or Stripe itself, with the in-memory backend's outcomes.
///
/// `STRIPE_EMULATOR_URL=http://127.0.0.1:PORT` runs them against localstripe
/// (`Scripts/with-localstripe.sh` starts one and sets it); `STRIPE_SECRET_KEY=sk_test_…` runs
/// them against Stripe's API in test mode. Without either they are skipped, saying so.
final class StripeEmulatorTests: XCTestCase {
    /// The cards localstripe 1.15.10 knows (its `resources.py`) that Stripe's testing page still
    /// lists (it also knows 4000000000003063, which the page no longer does): the 3-D Secure
    /// cards, the cards whose charge declines, and the plain success; it treats other numbers as
    /// successes without Stripe's brands, codes or checks, and refuses numbers that are not 16
    /// digits: American Express and Diners Club go as the plain success card they are documented
    /// to behave as (`sendsStandInCards`).
    static let localstripeCards: [StripeTestCard] = [
        .success, .threeDSecureRequired, .alwaysAuthenticate, .authenticateThenInsufficientFunds,
        .threeDSecure2Required, .authenticateThenDecline, .chargeFails, .amex, .amex2,
    ]
    /// The cards a SetupIntent in localstripe declines on attaching.
    static let localstripeSetupCards: [StripeTestCard] =
        localstripeCards + [
            .genericDecline, .insufficientFunds, .lostCard, .stolenCard, .expiredCard, .incorrectCVC, .processingError,
        ]

    private struct Target {
        var backend: StripeHTTPBackend
        var isEmulator: Bool
    }

    private func target() throws -> Target {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["STRIPE_EMULATOR_URL"], !text.isEmpty {
            let url = try XCTUnwrap(URL(string: text))
            guard url.host == "127.0.0.1" else {
                throw StripeError(
                    type: "invalid_request_error", message: "STRIPE_EMULATOR_URL must be on 127.0.0.1, not \(text)")
            }
            let configuration = StripeHTTPBackend.Configuration(
                apiKey: try StripeAPIKey("sk_test_localstripe"), baseURL: url,
                retry: StripeRetryPolicy(maxRetries: 2, initialDelay: .milliseconds(50)), sendsTestCVC: true,
                sendsStandInCards: true)
            return Target(backend: StripeHTTPBackend(configuration: configuration), isEmulator: true)
        }
        if let key = environment["STRIPE_SECRET_KEY"], !key.isEmpty {
            let apiKey = try StripeAPIKey(key)
            guard apiKey.isTestMode, apiKey.kind == .secret else {
                throw StripeError(
                    type: "invalid_request_error", message: "STRIPE_SECRET_KEY must be a test-mode secret key")
            }
            return Target(backend: StripeHTTPBackend(configuration: .init(apiKey: apiKey)), isEmulator: false)
        }
        throw XCTSkip(
            "Stripe emulator tests skipped: set STRIPE_EMULATOR_URL=http://127.0.0.1:PORT of a running localstripe "
                + "(Scripts/with-localstripe.sh swift test --filter StripeEmulatorTests does it), or "
                + "STRIPE_SECRET_KEY=sk_test_… to run them against Stripe's test mode.")
    }

    /// The outcome in the terms both backends share: localstripe sends no decline codes.
    private func coarse(_ result: CardScenario.Result) -> String {
        switch result {
        case .error(let code)
        where ["confirmationFailure", "api_connection_error", "api_error", "userCancellation"].contains(code):
            return "error(\(code))"
        case .error: return "declined"
        default: return "\(result)"
        }
    }

    private func compare(_ card: StripeTestCard, setup: Bool, on target: Target) async throws {
        let http = target.backend
        let (result, _) = try await CardScenario.run(card, backend: http) {
            setup
                ? try await http.createSetupIntent()
                : try await http.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        }
        let memory = InMemoryStripeBackend()
        let (expected, _) = try await CardScenario.run(card, backend: memory) {
            setup
                ? try memory.createSetupIntent()
                : try memory.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        }
        if target.isEmulator {
            XCTAssertEqual(coarse(result), coarse(expected), "\(card) on a \(setup ? "SetupIntent" : "PaymentIntent")")
        } else {
            XCTAssertEqual(result, expected, "\(card) on a \(setup ? "SetupIntent" : "PaymentIntent")")
        }
    }

    func testEveryCardTheEmulatorKnowsOnAPaymentIntent() async throws {
        let target = try target()
        for card in target.isEmulator ? Self.localstripeCards : StripeTestCard.allCases {
            try await compare(card, setup: false, on: target)
        }
    }

    func testEveryCardTheEmulatorKnowsOnASetupIntent() async throws {
        let target = try target()
        for card in target.isEmulator ? Self.localstripeSetupCards : StripeTestCard.allCases {
            try await compare(card, setup: true, on: target)
        }
    }

    func testManualCaptureEndsInRequiresCapture() async throws {
        let target = try target()
        let http = target.backend
        let secret = try await http.createPaymentIntent(
            amount: Money(minorUnits: 1_000, currency: .usd), captureMethod: .manual)
        let (result, _) = try await CardScenario.run(.success, backend: http) { secret }
        XCTAssertEqual(result, .success)
        let intent = try await http.intent(secret.intentID)
        XCTAssertEqual(intent.status, .requiresCapture)
        XCTAssertEqual(intent.captureMethod, .manual)
    }

    /// A confirmation whose answer is lost is sent again; the emulator's record shows one charge.
    func testALostConfirmationAnswerChargesOnce() async throws {
        let target = try target()
        guard target.isEmulator else { return }  // Stripe's own idempotency is proven by the fault tests
        let upstream = target.backend.configuration.baseURL
        let dropped = DropOnce()
        let proxy = try LoopbackServer { request in
            let answer = Forward.send(request, to: upstream)
            if request.path.hasSuffix("/confirm"), dropped.first() { return .drop }
            return answer
        }
        defer { proxy.stop() }
        var configuration = target.backend.configuration
        configuration.baseURL = proxy.url
        let http = StripeHTTPBackend(configuration: configuration)
        let secret = try await http.createPaymentIntent(amount: Money(minorUnits: 1_000, currency: .usd))
        let (result, _) = try await CardScenario.run(.success, backend: http) { secret }
        XCTAssertEqual(result, .success)
        XCTAssertTrue(dropped.happened, "the first answer was dropped")
        let charges = try await Forward.charges(of: secret.intentID, at: upstream)
        XCTAssertEqual(charges, 1, "one confirmation ran")
    }
}

/// True the first time only.
final class DropOnce: Sendable {
    private let state = Mutex(false)
    func first() -> Bool {
        state.withLock { done in
            defer { done = true }
            return !done
        }
    }
    var happened: Bool { state.withLock { $0 } }
}

/// Forwards a loopback request to the emulator, synchronously.
enum Forward {
    static func send(_ request: LoopbackServer.Request, to upstream: URL) -> LoopbackServer.Action {
        var components = URLComponents(url: upstream, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = request.path
        components.percentEncodedQuery = request.query.isEmpty ? nil : request.query
        var forwarded = URLRequest(url: components.url!)
        forwarded.httpMethod = request.method
        for (name, value) in request.headers where !["host", "content-length", "connection"].contains(name) {
            forwarded.setValue(value, forHTTPHeaderField: name)
        }
        if request.method != "GET" { forwarded.httpBody = Data(request.body.utf8) }
        let done = DispatchSemaphore(value: 0)
        let answer = Mutex<LoopbackServer.Action>(.drop)
        URLSession.shared.dataTask(with: forwarded) { data, response, _ in
            if let http = response as? HTTPURLResponse {
                answer.withLock { $0 = .respond(http.statusCode, [:], String(decoding: data ?? Data(), as: UTF8.self)) }
            }
            done.signal()
        }.resume()
        done.wait()
        return answer.withLock { $0 }
    }

    /// How many charges the emulator holds for the PaymentIntent.
    static func charges(of intentID: String, at upstream: URL) async throws -> Int {
        var request = URLRequest(url: upstream.appendingPathComponent("v1/charges"))
        request.setValue("Bearer sk_test_localstripe", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let charges = try XCTUnwrap(list["data"] as? [[String: Any]])
        return charges.filter { $0["payment_intent"] as? String == intentID }.count
    }
}
