import CheckoutCore
import CheckoutFlows
import CheckoutWeb
import CheckoutWebRelay
import Foundation
import XCTest

/// Spec W1, W2: what the page sent and the flow's models cannot carry is named in the session's
/// transcript, not dropped in silence.
final class WireMembersNotPassedOnTests: XCTestCase {
    func testMembersWithoutACoreCounterpartAreNamedInTheTranscript() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        try relay.open("n1", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let contact = try Page.event(
            #"{"session": "n1", "type": "shippingcontactselected", "shippingContact": {"locality": "Tokyo", "administrativeArea": "Tokyo", "postalCode": "100-0001", "countryCode": "JP", "country": "Japan"}}"#
        )
        _ = await relay.handle(contact)
        let plain = await relay.handle(try Page.contact("n1"))
        XCTAssertNotNil(plain.completion, "\(plain)")
        let text = try XCTUnwrap(relay.session("n1")).transcript.text()
        XCTAssertTrue(text.contains("relay.notPassedOn"), text)
        XCTAssertTrue(text.contains("shippingContact.country"), text)
        XCTAssertFalse(text.contains("Japan"), "the paths are named, not the values")
        let notes = text.components(separatedBy: "relay.notPassedOn").count - 1
        XCTAssertEqual(notes, 1, "a contact with nothing extra leaves no note")
    }
}
