// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Checkout",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CheckoutCore", targets: ["CheckoutCore"]),
        .library(name: "CheckoutStripe", targets: ["CheckoutStripe"]),
        .library(name: "CheckoutFlows", targets: ["CheckoutFlows"]),
        .library(name: "CheckoutPayContext", targets: ["CheckoutPayContext"]),
        .library(name: "CheckoutStripeBackends", targets: ["CheckoutStripeBackends"]),
        .library(name: "CheckoutTesting", targets: ["CheckoutTesting"]),
        .library(name: "CheckoutPayContextTesting", targets: ["CheckoutPayContextTesting"]),
        .library(name: "CheckoutWeb", targets: ["CheckoutWeb"]),
        .library(name: "CheckoutWebRelay", targets: ["CheckoutWebRelay"]),
        .executable(name: "checkout-sim", targets: ["checkout-sim"]),
    ],
    targets: [
        .target(name: "CheckoutCore", swiftSettings: strict),
        .target(name: "CheckoutStripe", dependencies: ["CheckoutCore"], swiftSettings: strict),
        .target(name: "CheckoutFlows", dependencies: ["CheckoutCore"], swiftSettings: strict),
        .target(
            name: "CheckoutPayContext",
            dependencies: ["CheckoutFlows", "CheckoutCore", "CheckoutStripe"],
            swiftSettings: strict
        ),
        .target(
            name: "CheckoutStripeBackends",
            dependencies: ["CheckoutPayContext", "CheckoutFlows", "CheckoutStripe", "CheckoutCore"],
            swiftSettings: strict
        ),
        .target(name: "CheckoutTesting", dependencies: ["CheckoutFlows", "CheckoutCore"], swiftSettings: strict),
        .target(
            name: "CheckoutPayContextTesting",
            dependencies: [
                "CheckoutTesting", "CheckoutPayContext", "CheckoutStripeBackends", "CheckoutFlows", "CheckoutCore",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "CheckoutSimulatorTesting",
            dependencies: ["CheckoutSimulator", "CheckoutTesting", "CheckoutFlows"],
            swiftSettings: strict
        ),
        .target(name: "CheckoutWeb", dependencies: ["CheckoutCore"], swiftSettings: strict),
        .target(
            name: "CheckoutWebRelay",
            dependencies: ["CheckoutWeb", "CheckoutPayContext", "CheckoutFlows", "CheckoutCore"],
            swiftSettings: strict
        ),
        .target(
            name: "CheckoutSimulator",
            dependencies: [
                "CheckoutFlows", "CheckoutPayContext", "CheckoutCore", "CheckoutStripe", "CheckoutStripeBackends",
                "CheckoutWeb", "CheckoutWebRelay",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "checkout-sim", dependencies: ["CheckoutSimulator"], swiftSettings: strict),
        .executableTarget(
            name: "checkout-bench",
            dependencies: [
                "CheckoutSimulator", "CheckoutFlows", "CheckoutPayContext", "CheckoutCore", "CheckoutStripeBackends",
                "CheckoutWebRelay",
            ],
            swiftSettings: strict
        ),
        // The Chromium harness's HTTP front for the relay (test harness, not a product):
        // Tests/Harness/chromium-payment-request.py runs it.
        .executableTarget(
            name: "relay-harness",
            dependencies: ["CheckoutSimulator", "CheckoutWebRelay", "CheckoutWeb", "CheckoutFlows", "CheckoutCore"],
            path: "Tests/Harness/relay-harness",
            swiftSettings: strict
        ),
        // What several test targets share (not a product).
        .target(name: "CheckoutTestSupport", dependencies: ["CheckoutFlows"], path: "Tests/CheckoutTestSupport"),
        .testTarget(
            name: "CheckoutCoreTests", dependencies: ["CheckoutCore", "CheckoutSimulator", "CheckoutTestSupport"]),
        .testTarget(
            name: "CheckoutFlowsTests",
            dependencies: [
                "CheckoutFlows", "CheckoutPayContext", "CheckoutCore", "CheckoutTesting", "CheckoutPayContextTesting",
                "CheckoutStripeBackends", "CheckoutTestSupport", "CheckoutSimulator",
            ]
        ),
        .testTarget(
            name: "CheckoutTestingTests",
            dependencies: [
                "CheckoutTesting", "CheckoutPayContextTesting", "CheckoutSimulatorTesting", "CheckoutSimulator",
                "CheckoutFlows", "CheckoutPayContext", "CheckoutCore", "CheckoutStripeBackends",
            ]
        ),
        .testTarget(
            name: "CheckoutReliabilityTests",
            dependencies: [
                "CheckoutFlows", "CheckoutPayContext", "CheckoutCore", "CheckoutStripeBackends", "CheckoutSimulator",
            ]
        ),
        .testTarget(
            name: "CheckoutStripeTests",
            dependencies: [
                "CheckoutStripe", "CheckoutStripeBackends", "CheckoutPayContext", "CheckoutFlows", "CheckoutCore",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "CheckoutWebTests", dependencies: ["CheckoutWeb", "CheckoutCore", "CheckoutTestSupport"]),
        .testTarget(
            name: "CheckoutWebRelayTests",
            dependencies: [
                "CheckoutWebRelay", "CheckoutWeb", "CheckoutFlows", "CheckoutPayContext", "CheckoutCore",
                "CheckoutStripeBackends", "CheckoutTestSupport", "CheckoutSimulator",
            ]
        ),
        .testTarget(
            name: "CheckoutSimulatorTests",
            dependencies: [
                "CheckoutSimulator", "CheckoutFlows", "CheckoutPayContext", "CheckoutCore", "CheckoutStripeBackends",
                "CheckoutWeb",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
