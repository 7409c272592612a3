import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import Synchronization

/// One merchant the harness serves: a scenario file's request and merchant behind a relay of its
/// own, each session opened as `checkout-sim relay` opens it (``RelayScript/sessionMerchant(clock:)``),
/// every event and answer written to the shop's recording.
struct HarnessShop: Sendable {
    /// The name the page's URL gives (`/?shop=<name>`): the scenario file's name without `.json`.
    let name: String
    let relay: WebRelay
    let recording: RelayRecording
    /// The `PaymentDetailsInit` the page passes to `new PaymentRequest(methods, details, …)`: the
    /// scenario request's goods, total and shipping options (the first selected).
    let details: Data

    /// The shop of the scenario file at `path`, recording into `recordingPath`.
    init(scenarioAt path: String, recordingPath: String) throws {
        let scenario = try Scenario.load(contentsOfFile: path)
        let script = try RelayScript(scenario: scenario)
        let request = script.sessionRequest
        name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let timeout: Duration? =
            switch scenario.deadlineSeconds {
            case .none: .seconds(30)
            case .some(0): nil
            case .some(let seconds): .seconds(seconds)
            }
        // The clock `checkout-sim relay` runs on, which moves only when advanced: nothing here
        // advances it, so the merchant's answers are the replay's and no deadline fires (the
        // scenarios' merchants answer at once).
        let clock = ManualClock()
        // As `checkout-sim relay`: a session opens at its first event only; an id seen before has
        // ended, and its events are answered as an unknown session's.
        let opened = Mutex<Set<String>>([])
        relay = WebRelay(
            options: RelayOptions(callbackTimeout: timeout, idleTimeout: timeout ?? .seconds(30), clock: clock)
        ) { id in
            guard opened.withLock({ $0.insert(id).inserted }) else { return nil }
            return .open(request, script.sessionMerchant(clock: clock))
        }
        recording = try RelayRecording(path: recordingPath)
        let items = request.summaryItems
        let initial = PaymentDetailsUpdate(
            total: items.last.map(PaymentItem.init),
            displayItems: items.dropLast().map(PaymentItem.init),
            shippingOptions: request.shippingMethods.enumerated().map { index, method in
                PaymentShippingOption(method, selected: index == 0)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        details = try encoder.encode(initial)
    }

    /// `POST /pay/events`: the body to the relay, as `caller`, and the answer back, both recorded.
    func handle(_ body: Data, caller: String) async -> Data {
        await recording.event(body, caller: caller)
        let reply = await relay.handle(json: body, caller: RelayCaller(caller))
        await recording.answer(reply)
        return reply
    }
}
