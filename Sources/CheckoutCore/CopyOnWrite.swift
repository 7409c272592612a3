/// A value kept in a box of its own and shared by every copy until one of them is written, which
/// then copies it (copy on write, as the standard library's arrays do).
///
/// ``PaymentRequest`` and ``Contact`` keep their fields in one: a flow holds its request for its
/// whole life and each outstanding shipping-contact callback holds the customer's contact, so held
/// by value every session carried its own copy of both (about 300 bytes), where now it shares the
/// caller's.
@usableFromInline
package struct CopyOnWrite<Value: Hashable> {
    @usableFromInline
    final class Box {
        // Unchecked: a box is written only while one copy holds it (`isKnownUniquelyReferenced`
        // below), so no two accesses can overlap; the dynamic check cost 30 instructions a read.
        @exclusivity(unchecked) @usableFromInline var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline var box: Box

    package init(_ value: Value) { box = Box(value) }

    /// The value; writing it copies the box first when another copy shares it.
    // Inlinable: `PaymentRequest.fits`, which a flow asks of every answer, reads through it.
    @inlinable
    package var value: Value {
        _read { yield box.value }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}

extension CopyOnWrite {
    /// Whether `other` is a copy of this value that shares its box: the same value to the byte,
    /// where `==` also calls equal strings of different scalars (a composed and a decomposed "é").
    package func sharesBox(with other: Self) -> Bool { box === other.box }
}

extension CopyOnWrite: Hashable {
    @usableFromInline
    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box || lhs.box.value == rhs.box.value }

    @usableFromInline
    package func hash(into hasher: inout Hasher) { box.value.hash(into: &hasher) }
}

// The box is written only while no other copy holds it (`isKnownUniquelyReferenced`), so sharing
// it between threads shares an immutable value.
extension CopyOnWrite: @unchecked Sendable where Value: Sendable {}
