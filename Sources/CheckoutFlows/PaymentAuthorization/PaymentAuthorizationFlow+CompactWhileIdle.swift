extension PaymentAuthorizationFlow {
    /// Makes the flow small while it waits between events, for a driver that keeps it waiting long,
    /// such as the web relay's idle sessions: its transcript packed (``FlowLog/compact()``), and
    /// what the runner keeps for the next event let go of (``FlowRunner/compactWhileIdle(_:)``).
    package func compactWhileIdle() {
        runner.compactWhileIdle { $0.compactTranscript() }
    }
}
