extension FlowShell {
    /// Hands the delegate call being performed (on the draining thread) to the main actor: `call`
    /// runs there, as a job of its own, and the drain goes on there once it has returned (spec
    /// E10). The flow's deadlines run on its clock meanwhile, and events only queue their work.
    package func handOffToMainActor(_ call: @escaping @MainActor @Sendable () -> Void) {
        runner.handOff(
            DrainHandOff { then in
                Task { @MainActor in
                    call()
                    then()
                }
            })
    }
}
