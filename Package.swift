// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Checkout",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CheckoutCore", targets: ["CheckoutCore"]),
        .library(name: "CheckoutFlows", targets: ["CheckoutFlows"]),
    ],
    targets: [
        .target(name: "CheckoutCore", swiftSettings: strict),
        .target(name: "CheckoutFlows", dependencies: ["CheckoutCore"], swiftSettings: strict),
        .testTarget(name: "CheckoutCoreTests", dependencies: ["CheckoutCore"]),
        .testTarget(name: "CheckoutFlowsTests", dependencies: ["CheckoutFlows", "CheckoutCore"]),
    ],
    swiftLanguageModes: [.v6]
)
