import CheckoutFlows

/// Scenarios described as data, run against the Checkout flows.
public enum CheckoutSimulator {}
