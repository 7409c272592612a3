import CheckoutCore
import Foundation

/// The sealed form of a session written out between events (spec W6):
///
///     checkout-web-relay-snapshot/<version>\n<payload JSON>\n<HMAC-SHA256, 64 lower-case hex digits>
///
/// The MAC covers everything before the last line feed, under the relay's
/// ``RelayOptions/snapshotKey``. The payload holds the session's id and kind, the request in
/// CheckoutCore's JSON, whether the merchant was validated (never the merchant session), and the
/// events that reached the flow with the merchant's answers or the flow's refusals. A resume
/// checks the form, then the MAC, then the version, and then replays the events through a fresh
/// flow, which checks every rule again (the request, each event as wire input, each answer).
///
/// A snapshot holds what the page sent (contacts, and after a declined authorization its token):
/// the MAC makes it tamper-evident, not secret, so keep snapshots where you would keep the
/// session itself.
public enum RelaySnapshot {
    /// The format's version this relay writes and reads.
    public static let version = 1
    /// The shortest key accepted, in bytes (HMAC-SHA256's output length, RFC 2104's advice).
    public static let minimumKeyLength = 32
    static let magic = "checkout-web-relay-snapshot/"

    package struct Payload: Codable, Hashable, Sendable {
        package var version: Int
        package var session: String
        package var kind: Kind
        package var request: PaymentRequest
        package var validated: Bool
        package var steps: [RecordedStep]
        /// The keyed digest of the caller that opened the session (``RelayCaller``), in
        /// hexadecimal; absent for a session opened without one.
        package var owner: String?
    }

    package enum Kind: String, Codable, Hashable, Sendable {
        case authorization, payContext
    }

    static func checkedKey(_ key: [UInt8]?) throws -> [UInt8] {
        guard let key, key.count >= minimumKeyLength else {
            throw RelayError(
                code: .snapshotKeyMissing,
                message: key == nil
                    ? "the relay has no snapshot key (RelayOptions.snapshotKey)"
                    : "the snapshot key has \(key!.count) bytes; at least \(minimumKeyLength) are needed",
                field: "snapshotKey")
        }
        return key
    }

    /// Seals `payload` under `key`, with `version` in the header (a test writes old versions).
    package static func seal(_ payload: Payload, key: [UInt8], version: Int = RelaySnapshot.version) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var sealed = Data("\(magic)\(version)\n".utf8)
        sealed.append(try encoder.encode(payload))
        let mac = HMACSHA256.authenticationCode(for: sealed, key: key)
        sealed.append(UInt8(ascii: "\n"))
        sealed.append(contentsOf: mac.hexDigits.utf8)
        return sealed
    }

    /// Opens a sealed snapshot: form, MAC, version, payload.
    ///
    /// - Throws: ``RelayError`` with ``RelayError/Code/malformedSnapshot``,
    ///   ``RelayError/Code/tamperedSnapshot`` or ``RelayError/Code/unsupportedSnapshotVersion``.
    package static func open(_ sealed: Data, key: [UInt8]) throws -> Payload {
        let bytes = [UInt8](sealed)
        let macLength = 2 * SHA256.digestCount
        let magicBytes = Array(magic.utf8)
        guard bytes.count > magicBytes.count + macLength + 2, bytes.starts(with: magicBytes),
            bytes[bytes.count - macLength - 1] == UInt8(ascii: "\n")
        else { throw malformed("it does not have the form \(magic)<version>, payload, MAC", field: "snapshot") }
        let signed = bytes[..<(bytes.count - macLength - 1)]
        guard let mac = [UInt8](hexDigits: bytes[(bytes.count - macLength)...]) else {
            throw malformed("its MAC is not \(macLength) lower-case hexadecimal digits", field: "mac")
        }
        var index = magicBytes.count
        var digits = ""
        while index < signed.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(signed[index]) {
            digits.append(Character(UnicodeScalar(signed[index])))
            index += 1
        }
        guard index < signed.endIndex, signed[index] == UInt8(ascii: "\n"), let version = Int(digits),
            String(version) == digits
        else { throw malformed("its header has no version number followed by a line feed", field: "version") }
        guard HMACSHA256.isValid(mac, for: signed, key: key) else {
            throw RelayError(
                code: .tamperedSnapshot,
                message: "the snapshot's MAC does not verify under this relay's key: it was changed or sealed "
                    + "under another key")
        }
        guard version == RelaySnapshot.version else {
            throw RelayError(
                code: .unsupportedSnapshotVersion,
                message: "the snapshot has version \(version); this relay reads version \(RelaySnapshot.version)",
                field: "version", value: String(version))
        }
        let payload: Payload
        do {
            payload = try JSONDecoder().decode(Payload.self, from: Data(signed[(index + 1)...]))
        } catch {
            // The member that cannot be read, by its path in the payload (`steps[2].event.type`).
            let (message, path) = WebRelay.describe(error)
            throw malformed("its payload cannot be read: \(message)", field: path.map { "payload.\($0)" } ?? "payload")
        }
        guard payload.version == version else {
            throw malformed(
                "its payload says version \(payload.version) under a header of version \(version)",
                field: "payload.version")
        }
        return payload
    }

    /// A `malformedSnapshot` error naming the part of the snapshot that is wrong: `snapshot` (its
    /// form), `mac`, `version`, or the payload's member (`payload`, `payload.steps[0].event`).
    private static func malformed(_ why: String, field: String) -> RelayError {
        RelayError(code: .malformedSnapshot, message: "the bytes are not a relay snapshot: \(why)", field: field)
    }
}

extension [UInt8] {
    /// Lower-case hexadecimal, two digits a byte.
    var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of lower-case hexadecimal digits; nil for anything else (upper case included, so
    /// that one text has one meaning).
    init?(hexDigits text: some Collection<UInt8>) {
        guard text.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        var high: UInt8?
        for digit in text {
            guard let nibble = value(digit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        self = bytes
    }
}
