// libFuzzer target `json-updates`: the input bytes are JSON decoded as each update type
// (`ShippingContactUpdate`, `ShippingMethodUpdate`, `PaymentMethodUpdate`, `CouponCodeUpdate`) and
// as the other values a merchant hands back (`PaymentAuthorizationResult`, `ShippingMethod`,
// `SummaryItem`, `Payment`).
//
// When decoding succeeds: encoding and decoding again gives an equal value (and the same bytes);
// `problems(in:)` against requests in several currencies never crashes and agrees with
// `validate(_:)`.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import Foundation

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("json-updates invariant broken: \(message())") }
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
        require(again == value, "\(T.self) round trip changed the value")
        let second = try encoder().encode(again)
        require(second == data, "\(T.self) encoding is not stable")
    } catch {
        fatalError("json-updates: a decoded \(T.self) does not round-trip: \(error)")
    }
    return value
}

/// Requests the updates are validated against: three currencies, and one whose currency is not
/// a currency at all.
private let requests: [PaymentRequest] = ["USD", "JPY", "KWD", "XXX"].map { code in
    PaymentRequest(
        merchantIdentifier: "merchant.fuzz",
        countryCode: "US",
        currencyCode: code,
        summaryItems: []
    )
}

private func checkUpdate(_ update: some PaymentRequestUpdate) {
    for request in requests {
        let problems = request.problems(in: update)
        do {
            try request.validate(update)
            require(problems.isEmpty, "validate accepted an update with problems")
        } catch let error as CheckoutError {
            require(!problems.isEmpty, "validate threw for an update without problems")
            require(error.code == .invalidUpdate, "validate threw \(error.code)")
            _ = error.description
        } catch {
            fatalError("json-updates: validate threw a non-CheckoutError: \(error)")
        }
        for problem in problems {
            require(problem.field != nil, "a problem without a field: \(problem)")
        }
        if update.summaryItems.isEmpty {
            require(problems.contains { $0.code == .emptyList }, "an empty summary passed")
        }
        if let total = update.summaryItems.last?.amount, total.isNegative {
            require(problems.contains { $0.code == .negativeAmount }, "a negative total passed")
        }
    }
    _ = ShippingMethod.problems(in: update.shippingMethods ?? [], currency: nil)
    for error in update.errors {
        _ = error.description
        _ = error.isShippingContactError
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    if let update = decoded(ShippingContactUpdate.self, input) { checkUpdate(update) }
    if let update = decoded(ShippingMethodUpdate.self, input) { checkUpdate(update) }
    if let update = decoded(PaymentMethodUpdate.self, input) { checkUpdate(update) }
    if let update = decoded(CouponCodeUpdate.self, input) { checkUpdate(update) }
    if let result = decoded(PaymentAuthorizationResult.self, input) {
        require(PaymentAuthorizationStatus(rawValue: result.status.rawValue) == result.status, "status")
        _ = result.errors.map(\.description)
    }
    if let method = decoded(ShippingMethod.self, input) {
        _ = ShippingMethod.problems(in: [method, method], currency: method.amount.currency)
    }
    if let item = decoded(SummaryItem.self, input) {
        _ = try? item.amount.stripeAmount()
    }
    if let payment = decoded(Payment.self, input) {
        _ = payment.token.description
        _ = payment.billingContact?.redactedForShipping()
    }
    return 0
}
