// libFuzzer target `json-request`: the input bytes are JSON decoded as a `PaymentRequest`.
//
// When decoding succeeds: encoding and decoding again gives an equal request (and the same
// bytes), `problems` and `validate()` agree and never crash, and validating the request's own
// summary as an update never crashes.
//
// Built and run by Scripts/fuzz.sh (not by SwiftPM).

import CheckoutCore
import Foundation

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("json-request invariant broken: \(message())") }
}

private func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
}

private func check(_ request: PaymentRequest) {
    let first: Data
    let again: PaymentRequest
    do {
        first = try encoder().encode(request)
        again = try JSONDecoder().decode(PaymentRequest.self, from: first)
    } catch {
        fatalError("json-request: a decoded request does not round-trip: \(error)")
    }
    require(again == request, "round trip changed the request:\n\(request)\n\(again)")
    let second = try? encoder().encode(again)
    require(second == first, "encoding is not stable")

    let problems = request.problems
    require(problems == again.problems, "problems differ after the round trip")
    do {
        try request.validate()
        require(problems.isEmpty, "validate() accepted a request with problems")
    } catch let error as CheckoutError {
        require(!problems.isEmpty, "validate() threw for a request without problems")
        require(error.code == .invalidRequest, "validate() threw \(error.code)")
    } catch {
        fatalError("json-request: validate() threw a non-CheckoutError: \(error)")
    }
    for problem in problems {
        require(!problem.message.isEmpty, "a problem without a message")
        require(problem.field != nil, "a problem without a field: \(problem)")
        _ = problem.description
        _ = problem.nested(under: "request")
    }
    _ = request.grandTotal
    _ = request.currency
    _ = request.country
    _ = request.grandTotal.map { try? $0.stripeAmount() }

    // The request's own summary and methods, as each kind of update.
    let items = request.summaryItems
    let methods = request.shippingMethods
    let updates: [any PaymentRequestUpdate] = [
        ShippingContactUpdate(summaryItems: items, shippingMethods: methods),
        ShippingMethodUpdate(summaryItems: items),
        PaymentMethodUpdate(summaryItems: items),
        CouponCodeUpdate(summaryItems: items, shippingMethods: methods),
    ]
    for update in updates {
        let updateProblems = request.problems(in: update)
        do {
            try request.validate(update)
            require(updateProblems.isEmpty, "validate(update) accepted an update with problems")
        } catch {
            require(!updateProblems.isEmpty, "validate(update) threw for an update without problems")
        }
    }
    _ = ShippingMethod.problems(in: methods, currency: request.currency)
    for method in methods {
        _ = method.deliveryDateRange.map { ($0.start.description, $0.end.description) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(bytes: data, count: size)
    if let request = try? JSONDecoder().decode(PaymentRequest.self, from: input) {
        check(request)
    }
    return 0
}
