/// Test doubles and XCTest helpers for delegates of the Checkout flows.
public enum CheckoutTesting {}
