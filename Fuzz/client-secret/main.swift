// libFuzzer target `client-secret`: the input bytes, read as UTF-8, are offered as a Stripe client
// secret to `IntentClientSecret(_:)`.
//
// A parsed secret's masked renderings (description, debugDescription, its mirror, `dump`, inside
// an optional and an array) never show the part after `_secret_`; the JSON round-trips; the parts agree
// with the documented forms. A refused string's error never shows what follows `_secret_`.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import Foundation

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("client-secret invariant broken: \(message())") }
}

private let mask = "•••"

/// The UTF-8 offset just past the first `_secret_` in `text`, if any, read as Unicode scalars (as
/// the library masks: a combining mark after an underscore does not hide the marker).
private func afterFirstSecretMarker(_ text: String) -> Int? {
    let scalars = Array(text.unicodeScalars)
    let marker = Array("_secret_".unicodeScalars)
    guard scalars.count >= marker.count else { return nil }
    for start in 0...(scalars.count - marker.count)
    where scalars[start..<start + marker.count].elementsEqual(marker) {
        return scalars[..<(start + marker.count)].reduce(0) { $0 + String($1).utf8.count }
    }
    return nil
}

/// The first four Unicode scalars of `text`.
private func scalarPrefix(_ text: String) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: text.unicodeScalars.prefix(4))
    return String(view)
}

/// Whether `masked` is `shown + "•••"` with `shown` a UTF-8 prefix of `text` of at most `limit`
/// bytes, that is, a rendering that reveals nothing past byte `limit` of `text`.
private func revealsAtMost(_ masked: String, of text: String, bytes limit: Int) -> Bool {
    if masked.hasSuffix(mask) {
        let shown = Array(masked.utf8.dropLast(mask.utf8.count))
        if shown.count <= limit && Array(text.utf8).starts(with: shown) { return true }
    }
    return masked == text && text.utf8.count <= limit
}

private func renderings(_ secret: IntentClientSecret) -> [String] {
    var dumped = ""
    dump(secret, to: &dumped)
    return [
        secret.description, secret.debugDescription, String(describing: secret), String(reflecting: secret),
        "\(secret)", dumped, "\(Optional(secret) as Any)", "\([secret])",
        String(describing: Mirror(reflecting: secret).children.map { "\($0.label ?? ""): \($0.value)" }),
    ]
}

private func checkValid(_ secret: IntentClientSecret, _ text: String) {
    require(secret.unmaskedValue == text, "unmaskedValue differs from the input")
    let parts = text.split(separator: "_", omittingEmptySubsequences: false)
    require(!parts.contains { $0.isEmpty }, "accepted a secret with an empty part: \(text.debugDescription)")
    let secretPart = parts.last.map(String.init) ?? ""
    switch secret.kind {
    case .paymentIntent:
        require(parts.first == "pi", "paymentIntent without pi_")
        require(parts.count == (secret.isScoped ? 5 : 4), "\(parts.count) parts, scoped: \(secret.isScoped)")
    case .setupIntent:
        require(parts.first == "seti" && parts.count == 4 && !secret.isScoped, "setupIntent \(parts)")
    }
    require(parts[parts.count - 2] == "secret", "no secret marker before the last part")
    require(secret.intentID == "\(parts[0])_\(parts[1])", "intentID \(secret.intentID)")
    require(text.hasPrefix(secret.intentID), "intentID is not a prefix")

    // The description reveals nothing past the `_secret_` that precedes the secret part.
    let limit = text.utf8.count - secretPart.utf8.count
    require(
        revealsAtMost(secret.description, of: text, bytes: limit),
        "description \(secret.description.debugDescription) reveals the secret of \(text.debugDescription)")
    require(secret.debugDescription == "IntentClientSecret(\(secret.description))", "debugDescription")
    // No rendering carries the whole secret, unless the secret part starts with the mask itself:
    // `pi_1_secret_•••)` is masked as `pi_1_secret_•••`, and a rendering that wraps it in
    // parentheses shows the same characters without revealing anything (the marker check below
    // covers such secrets).
    if !secretPart.hasPrefix(mask) && !secret.description.contains(text) {
        for rendering in renderings(secret) {
            require(!rendering.contains(text), "a rendering shows the whole secret: \(rendering.debugDescription)")
        }
    }
    // The same secret with its secret part replaced by a marker: no rendering shows the marker.
    let marker = "QZXJMARKERQZXJ"
    let marked = parts.dropLast().joined(separator: "_") + "_" + marker
    if let markedSecret = try? IntentClientSecret(marked) {
        for rendering in renderings(markedSecret) {
            require(!rendering.contains(marker), "a rendering shows the secret: \(rendering.debugDescription)")
        }
    } else {
        fatalError("replacing the secret part of an accepted secret made it invalid: \(marked.debugDescription)")
    }

    // The JSON carries the whole secret and round-trips.
    do {
        let data = try JSONEncoder().encode(secret)
        let decoded = try JSONDecoder().decode(IntentClientSecret.self, from: data)
        require(decoded == secret, "JSON round trip")
    } catch {
        fatalError("client-secret: JSON round trip threw \(error)")
    }
}

private func checkInvalid(_ error: CheckoutError, _ text: String) {
    require(error.code == .invalidClientSecret, "code \(error.code)")
    require(error.field == "clientSecret", "field \(String(describing: error.field))")
    let bytes = Array(text.utf8)
    guard let start = afterFirstSecretMarker(text) else {
        // No marker: at most a four-scalar prefix is shown.
        let value = error.value ?? ""
        require(
            value == text && text.unicodeScalars.count <= 4 || value == scalarPrefix(text) + mask,
            "value \(value.debugDescription) of \(text.debugDescription)")
        return
    }
    require(
        revealsAtMost(error.value ?? "", of: text, bytes: start),
        "error value \(String(describing: error.value)) reveals what follows _secret_ in \(text.debugDescription)")
    // The message quotes the masked value only.
    let tail = String(decoding: bytes[start...], as: UTF8.self)
    if tail.unicodeScalars.count >= 3, !tail.hasPrefix("•"), !tail.hasPrefix("…") {
        for rendering in [error.message, error.description, "\(error)"] {
            require(!rendering.contains("_secret_" + tail), "the error shows the secret: \(rendering.debugDescription)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        checkValid(try IntentClientSecret(text), text)
    } catch let error as CheckoutError {
        checkInvalid(error, text)
    } catch {
        fatalError("client-secret: a non-CheckoutError was thrown: \(error)")
    }
    // The same string from JSON is accepted or refused alike.
    if let json = try? JSONEncoder().encode([text]) {
        let decoded = try? JSONDecoder().decode([IntentClientSecret].self, from: json)
        require((decoded != nil) == ((try? IntentClientSecret(text)) != nil), "JSON and init disagree")
    }
    return 0
}
