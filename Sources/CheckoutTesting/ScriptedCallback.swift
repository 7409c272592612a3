import CheckoutFlows

/// One callback of a recording delegate (a delegate method with a completion): what it received,
/// the completions it was handed, and the script of its answers.
///
/// Each call takes the next scripted answer; once the script is used up, it takes ``fallback``
/// (``ScriptedAnswer/protocolDefault`` for the optional callbacks, which answers with no change
/// as the protocol's default does; ``ScriptedAnswer/hold`` for the required ones). Every completion is kept, answered or not, so
/// a test can answer a held one, or call one again to provoke a violation.
///
/// ```swift
/// delegate.didAuthorizePayment.script(.answer(.success))
/// flow.authorize(token)
/// // delegate.didAuthorizePayment.arguments.first?.token is the token
/// ```
public final class ScriptedCallback<Input: Sendable, Value: Sendable>: Sendable {
    private struct State {
        var script: [ScriptedAnswer<Input, Value>] = []
        var fallback: ScriptedAnswer<Input, Value>
        var arguments: [Input] = []
        var completions: [@Sendable (Value) -> Void] = []
    }

    /// The delegate method's name, as the transcript writes it.
    public let method: String
    private let state: LockedValue<State>

    package init(_ method: DelegateMethod, fallback: ScriptedAnswer<Input, Value> = .hold) {
        self.method = method.name
        self.state = LockedValue(State(fallback: fallback))
    }

    /// Appends answers for the next calls, in order.
    public func script(_ answers: ScriptedAnswer<Input, Value>...) {
        state.withLock { $0.script += answers }
    }

    /// The answer of every call once the script is used up.
    public var fallback: ScriptedAnswer<Input, Value> {
        get { state.withLock { $0.fallback } }
        set { state.withLock { $0.fallback = newValue } }
    }

    /// What each call received, in order.
    public var arguments: [Input] { state.withLock { $0.arguments } }

    /// The completion of each call, in order, whether it was answered or not.
    public var completions: [@Sendable (Value) -> Void] { state.withLock { $0.completions } }

    /// How many times the callback was called.
    public var callCount: Int { state.withLock { $0.arguments.count } }

    /// The completion of call number `call` (counted from 0; the last call by default), or nil
    /// when there is no such call.
    public func completion(call: Int? = nil) -> (@Sendable (Value) -> Void)? {
        state.withLock { state in
            let index = call ?? state.completions.count - 1
            return state.completions.indices.contains(index) ? state.completions[index] : nil
        }
    }

    /// Calls the completion of call number `call` (counted from 0; the last call by default)
    /// with `value`, outside every lock of the delegate. Fails the test when there is no such
    /// call (through ``TestFailureReporter/current``: XCTest or Swift Testing).
    public func complete(
        _ value: Value,
        call: Int? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        guard let completion = completion(call: call) else {
            reportTestFailure(
                "\(method) has no call \(call.map { "number \($0) " } ?? "")to complete (\(callCount) calls)",
                fileID: fileID,
                filePath: filePath,
                line: line,
                column: column
            )
            return
        }
        completion(value)
    }

    /// Records a call and returns the answer it takes.
    package func receive(
        _ input: Input, _ completion: @escaping @Sendable (Value) -> Void
    ) -> ScriptedAnswer<Input, Value> {
        state.withLock { state in
            state.arguments.append(input)
            state.completions.append(completion)
            return state.script.isEmpty ? state.fallback : state.script.removeFirst()
        }
    }
}
