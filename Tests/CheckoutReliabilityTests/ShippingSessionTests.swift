import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import Dispatch
import XCTest

/// The shipping-address flow as the spec (E1-E9, S1-S5) describes it, written again from the text
/// and sharing no code with `ShippingAddressStateMachine`.
struct ShippingModel {
    enum Content: Hashable, CaseIterable {
        case invalid
        case validNoMethods
        case validEmptyMethods
        case validSelectingExpress
        case validSelectingUnknown
        case validSelectingNothing
        case duplicateMethods
    }

    enum Address: Hashable, CaseIterable {
        case complete
        case missingState
        case badZIP
    }

    enum Phase: Equatable {
        case notPresented
        case address
        case validating(id: Int, deadline: Int?)
        case methods(selected: String)
        case ended(String)
    }

    let timeout: Int?
    let delivery: Bool
    let previousSelection: String?
    var phase = Phase.notPresented
    var now = 0
    var nextID = 1
    var calls: [String] = []
    var violations: [String] = []
    var called: Set<Int> = []

    var outcome: String? {
        if case .ended(let outcome) = phase { return outcome }
        return nil
    }

    private mutating func end(_ outcome: String, _ call: String) {
        phase = .ended(outcome)
        calls.append(call)
    }

    mutating func present() -> String? {
        switch phase {
        case .notPresented:
            phase = .address
            return nil
        case .ended: return "finished"
        default: return "alreadyPresented"
        }
    }

    mutating func enterAddress(_ address: Address) -> String? {
        switch phase {
        case .notPresented: return "notPresented"
        case .ended: return "finished"
        case .validating: return "callbackPending"
        case .methods: return "notAllowedInThisStep"
        case .address: break
        }
        switch address {
        case .missingState: return "missingRequiredFields"
        case .badZIP: return "invalidField"
        case .complete: break
        }
        if delivery {
            end("finished(method: none)", "didFinish")
            return nil
        }
        phase = .validating(id: nextID, deadline: timeout.map { now + $0 })
        nextID += 1
        calls.append("didEnterAddress")
        return nil
    }

    /// The refusal of a method-step action outside the method step.
    private func outsideMethodStep() -> String? {
        switch phase {
        case .notPresented: "notPresented"
        case .ended: "finished"
        case .validating: "callbackPending"
        case .address: "notAllowedInThisStep"
        case .methods: nil
        }
    }

    mutating func selectShippingMethod(_ identifier: String) -> String? {
        if let refusal = outsideMethodStep() { return refusal }
        guard ["ground", "express"].contains(identifier) else { return "unknownShippingMethod" }
        phase = .methods(selected: identifier)
        return nil
    }

    mutating func back() -> String? {
        if let refusal = outsideMethodStep() { return refusal }
        phase = .address
        return nil
    }

    mutating func done() -> String? {
        if let refusal = outsideMethodStep() { return refusal }
        guard case .methods(let selected) = phase else { return nil }
        end("finished(method: \(selected))", "didFinish")
        return nil
    }

    mutating func cancel() -> String? {
        switch phase {
        case .notPresented: return "notPresented"
        case .ended: return "finished"
        default:
            end("cancelled", "didCancel")
            return nil
        }
    }

    mutating func answer(_ id: Int, _ content: Content) {
        guard called.insert(id).inserted else {
            violations.append("completionCalledTwice")
            return
        }
        guard case .validating(let current, _) = phase, current == id else {
            violations.append("lateCompletion")
            return
        }
        switch content {
        case .invalid: phase = .address
        case .validNoMethods, .validEmptyMethods: end("finished(method: none)", "didFinish")
        case .duplicateMethods:
            violations.append("invalidUpdate")
            phase = .address
        case .validSelectingExpress: phase = .methods(selected: "express")
        case .validSelectingUnknown, .validSelectingNothing:
            // S3: the previous selection if offered, else the first.
            phase = .methods(selected: previousSelection ?? "ground")
        }
    }

    mutating func advance(to time: Int) {
        if case .validating(_, .some(let deadline)) = phase, deadline <= time {
            violations.append("completionTimedOut")
            phase = .address
        }
        now = time
    }
}

/// Random sessions of the shipping-address flow, checked step by step against ``ShippingModel``.
final class ShippingSessionTests: XCTestCase {
    typealias Content = ShippingModel.Content

