// The pay context's API (``PaymentBackend``, ``PayContextDelegate``) is written in Stripe's
// objects, so this module cannot be used without them: it re-exports `CheckoutStripe`, as
// swift-nio's `NIO` re-exports `NIOCore`. Code that names `StripeIntent` or `StripeError` compiles
// with `import CheckoutPayContext` alone.
@_exported import CheckoutStripe
