import CheckoutWeb
import Foundation

extension CheckoutSimCommand {
    static let relayCommand = Command(
        usage: "checkout-sim relay <scenario.json> [--events <file>] [--expect <file> | --record] [--payment-request]",
        help: """
            Puts the scenario's request and merchant behind a server's relay for Apple Pay on the web
            (and the W3C Payment Request) and feeds it a page's events as JSON Lines, one object a
            line: {"session": "s1", "type": "shippingcontactselected", "shippingContact": {...}},
            with 'type' the ApplePaySession event's name without 'on' and the event's own member as
            Apple delivers it. Prints one JSON line per event: {"session", "type", "complete",
            "argument"} with exactly what the page passes to the 'complete' method, or
            {"session", "type", "refused": {"reason", "message"}}, or an end ("ended", and
            "complete": "abort" when the page must abort). A session opens at its first event.
            The scenario's 'steps' are not used. See docs/relay.md.

            Script lines: {"type": "wait", "seconds": N} moves the virtual clock on (an event whose
            merchant answers late or never is answered when the clock reaches its answer or its
            deadline, or at the end of the input); {"session": "s1", "type": "resume"} writes the
            session out as a sealed snapshot and resumes it in another relay. Lines holding an
            answer ("complete", "refused", "ended", "resumed") are skipped, so a recorded session
            is its own --events and --expect file. A malformed line is refused with its line number;
            the rest go on.

            OPTIONS:
              --events <file>         Read the events from the file (default: standard input).
              --expect <file>         Compare the answers with the answer lines of the file (a
                                      recorded session); exits 1 and names each difference when
                                      they differ.
              --record                Print each event line followed by the answers it led
                                      to: a recorded session to check later with --expect.
              --payment-request       Print the ApplePayPaymentRequest the page gives to
                                      'new ApplePaySession(version, request)' and exit.
              -h, --help              Show help.
            """,
        options: [
            Option(long: "events", short: nil, takesValue: true),
            Option(long: "expect", short: nil, takesValue: true),
            Option(long: "payment-request", short: nil, takesValue: false),
            Option(long: "record", short: nil, takesValue: false),
        ]
    )

    static func relay(_ options: Options, _ console: Console) async throws -> Int32 {
        guard options.positional.count == 1 else {
            throw ArgumentError(message: "'relay' takes exactly one scenario file")
        }
        let scenario = try ScenarioFile.load(options.positional[0])
        let script: RelayScript
        do {
            script = try RelayScript(scenario: scenario)
        } catch let error as RelayScriptError {
            throw UsageError(message: "\(options.positional[0]): \(error.message)")
        }
        if options.flags.contains("payment-request") {
            guard options.values["events"] == nil, options.values["expect"] == nil else {
                throw ArgumentError(message: "--payment-request takes neither --events nor --expect")
            }
            console.out(try script.paymentRequestJSON())
            return 0
        }
        let expected = try options.values["expect"].map { RelayScript.recordedAnswers(try readLines($0)) }
        if options.flags.contains("record") {
            guard options.values["expect"] == nil else {
                throw ArgumentError(message: "--record takes no --expect")
            }
            let lines = try options.values["events"].map(readLines) ?? Array(AnyIterator { Swift.readLine() })
            for line in await script.record(lines) { console.out(line) }
            return 0
        }
        // Each line is answered as it arrives (a page's driver may wait for one answer before it
        // sends the next event), the answers written at once.
        var answers: [String] = []
        let driver = script.driver()
        var number = 0
        func take(_ line: String) async {
            number += 1
            for answer in await driver.take(line, number: number) {
                console.out(answer)
                answers.append(answer)
            }
        }
        if let path = options.values["events"] {
            for line in try readLines(path) { await take(line) }
        } else {
            while let line = Swift.readLine(strippingNewline: true) { await take(line) }
        }
        for answer in await driver.finish() {
            console.out(answer)
            answers.append(answer)
        }
        guard let expected else { return 0 }
        let differences = RelayScript.differences(answers, expected: expected)
        for difference in differences { console.err("relay: \(difference)") }
        guard differences.isEmpty else {
            console.err("relay: FAIL: \(differences.count) of \(max(answers.count, expected.count)) answers differ")
            return 1
        }
        console.err("relay: PASS: \(answers.count) answers as recorded")
        return 0
    }

    private static func readLines(_ path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "\(path): cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw UsageError(message: "\(path): not UTF-8 text")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
