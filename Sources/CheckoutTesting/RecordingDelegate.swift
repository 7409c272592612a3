import CheckoutFlows

/// What the recording delegates (``RecordingShippingAddressDelegate``,
/// ``RecordingPaymentAuthorizationDelegate``, ``RecordingPayContextDelegate``) have in common:
/// the ordered record of their calls, the enter/exit trace, and a way to wait for a call.
public protocol RecordingDelegate: AnyObject, Sendable {
    /// Every delegate call, in order, with its arguments.
    var calls: [RecordedCall] { get }

    /// `>method` when a delegate method is entered and `<method` when it returns, in order. Calls
    /// that never nest nor overlap give pairs: `[">didEnterAddress", "<didEnterAddress", ...]`;
    /// ``assertNoNesting(_:file:line:)`` checks it.
    var trace: [String] { get }

    /// Returns once `method` has been called `times` times in all and each of those calls has
    /// returned. For flows whose delegate calls come from other threads (the pay context); never
    /// sleeps.
    func waitUntilCalled(_ method: String, times: Int) async
}

extension RecordingDelegate {
    /// The names of the methods called, in order, such as `["didEnterAddress", "didFinish"]`.
    public var calledMethods: [String] { calls.map(\.method) }

    /// Returns once `method` has been called once and that call has returned.
    public func waitUntilCalled(_ method: String) async {
        await waitUntilCalled(method, times: 1)
    }
}
