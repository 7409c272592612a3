import CheckoutWebRelay
import Foundation

/// The events of one whole Apple Pay session, as a page forwards them to a relay: the customer
/// picks a (redacted) shipping contact, the express method, a card, enters the coupon `TEN`, and
/// authorizes with a token and the full shipping contact. The relay benchmark and its baseline
/// read the same bytes.
enum RelayPage {
    /// The five event types, in the order a session sends them.
    static let eventTypes = [
        "shippingcontactselected", "shippingmethodselected", "paymentmethodselected", "couponcodechanged",
        "paymentauthorized",
    ]

    /// How many events a session sends.
    static var eventsPerSession: Int { eventTypes.count }

    /// The five events of session `id`, as JSON bytes.
    static func events(session id: String) -> [Data] {
        let members = [
            #""shippingContact": {"locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}"#,
            #""shippingMethod": {"label": "Express", "detail": "Next day", "amount": "15.00", "identifier": "express"}"#,
            #""paymentMethod": {"displayName": "Visa 4242", "network": "Visa", "type": "credit"}"#,
            #""couponCode": "TEN""#,
            #""payment": {"token": {"paymentMethod": {"displayName": "Visa 4242", "network": "Visa", "type": "credit"}, "transactionIdentifier": "tx-4242", "paymentData": {"version": "EC_v1", "data": "Y2lwaGVy", "signature": "c2lnbmF0dXJl"}}, "shippingContact": {"givenName": "Grace", "familyName": "Hopper", "emailAddress": "grace@example.com", "addressLines": ["1 Main St"], "locality": "Austin", "administrativeArea": "TX", "postalCode": "78701", "countryCode": "US"}}"#,
        ]
        return zip(eventTypes, members).map { type, member in
            Data(#"{"session": "\#(id)", "type": "\#(type)", \#(member)}"#.utf8)
        }
    }

    /// `count` sessions' ids (random, as a page makes them) and their events.
    static func sessions(_ count: Int) -> [(id: String, events: [Data])] {
        (0..<count).map { _ in
            let id = SessionID.random()
            return (id, events(session: id))
        }
    }
}
