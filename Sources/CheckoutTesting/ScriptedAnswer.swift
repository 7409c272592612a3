import CheckoutFlows
import Dispatch

/// How a recording delegate answers one call of a callback: at once, as the protocol's default
/// does, after virtual time, from another thread, twice, not at all (the test answers later), or
/// by cancelling the flow.
///
/// `Input` is what the callback received (an address, a payment, ...); `Value` is what its
/// completion carries. Script a callback of a recording delegate with
/// ``ScriptedCallback/script(_:)``:
///
/// ```swift
/// let delegate = RecordingShippingAddressDelegate()
/// delegate.didEnterAddress.script(.answer(.invalid(message: "No PO boxes")), .hold)
/// ```
public struct ScriptedAnswer<Input: Sendable, Value: Sendable>: Sendable {
    enum Mode: Sendable {
        case now(@Sendable (Input) -> Value)
        case later(Duration, any CheckoutClock, @Sendable (Input) -> Value)
        case fromAnotherThread(@Sendable (Input) -> Value)
        case twice(@Sendable (Input) -> Value, @Sendable (Input) -> Value)
        case hold
        case cancel
        case protocolDefault
    }

    let mode: Mode

    /// Calls the completion with `value` inside the callback, before it returns.
    public static func answer(_ value: Value) -> Self {
        Self(mode: .now { _ in value })
    }

    /// Calls the completion inside the callback with what `body` makes of the callback's input.
    public static func answer(_ body: @escaping @Sendable (Input) -> Value) -> Self {
        Self(mode: .now(body))
    }

    /// Calls the completion with `value` once `delay` has passed on `clock`, measured from the
    /// callback. With a `ManualClock` the answer arrives when the test advances the clock past
    /// it, on the advancing thread: no sleeping.
    public static func answer(_ value: Value, after delay: Duration, on clock: any CheckoutClock) -> Self {
        Self(mode: .later(delay, clock, { _ in value }))
    }

    /// Calls the completion with `value` from a `DispatchQueue.global()` thread, after the
    /// callback has been entered; it may arrive before or after the callback returns.
    public static func answerFromAnotherThread(_ value: Value) -> Self {
        Self(mode: .fromAnotherThread { _ in value })
    }

    /// Calls the completion twice inside the callback: with `first`, then with `second` (by
    /// default `first` again). The flow takes the first and reports the second as the violation
    /// `completionCalledTwice`.
    public static func answerTwice(_ first: Value, then second: Value? = nil) -> Self {
        Self(mode: .twice({ _ in first }, { _ in second ?? first }))
    }

    /// Answers inside the callback as the protocol's default implementation of an optional
    /// callback does: with no change (`flow.defaultShippingContactUpdate()` and its like; for a
    /// pay context `context.sheet.default…Update()`, and for `willComplete` the result
    /// unchanged). The transcript then says a default answered. The fallback of every optional
    /// callback of the recording delegates; a required callback, which has no default, holds
    /// instead, as for ``hold``.
    public static var protocolDefault: Self { Self(mode: .protocolDefault) }

    /// Never answers by itself: the completion is kept for the test to call through
    /// ``ScriptedCallback/complete(_:call:fileID:filePath:line:column:)``.
    public static var hold: Self { Self(mode: .hold) }

    /// Calls the flow's `cancel()` inside the callback and does not answer; the delegate records
    /// what `cancel()` returned. The completion is kept, as for ``hold``.
    public static var cancel: Self { Self(mode: .cancel) }

    /// Performs the answer inside the callback; returns what `cancel` returned when the answer
    /// cancels the flow. `protocolDefault` is the protocol's default answer, nil for a required
    /// callback.
    package func perform(
        _ input: Input,
        _ completion: @escaping @Sendable (Value) -> Void,
        protocolDefault: (() -> Value)? = nil,
        cancel: () -> DriverResponse
    ) -> DriverResponse? {
        switch mode {
        case .now(let body):
            completion(body(input))
        case .later(let delay, let clock, let body):
            _ = clock.schedule(at: clock.now + delay) { completion(body(input)) }
        case .fromAnotherThread(let body):
            DispatchQueue.global().async { completion(body(input)) }
        case .twice(let first, let second):
            completion(first(input))
            completion(second(input))
        case .hold:
            break
        case .protocolDefault:
            if let protocolDefault { completion(protocolDefault()) }
        case .cancel:
            return cancel()
        }
        return nil
    }
}
