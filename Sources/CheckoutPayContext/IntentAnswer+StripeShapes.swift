/// Stripe's own shapes of the client-secret answer, accepted as they are: the completion block
/// `STPIntentClientSecretCompletionBlock`, `(String?, Error?) -> Void`, and the async
/// `applePayContext(_:didCreatePaymentMethod:paymentInformation:) async throws -> String`.
///
/// The mapping, as stripe-ios reads the pair: an error, whatever the secret beside it, is
/// ``IntentAnswer/failure(_:)`` with that error; else the secret
/// ``completeWithoutConfirmingIntent`` is ``IntentAnswer/completeWithoutConfirming``; else a secret
/// is ``IntentAnswer/clientSecret(_:)`` (checked as every secret is, spec P3); neither is a
/// failure with ``PayContextError/Code/missingClientSecret``.
extension IntentAnswer {
    /// Stripe's `STPApplePayContext.COMPLETE_WITHOUT_CONFIRMING_INTENT`, the secret that says the
    /// merchant's server finished the payment itself.
    public static let completeWithoutConfirmingIntent = "COMPLETE_WITHOUT_CONFIRMING_INTENT"

    /// The answer Stripe's completion block's pair stands for (see the extension's discussion).
    public init(clientSecret: String?, error: (any Error)?) {
        if let error {
            self = .failure(error)
        } else if clientSecret == Self.completeWithoutConfirmingIntent {
            self = .completeWithoutConfirming
        } else if let clientSecret {
            self = .clientSecret(clientSecret)
        } else {
            self = .failure(
                PayContextError(
                    code: .missingClientSecret,
                    message: "the completion received neither a client secret nor an error"))
        }
    }

    /// The answer of Stripe's async method's body: its secret, or the error it threw.
    ///
    /// ```swift
    /// return await IntentAnswer { try await server.createPaymentIntent() }
    /// ```
    public init(_ body: () async throws -> String) async {
        do {
            self.init(clientSecret: try await body(), error: nil)
        } catch {
            self = .failure(error)
        }
    }

    /// `completion` as Stripe's `STPIntentClientSecretCompletionBlock`: a delegate ported from
    /// stripe-ios calls the block it returns with `(clientSecret, error)` as it did.
    public static func stripeCompletion(
        _ completion: @escaping @Sendable (IntentAnswer) -> Void
    ) -> @Sendable (String?, (any Error)?) -> Void {
        { secret, error in completion(IntentAnswer(clientSecret: secret, error: error)) }
    }
}

extension PayContextError.Code {
    /// Stripe's completion block was called with neither a client secret nor an error.
    public static let missingClientSecret = PayContextError.Code(rawValue: "missingClientSecret")
}
