/// A time on a flow's clock, as the engine keeps it: whole nanoseconds since the clock's origin,
/// in one word (a `Duration` takes two words, and its sum and comparison are calls into the
/// runtime library).
///
/// The engine reads its clock to the nanosecond: the ``SystemClock`` counts nanoseconds already,
/// and a clock with finer time (a ``ManualClock`` advanced by attoseconds) is read rounded down.
/// A callback's timeout is rounded up to the nanosecond when the flow is made
/// (``init(roundingUp:)``), so a deadline never falls before its full timeout. Transcripts and
/// violations give times as `Duration`s again (``duration``), exactly.
@usableFromInline
package struct FlowInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    @usableFromInline package var nanoseconds: Int64

    @inlinable @inline(__always)
    package init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// `duration`, rounded down to the nanosecond; beyond what 64 bits of nanoseconds hold (292
    /// years either way), the nearest end.
    @usableFromInline package init(roundingDown duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(seconds: seconds, attoseconds: attoseconds, roundingUp: false)
    }

    /// `duration`, rounded up to the nanosecond (a timeout: never shorter than asked); beyond
    /// what 64 bits of nanoseconds hold, the nearest end.
    @usableFromInline package init(roundingUp duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(seconds: seconds, attoseconds: attoseconds, roundingUp: true)
    }

    private init(seconds: Int64, attoseconds: Int64, roundingUp: Bool) {
        // `components` gives both parts with the sign of the whole.
        var nanos = attoseconds / 1_000_000_000
        let rest = attoseconds % 1_000_000_000
        if rest > 0 && roundingUp { nanos += 1 }
        if rest < 0 && !roundingUp { nanos -= 1 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = whole.addingReportingOverflow(nanos)
        if overflow || sumOverflow {
            nanoseconds = seconds < 0 ? .min : .max
        } else {
            nanoseconds = sum
        }
    }

    @usableFromInline package static let zero = FlowInstant(nanoseconds: 0)

    // As `Duration` spells them, so that a time reads the same either way.
    @usableFromInline package static func nanoseconds<T: BinaryInteger>(_ count: T) -> FlowInstant {
        FlowInstant(nanoseconds: Int64(clamping: count))
    }

    @usableFromInline package static func milliseconds<T: BinaryInteger>(_ count: T) -> FlowInstant {
        FlowInstant(roundingUp: .milliseconds(count))
    }

    @usableFromInline package static func seconds<T: BinaryInteger>(_ count: T) -> FlowInstant {
        FlowInstant(roundingUp: .seconds(count))
    }

    /// The time as a `Duration` since the clock's origin, exactly.
    @inlinable @inline(__always)
    package var duration: Duration { SystemClock.duration(nanoseconds: nanoseconds) }

    /// `self` plus `nanoseconds`, at most the latest time there is (a timeout too long to count
    /// never passes).
    @inlinable @inline(__always)
    package func plus(nanoseconds other: Int64) -> FlowInstant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(other)
        return FlowInstant(nanoseconds: overflow ? (other < 0 ? .min : .max) : sum)
    }

    @inlinable @inline(__always)
    package static func < (lhs: FlowInstant, rhs: FlowInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    @usableFromInline package var description: String { duration.description }
}
