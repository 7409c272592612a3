// libFuzzer target `web-wire`: the input bytes are JSON decoded as each web wire type of
// CheckoutWeb: the Apple Pay JS dictionaries (contact, line item, shipping method, pass, payment
// method, token, payment, error, date components), `ApplePayPaymentRequest` and the four updates
// with the authorization result, and the W3C Payment Request dictionaries (`PaymentAddress`,
// `PaymentItem`, `PaymentShippingOption`, `PaymentCurrencyAmount`, `PaymentDetailsModifier`,
// `PaymentDetailsUpdate`, `PaymentResponse`, `PaymentValidationErrors` and its parts).
//
// When a type decodes (spec W1, W2):
//   - encoding and decoding again gives an equal value, and encoding that gives the same bytes;
//   - the conversion to the core model (`core()`, `token()`) and the browser's validation
//     (`validate()`, `validate(version:)` for every version from 0 to 16) throw nothing but a
//     `CheckoutError`, and the validation's errors name a field;
//   - a validation that passes for a version also passes for every later supported version of the
//     four updates and the result (no member or rule goes away in a later version).
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import CheckoutWeb
import Foundation

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("web-wire invariant broken: \(message())") }
}

private func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
}

/// Decodes `T` from `input`; when it decodes, checks the round trip and returns the value.
private func decoded<T: Codable & Equatable>(_ type: T.Type, _ input: Data) -> T? {
    guard let value = try? JSONDecoder().decode(T.self, from: input) else { return nil }
    do {
        let data = try encoder().encode(value)
        let again = try JSONDecoder().decode(T.self, from: data)
        require(again == value, "\(T.self) round trip changed the value: \(value) became \(again)")
        let second = try encoder().encode(again)
        require(second == data, "\(T.self) encoding is not stable")
    } catch {
        fatalError("web-wire: a decoded \(T.self) does not round-trip: \(error)")
    }
    return value
}

/// Runs a conversion or a validation: it may refuse only with a `CheckoutError`; with
/// `namesField`, the error names the member.
@discardableResult
private func typed<T>(_ what: String, namesField: Bool = false, _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch let error as CheckoutError {
        require(!namesField || error.field != nil, "\(what) refused without naming a field: \(error)")
        _ = error.description
        return nil
    } catch {
        fatalError("web-wire: \(what) threw a \(type(of: error)), not a CheckoutError: \(error)")
    }
}

/// The versions an update's validation is tried at: around every version gate and outside the
/// supported range.
private let versions = [0, 1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 15, 16]

/// Validates an update at each version; once it passes, it passes at every later supported one.
private func checkVersions(_ name: String, _ validate: (Int) throws -> Void) {
    var passedAt: Int?
    for version in versions {
        let passed = typed("\(name).validate(version: \(version))", namesField: true) { try validate(version) } != nil
        if passed {
            require(ApplePayVersion.supported.contains(version), "\(name) passed at unsupported version \(version)")
            passedAt = passedAt ?? version
        } else if let first = passedAt, ApplePayVersion.supported.contains(version) {
            fatalError("web-wire: \(name) passes at version \(first) but not at \(version)")
        }
    }
}

