import CheckoutCore
import CheckoutWeb
import Foundation

/// One event a page forwards to the server, as one JSON object:
/// `{"session": "s1", "type": "shippingcontactselected", "shippingContact": {...}}`.
///
/// `type` is the `ApplePaySession` event's name without `on` (or a W3C `PaymentRequest` event's
/// name), and the event's own member sits beside it under Apple's name (``RelayEventType`` lists
/// them): `validationURL`, `shippingContact`, `shippingMethod`, `paymentMethod`, `couponCode`,
/// `payment`; `cancel` has none. The W3C events carry what the page reads from the request:
/// `shippingAddress` (a `PaymentAddress`), `shippingOption` (the option's identifier), and the
/// `PaymentMethodChangeEvent`'s `methodName` and `methodDetails`; after `show()` resolves, the
/// `PaymentResponse`'s `toJSON()` as `response`, and after a retry the response's `payerName`,
/// `payerEmail` and `payerPhone` (spec W7). Stripe's Express Checkout Element's events carry
/// the element's event as `event` (`{"type": "expresscheckout.shippingaddresschange", "event":
/// {"name": ..., "address": {...}}}`), and its `confirm` the PaymentMethod's id as
/// `paymentMethod`; Google Pay's callbacks are `googlepay.paymentdatachanged` with
/// `intermediatePaymentData` and `googlepay.paymentauthorized` with `paymentData` (spec W9).
///
/// Decoding follows the wire rules (spec W2): unknown keys are tolerated, a missing or unreadable
/// member is refused with its path, and an unknown `type` with its value.
public struct RelayEvent: Codable, Hashable, Sendable {
    /// What the event carries. Boxed: the wire values differ in size by hundreds of bytes (a
    /// payment's is 832 bytes inline), and a session keeps every event it took (spec W6).
    public indirect enum Payload: Hashable, Sendable {
        /// `validatemerchant`: the URL the merchant's server posts to for a merchant session.
        case validateMerchant(validationURL: String)
        /// `shippingcontactselected`: the contact, redacted by Apple Pay.
        case shippingContactSelected(ApplePayPaymentContact)
        /// `shippingmethodselected`: the method chosen.
        case shippingMethodSelected(ApplePayShippingMethod)
        /// `paymentmethodselected`: the card chosen.
        case paymentMethodSelected(ApplePayPaymentMethod)
        /// `couponcodechanged`: the code entered.
        case couponCodeChanged(String)
        /// `paymentauthorized`: the payment, with its token and full contacts.
        case paymentAuthorized(ApplePayPayment)
        /// `cancel`: the customer dismissed the sheet.
        case cancel
        /// W3C `shippingaddresschange`: the request's `shippingAddress`.
        case shippingAddressChange(PaymentAddress)
        /// W3C `shippingoptionchange`: the request's `shippingOption`.
        case shippingOptionChange(String)
        /// W3C `paymentmethodchange`: the method's identifier and details.
        case paymentMethodChange(methodName: String, methodDetails: JSONValue?)
        /// W3C `show()` resolved: the `PaymentResponse`'s `toJSON()` (spec W7).
        case paymentResponse(PaymentResponse)
        /// W3C `payerdetailchange` (after a retry): the response's payer details as they are now;
        /// a member absent is one the page did not send (spec W7).
        case payerDetailChange(payerName: String?, payerEmail: String?, payerPhone: String?)
        // Google Pay
        /// Google Pay's `onPaymentDataChanged`: its `IntermediatePaymentData` (spec W9).
        case googlePayPaymentDataChanged(GooglePayIntermediatePaymentData)
        /// Google Pay's `onPaymentAuthorized`: its `PaymentData` (spec W9).
        case googlePayPaymentAuthorized(GooglePayPaymentData)

        // Express Checkout Element
        /// The element's `click`.
        case expressCheckoutClick(ExpressCheckoutClickEvent)
        /// The element's `shippingaddresschange`: the partial address.
        case expressCheckoutShippingAddressChange(ExpressCheckoutShippingAddressChangeEvent)
        /// The element's `shippingratechange`: the rate chosen.
        case expressCheckoutShippingRateChange(ExpressCheckoutShippingRateChangeEvent)
        /// The element's `confirm`, with the id of the PaymentMethod the page created from the
        /// element (`stripe.createPaymentMethod({elements})`, spec W9).
        case expressCheckoutConfirm(ExpressCheckoutConfirmEvent, paymentMethod: String)

        /// The event's type.
        public var type: RelayEventType {
            switch self {
            case .validateMerchant: .validateMerchant
            case .shippingContactSelected: .shippingContactSelected
            case .shippingMethodSelected: .shippingMethodSelected
            case .paymentMethodSelected: .paymentMethodSelected
            case .couponCodeChanged: .couponCodeChanged
            case .paymentAuthorized: .paymentAuthorized
            case .cancel: .cancel
            case .shippingAddressChange: .shippingAddressChange
            case .shippingOptionChange: .shippingOptionChange
            case .paymentMethodChange: .paymentMethodChange
            case .paymentResponse: .paymentResponse
            case .payerDetailChange: .payerDetailChange
            // Express Checkout Element
            case .expressCheckoutClick: .expressCheckoutClick
            case .expressCheckoutShippingAddressChange: .expressCheckoutShippingAddressChange
            case .expressCheckoutShippingRateChange: .expressCheckoutShippingRateChange
            case .expressCheckoutConfirm: .expressCheckoutConfirm
            // Google Pay
            case .googlePayPaymentDataChanged: .googlePayPaymentDataChanged
            case .googlePayPaymentAuthorized: .googlePayPaymentAuthorized
            }
        }
    }

