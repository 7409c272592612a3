import CheckoutSimulator
import Foundation

/// (5) The explorer: random sessions per second of `checkout-sim explore` on every shipped
/// example, through the CheckoutSimulator library's ``Explorer`` (what the command runs, without
/// the printing). Each run explores every example with the same number of sessions and seed 1;
/// the rate is the sessions asked for over the wall time of the run (a session that breaks an
/// invariant is shrunk, as the command does, and those extra runs are not counted).
enum ExplorerBench {
    struct Example {
        var path: String
        var scenario: Scenario
    }

    /// Every `*.json` under `directory`, sorted by path.
    static func load(_ directory: String) throws -> [Example] {
        let root = URL(fileURLWithPath: directory)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            return []
        }
        var examples: [Example] = []
        for case let url as URL in walker where url.pathExtension == "json" {
            let scenario = try JSONDecoder().decode(Scenario.self, from: Data(contentsOf: url))
            examples.append(Example(path: url.path, scenario: scenario))
        }
        return examples.sorted { $0.path < $1.path }
    }

    struct Result {
        var sessionsPerSecond: [Double] = []
        /// Per flow: sessions per second over the run.
        var perFlow: [Scenario.Flow: [Double]] = [:]
        var examples = 0
    }

    /// Explores every example once; returns the wall time per flow, in nanoseconds.
    static func sample(_ examples: [Example], sessions: Int) async -> [Scenario.Flow: (sessions: Int, time: UInt64)] {
        var times: [Scenario.Flow: (sessions: Int, time: UInt64)] = [:]
        for example in examples {
            let start = Clocks.wall()
            let report = await Explorer.explore(example.scenario, sessions: sessions, seed: 1)
            let time = Clocks.wall() - start
            guard report.outcomes.values.reduce(0, +) == sessions else { fatalError("sessions went missing") }
            let previous = times[example.scenario.flow] ?? (0, 0)
            times[example.scenario.flow] = (previous.sessions + sessions, previous.time + time)
        }
        return times
    }

    static func run(_ examples: [Example], sessions: Int, runs: Int, log: (String) -> Void) async -> Result {
        var result = Result()
        result.examples = examples.count
        _ = await sample(examples, sessions: max(1, sessions / 10))
        for run in 0..<runs {
            let times = await sample(examples, sessions: sessions)
            let total = times.values.reduce(0) { $0 + $1.sessions }
            let time = times.values.reduce(0) { $0 + $1.time }
            result.sessionsPerSecond.append(Double(total) / (Double(time) / 1e9))
            for (flow, part) in times {
                result.perFlow[flow, default: []].append(Double(part.sessions) / (Double(part.time) / 1e9))
            }
            log("explorer: run \(run + 1)/\(runs)")
        }
        return result
    }
}
