import CheckoutCore
import CheckoutStripe
import XCTest

/// Stripe's shipping requires a name and an address: a contact without either gives none, as
/// stripe-ios sends none then.
final class ShippingDetailsTests: XCTestCase {
    private let address = Address(line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: .us)

    func testAContactWithoutANameGivesNoShipping() {
        XCTAssertNil(ShippingDetails(Contact(postalAddress: address)))
        XCTAssertNil(ShippingDetails(Contact(name: "  ", postalAddress: address)))
        XCTAssertNil(ShippingDetails(Contact(name: "Jenny Rosen")))
        XCTAssertNil(ShippingDetails(nil))
        XCTAssertEqual(
            ShippingDetails(Contact(name: "Jenny Rosen", postalAddress: address)),
            ShippingDetails(name: "Jenny Rosen", address: address))
    }
}