    enum Step: CustomStringConvertible {
        case present
        case enterAddress(ShippingModel.Address, inline: Content?)
        case selectShippingMethod(String)
        case back
        case done
        case cancel
        case answer(id: Int, Content, fromAnotherThread: Bool, twice: Bool)
        case advance(Int)

        var description: String {
            switch self {
            case .present: "present"
            case .enterAddress(let address, let inline):
                "enterAddress(\(address))" + (inline.map { " [answered inline with \($0)]" } ?? "")
            case .selectShippingMethod(let id): "selectShippingMethod(\(id))"
            case .back: "back"
            case .done: "done"
            case .cancel: "cancel"
            case .answer(let id, let content, let thread, let twice):
                "answer #\(id) with \(content)" + (thread ? " from another thread" : "") + (twice ? ", twice" : "")
            case .advance(let seconds): "advance \(seconds)s"
            }
        }
    }

    final class Merchant: ShippingAddressDelegate {
        struct State {
            var watch = CallWatch()
            var held: [Int: @Sendable (ShippingAddressValidation) -> Void] = [:]
            var received = 0
            var inline: Content?
        }

        let state = LockedValue(State())

        static let ground = ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(.usd))
        static let express = ShippingMethod(
            identifier: "express", label: "Express", amount: Money(minorUnits: 900, currency: .usd))

        static func validation(_ content: Content) -> ShippingAddressValidation {
            switch content {
            case .invalid: .invalid(message: nil)
            case .validNoMethods: .valid(shippingMethods: nil, selected: nil)
            case .validEmptyMethods: .valid(shippingMethods: [], selected: nil)
            case .validSelectingExpress: .valid(shippingMethods: [ground, express], selected: express)
            case .validSelectingUnknown:
                .valid(
                    shippingMethods: [ground, express],
                    selected: ShippingMethod(identifier: "drone", label: "Drone", amount: .zero(.usd))
                )
            case .validSelectingNothing: .valid(shippingMethods: [ground, express], selected: nil)
            case .duplicateMethods: .valid(shippingMethods: [ground, ground], selected: nil)
            }
        }

