extension FlowShell {
    /// Hands the delegate call being performed (on the draining thread) to an actor: `call` awaits
    /// the actor-isolated delivery (one hop onto the actor, whose synchronous method then runs
    /// there), and the drain goes on once it has returned (spec E10). The flow's deadlines run on
    /// its clock meanwhile, and events only queue their work.
    package func handOff(awaiting call: @escaping @Sendable () async -> Void) {
        runner.handOff(
            DrainHandOff { then in
                Task {
                    await call()
                    then()
                }
            })
    }
}
