import CheckoutFlows

extension CallLog {
    /// A recording delegate's callback: records the call, answers as `callback` is scripted (its
    /// protocol default from `protocolDefault`), and keeps what `cancel()` returned when the
    /// script cancelled, in `cancels`.
    package func run<Input: Sendable, Value: Sendable>(
        _ callback: ScriptedCallback<Input, Value>,
        _ input: Input,
        _ arguments: [Any],
        _ handler: @escaping @Sendable (Value) -> Void,
        _ cancel: @escaping @Sendable () -> DriverResponse,
        cancels: LockedValue<[DriverResponse]>,
        protocolDefault: (() -> Value)? = nil
    ) {
        enter(callback.method, arguments)
        let answer = callback.receive(input, handler)
        if let response = answer.perform(input, handler, protocolDefault: protocolDefault, cancel: cancel) {
            cancels.withLock { $0.append(response) }
        }
        exit(callback.method)
    }

    /// A recording delegate's notification or terminal call: records it.
    package func notify<Input: Sendable>(
        _ notification: RecordedNotification<Input>, _ input: Input, _ arguments: [Any]
    ) {
        enter(notification.method, arguments)
        notification.receive(input)
        exit(notification.method)
    }
}
