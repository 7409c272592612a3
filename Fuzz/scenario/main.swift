// libFuzzer target `scenario`: the input bytes are a `checkout-sim` scenario file, loaded with the
// strict loader `Scenario.load(json:file:)` (no crash, at most three lines of error, and what it
// accepts JSONDecoder reads alike) and decoded with `JSONDecoder().decode(Scenario.self, from:)`.
//
// When decoding succeeds: encoding and decoding again gives an equal scenario, and the scenario
// runs to the end of its steps with `ScenarioRunner.run` on virtual time without crashing; the
// spec invariants the runner checks (exactly one terminal call and nothing after it, no
// overlapping delegate calls, one outstanding callback at a time, redacted contacts, no secret in
// a rendering) must hold.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import CheckoutFlows
import CheckoutSimulator
import Dispatch
import Foundation

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("scenario invariant broken: \(message())") }
}

/// Scenarios with more steps than this are decoded and round-tripped but not run, to keep each
/// input fast.
private let maximumStepsRun = 64

private func checkRoundTrip(_ scenario: Scenario) {
    let again: Scenario
    do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        again = try JSONDecoder().decode(Scenario.self, from: try encoder.encode(scenario))
    } catch {
        fatalError("scenario: a decoded scenario does not round-trip: \(error)")
    }
    require(again.name == scenario.name, "name")
    require(again.flow == scenario.flow, "flow")
    require(again.paymentRequest == scenario.paymentRequest, "request")
    require(again.shippingConfiguration == scenario.shippingConfiguration, "shipping configuration")
    require(again.merchant == scenario.merchant, "merchant")
    require(again.steps == scenario.steps, "steps")
    require(again.expect == scenario.expect, "expect")
    require(again.deadlineSeconds == scenario.deadlineSeconds, "deadlineSeconds")
    require(again.strict == scenario.strict, "strict")
    _ = scenario.steps.map(\.description)
}

/// Runs an async body to completion from the fuzzer's synchronous entry point.
private final class Box<T>: @unchecked Sendable {
    var value: T?
}

private func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = Box<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

private func run(_ scenario: Scenario) {
    let result = runBlocking { await ScenarioRunner.run(scenario) }
    require(result.brokenInvariants.isEmpty, "broken invariants: \(result.brokenInvariants)")
    require(
        result.violations.map(\.kind) == result.transcript.violations.map(\.kind) || scenario.flow == .payContext,
        "violations and transcript disagree")
    _ = result.transcript.text()
    _ = result.transcript.json()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    // The strict loader (what every command uses) refuses or accepts any bytes without crashing,
    // in at most three lines, and what it accepts decodes as JSONDecoder decodes it.
    do {
        let strict = try Scenario.load(json: Array(input), file: "fuzz.json")
        require(
            (try? JSONDecoder().decode(Scenario.self, from: input))?.steps == strict.steps,
            "the strict loader accepts what JSONDecoder refuses or reads differently")
    } catch {
        require("\(error)".split(separator: "\n").count <= 3, "a load error longer than three lines: \(error)")
    }
    guard let scenario = try? JSONDecoder().decode(Scenario.self, from: input) else { return 0 }
    checkRoundTrip(scenario)
    if scenario.steps.count <= maximumStepsRun {
        run(scenario)
    }
    return 0
}
