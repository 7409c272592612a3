import CheckoutCore

/// The merchant's side of a shipping-address flow, written with async/await: the address check
/// returns its answer instead of calling a completion.
///
/// A type that conforms to both this and ``ShippingAddressDelegate`` is driven through its
/// completion-handler methods; its async method is never called.
public protocol AsyncShippingAddressDelegate: Sendable {
    /// The customer cancelled. No `didFinish` follows, ever.
    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow)

    /// The customer entered an address: validate it and return the answer.
    func shippingAddressFlow(_ flow: ShippingAddressFlow, didEnter address: Contact) async
        -> ShippingAddressValidation

    /// The customer is done: the address and the chosen method (nil when there was none).
    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?)
}
