import CheckoutFlows
import Synchronization
import XCTest

/// `withLentElement(of:at:_:)` hands a delegate call an element of a list the flow holds without
/// copying it: the element it lends is the one at the index, and lending changes no reference
/// count, so each object the list holds is freed once, when the last holder lets go of it, whether
/// the body kept a copy of the element or not.
final class LentElementTests: XCTestCase {
    private final class Counted: Sendable {
        static let freed = Mutex(0)
        let name: String
        init(_ name: String) { self.name = name }
        deinit { Self.freed.withLock { $0 += 1 } }
    }

    private struct Element {
        var label: String
        var object: Counted
    }

    private static var freed: Int { Counted.freed.withLock { $0 } }

    func testLendsTheElementAtTheIndexAndEveryObjectIsFreedOnce() {
        let before = Self.freed
        var kept: [Element] = []
        do {
            let list = (0..<3).map {
                Element(label: "shipping method \($0), a label too long to be small", object: Counted("\($0)"))
            }
            for index in list.indices {
                let lent = withLentElement(of: list, at: index) { element in
                    // What the delegate keeps, it copies (the first one only).
                    if index == 0 { kept.append(copy element) }
                    return (element.label, ObjectIdentifier(element.object))
                }
                XCTAssertEqual(lent.0, "shipping method \(index), a label too long to be small")
                XCTAssertEqual(lent.1, ObjectIdentifier(list[index].object))
            }
            XCTAssertEqual(Self.freed, before, "nothing freed while the list holds it")
        }
        // The list is gone: the two objects only it held are freed, the kept one is not.
        XCTAssertEqual(Self.freed - before, 2)
        XCTAssertEqual(kept.map(\.object.name), ["0"])
        kept = []
        XCTAssertEqual(Self.freed - before, 3, "each object freed once")
    }
}
