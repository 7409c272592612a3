extension Duration {
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
