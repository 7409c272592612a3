import CheckoutCore

/// The merchant's side of a shipping-address flow, with completion handlers (Stripe's
/// `STPShippingAddressViewControllerDelegate`).
///
/// Implement every method; there are no defaults. To write the address check with async/await
/// instead, conform to ``AsyncShippingAddressDelegate``.
public protocol ShippingAddressDelegate: Sendable {
    /// The customer cancelled. No `didFinish` follows, ever.
    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow)

    /// The customer entered an address and tapped Next: validate it, decide the shipping methods,
    /// and call `completion` exactly once.
    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    )

    /// The customer is done: the address and the chosen method (nil when there was none).
    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?)
}