    /// The session's id, which the page sends with every event.
    public var session: String
    /// What the event carries.
    public var payload: Payload

    /// The event's type.
    public var type: RelayEventType { payload.type }

    /// An event of `session`.
    public init(session: String, _ payload: Payload) {
        self.session = session
        self.payload = payload
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case session, type, validationURL, shippingContact, shippingMethod, paymentMethod, couponCode, payment
        case shippingAddress, shippingOption, methodName, methodDetails, response, payerName, payerEmail, payerPhone
        // Express Checkout Element
        case event
        // Google Pay
        case intermediatePaymentData, paymentData
    }

    /// Whether `key` names a member the event reads besides `session` and `type`: what a session
    /// keeps of the page's bytes (``KeptEvent``).
    /// (By length first, then at most four comparisons: `CodingKeys(stringValue:)` hashes the key
    /// into a cache and a switch over all names compares with each, 2,000 instructions an event,
    /// BENCHMARKS.md; a test checks the names against ``CodingKeys``.)
    static func isPayloadMember(_ key: String) -> Bool {
        switch key.utf8.count {
        case 5: key == "event"
        case 7: key == "payment"
        case 8: key == "response"
        case 9: key == "payerName"
        case 10: key == "couponCode" || key == "methodName" || key == "payerEmail" || key == "payerPhone"
        case 11: key == "paymentData"
        case 13: key == "validationURL" || key == "paymentMethod" || key == "methodDetails"
        case 14: key == "shippingMethod" || key == "shippingOption"
        case 15: key == "shippingContact" || key == "shippingAddress"
        case 23: key == "intermediatePaymentData"
        default: false
        }
    }

    /// The names of every member an event reads, `session` and `type` among them.
    static var memberNames: [String] { CodingKeys.allCases.map(\.stringValue) }

