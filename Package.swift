// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Checkout",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CheckoutCore", targets: ["CheckoutCore"]),
        .library(name: "CheckoutFlows", targets: ["CheckoutFlows"]),
        .library(name: "CheckoutTesting", targets: ["CheckoutTesting"]),
        .library(name: "CheckoutSimulatorTesting", targets: ["CheckoutSimulatorTesting"]),
        .library(name: "CheckoutSimulator", targets: ["CheckoutSimulator"]),
        .library(name: "CheckoutWeb", targets: ["CheckoutWeb"]),
        .executable(name: "checkout-sim", targets: ["checkout-sim"]),
        .executable(name: "checkout-bench", targets: ["checkout-bench"]),
    ],
    targets: [
        .target(name: "CheckoutCore", swiftSettings: strict),
        .target(name: "CheckoutFlows", dependencies: ["CheckoutCore"], swiftSettings: strict),
        .target(
            name: "CheckoutTesting",
            dependencies: ["CheckoutFlows", "CheckoutCore"],
            swiftSettings: strict
        ),
        .target(
            name: "CheckoutSimulatorTesting",
            dependencies: ["CheckoutSimulator", "CheckoutTesting", "CheckoutFlows"],
            swiftSettings: strict
        ),
        .target(name: "CheckoutWeb", dependencies: ["CheckoutCore"], swiftSettings: strict),
        .target(name: "CheckoutSimulator", dependencies: ["CheckoutFlows", "CheckoutCore"], swiftSettings: strict),
        .executableTarget(name: "checkout-sim", dependencies: ["CheckoutSimulator"], swiftSettings: strict),
        .executableTarget(
            name: "checkout-bench",
            dependencies: ["CheckoutSimulator", "CheckoutFlows", "CheckoutCore"],
            swiftSettings: strict
        ),
        .testTarget(name: "CheckoutCoreTests", dependencies: ["CheckoutCore"]),
        .testTarget(
            name: "CheckoutFlowsTests",
            dependencies: ["CheckoutFlows", "CheckoutCore", "CheckoutTesting"]
        ),
        .testTarget(
            name: "CheckoutTestingTests",
            dependencies: [
                "CheckoutTesting", "CheckoutSimulatorTesting", "CheckoutSimulator", "CheckoutFlows", "CheckoutCore",
            ]
        ),
        .testTarget(
            name: "CheckoutReliabilityTests",
            dependencies: ["CheckoutFlows", "CheckoutCore"]
        ),
        .testTarget(name: "CheckoutWebTests", dependencies: ["CheckoutWeb", "CheckoutCore"]),
        .testTarget(
            name: "CheckoutSimulatorTests",
            dependencies: ["CheckoutSimulator", "CheckoutFlows", "CheckoutCore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
