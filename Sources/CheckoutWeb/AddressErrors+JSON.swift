import CheckoutCore

extension AddressErrors {
    /// Writes the errors as `JSONEncoder` encodes them with `.sortedKeys`, absent members left out.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("addressLine", ifPresent: addressLine)
        writer.member("city", ifPresent: city)
        writer.member("country", ifPresent: country)
        writer.member("dependentLocality", ifPresent: dependentLocality)
        writer.member("organization", ifPresent: organization)
        writer.member("phone", ifPresent: phone)
        writer.member("postalCode", ifPresent: postalCode)
        writer.member("recipient", ifPresent: recipient)
        writer.member("region", ifPresent: region)
        writer.member("sortingCode", ifPresent: sortingCode)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension PayerErrors {
    /// Writes the errors as `JSONEncoder` encodes them with `.sortedKeys`, absent members left out.
    package func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        writer.member("email", ifPresent: email)
        writer.member("name", ifPresent: name)
        writer.member("phone", ifPresent: phone)
        writer.byte(UInt8(ascii: "}"))
    }
}
