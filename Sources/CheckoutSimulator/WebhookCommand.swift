import CheckoutStripe
import Foundation

extension CheckoutSimCommand {
    /// The environment variable `webhook verify` reads the endpoint's secrets from (never a flag:
    /// a flag would show in the shell's history and the process list).
    public static let webhookSecretVariable = "STRIPE_WEBHOOK_SECRET"

    static let webhookCommand = Command(
        usage: "checkout-sim webhook verify <file> --signature <header> [--tolerance <seconds>]",
        help: """
            Verifies a Stripe webhook as a server receives it (spec P10): the body in the file, byte
            for byte, against the request's Stripe-Signature header, with the endpoint's secret from
            the environment variable STRIPE_WEBHOOK_SECRET (whsec_…; several, comma-separated,
            during a rotation). The header's timestamp must be within the tolerance of this
            machine's clock and one of its v1 signatures the HMAC-SHA256 of "{t}.{body}" under one
            of the secrets. Prints the event's type and id and exits 0 when it verifies; prints the
            reason and exits 1 when it does not; exits 2 for a usage error (no secret, no file).

            OPTIONS:
              --signature <header>    The Stripe-Signature header's value (t=…,v1=…).
              --tolerance <seconds>   How far the timestamp may be from now (default 300).
              -h, --help              Show help.
            """,
        options: [
            Option(long: "signature", short: nil, takesValue: true),
            Option(long: "tolerance", short: nil, takesValue: true),
        ]
    )

    static func webhook(_ options: Options, _ console: Console, _ environment: [String: String]) throws -> Int32 {
        guard options.positional.first == "verify" else {
            throw ArgumentError(
                message: options.positional.isEmpty
                    ? "'webhook' needs a subcommand: verify"
                    : "unknown subcommand 'webhook \(options.positional[0])' (subcommands: verify)")
        }
        guard options.positional.count == 2 else {
            throw ArgumentError(message: "'webhook verify' takes exactly one file (the request's body)")
        }
        guard let header = options.values["signature"] else {
            throw ArgumentError(message: "'webhook verify' needs --signature (the Stripe-Signature header's value)")
        }
        var tolerance = StripeWebhookVerifier.defaultTolerance
        if let text = options.values["tolerance"] {
            guard let seconds = Int64(text), seconds >= 0 else {
                throw ArgumentError(message: "--tolerance must be a whole number of seconds, 0 or more, not '\(text)'")
            }
            tolerance = .seconds(seconds)
        }
        let variable = webhookSecretVariable
        let secrets = (environment[variable] ?? "").split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !secrets.isEmpty, secrets.allSatisfy({ !$0.isEmpty }) else {
            throw UsageError(
                message: "'webhook verify' needs the endpoint's secret in the environment variable \(variable) "
                    + "(whsec_…; several comma-separated during a rotation); it is "
                    + (environment[variable] == nil ? "not set" : "empty or has an empty item"))
        }
        let path = options.positional[1]
        let body: Data
        do {
            body = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw UsageError(message: "cannot read the webhook body '\(path)'")
        }
        do {
            let event = try StripeWebhookVerifier(secrets: secrets, tolerance: tolerance).event(
                from: body, signature: header)
            console.out("\(event.type) \(event.id)")
            return 0
        } catch {
            console.err("checkout-sim: webhook refused (\(error.code)): \(error.message)")
            return 1
        }
    }
}
