import CheckoutCore
import CheckoutStripe
import Foundation
import XCTest

/// Spec P10: an event's object is typed where the package has a type for it and kept whole where
/// not; `previous_attributes` and `request` are read; the event comes back from a round trip as
/// the same JSON. Events are Stripe's `event` fixture with its `data.object` replaced by Stripe's
/// `payment_intent`, `setup_intent`, `charge` or `payment_method` fixture (stripe/openapi
/// `openapi/fixtures3.json`).
final class StripeEventTests: XCTestCase {
    private func fixture(_ name: String) throws -> [String: Any] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    private func event(
        _ type: String, about objectFixture: String, previous: [String: Any]? = nil, request: Any? = nil
    ) throws -> (StripeEvent, Data) {
        var json = try fixture("event")
        json["type"] = type
        var data: [String: Any] = ["object": try fixture(objectFixture)]
        if let previous { data["previous_attributes"] = previous }
        json["data"] = data
        if let request { json["request"] = request }
        json["api_version"] = "2024-06-20"
        let body = try JSONSerialization.data(withJSONObject: json)
        let event = try JSONDecoder().decode(StripeEvent.self, from: body)
        let sorted = { (data: Data) in
            try JSONSerialization.data(
                withJSONObject: try JSONSerialization.jsonObject(with: data), options: [.sortedKeys])
        }
        XCTAssertEqual(
            String(decoding: try sorted(try JSONEncoder().encode(event)), as: UTF8.self),
            String(decoding: try sorted(body), as: UTF8.self), "the event comes back whole")
        return (event, body)
    }

    func testAPaymentIntentEventCarriesTheTypedIntentAndWhatChanged() throws {
        let (event, _) = try event(
            "payment_intent.succeeded", about: "payment_intent", previous: ["status": "requires_confirmation"],
            request: ["id": "req_8Xn0x3sTXqKcFs", "idempotency_key": "4d5a0c2e-order-6735"])
        XCTAssertEqual(event.type, .paymentIntentSucceeded)
        XCTAssertEqual(event.apiVersion, "2024-06-20")
        guard case .intent(let intent) = event.data.object else { return XCTFail("\(event.data.object)") }
        XCTAssertEqual(intent.id, "pi_1PgafyB7WZ01zgkWSjxsAJo3")
        XCTAssertEqual(intent.amount, Money(minorUnits: 1_099, currency: .usd))
        XCTAssertEqual(event.data.previousAttributes?["status"], .string("requires_confirmation"))
        XCTAssertEqual(event.request?.id, "req_8Xn0x3sTXqKcFs")
        XCTAssertEqual(event.request?.idempotencyKey, "4d5a0c2e-order-6735")
    }

    func testSetupIntentChargeAndPaymentMethodEventsAreTyped() throws {
        guard case .intent(let setup) = try event("setup_intent.succeeded", about: "setup_intent").0.data.object else {
            return XCTFail("a SetupIntent is typed")
        }
        XCTAssertEqual(setup.kind, .setupIntent)
        let refunded = try event("charge.refunded", about: "charge").0
        XCTAssertEqual(refunded.type, .chargeRefunded)
        guard case .charge(let charge) = refunded.data.object else { return XCTFail("a Charge is typed") }
        XCTAssertEqual(charge.id, "ch_1PgafuB7WZ01zgkWXYmPNZs8")
        XCTAssertEqual(charge.amountRefunded, 0)
        guard
            case .paymentMethod(let method) = try event("payment_method.attached", about: "payment_method").0.data
                .object
        else { return XCTFail("a PaymentMethod is typed") }
        XCTAssertEqual(method.card?.last4, "4242")
    }

    func testAnOldAPIVersionsRequestIdAloneReadsTheSame() throws {
        let (event, _) = try event("payment_intent.created", about: "payment_intent")
        XCTAssertEqual(event.request?.id, nil)
        var json = try fixture("event")
        json["request"] = "req_old"
        let old = try JSONDecoder().decode(StripeEvent.self, from: try JSONSerialization.data(withJSONObject: json))
        XCTAssertEqual(old.request, StripeEvent.Request(id: "req_old"))
    }

    func testAnObjectOfAKnownKindThatDoesNotReadIsRefusedWithItsPath() throws {
        var json = try fixture("event")
        var intent = try fixture("payment_intent")
        intent["status"] = 7
        json["data"] = ["object": intent]
        XCTAssertThrowsError(
            try JSONDecoder().decode(StripeEvent.self, from: try JSONSerialization.data(withJSONObject: json))
        ) { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["data", "object", "status"])
        }
        json["object"] = "charge"
        json["data"] = ["object": ["object": "plan", "id": "price_1"]]
        XCTAssertThrowsError(
            try JSONDecoder().decode(StripeEvent.self, from: try JSONSerialization.data(withJSONObject: json)),
            "an event's object field must be event")
    }
}
