import CheckoutCore
import Foundation
import Synchronization

/// One line of a transcript: an event and when it happened on the flow's clock.
public struct TranscriptEntry: Hashable, Sendable {
    /// When, on the flow's clock.
    public var time: Duration
    /// What happened.
    public var event: TranscriptEvent
    /// Who did it: by default, who does `event` (``TranscriptActor/init(of:)``).
    public var actor: TranscriptActor
    /// A process-wide counter taken when the entry was recorded: it orders the entries of flows
    /// that work together (a pay context and its sheet) when their clocks show the same time.
    public var sequence: UInt64

    /// An entry recorded now; `actor` defaults to who does `event`.
    public init(time: Duration, event: TranscriptEvent, actor: TranscriptActor? = nil) {
        self.init(time: time, event: event, sequence: Self.nextSequence(), actor: actor)
    }

    /// An entry recorded earlier, with the sequence number it took then.
    package init(time: Duration, event: TranscriptEvent, sequence: UInt64, actor: TranscriptActor? = nil) {
        self.time = time
        self.event = event
        self.sequence = sequence
        self.actor = actor ?? TranscriptActor(of: event)
    }

    /// Takes the next process-wide sequence number. (Wrapping: one atomic add, where a checked
    /// add is a compare-and-swap loop; 2^64 entries are never recorded.)
    package static func nextSequence() -> UInt64 {
        transcriptSequence.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

private let transcriptSequence = Atomic<UInt64>(0)
