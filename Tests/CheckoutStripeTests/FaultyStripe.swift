import Foundation
import Synchronization

/// A small Stripe on a loopback server, with Stripe's idempotency (a request repeated with its
/// `Idempotency-Key` gets the first answer again, without running twice) and faults scripted per
/// attempt: it records every attempt and every confirmation it actually ran.
final class FaultyStripe: Sendable {
    /// What to do with one attempt of a confirmation.
    enum Fault: Sendable {
        /// Answer normally.
        case none
        /// Run the confirmation, then drop the connection before answering.
        case dropAfterRunning
        /// Drop the connection without running anything.
        case drop
        /// Answer with this status (and headers) without running anything.
        case status(Int, [String: String])
        /// Hold the connection open, never answering.
        case hang
    }

    private struct State {
        var confirmFaults: [Fault] = []
        var attempts: [LoopbackServer.Request] = []
        var confirmations: [String] = []
        var answers: [String: String] = [:]
        var paymentMethod: [String: String] = [:]
        var status: [String: String] = [:]
        var nextID = 1
    }

    private final class Store: Sendable {
        let state = Mutex(State())
    }

    private let store = Store()
    private let server = Mutex<LoopbackServer?>(nil)

    /// Starts the server; confirmations meet `confirmFaults` in order, then answer normally.
    init(confirmFaults: [Fault] = []) throws {
        store.state.withLock { $0.confirmFaults = confirmFaults }
        let server = try LoopbackServer { [store] request in Self.handle(request, store) }
        self.server.withLock { $0 = server }
    }

    /// The server's URL.
    var url: URL { server.withLock { $0!.url } }
    /// Every request received, retries included.
    var attempts: [LoopbackServer.Request] { store.state.withLock { $0.attempts } }
    /// The confirmations actually run, by intent id.
    var confirmations: [String] { store.state.withLock { $0.confirmations } }

    /// Creates a PaymentIntent directly and returns its client secret.
    func makePaymentIntent() -> String {
        store.state.withLock { state in
            let id = "pi_\(state.nextID)"
            state.nextID += 1
            state.status[id] = "requires_payment_method"
            return "\(id)_secret_abc\(id.count)"
        }
    }

    func stop() { server.withLock { $0?.stop() } }

    private static func intent(_ id: String, _ state: State) -> String {
        let method = state.paymentMethod[id].map { "\"\($0)\"" } ?? "null"
        return """
            {"id": "\(id)", "object": "payment_intent", "amount": 1000, "currency": "usd", \
            "status": "\(state.status[id] ?? "requires_payment_method")", "capture_method": "automatic_async", \
            "confirmation_method": "automatic", "payment_method": \(method), "livemode": false, \
            "client_secret": "\(id)_secret_abc\(id.count)"}
            """
    }

    private static func handle(_ request: LoopbackServer.Request, _ store: Store) -> LoopbackServer.Action {
        store.state.withLock { state -> LoopbackServer.Action in
            state.attempts.append(request)
            let parts = request.path.split(separator: "/").map(String.init)
            let isConfirm = parts.last == "confirm"
            var fault = Fault.none
            if isConfirm, !state.confirmFaults.isEmpty { fault = state.confirmFaults.removeFirst() }
            switch fault {
            case .drop: return .drop
            case .hang: return .hang
            case .status(let status, let headers):
                return .respond(
                    status, headers, #"{"error": {"type": "api_error", "message": "Scripted failure \#(status)"}}"#)
            case .none, .dropAfterRunning: break
            }
            let key = request.headers["idempotency-key"]
            if let key, let answer = state.answers[key] {
                return fault.isDropAfterRunning ? .drop : .respond(200, ["Idempotent-Replayed": "true"], answer)
            }
            let answer: String
            let route =
                request.method + " "
                + parts.enumerated().map { $0.offset == 2 ? "ID" : $0.element }.joined(separator: "/")
            let id = parts.count > 2 ? parts[2] : ""
            switch route {
            case "POST v1/payment_methods":
                let number = request.form["card[number]"] ?? ""
                answer = """
                    {"id": "pm_\(state.nextID)", "object": "payment_method", "type": "card", "livemode": false, \
                    "card": {"brand": "visa", "last4": "\(number.suffix(4))", "exp_month": 12, "exp_year": 2034, \
                    "funding": "credit"}}
                    """
                state.nextID += 1
            case "GET v1/payment_intents/ID":
                answer = intent(id, state)
            case "POST v1/payment_intents/ID":
                state.paymentMethod[id] = request.form["payment_method"]
                state.status[id] = "requires_confirmation"
                answer = intent(id, state)
            case "POST v1/payment_intents":
                let created = "pi_\(state.nextID)"
                state.nextID += 1
                state.status[created] = "requires_payment_method"
                answer = intent(created, state)
            case "POST v1/confirmation_tokens", "POST v1/test_helpers/ID":
                let number = request.form["payment_method_data[card][number]"] ?? ""
                let returnURL = request.form["return_url"].map { "\"\($0)\"" } ?? "null"
                answer = """
                    {"id": "ctoken_\(state.nextID)", "object": "confirmation_token", "created": 1700000000, \
                    "expires_at": 1700043200, "livemode": false, "payment_intent": null, "setup_intent": null, \
                    "return_url": \(returnURL), "payment_method_preview": {"type": "card", \
                    "card": {"brand": "visa", "last4": "\(number.suffix(4))"}}}
                    """
                state.nextID += 1
            case "POST v1/payment_intents/ID/confirm":
                if state.status[id] == "requires_payment_method",
                    let method = request.form["payment_method"] ?? request.form["confirmation_token"]
                {
                    state.paymentMethod[id] = method
                    state.status[id] = "requires_confirmation"
                }
                guard state.status[id] == "requires_confirmation" else {
                    return .respond(
                        400, [:],
                        #"{"error": {"type": "invalid_request_error", "code": "payment_intent_unexpected_state", "message": "You cannot confirm this PaymentIntent because it has a status of \#(state.status[id] ?? "none")."}}"#
                    )
                }
                state.confirmations.append(id)
                state.status[id] = "succeeded"
                answer = intent(id, state)
            default:
                return .respond(404, [:], #"{"error": {"type": "invalid_request_error", "code": "resource_missing"}}"#)
            }
            if let key { state.answers[key] = answer }
            return fault.isDropAfterRunning ? .drop : .respond(200, [:], answer)
        }
    }
}

extension FaultyStripe.Fault {
    fileprivate var isDropAfterRunning: Bool {
        if case .dropAfterRunning = self { return true }
        return false
    }
}
