import CheckoutCore
import CheckoutStripe
import CheckoutStripeBackends
import Foundation
import XCTest

/// Spec W2: Stripe's address is `line1`, `line2`, `city`, `state`, `postal_code`, `country` and
/// its contact has no organisation. What the core holds beyond that is folded into the field
/// whose meaning in Stripe's API covers it, never dropped: the sub-locality and the
/// sub-administrative area into `line2`, the sorting code into `city`, the organisation into the
/// name.
final class StripeAddressFoldingTests: XCTestCase {
    private let paris = Address(
        line1: "8 rue de l'Elysée", line2: "Bât. B", city: "Paris", state: "IDF", postalCode: "75008", country: .fr,
        subLocality: "8e Arrondissement", subAdministrativeArea: "Paris", sortingCode: "CEDEX 08")

    // spec W2: each member lands in its documented place; the street, the state, the postal code
    // and the country, which Stripe checks and taxes by, are untouched.
    func testEachMemberIsFoldedIntoItsPlace() {
        let folded = paris.foldedForStripe
        XCTAssertEqual(folded.line1, "8 rue de l'Elysée")
        XCTAssertEqual(folded.line2, "Bât. B, 8e Arrondissement, Paris")
        XCTAssertEqual(folded.city, "Paris CEDEX 08")
        XCTAssertEqual(folded.state, "IDF")
        XCTAssertEqual(folded.postalCode, "75008")
        XCTAssertEqual(folded.country, .fr)
        XCTAssertNil(folded.subLocality)
        XCTAssertNil(folded.subAdministrativeArea)
        XCTAssertNil(folded.sortingCode)
        // Without a second line or a city the member stands alone; blank members fold into nothing.
        let bare = Address(country: .fr, subLocality: "8e Arrondissement", subAdministrativeArea: " ", sortingCode: "")
        XCTAssertEqual(bare.foldedForStripe, Address(line2: "8e Arrondissement", country: .fr))
        let plain = Address(line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701", country: .us)
        XCTAssertEqual(plain.foldedForStripe, plain, "an address in Stripe's fields is unchanged")
        XCTAssertEqual(paris.foldedForStripe.foldedForStripe, paris.foldedForStripe)
    }

    // spec W2: the organisation is folded after the name, or stands for it.
    func testTheOrganizationIsFoldedIntoTheName() {
        XCTAssertEqual(Contact(name: "Ravi Patel", organizationName: "Tea & Co").stripeName, "Ravi Patel, Tea & Co")
        XCTAssertEqual(Contact(organizationName: "Tea & Co").stripeName, "Tea & Co")
        XCTAssertEqual(Contact(name: "Ravi Patel", organizationName: "  ").stripeName, "Ravi Patel")
        XCTAssertNil(Contact().stripeName)
    }

    // spec W2: Stripe's shipping hash holds the folded address and name, however it is made, and
    // its JSON has only Stripe's keys.
    func testShippingDetailsHoldWhatStripeHolds() throws {
        let contact = Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: paris)
        let shipping = try XCTUnwrap(ShippingDetails(contact))
        XCTAssertEqual(shipping.name, "Ravi Patel, Tea & Co")
        XCTAssertEqual(shipping.address, paris.foldedForStripe)
        XCTAssertEqual(ShippingDetails(name: "Ravi Patel, Tea & Co", address: paris), shipping)
        var set = ShippingDetails(name: "Ravi Patel, Tea & Co", address: Address(country: .fr))
        set.address = paris
        XCTAssertEqual(set, shipping)
        XCTAssertEqual(
            ShippingDetails(Contact(organizationName: "Tea & Co", postalAddress: paris))?.name, "Tea & Co",
            "an organisation without a name is the recipient")

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try JSONSerialization.jsonObject(with: encoder.encode(shipping)) as? [String: Any]
        let address = try XCTUnwrap(json?["address"] as? [String: String])
        XCTAssertEqual(Set(address.keys), ["line1", "line2", "city", "state", "postal_code", "country"])
        XCTAssertEqual(address["line2"], "Bât. B, 8e Arrondissement, Paris")
        XCTAssertEqual(address["city"], "Paris CEDEX 08")
        let decoded = try JSONDecoder().decode(ShippingDetails.self, from: encoder.encode(shipping))
        XCTAssertEqual(decoded, shipping, "what Stripe sends back is what was sent")
    }

    // spec W2: a billing address with its own members is written folded too.
    func testBillingDetailsAreWrittenFolded() throws {
        let billing = StripeBillingDetails(name: "Ravi Patel", address: paris)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(billing)) as? [String: Any]
        let address = try XCTUnwrap(json?["address"] as? [String: String])
        XCTAssertEqual(Set(address.keys), ["line1", "line2", "city", "state", "postal_code", "country"])
        XCTAssertEqual(address["city"], "Paris CEDEX 08")
    }

    // spec W2: the form StripeHTTPBackend sends carries the folded billing details and shipping.
    func testTheHTTPBackendSendsTheFoldedFields() async throws {
        let stripe = try FaultyStripe()
        defer { stripe.stop() }
        let backend = StripeHTTPBackend(
            configuration: .init(
                apiKey: try StripeAPIKey("sk_test_4eC39HqLyjWDarjtT1zdp7dc"), baseURL: stripe.url, retry: .never))
        let contact = Contact(name: "Ravi Patel", organizationName: "Tea & Co", postalAddress: paris)
        let payment = Payment(
            token: PaymentToken(
                paymentMethod: PaymentMethod(network: .visa, type: .credit), transactionIdentifier: "tx",
                paymentData: "4242424242424242"),
            billingContact: contact)
        _ = try await backend.createConfirmationToken(
            from: payment, options: StripeConfirmOptions(), shipping: ShippingDetails(contact))
        let form = try XCTUnwrap(stripe.attempts.last).form
        XCTAssertEqual(form["payment_method_data[billing_details][name]"], "Ravi Patel, Tea & Co")
        XCTAssertEqual(
            form["payment_method_data[billing_details][address][line2]"], "Bât. B, 8e Arrondissement, Paris")
        XCTAssertEqual(form["payment_method_data[billing_details][address][city]"], "Paris CEDEX 08")
        XCTAssertEqual(form["payment_method_data[billing_details][address][line1]"], "8 rue de l'Elysée")
        XCTAssertEqual(form["shipping[name]"], "Ravi Patel, Tea & Co")
        XCTAssertEqual(form["shipping[address][line2]"], "Bât. B, 8e Arrondissement, Paris")
        XCTAssertEqual(form["shipping[address][city]"], "Paris CEDEX 08")
        XCTAssertNil(form.keys.first { $0.contains("sub_") || $0.contains("sorting") || $0.contains("organization") })
    }
}
