/// What the three flows have in common, for code that works with any of them (a test kit's
/// assertions, a server that keeps sessions): the outcome, the record, the merchant's calls, the
/// cancel path, and waiting for the end or for quiet.
///
/// ``ShippingAddressFlow``, ``PaymentAuthorizationFlow`` and `PayContext` (in `CheckoutPayContext`)
/// conform. Each has, on top of this, its own customer actions, which answer at once with a
/// ``DriverResponse``; those that call the merchant also have an `…AndWait` form
/// (`authorizeAndWait(_:)`, ...) that returns once the merchant has answered. The two forms have
/// different names, so both can be called from synchronous and asynchronous code alike.
public protocol CheckoutFlow: AnyObject, Sendable {
    /// How the flow ends: ``ShippingAddressOutcome``, ``PaymentAuthorizationOutcome`` or
    /// `PayContextOutcome`.
    associatedtype Outcome: Sendable, CustomStringConvertible

    /// How the flow ended, once its terminal delegate method has been called; nil until then.
    var outcome: Outcome? { get }

    /// The record of the flow so far (spec E8; empty when transcripts are off).
    var transcript: Transcript { get }

    /// Every violation of the merchant's contract so far (spec E2, E4, E7).
    var violations: [Violation] { get }

    /// The delegate methods the merchant's delegate received, in order, such as
    /// `["didEnterAddress", "didFinish"]`.
    var delegateCalls: [String] { get }

    /// Shows the flow to the customer.
    @discardableResult
    func present() -> DriverResponse

    /// The customer cancels, at any time (spec E3).
    @discardableResult
    func cancel() -> DriverResponse

    /// Cancels and returns once the terminal delegate method has returned, with the outcome.
    ///
    /// - Throws: ``Refusal`` when refused (the flow had not been presented, or was over).
    @discardableResult
    func cancelAndWait() async throws -> Outcome

    /// Waits until the flow has ended and its terminal delegate method has returned.
    @discardableResult
    func waitUntilEnded() async -> Outcome

    /// Returns once no async delegate method or backend call of the flow is running.
    func waitUntilIdle() async
}

extension ShippingAddressFlow: CheckoutFlow {}
extension PaymentAuthorizationFlow: CheckoutFlow {}