private let currencies: [CurrencyCode] = [.usd, .eur, try! CurrencyCode("JPY"), try! CurrencyCode("KWD")]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)

    // Apple Pay JS.
    if let contact = decoded(ApplePayPaymentContact.self, input) {
        typed("ApplePayPaymentContact.core") { try contact.core() }
        _ = contact.membersWithoutCoreCounterpart
    }
    if let item = decoded(ApplePayLineItem.self, input) {
        for currency in currencies { typed("ApplePayLineItem.core") { try item.core(currency: currency) } }
    }
    if let method = decoded(ApplePayShippingMethod.self, input) {
        for currency in currencies { typed("ApplePayShippingMethod.core") { try method.core(currency: currency) } }
    }
    _ = decoded(ApplePayPaymentPass.self, input)
    if let method = decoded(ApplePayPaymentMethod.self, input) {
        _ = method.core()
        _ = method.membersWithoutCoreCounterpart
    }
    if let token = decoded(ApplePayPaymentToken.self, input) {
        typed("ApplePayPaymentToken.core") { try token.core() }
    }
    if let payment = decoded(ApplePayPayment.self, input) {
        typed("ApplePayPayment.core") { try payment.core() }
        _ = payment.membersWithoutCoreCounterpart
    }
    if let error = decoded(ApplePayError.self, input) {
        _ = error.core()
    }
    if let components = decoded(ApplePayDateComponents.self, input) {
        typed("ApplePayDateComponents.calendarDay") { try components.calendarDay() }
    }
    if let range = decoded(ApplePayDateComponentsRange.self, input) {
        typed("ApplePayDateComponentsRange.core") { try range.core() }
    }
    if let request = decoded(ApplePayPaymentRequest.self, input) {
        let valid = typed("ApplePayPaymentRequest.validate", namesField: true) { try request.validate() } != nil
        let core = typed("ApplePayPaymentRequest.core") { try request.core(merchantIdentifier: "merchant.fuzz") }
        if valid, let core {
            // What the browser accepts and the core takes comes back out as a request.
            typed("ApplePayPaymentRequest(core)") { try ApplePayPaymentRequest(core, version: request.version) }
        }
    }
    if let update = decoded(ApplePayShippingContactUpdate.self, input) {
        checkVersions("ApplePayShippingContactUpdate") { try update.validate(version: $0) }
        for currency in currencies {
            typed("ApplePayShippingContactUpdate.core") { try update.core(currency: currency) }
        }
    }
    if let update = decoded(ApplePayShippingMethodUpdate.self, input) {
        checkVersions("ApplePayShippingMethodUpdate") { try update.validate(version: $0) }
        for currency in currencies {
            typed("ApplePayShippingMethodUpdate.core") { try update.core(currency: currency) }
        }
    }
    if let update = decoded(ApplePayPaymentMethodUpdate.self, input) {
        checkVersions("ApplePayPaymentMethodUpdate") { try update.validate(version: $0) }
        for currency in currencies { typed("ApplePayPaymentMethodUpdate.core") { try update.core(currency: currency) } }
    }
    if let update = decoded(ApplePayCouponCodeUpdate.self, input) {
        checkVersions("ApplePayCouponCodeUpdate") { try update.validate(version: $0) }
        for currency in currencies { typed("ApplePayCouponCodeUpdate.core") { try update.core(currency: currency) } }
    }
    if let result = decoded(ApplePayPaymentAuthorizationResult.self, input) {
        checkVersions("ApplePayPaymentAuthorizationResult") { try result.validate(version: $0) }
        typed("ApplePayPaymentAuthorizationResult.core") { try result.core() }
    }

    // W3C Payment Request.
    if let address = decoded(PaymentAddress.self, input) {
        typed("PaymentAddress.core") { try address.core() }
        _ = address.membersWithoutCoreCounterpart
    }
    if let item = decoded(PaymentItem.self, input) {
        typed("PaymentItem.core") { try item.core() }
    }
    if let option = decoded(PaymentShippingOption.self, input) {
        typed("PaymentShippingOption.core") { try option.core() }
    }
    if let amount = decoded(PaymentCurrencyAmount.self, input) {
        typed("PaymentCurrencyAmount.core") { try amount.core() }
    }
    _ = decoded(PaymentDetailsModifier.self, input)
    if let update = decoded(PaymentDetailsUpdate.self, input) {
        typed("PaymentDetailsUpdate.validate", namesField: true) { try update.validate() }
        typed("PaymentDetailsUpdate.shippingContactUpdate") { try update.shippingContactUpdate() }
        typed("PaymentDetailsUpdate.shippingMethodUpdate") { try update.shippingMethodUpdate() }
        typed("PaymentDetailsUpdate.paymentMethodUpdate") { try update.paymentMethodUpdate() }
        typed("PaymentDetailsUpdate.applePayPaymentMethodErrors") { try update.applePayPaymentMethodErrors() }
    }
    if let response = decoded(PaymentResponse.self, input) {
        _ = response.payer
        typed("PaymentResponse.token") { try response.token() }
    }
    if let errors = decoded(PaymentValidationErrors.self, input) {
        _ = errors.isEmpty
    }
    _ = decoded(AddressErrors.self, input)
    _ = decoded(PayerErrors.self, input)
    _ = decoded(PaymentComplete.self, input)
    return 0
}
