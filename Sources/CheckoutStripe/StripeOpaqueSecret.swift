/// A secret Stripe sent in a shape the package does not parse (a client secret of a newer form):
/// kept whole to be written back, and masked in every description, debug description and mirror.
struct StripeOpaqueSecret: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    let value: String

    /// `•••`.
    var description: String { "•••" }
    /// `StripeOpaqueSecret(•••)`.
    var debugDescription: String { "StripeOpaqueSecret(•••)" }
    /// Mirrors show the mask only.
    var customMirror: Mirror { Mirror(self, children: ["secret": description]) }
}
