import CheckoutTesting

extension RecordingPayContextDelegate {
    /// For each `didComplete` call, whether the authorization sheet had ended when it came
    /// (spec P6 requires `true`).
    public var sheetEndedBeforeDidComplete: [Bool] { state.withLock { $0.sheetEnded } }
}
