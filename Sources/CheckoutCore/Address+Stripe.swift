extension Address {
    /// This address in the six fields of Stripe's address hash (`line1`, `line2`, `city`,
    /// `state`, `postal_code`, `country`), with what Stripe has no field for folded into the
    /// field whose meaning in Stripe's API covers it, in the order a label prints it (spec W2:
    /// nothing is dropped in silence):
    /// - ``subLocality`` and then ``subAdministrativeArea`` are appended to ``line2`` (Stripe's
    ///   free line: "apartment, suite, unit, or building"), each after `", "`;
    /// - ``sortingCode`` is appended to ``city`` after a space, as France writes a CEDEX after
    ///   the town (`75008 PARIS CEDEX 08`).
    ///
    /// `line1`, `state`, `postal_code` and `country` are never changed: Stripe matches the street
    /// and the postal code against the card's address and computes tax from the state and the
    /// country. Blank members fold into nothing. An address without these members is returned
    /// as it is; the fold is one way (an address read back from Stripe keeps them in `line2`
    /// and `city`).
    public var foldedForStripe: Address {
        guard hasMembersBeyondStripe else { return self }
        return Address(
            line1: line1,
            line2: Self.joined([line2, subLocality, subAdministrativeArea], separator: ", "),
            city: Self.joined([city, sortingCode], separator: " "),
            state: state,
            postalCode: postalCode,
            country: country
        )
    }

    /// The non-blank parts joined; nil when none is left.
    private static func joined(_ parts: [String?], separator: String) -> String? {
        let present = parts.compactMap { $0 }.filter { !$0.isBlank }
        return present.isEmpty ? nil : present.joined(separator: separator)
    }
}

extension Contact {
    /// The name Stripe's `billing_details.name` and `shipping.name` receive: ``name``, then
    /// ``organizationName`` after `", "` (Stripe's contact has no organisation; it is folded
    /// into the name printed on the label above the street, spec W2), or the organisation
    /// alone for a contact without a name. A contact without an organisation gives ``name`` as
    /// it is.
    public var stripeName: String? {
        guard !organizationName.isBlank else { return name }
        let present = [name, organizationName].compactMap { $0 }.filter { !$0.isBlank }
        return present.isEmpty ? nil : present.joined(separator: ", ")
    }
}
