extension Duration {
    /// `self <= other`, inlined. The standard library's comparison is a call into the runtime
    /// library (22 instructions; the round trip makes two); a `Duration` is a signed 128-bit count
    /// of attoseconds in two halves, compared as the pair (signed high, unsigned low).
    @inline(__always)
    package func isAtOrBefore(_ other: Duration) -> Bool {
        (_high, _low) <= (other._high, other._low)
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
