import CheckoutCore
import XCTest

/// The yes/no answers that validation gives before it builds errors (issue 16: "validation that
/// answers yes/no before it builds errors") against the lists built in full (`everyProblem`), the
/// rules as they are written, over every combination of a corpus of good and bad fields: the fast
/// answer says yes exactly when the full list is empty, and the public lists are the full ones.
final class YesNoValidationTests: XCTestCase {
    private static func country(_ code: String) -> CountryCode { try! CountryCode(code) }

    /// Complete and incomplete addresses, postal codes that fit their country and some that do
    /// not (US, GB, CA, DE, JP, AE without postal codes), redacted forms, no country at all.
    private static let addresses: [Address?] = [
        nil,
        Address(),
        Address(line1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014", country: country("US")),
        Address(
            line1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "95014-1234", country: country("US")),
        Address(line1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "9501", country: country("US")),
        Address(line1: "1 Infinite Loop", city: "Cupertino", postalCode: "95014", country: country("US")),
        Address(line1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "  ", country: country("US")),
        Address(line1: "1 Infinite Loop", city: "Cupertino", state: "CA", postalCode: "９５０１４", country: country("US")),
        Address(city: "Cupertino", state: "CA", postalCode: "95014", country: country("US")),
        Address(line1: "10 Downing St", city: "London", postalCode: "SW1A 2AA", country: country("GB")),
        Address(city: "London", postalCode: "SW1A", country: country("GB")),
        Address(line1: "10 Downing St", city: "London", postalCode: "12345", country: country("GB")),
        Address(line1: "24 Sussex Dr", city: "Ottawa", state: "ON", postalCode: "K1A 0B1", country: country("CA")),
        Address(city: "Ottawa", state: "ON", postalCode: "K1A", country: country("CA")),
        Address(line1: "Unter den Linden 1", city: "Berlin", postalCode: "1011", country: country("DE")),
        Address(line1: "1-1 Chiyoda", city: "Tokyo", postalCode: "100-0001", country: country("JP")),
        Address(line1: "Sheikh Zayed Rd", city: "Dubai", country: country("AE")),
        Address(line1: "Somewhere 1", city: "Nowhere", postalCode: "12345"),
    ]

    private static let names: [String?] = [nil, " ", "Ada Lovelace"]
    private static let emails: [String?] = [nil, "", "ada@example.com", "ada", "a@b@c", "ad a@x.com", "é@x.org"]
    private static let phones: [String?] = [nil, "", "+44 20 7946 0000", "12", "555-CALL", "(０８０) 1234"]
    private static let requiredSets: [Set<ContactField>] = (0..<16).map { bits in
        Set(ContactField.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
    }

    /// Spec A1, S1: an address is valid exactly when its full list of problems is empty, complete
    /// exactly when it lacks no field, and its postal code fits exactly when no problem is an
    /// invalid postal code.
    func testAddressAnswersAgreeWithTheFullList() {
        for case let address? in Self.addresses {
            let every = address.everyProblem()
            XCTAssertEqual(address.isValid, every.isEmpty, "\(address.unmaskedDescription): \(every)")
            XCTAssertEqual(address.isComplete, address.missingFields.isEmpty, address.unmaskedDescription)
            XCTAssertEqual(
                address.postalCodeFits, !every.contains { $0.code == .invalidPostalCode }, address.unmaskedDescription)
            XCTAssertEqual(address.validate(), every, address.unmaskedDescription)
        }
    }

    /// Spec S1: a blank postal code is missing, not invalid, in every list and answer; a present
    /// one that does not fit is invalid, not missing.
    func testABlankPostalCodeIsMissingNotInvalid() {
        let blank = Address(line1: "1 Main St", city: "Austin", state: "TX", postalCode: " ", country: .us)
        XCTAssertEqual(blank.validate().map(\.code), [.missingField])
        XCTAssertEqual(blank.everyProblem().map(\.field), ["postal_code"])
        XCTAssertTrue(blank.postalCodeFits)
        XCTAssertFalse(blank.isComplete)
        let contact = Contact(postalAddress: blank)
        XCTAssertTrue(contact.presentFieldsAreValid(required: [.postalAddress]))
        XCTAssertFalse(contact.hasFields([.postalAddress]))
        let wrong = Address(line1: "1 Main St", city: "Austin", state: "TX", postalCode: "7870", country: .us)
        XCTAssertEqual(wrong.validate().map(\.code), [.invalidPostalCode])
        XCTAssertFalse(wrong.postalCodeFits)
        XCTAssertTrue(wrong.isComplete)
        XCTAssertFalse(Contact(postalAddress: wrong).presentFieldsAreValid(required: [.postalAddress]))
        XCTAssertTrue(Contact(postalAddress: wrong, isRedacted: true).presentFieldsAreValid(required: [.postalAddress]))
        XCTAssertTrue(Contact(postalAddress: wrong).presentFieldsAreValid(required: [.name]))
    }

    /// Spec A1: a request's answer follows its currency and country codes when they are changed
    /// after it was made (the currency is looked up once, when the code is set).
    func testRequestAnswerFollowsChangedCodes() {
        var request = validRequest()
        XCTAssertTrue(request.isValid)
        for (code, valid) in [("xyz", false), ("usd", true), ("EUR", false), ("USDX", false), ("USD", true)] {
            request.currencyCode = code
            XCTAssertEqual(request.isValid, valid, code)
            XCTAssertEqual(request.isValid, request.everyProblem.isEmpty, code)
        }
        for (code, valid) in [("gb", true), ("gbx", false), ("", false), ("US", true)] {
            request.countryCode = code
            XCTAssertEqual(request.isValid, valid, code)
            XCTAssertEqual(request.isValid, request.everyProblem.isEmpty, code)
        }
    }

    /// Spec A2, S1: for every contact of the corpus and every set of required fields, the yes/no
    /// answers agree with the full list: valid when it is empty, the present fields valid when it
    /// holds only missing fields, the fields all there when nothing is missing.
    func testContactAnswersAgreeWithTheFullList() {
        var checked = 0
        var valid = 0
        var onlyMissing = 0
        for address in Self.addresses {
            for name in Self.names {
                for email in Self.emails {
                    for phone in Self.phones {
                        for isRedacted in [false, true] {
                            let contact = Contact(
                                name: name, emailAddress: email, phoneNumber: phone, postalAddress: address,
                                isRedacted: isRedacted)
                            for required in Self.requiredSets {
                                let every = contact.everyProblem(required: required)
                                func context() -> String {
                                    "\(contact.unmaskedDescription) requiring \(required.sorted())"
                                }
                                XCTAssertEqual(contact.isValid(required: required), every.isEmpty, context())
                                let presentValid = every.allSatisfy { $0.code == .missingField }
                                XCTAssertEqual(
                                    contact.presentFieldsAreValid(required: required), presentValid, context())
                                XCTAssertEqual(
                                    contact.hasFields(required), contact.missingFields(required: required).isEmpty,
                                    context())
                                XCTAssertEqual(contact.validate(required: required), every, context())
                                checked += 1
                                if every.isEmpty { valid += 1 }
                                if presentValid && !every.isEmpty { onlyMissing += 1 }
                            }
                        }
                    }
                }
            }
        }
        // The corpus reaches both answers of each question, not one of them only.
        XCTAssertGreaterThan(valid, 1000)
        XCTAssertGreaterThan(onlyMissing, 1000)
        XCTAssertGreaterThan(checked - valid - onlyMissing, 1000)
    }

    private static let goodItems = [
        SummaryItem(label: "Widget", amount: money("20.00")),
        SummaryItem(label: "Example Inc.", amount: money("20.00")),
    ]
    private static let itemLists: [[SummaryItem]] = [
        goodItems,
        [],
        [SummaryItem(label: "Refund", amount: money("-1.00"))],
        [SummaryItem(label: "Widget", amount: money("20.00", "EUR")), goodItems[1]],
        [SummaryItem(label: "Total", amount: money("0", "JPY"))],
    ]
    private static let manyMethods = (0..<20).map {
        ShippingMethod(identifier: "m\($0)", label: "Method \($0)", amount: money("1.00"))
    }
    private static let methodLists: [[ShippingMethod]] = [
        [],
        [
            ShippingMethod(identifier: "ground", label: "Ground", amount: money("0.00")),
            ShippingMethod(identifier: "express", label: "Express", amount: money("9.99")),
        ],
        [
            ShippingMethod(identifier: "ground", label: "Ground", amount: money("0.00")),
            ShippingMethod(identifier: "ground", label: "Ground again", amount: money("1.00")),
        ],
        [ShippingMethod(identifier: "refund", label: "Refund", amount: money("-0.01"))],
        [ShippingMethod(identifier: "euro", label: "Euro", amount: money("1.00", "EUR"))],
        manyMethods,
        manyMethods + [ShippingMethod(identifier: "m3", label: "Late twin", amount: money("1.00"))],
    ]

    /// Spec E7: the problems of a list of shipping methods are the full list, by pairs (up to 16
    /// methods) and by hashing (more), in a currency or in none. (The yes/no answer itself is
    /// held to the full list through `fits` below.)
    func testShippingMethodAnswerAgreesWithTheFullList() {
        for methods in Self.methodLists {
            for currency in [nil, currency("USD")] {
                let every = ShippingMethod.everyProblem(in: methods, currency: currency)
                func context() -> String { "\(methods.map(\.identifier)) in \(currency.map(\.code) ?? "any currency")" }
                XCTAssertEqual(ShippingMethod.problems(in: methods, currency: currency), every, context())
            }
        }
    }

    /// Spec E7: an update's lists fit the request exactly when their full list of problems is
    /// empty; a missing list of methods fits as an empty one does.
    func testUpdateAnswerAgreesWithTheFullList() {
        let request = validRequest()
        for items in Self.itemLists {
            for methods in Self.methodLists {
                let every = PaymentRequest.everyAmountProblem(
                    summaryItems: items, shippingMethods: methods, currency: request.currency)
                func context() -> String { "\(items.map(\.amount)) with \(methods.map(\.identifier))" }
                XCTAssertEqual(request.fits(summaryItems: items, shippingMethods: methods), every.isEmpty, context())
                let update = ShippingContactUpdate(summaryItems: items, shippingMethods: methods)
                XCTAssertEqual(request.problems(in: update), every, context())
                XCTAssertEqual((try? request.validate(update)) != nil, every.isEmpty, context())
            }
            XCTAssertEqual(
                request.fits(summaryItems: items, shippingMethods: nil),
                request.fits(summaryItems: items, shippingMethods: []), "\(items.map(\.amount))")
        }
    }

    /// Spec A1: a request is valid exactly when its full list of problems is empty, and
    /// `validate()` throws exactly then, over every combination of good and bad fields.
    func testRequestAnswerAgreesWithTheFullList() {
        var valid = 0
        var checked = 0
        for merchant in ["merchant.com.example", "", " "] {
            for countryCode in ["US", "gb", "XX", "", "ıt"] {
                for currencyCode in ["USD", "usd", "ABC", ""] {
                    for networks in [[PaymentNetwork.visa], []] {
                        for capabilities in [MerchantCapabilities.threeDSecure, .emv, [.credit, .debit], []] {
                            for items in Self.itemLists {
                                for methods in Self.methodLists {
                                    let request = PaymentRequest(
                                        merchantIdentifier: merchant, countryCode: countryCode,
                                        currencyCode: currencyCode, supportedNetworks: networks,
                                        merchantCapabilities: capabilities, shippingMethods: methods,
                                        summaryItems: items)
                                    let every = request.everyProblem
                                    func context() -> String { "\(request)" }
                                    XCTAssertEqual(request.isValid, every.isEmpty, context())
                                    XCTAssertEqual(request.problems, every, context())
                                    XCTAssertEqual((try? request.validate()) != nil, every.isEmpty, context())
                                    checked += 1
                                    if every.isEmpty { valid += 1 }
                                }
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(valid, 10)
        XCTAssertGreaterThan(checked - valid, 1000)
    }
}
