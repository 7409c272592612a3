/// A field Stripe sends as an id or, when the request expanded it, as the object: either way
/// its id.
struct StripeExpandable: Decodable {
    let id: String

    private enum CodingKeys: String, CodingKey {
        case id
    }

    init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            id = text
        } else {
            id = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .id)
        }
    }
}
