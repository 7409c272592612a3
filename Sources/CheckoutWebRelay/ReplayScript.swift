import CheckoutFlows

/// Where a session's delegate takes its answers from: the merchant (live), or a snapshot's record
/// while a resume replays it (spec W6).
///
/// The relay's delegates (``RelayAuthorizationDelegate``, ``RelayPayContextDelegate``) are
/// replay scripts, so that the script's state lives in the delegate's allocation rather than a
/// box of its own. Only the flow holds a delegate, until its terminal call (spec E5): the session
/// does not, and a resume holds the script only while it replays a snapshot into the session.
/// Unchecked Sendable because a class that others subclass cannot be checked: its state is
/// reached only under its lock, and the subclasses add only constants.
class ReplayScript: @unchecked Sendable {
    enum Next: Sendable {
        /// Live: ask the merchant.
        case live
        /// Replaying: answer this.
        case answer(RecordedAnswer)
        /// Replaying, and the record has no answer left: the replay diverged.
        case exhausted
    }

    /// A replay under way: the record's answers, the next one's index, and why the replay
    /// diverged, if it did.
    private struct Replay: Sendable {
        var answers: [RecordedAnswer]
        var next = 0
        var divergence: String?
    }

    /// Live, or replaying: boxed, as few sessions ever replay (8 bytes of every script, not 33).
    private enum Mode: Sendable {
        case live
        indirect case replaying(Replay)
    }

    private let lock = InlineLock()
    @exclusivity(unchecked) private var mode = Mode.live

    init() {}

    /// Starts replaying `answers`.
    final func start(_ answers: [RecordedAnswer]) {
        lock.withLocked { mode = .replaying(Replay(answers: answers)) }
    }

    /// Ends the replay: from now on the merchant answers. Gives why the replay diverged, if it did.
    final func finish() -> String? {
        lock.withLocked {
            guard case .replaying(let replay) = mode else { return nil }
            mode = .live
            return replay.divergence
        }
    }

    /// Whether the merchant answers.
    final var isLive: Bool {
        lock.withLocked {
            if case .live = mode { return true }
            return false
        }
    }

    /// The next answer for `callback`.
    final func next(for callback: String) -> Next {
        lock.withLocked {
            guard case .replaying(var replay) = mode else { return .live }
            guard replay.next < replay.answers.count else {
                if replay.divergence == nil {
                    replay.divergence = "the flow called \(callback), and the record has no answer left"
                    mode = .replaying(replay)
                }
                return .exhausted
            }
            let answer = replay.answers[replay.next]
            replay.next += 1
            mode = .replaying(replay)
            return .answer(answer)
        }
    }

    /// The answer taken last, while replaying.
    final var lastAnswer: RecordedAnswer? {
        lock.withLocked {
            guard case .replaying(let replay) = mode, replay.next > 0 else { return nil }
            return replay.answers[replay.next - 1]
        }
    }

    /// Answers `callback` from the record while replaying (or, with an answer of another
    /// callback's or none left, notes the divergence and calls `diverged`), and leaves it to the
    /// merchant (`live`) otherwise.
    final func answer(
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

    /// Notes that the replay diverged (the first reason is kept); live, there is no replay to
    /// diverge from.
    final func diverged(_ why: String) {
        lock.withLocked {
            guard case .replaying(var replay) = mode, replay.divergence == nil else { return }
            replay.divergence = why
            mode = .replaying(replay)
        }
    }
}
