/// Apple Pay on the web's `ApplePayPaymentPassActivationState`.
public enum ApplePayPaymentPassActivationState: String, Codable, Hashable, Sendable, CaseIterable {
    /// Active and ready to use.
    case activated
    /// Not active yet, but can be activated.
    case requiresActivation
    /// Being activated.
    case activating
    /// Suspended.
    case suspended
    /// Deactivated.
    case deactivated
}

/// Apple Pay on the web's `ApplePayPaymentPass`: the Wallet pass of the card used.
///
/// The core ``/CheckoutCore/PaymentMethod`` has no pass; this value stays on ``ApplePayPaymentMethod``.
public struct ApplePayPaymentPass: Codable, Hashable, Sendable {
    /// The card's unique identifier.
    public var primaryAccountIdentifier: String
    /// The last digits of the card's number.
    public var primaryAccountNumberSuffix: String
    /// The device's identifier for the card.
    public var deviceAccountIdentifier: String?
    /// The last digits of the device's account number.
    public var deviceAccountNumberSuffix: String?
    /// The pass's activation state.
    public var activationState: ApplePayPaymentPassActivationState

    /// A pass.
    public init(
        primaryAccountIdentifier: String,
        primaryAccountNumberSuffix: String,
        deviceAccountIdentifier: String? = nil,
        deviceAccountNumberSuffix: String? = nil,
        activationState: ApplePayPaymentPassActivationState
    ) {
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceAccountIdentifier = deviceAccountIdentifier
        self.deviceAccountNumberSuffix = deviceAccountNumberSuffix
        self.activationState = activationState
    }
}
