import CheckoutCore
import CheckoutFlows

/// A `ShippingAddressDelegate` for tests: it records every call in order, answers
/// `didEnterAddress` as scripted, and keeps every completion.
///
/// ```swift
/// let delegate = RecordingShippingAddressDelegate(didEnterAddress: .answer(.valid))
/// let flow = try ShippingAddressFlow(configuration: .init(), delegate: delegate, options: .testing())
/// flow.present()
/// flow.enterAddress(address)
/// // delegate.calledMethods == ["didEnterAddress", "didFinish"]
/// ```
public final class RecordingShippingAddressDelegate: ShippingAddressDelegate, RecordingDelegate {
    /// `didEnterAddress`: the addresses entered, the completions, the script. Unscripted calls
    /// hold their completion.
    public let didEnterAddress = ScriptedCallback<Contact, ShippingAddressValidation>(.didEnterAddress)
    /// `didFinish`: the address and the shipping method of each call.
    public let didFinish = RecordedNotification<(address: Contact, shippingMethod: ShippingMethod?)>(.didFinish)
    /// `didCancel`.
    public let didCancel = RecordedNotification<Void>(.didCancel)

    private let log = CallLog()
    private let cancels = LockedValue<[DriverResponse]>([])

    /// A delegate whose first calls of `didEnterAddress` take these answers.
    public init(didEnterAddress answers: ScriptedAnswer<Contact, ShippingAddressValidation>...) {
        for answer in answers { didEnterAddress.script(answer) }
    }

    /// Every delegate call, in order, with its arguments.
    public var calls: [RecordedCall] { log.calls }

    /// The enter/exit marks of every delegate call, in order.
    public var trace: [String] { log.trace }

    /// What `flow.cancel()` returned each time a ``ScriptedAnswer/cancel`` answer called it.
    public var cancelResponses: [DriverResponse] { cancels.withLock { $0 } }

    /// Returns true once `method` has been called `times` times and those calls have returned,
    /// false when `timeout` (real time) passes first.
    public func wait(for method: String, times: Int, timeout: Duration) async -> Bool {
        await log.wait(for: method, count: times, timeout: timeout)
    }

    /// Records the call.
    public func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) {
        log.enter(didCancel.method, [])
        didCancel.receive(())
        log.exit(didCancel.method)
    }

    /// Records the call and answers as scripted.
    public func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        log.enter(didEnterAddress.method, [address])
        let answer = didEnterAddress.receive(address, completion)
        if let response = answer.perform(address, completion, cancel: { flow.cancel() }) {
            cancels.withLock { $0.append(response) }
        }
        log.exit(didEnterAddress.method)
    }

    /// Records the call.
    public func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didFinishWith address: Contact,
        shippingMethod: ShippingMethod?
    ) {
        log.enter(didFinish.method, [address, shippingMethod.map(\.identifier) ?? "nil"])
        didFinish.receive((address, shippingMethod))
        log.exit(didFinish.method)
    }
}
