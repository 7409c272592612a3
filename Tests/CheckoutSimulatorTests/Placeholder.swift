import XCTest

@testable import CheckoutSimulator

final class PlaceholderSimulatorTests: XCTestCase {}
