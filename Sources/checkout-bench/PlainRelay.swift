import CheckoutCore
import CheckoutFlows
import Foundation

/// The relay benchmark's honest baseline: what a server without a flow does with the same events.
/// It decodes each event's bytes into plain `Codable` structs (synthesized conformances, written
/// for it), asks the same merchant through the same delegate methods (an existential the optimizer
/// cannot see through, as ``Merchants/opaque(_:)``), keeps the little state it needs to answer
/// (the summary shown, for the card change, which the merchant does not answer), and encodes the
/// same answers, byte for byte, with plain structs. No flow, validation, lock, deadline or
/// transcript.
final class PlainRelay: @unchecked Sendable {
    // Unchecked: one task uses a PlainRelay at a time (the merchant answers synchronously).

    /// What a session keeps between events: the summary the sheet shows.
    final class Session {
        var summaryItems: [SummaryItem] = Shop.request.summaryItems
    }

    private let merchant: any PaymentAuthorizationDelegate
    /// The flow handed to the merchant's methods as their first argument (they ignore it).
    private let argumentFlow: PaymentAuthorizationFlow
    private let decoder = JSONDecoder()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    init(merchant: any PaymentAuthorizationDelegate, argumentFlow: PaymentAuthorizationFlow) {
        self.merchant = merchant
        self.argumentFlow = argumentFlow
    }

    /// The reply's bytes to one event's bytes, or empty bytes for an event it cannot read.
    func handle(json: Data, session: Session) -> Data {
        guard let event = try? decoder.decode(PlainEvent.self, from: json) else { return Data() }
        let reply: (complete: String, argument: PlainArgument)
        switch event.type {
        case "shippingcontactselected":
            guard let contact = event.shippingContact?.core(redacted: true) else { return Data() }
            let answer = Answer<ShippingContactUpdate>()
            merchant.paymentAuthorizationFlow(argumentFlow, didSelectShippingContact: contact) { answer.value = $0 }
            guard let update = answer.value else { return Data() }
            session.summaryItems = update.summaryItems
            reply = ("completeShippingContactSelection", .update(PlainUpdate(update.summaryItems, update.errors)))
        case "shippingmethodselected":
            guard let identifier = event.shippingMethod?.identifier,
                let method = Shop.methods.first(where: { $0.identifier == identifier })
            else { return Data() }
            let answer = Answer<ShippingMethodUpdate>()
            merchant.paymentAuthorizationFlow(argumentFlow, didSelectShippingMethod: method) { answer.value = $0 }
            guard let update = answer.value else { return Data() }
            session.summaryItems = update.summaryItems
            reply = ("completeShippingMethodSelection", .update(PlainUpdate(update.summaryItems, nil)))
        case "paymentmethodselected":
            // The shop's merchant does not answer a card change: the summary stays.
            guard event.paymentMethod != nil else { return Data() }
            reply = ("completePaymentMethodSelection", .update(PlainUpdate(session.summaryItems, [])))
        case "couponcodechanged":
            guard let code = event.couponCode else { return Data() }
            let answer = Answer<CouponCodeUpdate>()
            merchant.paymentAuthorizationFlow(argumentFlow, didChangeCouponCode: code) { answer.value = $0 }
            guard let update = answer.value else { return Data() }
            session.summaryItems = update.summaryItems
            reply = ("completeCouponCodeChange", .update(PlainUpdate(update.summaryItems, update.errors)))
        case "paymentauthorized":
            guard let payment = event.payment?.core() else { return Data() }
            let answer = Answer<PaymentAuthorizationResult>()
            merchant.paymentAuthorizationFlow(argumentFlow, didAuthorizePayment: payment) { answer.value = $0 }
            guard let result = answer.value else { return Data() }
            reply = ("completePayment", .result(PlainResult(status: Int(result.status.rawValue), errors: nil)))
        default:
            return Data()
        }
        let plain = PlainReply(
            session: event.session, type: event.type, complete: reply.complete, argument: reply.argument)
        return (try? encoder.encode(plain)) ?? Data()
    }

