import CheckoutCore

extension ApplePayTotalUpdate {
    /// Writes the update as `JSONEncoder` encodes it with `.sortedKeys`: its members in
    /// `JSONEncoder`'s key order, absent ones left out (`errors` is ``sheetErrors``, the update's
    /// own member, which a shipping method update has not). False, with the writer part-way, when
    /// `newDisbursementRequest` holds a `Decimal` number, which `JSONEncoder` writes its own way.
    func writeUpdateJSON(to writer: inout JSONWriter) -> Bool {
        writer.byte(UInt8(ascii: "{"))
        if let errors = sheetErrors {
            writer.key("errors")
            errors.writeJSON(to: &writer)
        }
        if let newAutomaticReloadPaymentRequest {
            writer.key("newAutomaticReloadPaymentRequest")
            newAutomaticReloadPaymentRequest.writeJSON(to: &writer)
        }
        if let newDeferredPaymentRequest {
            writer.key("newDeferredPaymentRequest")
            newDeferredPaymentRequest.writeJSON(to: &writer)
        }
        if let newDisbursementRequest {
            writer.key("newDisbursementRequest")
            guard newDisbursementRequest.write(to: &writer) else { return false }
        }
        if let newLineItems {
            writer.key("newLineItems")
            newLineItems.writeJSON(to: &writer)
        }
        if let newMultiTokenContexts {
            writer.key("newMultiTokenContexts")
            newMultiTokenContexts.writeJSON(to: &writer)
        }
        if let newRecurringPaymentRequest {
            writer.key("newRecurringPaymentRequest")
            newRecurringPaymentRequest.writeJSON(to: &writer)
        }
        if let newShippingMethods {
            writer.key("newShippingMethods")
            newShippingMethods.writeJSON(to: &writer)
        }
        writer.key("newTotal")
        newTotal.writeJSON(to: &writer)
        writer.byte(UInt8(ascii: "}"))
        return true
    }
}

extension ApplePayShippingContactUpdate {
    /// Writes the update as `JSONEncoder` encodes it with `.sortedKeys`; false, with the writer
    /// part-way, when `newDisbursementRequest` holds a `Decimal` number (left to `JSONEncoder`).
    package func writeJSON(to writer: inout JSONWriter) -> Bool { writeUpdateJSON(to: &writer) }
}

extension ApplePayShippingMethodUpdate {
    /// Writes the update as `JSONEncoder` encodes it with `.sortedKeys`; false, with the writer
    /// part-way, when `newDisbursementRequest` holds a `Decimal` number (left to `JSONEncoder`).
    package func writeJSON(to writer: inout JSONWriter) -> Bool { writeUpdateJSON(to: &writer) }
}

extension ApplePayPaymentMethodUpdate {
    /// Writes the update as `JSONEncoder` encodes it with `.sortedKeys`; false, with the writer
    /// part-way, when `newDisbursementRequest` holds a `Decimal` number (left to `JSONEncoder`).
    package func writeJSON(to writer: inout JSONWriter) -> Bool { writeUpdateJSON(to: &writer) }
}

extension ApplePayCouponCodeUpdate {
    /// Writes the update as `JSONEncoder` encodes it with `.sortedKeys`; false, with the writer
    /// part-way, when `newDisbursementRequest` holds a `Decimal` number (left to `JSONEncoder`).
    package func writeJSON(to writer: inout JSONWriter) -> Bool { writeUpdateJSON(to: &writer) }
}
