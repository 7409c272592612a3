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
        .library(name: "CheckoutStripeBackends", targets: ["CheckoutStripeBackends"]),
        .library(name: "CheckoutTesting", targets: ["CheckoutTesting"]),
        .library(name: "CheckoutSimulatorTesting", targets: ["CheckoutSimulatorTesting"]),
        .library(name: "CheckoutSimulator", targets: ["CheckoutSimulator"]),
        .library(name: "CheckoutWeb", targets: ["CheckoutWeb"]),
        .library(name: "CheckoutWebRelay", targets: ["CheckoutWebRelay"]),
        .executable(name: "checkout-sim", targets: ["checkout-sim"]),
        .executable(name: "checkout-bench", targets: ["checkout-bench"]),
    ],
    targets: [
        .target(name: "CheckoutCore", swiftSettings: strict),
        .target(name: "CheckoutStripe", dependencies: ["CheckoutCore"], swiftSettings: strict),
        .target(name: "CheckoutFlows", dependencies: ["CheckoutCore", "CheckoutStripe"], swiftSettings: strict),
        .target(
            name: "CheckoutStripeBackends",
            dependencies: ["CheckoutFlows", "CheckoutStripe", "CheckoutCore"],
            swiftSettings: strict
        ),
        .target(
            name: "CheckoutTesting",
            dependencies: ["CheckoutFlows", "CheckoutCore", "CheckoutStripeBackends"],
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
            dependencies: ["CheckoutWeb", "CheckoutFlows", "CheckoutCore"],
            swiftSettings: strict
        ),
        .target(
            name: "CheckoutSimulator",
            dependencies: ["CheckoutFlows", "CheckoutCore", "CheckoutStripeBackends", "CheckoutWeb", "CheckoutWebRelay"],
            swiftSettings: strict
        ),
        .executableTarget(name: "checkout-sim", dependencies: ["CheckoutSimulator"], swiftSettings: strict),
        .executableTarget(
            name: "checkout-bench",
            dependencies: ["CheckoutSimulator", "CheckoutFlows", "CheckoutCore", "CheckoutStripeBackends"],
            swiftSettings: strict
        ),
        // What several test targets share (not a product).
        .target(name: "CheckoutTestSupport", dependencies: ["CheckoutFlows"], path: "Tests/CheckoutTestSupport"),
        .testTarget(name: "CheckoutCoreTests", dependencies: ["CheckoutCore", "CheckoutSimulator"]),
        .testTarget(
            name: "CheckoutFlowsTests",
            dependencies: [
                "CheckoutFlows", "CheckoutCore", "CheckoutTesting", "CheckoutStripeBackends", "CheckoutTestSupport",
                "CheckoutSimulator",
            ]
        ),
        .testTarget(
            name: "CheckoutTestingTests",
            dependencies: [
                "CheckoutTesting", "CheckoutSimulatorTesting", "CheckoutSimulator", "CheckoutFlows", "CheckoutCore",
                "CheckoutStripeBackends",
            ]
        ),
        .testTarget(
            name: "CheckoutReliabilityTests",
            dependencies: ["CheckoutFlows", "CheckoutCore", "CheckoutStripeBackends", "CheckoutSimulator"]
        ),
        .testTarget(
            name: "CheckoutStripeTests",
            dependencies: ["CheckoutStripe", "CheckoutStripeBackends", "CheckoutFlows", "CheckoutCore"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "CheckoutWebTests", dependencies: ["CheckoutWeb", "CheckoutCore"]),
        .testTarget(
            name: "CheckoutWebRelayTests",
            dependencies: [
                "CheckoutWebRelay", "CheckoutWeb", "CheckoutFlows", "CheckoutCore", "CheckoutStripeBackends",
                "CheckoutTestSupport", "CheckoutSimulator",
            ]
        ),
        .testTarget(
            name: "CheckoutSimulatorTests",
            dependencies: ["CheckoutSimulator", "CheckoutFlows", "CheckoutCore", "CheckoutWeb"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
