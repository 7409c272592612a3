import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation

/// The simulator's merchant validation (spec W5): what a merchant's server does with the page's
/// validation URL, without Apple. Like a careful server it posts only to Apple's Apple Pay
/// gateways (Apple's "Setting Up Your Server" lists them: `apple-pay-gateway.apple.com`,
/// `cn-apple-pay-gateway.apple.com`, and `apple-pay-gateway-cert.apple.com` for the sandbox) over
/// HTTPS, and refuses any other URL; for those it answers a merchant session shaped as Apple's
/// (an opaque object the page passes to `completeMerchantValidation`), the same for the same
/// session and time.
struct SimulatedMerchantValidator: MerchantValidating {
    /// The hosts of Apple's Apple Pay gateways.
    static let appleHosts = RelayOptions.appleValidationHosts

    /// Why a validation URL was refused.
    struct NotApple: Error, CustomStringConvertible {
        let url: URL
        var description: String {
            "\(url.absoluteString) is not an Apple Pay gateway (https on \(SimulatedMerchantValidator.appleHosts.sorted().joined(separator: ", ")))"
        }
    }

    let merchantIdentifier: String
    let clock: ManualClock

    func merchantSession(validationURL: URL, sessionID: String) async throws -> JSONValue {
        guard validationURL.scheme == "https", let host = validationURL.host, Self.appleHosts.contains(host) else {
            throw NotApple(url: validationURL)
        }
        let now = clock.now.components
        let milliseconds = now.seconds * 1_000 + now.attoseconds / 1_000_000_000_000_000
        // A merchant session lasts five minutes.
        return .object([
            "epochTimestamp": .integer(milliseconds),
            "expiresAt": .integer(milliseconds + 300_000),
            "merchantSessionIdentifier": .string("SSH-sim-\(sessionID)"),
            "nonce": .string("sim-nonce"),
            "merchantIdentifier": .string(merchantIdentifier),
            "domainName": .string("checkout-sim.invalid"),
            "displayName": .string("checkout-sim"),
            "signature": .string("sim-signature"),
        ])
    }
}
