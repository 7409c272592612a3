import CheckoutCore
import CheckoutFlows
import CheckoutPayContext
import CheckoutStripeBackends

/// (2) Whole sessions, one after another, with default options (30-second deadlines on the shared
/// system clock, transcripts on) and a merchant that answers at once:
///
/// - shipping address: present, enter an address, pick express, done;
/// - authorization: present, select a contact, pick express, enter a coupon, authorize;
/// - pay context: present, select a contact, authorize; the in-memory Stripe backend creates the
///   payment method, the merchant creates the intent, the backend retrieves and confirms it, and
///   the driver waits for `didComplete`.
///
/// The two synchronous flows are timed in the CPU time of the calling thread; the pay context,
/// whose backend calls run as tasks on other threads, in wall time.
enum SessionsBench {
    @inline(never)
    static func shipping(_ count: Int, _ merchant: Merchant) -> UInt64 {
        let start = Clocks.threadCPU()
        for _ in 0..<count {
            guard let flow = try? ShippingAddressFlow(configuration: Shop.shippingConfiguration, delegate: merchant)
            else { fatalError("the configuration is valid") }
            flow.present()
            flow.enterAddress(Shop.contact)
            flow.selectShippingMethod("express")
            flow.done()
        }
        return Clocks.threadCPU() - start
    }

    @inline(never)
    static func authorization(_ count: Int, _ merchant: Merchant) -> UInt64 {
        let start = Clocks.threadCPU()
        for _ in 0..<count {
            let flow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: merchant)
            flow.present()
            flow.selectShippingContact(Shop.contact)
            flow.selectShippingMethod("express")
            flow.changeCouponCode("TEN")
            flow.authorize(Shop.token)
        }
        return Clocks.threadCPU() - start
    }

    static func payContext(_ count: Int, _ merchant: Merchant) async -> UInt64 {
        let start = Clocks.wall()
        for _ in 0..<count {
            guard
                let context = try? PayContext(
                    request: Shop.request, backend: InMemoryStripeBackend(), delegate: merchant)
            else { fatalError("the request is valid") }
            context.present()
            context.selectShippingContact(Shop.contact)
            context.authorize(Shop.token)
            _ = await context.waitUntilEnded()
        }
        return Clocks.wall() - start
    }

    struct Result {
        var shipping: [Double] = []
        var authorization: [Double] = []
        var payContext: [Double] = []
    }

    static func run(runs: Int, sampleSeconds: Double, log: (String) -> Void) async -> Result {
        let merchant = Merchant()
        let probe = 500
        func size(_ nanoseconds: UInt64) -> Int {
            let perSession = max(1, Double(nanoseconds) / Double(probe))
            return max(probe, Int(sampleSeconds * 1e9 / perSession))
        }
        _ = shipping(probe, merchant)
        let shippingCount = size(shipping(probe, merchant))
        _ = authorization(probe, merchant)
        let authorizationCount = size(authorization(probe, merchant))
        _ = await payContext(probe, merchant)
        let payContextCount = size(await payContext(probe, merchant))
        check(merchant)
        await checkPayContext(merchant)

        var result = Result()
        for run in 0..<runs {
            result.shipping.append(Double(shippingCount) / (Double(shipping(shippingCount, merchant)) / 1e9))
            result.authorization.append(
                Double(authorizationCount) / (Double(authorization(authorizationCount, merchant)) / 1e9))
            result.payContext.append(
                Double(payContextCount) / (Double(await payContext(payContextCount, merchant)) / 1e9))
            log("sessions: run \(run + 1)/\(runs)")
        }
        return result
    }

    /// Every session of each flow ends as intended.
    private static func check(_ merchant: Merchant) {
        let before = merchant.finished.count
        guard let shipping = try? ShippingAddressFlow(configuration: Shop.shippingConfiguration, delegate: merchant)
        else { fatalError("the configuration is valid") }
        shipping.present()
        shipping.enterAddress(Shop.contact)
        shipping.selectShippingMethod("express")
        shipping.done()
        guard case .finished(_, let method) = shipping.outcome, method?.identifier == "express" else {
            fatalError("the shipping session did not finish: \(String(describing: shipping.outcome))")
        }
        let flow = try! PaymentAuthorizationFlow(request: Shop.request, delegate: merchant)
        flow.present()
        flow.selectShippingContact(Shop.contact)
        flow.selectShippingMethod("express")
        flow.changeCouponCode("TEN")
        flow.authorize(Shop.token)
        guard case .success = flow.outcome, flow.violations.isEmpty else {
            fatalError("the authorization session did not authorize: \(String(describing: flow.outcome))")
        }
        guard merchant.finished.count == before + 2 else { fatalError("a terminal call is missing") }
    }

    private static func checkPayContext(_ merchant: Merchant) async {
        let backend = InMemoryStripeBackend()
        guard let context = try? PayContext(request: Shop.request, backend: backend, delegate: merchant) else {
            fatalError("the request is valid")
        }
        context.present()
        context.selectShippingContact(Shop.contact)
        context.authorize(Shop.token)
        let outcome = await context.waitUntilEnded()
        guard outcome.status == .success, backend.confirmCount == 1 else {
            fatalError("the pay context did not succeed: \(outcome)")
        }
    }
}