    /// Where a merchant's completion leaves its answer.
    private final class Answer<Value>: @unchecked Sendable {
        // Unchecked: the merchant answers at once, on the calling thread.
        var value: Value?
    }
}

// MARK: The plain structs

/// An event: every type's member optional, the type a string.
struct PlainEvent: Decodable {
    var session: String
    var type: String
    var shippingContact: PlainContact?
    var shippingMethod: PlainShippingMethod?
    var paymentMethod: PlainPaymentMethod?
    var couponCode: String?
    var payment: PlainPayment?
}

struct PlainContact: Decodable {
    var givenName: String?
    var familyName: String?
    var emailAddress: String?
    var phoneNumber: String?
    var addressLines: [String]?
    var locality: String?
    var administrativeArea: String?
    var postalCode: String?
    var countryCode: String?

    /// The contact the merchant's methods take.
    func core(redacted: Bool) -> Contact {
        let name = [givenName, familyName].compactMap { $0 }.joined(separator: " ")
        let address = Address(
            line1: addressLines?.first, city: locality, state: administrativeArea, postalCode: postalCode,
            country: countryCode.flatMap { try? CountryCode($0) })
        return Contact(
            name: name.isEmpty ? nil : name, emailAddress: emailAddress, phoneNumber: phoneNumber,
            postalAddress: address, isRedacted: redacted)
    }
}

struct PlainShippingMethod: Decodable {
    var label: String
    var detail: String?
    var amount: String
    var identifier: String
}

struct PlainPaymentMethod: Decodable {
    var displayName: String?
    var network: String?
    var type: String?

    var core: PaymentMethod {
        PaymentMethod(
            displayName: displayName, network: network.map { PaymentNetwork(rawValue: $0.lowercased()) },
            type: type.flatMap(PaymentMethodType.init(rawValue:)) ?? .unknown)
    }
}

struct PlainPaymentData: Decodable {
    var version: String
    var data: String
    var signature: String
}

struct PlainToken: Decodable {
    var paymentMethod: PlainPaymentMethod
    var transactionIdentifier: String
    var paymentData: PlainPaymentData
}

struct PlainPayment: Decodable {
    var token: PlainToken
    var billingContact: PlainContact?
    var shippingContact: PlainContact?

    /// The payment the merchant's method takes.
    func core() -> Payment {
        Payment(
            token: PaymentToken(
                paymentMethod: token.paymentMethod.core, transactionIdentifier: token.transactionIdentifier,
                paymentData: token.paymentData.data),
            billingContact: billingContact?.core(redacted: false),
            shippingContact: shippingContact?.core(redacted: false))
    }
}

/// A reply: `{"session", "type", "complete", "argument"}`.
struct PlainReply: Encodable {
    var session: String
    var type: String
    var complete: String
    var argument: PlainArgument
}

/// A reply's argument: an update or an authorization result.
enum PlainArgument: Encodable {
    case update(PlainUpdate)
    case result(PlainResult)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .update(let update): try update.encode(to: encoder)
        case .result(let result): try result.encode(to: encoder)
        }
    }
}

struct PlainLineItem: Encodable {
    var label: String
    var amount: String
    var type: String

    init(_ item: SummaryItem) {
        label = item.label
        amount = item.amount.amountString
        type = item.type == .pending ? "pending" : "final"
    }
}

struct PlainError: Encodable {
    var code: String
    var message: String
}

/// An update's answer: the last summary item is the new total, the others the new lines.
struct PlainUpdate: Encodable {
    var newTotal: PlainLineItem
    var newLineItems: [PlainLineItem]
    /// Absent from the answers whose update has no errors of its own (a method's, a card's).
    var errors: [PlainError]?

    init(_ items: [SummaryItem], _ errors: [PaymentError]?) {
        newTotal = PlainLineItem(items[items.count - 1])
        newLineItems = items.dropLast().map(PlainLineItem.init)
        self.errors = errors?.map { PlainError(code: "\($0.code)", message: $0.message) }
    }
}

struct PlainResult: Encodable {
    var status: Int
    /// Absent for a success without errors.
    var errors: [PlainError]?
}