    /// Decodes `{"session", "type", <the type's member>}`.
    ///
    /// - Throws: `DecodingError` naming `session`, `type` (with the unknown value) or the member.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decode(String.self, forKey: .session)
        let name = try container.decode(String.self, forKey: .type)
        guard let type = RelayEventType(rawValue: name) else {
            let known = RelayEventType.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "unknown event type \(name.debugDescription) (one of \(known))")
        }
        switch type {
        case .validateMerchant:
            payload = .validateMerchant(validationURL: try container.decode(String.self, forKey: .validationURL))
        case .shippingContactSelected:
            payload = .shippingContactSelected(
                try container.decode(ApplePayPaymentContact.self, forKey: .shippingContact))
        case .shippingMethodSelected:
            payload = .shippingMethodSelected(
                try container.decode(ApplePayShippingMethod.self, forKey: .shippingMethod))
        case .paymentMethodSelected:
            payload = .paymentMethodSelected(try container.decode(ApplePayPaymentMethod.self, forKey: .paymentMethod))
        case .couponCodeChanged:
            payload = .couponCodeChanged(try container.decode(String.self, forKey: .couponCode))
        case .paymentAuthorized:
            payload = .paymentAuthorized(try container.decode(ApplePayPayment.self, forKey: .payment))
        case .cancel:
            payload = .cancel
        case .shippingAddressChange:
            payload = .shippingAddressChange(try container.decode(PaymentAddress.self, forKey: .shippingAddress))
        case .shippingOptionChange:
            payload = .shippingOptionChange(try container.decode(String.self, forKey: .shippingOption))
        case .paymentMethodChange:
            payload = .paymentMethodChange(
                methodName: try container.decode(String.self, forKey: .methodName),
                methodDetails: try container.decodeIfPresent(JSONValue.self, forKey: .methodDetails))
        case .paymentResponse:
            payload = .paymentResponse(try container.decode(PaymentResponse.self, forKey: .response))
        case .payerDetailChange:
            let name = try container.decodeIfPresent(String.self, forKey: .payerName)
            let email = try container.decodeIfPresent(String.self, forKey: .payerEmail)
            let phone = try container.decodeIfPresent(String.self, forKey: .payerPhone)
            // Spec W2: an event with none of the three is not read as a change to nothing.
            if name == nil, email == nil, phone == nil {
                throw DecodingError.keyNotFound(
                    CodingKeys.payerName,
                    .init(
                        codingPath: container.codingPath,
                        debugDescription: "payerdetailchange carries none of payerName, payerEmail, payerPhone"))
            }
            payload = .payerDetailChange(payerName: name, payerEmail: email, payerPhone: phone)
        // Express Checkout Element
        case .expressCheckoutClick:
            payload = .expressCheckoutClick(try container.decode(ExpressCheckoutClickEvent.self, forKey: .event))
        case .expressCheckoutShippingAddressChange:
            payload = .expressCheckoutShippingAddressChange(
                try container.decode(ExpressCheckoutShippingAddressChangeEvent.self, forKey: .event))
        case .expressCheckoutShippingRateChange:
            payload = .expressCheckoutShippingRateChange(
                try container.decode(ExpressCheckoutShippingRateChangeEvent.self, forKey: .event))
        case .expressCheckoutConfirm:
            payload = .expressCheckoutConfirm(
                try container.decode(ExpressCheckoutConfirmEvent.self, forKey: .event),
                paymentMethod: try container.decode(String.self, forKey: .paymentMethod))
        // Google Pay
        case .googlePayPaymentDataChanged:
            payload = .googlePayPaymentDataChanged(
                try container.decode(GooglePayIntermediatePaymentData.self, forKey: .intermediatePaymentData))
        case .googlePayPaymentAuthorized:
            payload = .googlePayPaymentAuthorized(try container.decode(GooglePayPaymentData.self, forKey: .paymentData))
        }
    }

    /// Encodes the event as the page sends it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(type, forKey: .type)
        switch payload {
        case .validateMerchant(let url): try container.encode(url, forKey: .validationURL)
        case .shippingContactSelected(let contact): try container.encode(contact, forKey: .shippingContact)
        case .shippingMethodSelected(let method): try container.encode(method, forKey: .shippingMethod)
        case .paymentMethodSelected(let method): try container.encode(method, forKey: .paymentMethod)
        case .couponCodeChanged(let code): try container.encode(code, forKey: .couponCode)
        case .paymentAuthorized(let payment): try container.encode(payment, forKey: .payment)
        case .cancel: break
        case .shippingAddressChange(let address): try container.encode(address, forKey: .shippingAddress)
        case .shippingOptionChange(let option): try container.encode(option, forKey: .shippingOption)
        case .paymentMethodChange(let name, let details):
            try container.encode(name, forKey: .methodName)
            try container.encodeIfPresent(details, forKey: .methodDetails)
        case .paymentResponse(let response): try container.encode(response, forKey: .response)
        case .payerDetailChange(let name, let email, let phone):
            try container.encodeIfPresent(name, forKey: .payerName)
            try container.encodeIfPresent(email, forKey: .payerEmail)
            try container.encodeIfPresent(phone, forKey: .payerPhone)
        // Express Checkout Element
        case .expressCheckoutClick(let event): try container.encode(event, forKey: .event)
        case .expressCheckoutShippingAddressChange(let event): try container.encode(event, forKey: .event)
        case .expressCheckoutShippingRateChange(let event): try container.encode(event, forKey: .event)
        case .expressCheckoutConfirm(let event, let paymentMethod):
            try container.encode(event, forKey: .event)
            try container.encode(paymentMethod, forKey: .paymentMethod)
        // Google Pay
        case .googlePayPaymentDataChanged(let data): try container.encode(data, forKey: .intermediatePaymentData)
        case .googlePayPaymentAuthorized(let data): try container.encode(data, forKey: .paymentData)
        }
    }
}