        func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
            state.withLock { $0.watch.enter("didCancel", terminal: true) }
            state.withLock { $0.watch.exit() }
        }

        func shippingAddressFlow(
            _ flow: ShippingAddressFlow,
            didEnter address: Contact,
            completion: @escaping @Sendable (ShippingAddressValidation) -> Void
        ) {
            let inline: Content? = state.withLock { state in
                state.watch.enter("didEnterAddress")
                state.received += 1
                state.held[state.received] = completion
                defer { state.inline = nil }
                return state.inline
            }
            if let inline { completion(Self.validation(inline)) }
            state.withLock { $0.watch.exit() }
        }

        func shippingAddressFlow(
            _ flow: ShippingAddressFlow,
            didFinishWith address: Contact,
            shippingMethod: ShippingMethod?
        ) {
            state.withLock { $0.watch.enter("didFinish", terminal: true) }
            state.withLock { $0.watch.exit() }
        }
    }

    static func contact(_ kind: ShippingModel.Address) -> Contact {
        var address = Address(
            line1: "1 Main St",
            city: "Austin",
            state: "TX",
            postalCode: "78701",
            country: try? CountryCode("US")
        )
        switch kind {
        case .complete: break
        case .missingState: address.state = nil
        case .badZIP: address.postalCode = "7870"
        }
        return Contact(name: "Ada Lovelace", postalAddress: address)
    }

    static func run(_ steps: [Step], delivery: Bool = false, previous: Bool = false, timeout: Int? = 30) -> String? {
        let clock = ManualClock()
        let merchant = Merchant()
        defer { releaseSession(clock) { merchant.state.withLock { $0.held = [:] } } }
        let configuration = ShippingAddressConfiguration(
            requiredShippingAddressFields: [.name, .postalAddress],
            shippingType: delivery ? .delivery : .shipping,
            selectedShippingMethod: previous ? Merchant.express : nil
        )
        guard
            let flow = try? ShippingAddressFlow(
                configuration: configuration,
                delegate: merchant,
                options: FlowOptions(callbackTimeout: timeout.map { .seconds($0) }, clock: clock)
            )
        else { return "the configuration was refused" }
        var model = ShippingModel(timeout: timeout, delivery: delivery, previousSelection: previous ? "express" : nil)
        for (index, step) in steps.enumerated() {
            var response: DriverResponse?
            var expected: String?
            switch step {
            case .present:
                response = flow.present()
                expected = model.present()
            case .enterAddress(let address, let inline):
                merchant.state.withLock { $0.inline = inline }
                let before = model.nextID
                response = flow.enterAddress(contact(address))
                expected = model.enterAddress(address)
                if let inline, model.nextID > before { model.answer(model.nextID - 1, inline) }
                merchant.state.withLock { $0.inline = nil }
            case .selectShippingMethod(let id):
                response = flow.selectShippingMethod(id)
                expected = model.selectShippingMethod(id)
            case .back:
                response = flow.back()
                expected = model.back()
            case .done:
                response = flow.done()
                expected = model.done()
            case .cancel:
                response = flow.cancel()
                expected = model.cancel()
            case .answer(let id, let content, let fromAnotherThread, let twice):
                guard let held = merchant.state.withLock({ $0.held[id] }) else { continue }
                for _ in 0..<(twice ? 2 : 1) {
                    runAnswer(fromAnotherThread: fromAnotherThread) { held(Merchant.validation(content)) }
                    model.answer(id, content)
                }
            case .advance(let seconds):
                clock.advance(by: .seconds(seconds))
                model.advance(to: model.now + seconds)
            }
            let state = merchant.state.withLock { $0 }
            let comparison = StepComparison(
                refusal: response.map { ($0.refusal?.code.rawValue, expected) },
                calls: (state.watch.calls, model.calls),
                violations: (flow.violations.map(\.kind.rawValue), model.violations),
                outcome: (flow.outcome?.description, model.outcome),
                watch: state.watch
            )
            if let problem = comparison.problem(afterStep: index, step) { return problem }
        }
        return personalDataLeak(in: flow.transcript, steps: steps.count)
    }

    static func generate(_ random: inout SeededGenerator) -> [Step] {
        var steps: [Step] = Int.random(in: 0..<20, using: &random) == 0 ? [] : [.present]
        var opened = 0
        for _ in 0..<Int.random(in: 1...25, using: &random) {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25:
                let inline =
                    Int.random(in: 0..<3, using: &random) == 0 ? Content.allCases.randomElement(using: &random) : nil
                let address =
                    Int.random(in: 0..<5, using: &random) == 0
                    ? ShippingModel.Address.allCases.randomElement(using: &random)! : .complete
                steps.append(.enterAddress(address, inline: inline))
                opened += 1
            case 25..<35:
                steps.append(.selectShippingMethod(["ground", "express", "drone"].randomElement(using: &random)!))
            case 35..<40: steps.append(.back)
            case 40..<48: steps.append(.done)
            case 48..<52: steps.append(.cancel)
            case 52..<90:
                guard opened > 0 else { continue }
                let id =
                    Int.random(in: 0..<4, using: &random) == 0 ? Int.random(in: 1...opened, using: &random) : opened
                steps.append(
                    .answer(
                        id: id,
                        Content.allCases.randomElement(using: &random)!,
                        fromAnotherThread: Int.random(in: 0..<4, using: &random) == 0,
                        twice: Int.random(in: 0..<8, using: &random) == 0
                    )
                )
            case 90..<97: steps.append(.advance(Int.random(in: 0...45, using: &random)))
            default: steps.append(.present)
            }
        }
        return steps
    }

    // spec E1-E9, S1-S5: random sessions agree with the reference model at every step.
    func testRandomSessionsAgreeWithTheModel() {
        runSessions("shipping", sessions: sessionCount(default: 3_000), generate: Self.generate, run: { Self.run($0) })
    }

    // spec S2, S3, E4: delivery type, a previous selection, no deadlines.
    func testRandomSessionVariantsAgreeWithTheModel() {
        let count = sessionCount(default: 3_000) / 4
        runSessions(
            "shipping (delivery)", sessions: count, generate: Self.generate, run: { Self.run($0, delivery: true) })
        runSessions(
            "shipping (previous)", sessions: count, generate: Self.generate, run: { Self.run($0, previous: true) })
        runSessions(
            "shipping (no deadline)", sessions: count, generate: Self.generate, run: { Self.run($0, timeout: nil) })
    }
}
