// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Checkout",
    products: [
        .library(name: "CheckoutCore", targets: ["CheckoutCore"])
    ],
    targets: [
        .target(
            name: "CheckoutCore",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "CheckoutCoreTests",
            dependencies: ["CheckoutCore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
