import CheckoutFlows

/// Where a session's delegate takes its answers from: the merchant (live), or a snapshot's
/// record while a resume replays it (spec W6). Copies share one state: the session and its
/// delegate hold the same script, in one allocation.
struct ReplayScript: Sendable {
    enum Next: Sendable {
        /// Live: ask the merchant.
        case live
        /// Replaying: answer this.
        case answer(RecordedAnswer)
        /// Replaying, and the record has no answer left: the replay diverged.
        case exhausted
    }

    private struct State: Sendable {
        var answers: [RecordedAnswer]? = nil
        var next = 0
        var divergence: String?
    }

    private let state = LockedValue(State())

    /// Starts replaying `answers`.
    func start(_ answers: [RecordedAnswer]) {
        state.withLock { $0 = State(answers: answers) }
    }

    /// Ends the replay: from now on the merchant answers. Gives why the replay diverged, if it did.
    func finish() -> String? {
        state.withLock { state in
            let divergence = state.divergence
            state.answers = nil
            return divergence
        }
    }

    /// Whether the merchant answers.
    var isLive: Bool { state.withLock { $0.answers == nil } }

    /// The next answer for `callback`.
    func next(for callback: String) -> Next {
        state.withLock { state in
            guard let answers = state.answers else { return .live }
            guard state.next < answers.count else {
                state.divergence = state.divergence ?? "the flow called \(callback), and the record has no answer left"
                return .exhausted
            }
            let answer = answers[state.next]
            state.next += 1
            return .answer(answer)
        }
    }

    /// The answer taken last, while replaying.
    var lastAnswer: RecordedAnswer? {
        state.withLock { state in
            guard let answers = state.answers, state.next > 0 else { return nil }
            return answers[state.next - 1]
        }
    }

    /// Answers `callback` from the record while replaying (or, with an answer of another
    /// callback's or none left, notes the divergence and calls `diverged`), and leaves it to the
    /// merchant (`live`) otherwise.
    func answer(
        _ callback: String,
        with answer: (PaymentAuthorizationAnswer) -> Bool,
        live: () -> Void,
        diverged divergedAction: () -> Void
    ) {
        switch next(for: callback) {
        case .live: live()
        case .answer(let recorded):
            if let replayed = recorded.replayed, answer(replayed) { return }
            diverged("the flow called \(callback) where the record answers \(recorded.callback)")
            divergedAction()
        case .exhausted: divergedAction()
        }
    }

    /// Notes that the replay diverged.
    func diverged(_ why: String) {
        state.withLock { $0.divergence = $0.divergence ?? why }
    }
}
