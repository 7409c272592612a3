extension PaymentAuthorizationFlow {
    /// Makes the flow small while it waits between events, for a driver that keeps it waiting long,
    /// such as the web relay's idle sessions: the transcript packed (``FlowLog/compact()``), and the
    /// waiters' box and the completion kept for reuse let go of (``FlowRunner/releaseIdleRoom()``).
    package func compactTranscript() {
        runner.withLock { $0.machine.compactTranscript() }
        runner.releaseIdleRoom()
    }
}
