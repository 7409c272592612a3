import CheckoutCore
import CheckoutFlows
import XCTest

@testable import CheckoutWebRelay

/// What an idle session keeps, made small between events (its transcript packed, the session's
/// state in its own allocation, the delegate held by the flow alone), keeps what the customer and
/// the merchant did as they did it.
final class IdleSessionTests: XCTestCase {
    // spec E5: the merchant is let go of when the flow ends, though the server still holds the
    // session; a resumed session's merchant too (the resume holds the replay script only while
    // it replays).
    func testTheMerchantIsLetGoOfAtTheFlowsEndWhileTheSessionIsHeld() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        weak var weakMerchant: ShopMerchant?
        do {
            let merchant = ShopMerchant()
            weakMerchant = merchant
            try relay.open("s", request: Shop.request, merchant: .authorization(delegate: merchant))
        }
        _ = await relay.handle(try Page.contact("s"))
        let session = try XCTUnwrap(relay.session("s"))
        XCTAssertNotNil(weakMerchant, "the merchant of a flow under way")
        _ = await relay.handle(try Page.cancel("s"))
        await session.flow.sheet.waitUntilEnded()
        XCTAssertTrue(session.isEnded)
        XCTAssertNil(weakMerchant, "the merchant outlived the flow's end")

        let opener = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        try opener.open("t", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        _ = await opener.handle(try Page.contact("t"))
        let sealed = try opener.snapshot("t")
        let resumer = WebRelay(options: RelayOptions(clock: ManualClock(), snapshotKey: Shop.key))
        weak var weakResumedMerchant: ShopMerchant?
        let resumed: RelaySession
        do {
            let merchant = ShopMerchant()
            weakResumedMerchant = merchant
            resumed = try await resumer.resume(sealed, merchant: .authorization(delegate: merchant))
        }
        XCTAssertNotNil(weakResumedMerchant, "the merchant of a resumed flow under way")
        _ = await resumer.handle(try Page.cancel("t"))
        await resumed.flow.sheet.waitUntilEnded()
        XCTAssertNil(weakResumedMerchant, "the resumed merchant outlived the flow's end")
        withExtendedLifetime(session) {}
        withExtendedLifetime(resumed) {}
    }

    // spec E8: two events whose contacts differ only in how their text is composed ("ü" as one
    // scalar, and as "u" and a combining diaeresis, which `==` calls equal) each read back, after
    // the session's transcript is packed, as the page sent it.
    func testContactsDifferingOnlyInTheirScalarsReadBackAsSent() async throws {
        let relay = WebRelay(options: RelayOptions(clock: ManualClock()))
        try relay.open("s", request: Shop.request, merchant: .authorization(delegate: ShopMerchant()))
        let localities = ["Mu\u{308}nchen", "M\u{FC}nchen", "M\u{FC}nchen"]
        for locality in localities {
            _ = await relay.handle(
                try Page.event(
                    #"{"session": "s", "type": "shippingcontactselected", "shippingContact": {"locality": "\#(locality)", "#
                        + #""administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}"#))
        }
        let session = try XCTUnwrap(relay.session("s"))
        func scalars(_ text: String?) -> [UInt32] { text?.unicodeScalars.map(\.value) ?? [] }
        var recorded: [[UInt32]] = []
        for entry in session.flowTranscript.entries {
            switch entry.event {
            case .action("selectShippingContact", let values), .call(_, _, let values):
                if case .contact(let contact)? = values.first { recorded.append(scalars(contact.postalAddress?.city)) }
            default: break
            }
        }
        // Each event's action and its call.
        XCTAssertEqual(recorded, localities.flatMap { [scalars($0), scalars($0)] })
    }
}
