extension PaymentAuthorizationFlow {
    /// Gives back the room the transcript's newest records do not use (``FlowLog/compact()``): for
    /// a driver that keeps a flow waiting between events, such as the web relay's idle sessions.
    package func compactTranscript() {
        runner.withLock { $0.machine.compactTranscript() }
    }
}
