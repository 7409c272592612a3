import CheckoutFlows

/// One notification of a recording delegate (a delegate method without a completion, such as
/// `didFinish`): what each call received.
public final class RecordedNotification<Input: Sendable>: Sendable {
    /// The delegate method's name, as the transcript writes it.
    public let method: String
    private let received = LockedValue<[Input]>([])

    package init(_ method: DelegateMethod) { self.method = method.name }

    /// What each call received, in order.
    public var arguments: [Input] { received.withLock { $0 } }

    /// How many times the method was called.
    public var callCount: Int { received.withLock { $0.count } }

    package func receive(_ input: Input) {
        received.withLock { $0.append(input) }
    }
}
