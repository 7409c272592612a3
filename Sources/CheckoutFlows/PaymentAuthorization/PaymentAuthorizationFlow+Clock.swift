extension PaymentAuthorizationFlow {
    /// The clock the flow was made with (``FlowOptions/clock``): for a driver that notes its own
    /// entries on the flow's time without keeping the clock a second time (the web relay's
    /// sessions).
    package var clock: any CheckoutClock { runner.clock }
}
