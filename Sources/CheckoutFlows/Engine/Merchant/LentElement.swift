/// Calls `body` with the element at `index` of `elements`, lent without a copy: its bits are put in
/// a temporary that `body` borrows, and the temporary is let go of without being destroyed.
///
/// For a delegate call that takes an element of a list the flow holds (a shipping method of the
/// sheet's list): passed straight from the list, the compiler copies the element for the call and
/// destroys the copy after it, field by field through its value witnesses, because it cannot see
/// that the opaque delegate leaves the list alone. Here the list stays alive and unchanged for the
/// whole call (`elements` is borrowed, and an array's buffer is never written while another value
/// shares it), and the delegate gets the element borrowed, as it would otherwise: it copies what it
/// keeps. So no reference count changes and nothing is freed twice.
@inlinable @inline(__always)
package func withLentElement<Element, Result>(
    of elements: borrowing [Element], at index: Int, _ body: (borrowing Element) -> Result
) -> Result {
    precondition(elements.indices.contains(index), "element \(index) of \(elements.count)")
    return elements.withUnsafeBufferPointer { elements in
        withUnsafeTemporaryAllocation(of: Element.self, capacity: 1) { temporary in
            let slot = temporary.baseAddress.unsafelyUnwrapped
            UnsafeMutableRawPointer(slot).copyMemory(
                from: elements.baseAddress.unsafelyUnwrapped + index, byteCount: MemoryLayout<Element>.size)
            // Taken and put back bitwise: the element's references are the list's, not this one's.
            let element = slot.move()
            let result = body(element)
            slot.initialize(to: consume element)
            return result
        }
    }
}
