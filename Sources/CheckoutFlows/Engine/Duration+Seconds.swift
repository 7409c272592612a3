extension Duration {
    /// `self <= other`, inlined. The standard library's comparison is a call into the runtime
    /// library (22 instructions; the round trip makes two); a `Duration` is a signed 128-bit count
    /// of attoseconds in two halves, compared as the pair (signed high, unsigned low).
    @inline(__always)
    package func isAtOrBefore(_ other: Duration) -> Bool {
        (_high, _low) <= (other._high, other._low)
    }

    /// `self + other`, inlined: the standard library's sum is two calls into the runtime library
    /// (44 instructions; a round trip makes one, for the callback's deadline). The halves are added
    /// with the carry of the low ones; on overflow it falls back to the standard library's `+`,
    /// which traps as it always did.
    @inline(__always)
    package func plus(_ other: Duration) -> Duration {
        let (low, carry) = _low.addingReportingOverflow(other._low)
        let (partial, overflow) = _high.addingReportingOverflow(other._high)
        let (high, carryOverflow) = partial.addingReportingOverflow(carry ? 1 : 0)
        // The two overflows can only cancel out: one of them alone means the sum does not fit.
        guard overflow == carryOverflow else { return self + other }
        return Duration(_high: high, low: low)
    }

    /// Seconds with up to nine decimals, locale-independent: `"30"`, `"1.5"`, `"0.000000001"`.
    package var secondsString: String {
        let (seconds, attoseconds) = components
        let nanos = attoseconds / 1_000_000_000
        guard nanos != 0 else { return String(seconds) }
        let negative = seconds < 0 || nanos < 0
        var fraction = String(abs(nanos))
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative ? "-" : "") + String(abs(seconds)) + "." + fraction
    }
}
