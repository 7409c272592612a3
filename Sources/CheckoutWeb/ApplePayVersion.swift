import CheckoutCore

/// The `ApplePaySession` versions a request can name, and the members each version gates.
///
/// A request names the version it is for (``ApplePayPaymentRequest/version``, the first argument
/// of `new ApplePaySession(version, request)` and the `version` of a W3C `ApplePayRequest`).
/// WebKit refuses a version it does not support (`InvalidAccessError`, "is not a supported
/// version", `ApplePayRequestBase.cpp`), and `0` always (LayoutTests `ApplePaySessionV4.html`).
/// The range ends at the newest version Apple documents: 15, the version Apple's "Supporting
/// payment networks" table gives for `bankAxept`.
///
/// The version gates, as WebKit applies them and Apple's version history documents them (a member
/// sent to an older version is refused with `memberNotInVersion`, naming
/// its path and the version):
///
/// | Since | Member or rule | Source |
/// |---|---|---|
/// | 3 | `phoneticName` in the required contact fields | `ApplePayContactField.cpp` |
/// | 3 | `supportedCountries` (ignored by WebKit below 3) | `ApplePayRequestBase.cpp`, `ApplePaySessionV3.html` |
/// | 3 | `errors` of the merchant's answers | `ApplePayError.idl` (Apple Pay JS version 3) |
/// | 4 | a zero total (before 4 it must be greater than zero) | version 4 release notes, `ApplePaySessionV4.html` |
/// | 8 | `installmentConfiguration`, which makes `supportedNetworks` optional | `ApplePayRequestBase.cpp` |
/// | 12 | `supportsCouponCode`, `couponCode`, a shipping method's `dateComponentsRange` | version 12 release notes |
/// | 14 | `recurringPaymentRequest`, `automaticReloadPaymentRequest`, `multiTokenContexts` and their `new…` updates | version 14 release notes |
/// | 14 | `deferredPaymentRequest`, `disbursementRequest`, `applePayLaterAvailability`, `merchantCategoryCode` | added after version 14's systems (iOS 16); 14 is their floor |
/// | per network | each `supportedNetworks` entry | ``ApplePayPaymentNetworks`` |
public enum ApplePayVersion {
    /// The versions a request may name: 1 to the newest Apple documents.
    public static let supported: ClosedRange<Int> = 1...15

    /// The first version with `phoneticName` contact fields, `supportedCountries` and errors.
    static let errorsAndCountries = 3
    /// The first version that accepts a zero total.
    static let zeroTotal = 4
    /// The first version with installment configurations.
    static let installments = 8
    /// The first version with coupon codes and shipping date ranges.
    static let couponCodes = 12
    /// The first version with recurring, automatic-reload and multi-token requests.
    static let recurring = 14

    /// `version` when it is one of ``supported``.
    ///
    /// - Throws: ``/CheckoutCore/CheckoutError`` naming `version` (``/CheckoutCore/CheckoutError/Code/missingField``
    ///   when absent, ``/CheckoutCore/CheckoutError/Code/unsupportedVersion`` when outside ``supported``).
    static func check(_ version: Int?) throws -> Int {
        guard let version else {
            throw missingMember("version", "a request names the ApplePaySession version it is for")
        }
        guard supported.contains(version) else {
            throw CheckoutError(
                code: .unsupportedVersion,
                message: "version \(version) is not a supported ApplePaySession version "
                    + "(\(supported.lowerBound) to \(supported.upperBound))",
                field: "version", value: String(version))
        }
        return version
    }

    /// Refuses the member at `path` when it is `present` and `version` is older than `since`.
    static func require(_ since: Int, for path: String, present: Bool = true, in version: Int) throws {
        guard present, version < since else { return }
        throw CheckoutError(
            code: .memberNotInVersion,
            message: "\(path) is not in ApplePaySession version \(version): it needs version \(since) or later",
            field: path, value: String(version))
    }
}

extension CheckoutError.Code {
    /// A request names an `ApplePaySession` version outside ``ApplePayVersion/supported``.
    public static let unsupportedVersion = CheckoutError.Code(rawValue: "unsupportedVersion")
    /// A member (or value) that the request's `ApplePaySession` version does not have; the error's
    /// field is its path, its value the version.
    public static let memberNotInVersion = CheckoutError.Code(rawValue: "memberNotInVersion")
}
