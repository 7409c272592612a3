import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends
import Synchronization

/// The order every benchmark checks out: a tea shop that ships by ground or express, takes a
/// ten-percent coupon and cards.
enum Shop {
    static let tea = SummaryItem(label: "Tea", amount: Money(minorUnits: 1_200, currency: .usd))
    static let ground = ShippingMethod(identifier: "ground", label: "Ground", amount: .zero(.usd))
    static let express = ShippingMethod(
        identifier: "express", label: "Express", amount: Money(minorUnits: 1_500, currency: .usd))
    static let methods = [ground, express]

    /// The summary for a shipping amount and a discount: goods, discount, shipping, total.
    /// The array is sized once, for the items it will hold.
    static func summary(shipping: Money, discount: Money? = nil) -> [SummaryItem] {
        var total = tea.amount
        var items: [SummaryItem] = []
        items.reserveCapacity(discount == nil ? 3 : 4)
        items.append(tea)
        if let discount {
            items.append(SummaryItem(label: "Coupon", amount: discount))
            total = (try? total + discount) ?? total
        }
        items.append(SummaryItem(label: "Shipping", amount: shipping))
        total = (try? total + shipping) ?? total
        items.append(SummaryItem(label: "Tea Shop", amount: total))
        return items
    }

    static let request = PaymentRequest(
        merchantIdentifier: "merchant.com.example.tea",
        countryCode: "US",
        currencyCode: "USD",
        requiredShippingContactFields: [.postalAddress],
        shippingMethods: methods,
        summaryItems: summary(shipping: ground.amount),
        supportsCouponCode: true
    )

    static let contact = Contact(
        name: "Grace Hopper",
        emailAddress: "grace@example.com",
        postalAddress: Address(
            line1: "1 Main St", city: "Austin", state: "TX", postalCode: "78701",
            country: try? CountryCode("US"))
    )

    static let card = PaymentMethod(displayName: "Visa 4242", network: .visa, type: .credit)

    static let token = PaymentToken(
        paymentMethod: card, transactionIdentifier: "tx-4242", paymentData: StripeTestCard.success.rawValue)

    static let shippingConfiguration = ShippingAddressConfiguration(requiredShippingAddressFields: [.postalAddress])
}

/// A merchant that answers every callback at once, on the calling thread, and prices the order as
/// a real shop would: each update is a new summary computed from the selection (an array of
/// summary items and money arithmetic). The round-trip baseline calls these same methods.
final class Merchant: ShippingAddressDelegate, PaymentAuthorizationDelegate, PayContextDelegate {
    /// Counts the terminal calls, so that a benchmark can check every session ended.
    let finished = Counter()

    // MARK: Shipping address

