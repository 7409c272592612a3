import Dispatch

extension FlowShell {
    /// Hands the delegate call being performed (on the draining thread) to a serial queue: `call`
    /// runs there, and the drain goes on there once it has returned (spec E10). The flow's
    /// deadlines run on its clock meanwhile, and events only queue their work.
    package func handOff(on queue: DispatchQueue, _ call: @escaping @Sendable () -> Void) {
        runner.handOff(
            DrainHandOff { then in
                queue.async {
                    call()
                    then()
                }
            })
    }
}
