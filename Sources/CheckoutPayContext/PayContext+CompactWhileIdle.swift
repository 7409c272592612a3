import CheckoutFlows

extension PayContext {
    /// Makes the context small while it waits between events, for a driver that keeps it waiting
    /// long, such as the web relay's idle sessions: its own transcript and its sheet's packed, and
    /// what their runners keep for the next event let go of (``FlowRunner/compactWhileIdle(_:)``).
    package func compactWhileIdle() {
        runner.compactWhileIdle { $0.compactTranscript() }
        sheet.compactWhileIdle()
    }
}