    func shippingAddressFlowDidCancel(_ flow: ShippingAddressFlow) { finished.increment() }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow,
        didEnter address: Contact,
        completion: @escaping @Sendable (ShippingAddressValidation) -> Void
    ) {
        guard address.postalAddress?.country?.code == "US" else {
            return completion(.invalid(message: "We ship to the US only"))
        }
        completion(.valid(shippingMethods: Shop.methods, selected: nil))
    }

    func shippingAddressFlow(
        _ flow: ShippingAddressFlow, didFinishWith address: Contact, shippingMethod: ShippingMethod?
    ) {
        finished.increment()
    }

    // MARK: Payment authorization

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) { finished.increment() }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        handler(payment.shippingContact == nil ? PaymentAuthorizationResult(status: .failure) : .success)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        handler(Self.contactUpdate(contact))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        handler(ShippingMethodUpdate(summaryItems: Shop.summary(shipping: method.amount)))
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didChangeCouponCode code: String,
        handler: @escaping @Sendable (CouponCodeUpdate) -> Void
    ) {
        handler(Self.couponUpdate(code))
    }

    static func contactUpdate(_ contact: Contact) -> ShippingContactUpdate {
        if contact.postalAddress?.state == "AK" {
            let error = PaymentError.shippingAddressUnserviceable("We do not ship to Alaska")
            return ShippingContactUpdate(errors: [error], summaryItems: Shop.summary(shipping: Shop.ground.amount))
        }
        return ShippingContactUpdate(summaryItems: Shop.summary(shipping: Shop.ground.amount))
    }

    static func couponUpdate(_ code: String) -> CouponCodeUpdate {
        guard code == "TEN" else {
            return CouponCodeUpdate(
                errors: [.couponCodeInvalid("\(code) is not a coupon code")],
                summaryItems: Shop.summary(shipping: Shop.express.amount))
        }
        let discount = Money(minorUnits: -Shop.tea.amount.minorUnits / 10, currency: .usd)
        return CouponCodeUpdate(summaryItems: Shop.summary(shipping: Shop.express.amount, discount: discount))
    }

    // MARK: Pay context

    func payContext(
        _ context: PayContext,
        didCreatePaymentMethod paymentMethod: StripePaymentMethod,
        paymentInformation: Payment,
        completion: @escaping @Sendable (IntentAnswer) -> Void
    ) {
        guard let stripe = context.backend as? InMemoryStripeBackend,
            let total = context.sheet.sheet?.grandTotal
        else {
            return completion(.failure(CheckoutError(code: .invalidField, message: "no backend")))
        }
        do {
            completion(.secret(try stripe.createPaymentIntent(amount: total)))
        } catch {
            completion(.failure(error))
        }
    }

    func payContext(_ context: PayContext, didCompleteWith status: PaymentStatus, error: (any Error)?) {
        finished.increment()
    }

    func payContext(
        _ context: PayContext,
        didSelectShippingContact contact: Contact,
        handler: @escaping @Sendable (ShippingContactUpdate) -> Void
    ) {
        handler(Self.contactUpdate(contact))
    }
}

/// A merchant whose shipping-method answers are built once, before the benchmark: what a round
/// trip costs with it is the engine's cost (and the delegate call's), without the merchant's own
/// pricing.
final class PrebuiltMerchant: PaymentAuthorizationDelegate {
    let updates = [
        ShippingMethodUpdate(summaryItems: Shop.summary(shipping: Shop.ground.amount)),
        ShippingMethodUpdate(summaryItems: Shop.summary(shipping: Shop.express.amount)),
    ]

    func paymentAuthorizationFlowDidFinish(_ flow: PaymentAuthorizationFlow) {}

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didAuthorizePayment payment: Payment,
        handler: @escaping @Sendable (PaymentAuthorizationResult) -> Void
    ) {
        handler(.success)
    }

    func paymentAuthorizationFlow(
        _ flow: PaymentAuthorizationFlow,
        didSelectShippingMethod method: ShippingMethod,
        handler: @escaping @Sendable (ShippingMethodUpdate) -> Void
    ) {
        handler(updates[method.identifier == "express" ? 1 : 0])
    }
}

/// The merchants the round trip measures, behind the existential every flow calls through.
enum Merchants {
    /// Which merchant answers.
    enum Kind: Int, CaseIterable {
        /// The shop: each answer a new summary (``Merchant``).
        case shop
        /// Answers built beforehand (``PrebuiltMerchant``): the engine's own cost.
        case prebuilt
    }

    private static let pool: [any PaymentAuthorizationDelegate] = [Merchant(), PrebuiltMerchant()]

    /// The merchant of `kind` as an existential whose concrete type the optimizer cannot know: it
    /// is read from an array of two types at an index known only at run time, so a baseline
    /// called with it makes the delegate call through the witness table and hands it a real
    /// escaping completion (a heap context), as a flow does. (Given the concrete type, the
    /// compiler specializes the baseline for it and inlines the merchant and its completion.)
    @inline(never)
    static func opaque(_ kind: Kind) -> any PaymentAuthorizationDelegate { pool[kind.rawValue] }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)

    func increment() { atomic.add(1, ordering: .relaxed) }
    var count: Int { atomic.load(ordering: .relaxed) }
}
