/// The names of packed transcript records (``PackedRecords``), each numbered once: a packed record
/// keeps its name's number, not its text. The flows record names from a small set (their actions,
/// callbacks and outcomes), so the logs of a process share one table, ``shared``; past its
/// ``limit`` names, a record keeps its name's text.
final class RecordNames: Sendable {
    /// The table the flows' logs pack with.
    static let shared = RecordNames(limit: 4_096)

    /// How many names are numbered at most.
    let limit: Int

    private struct Table {
        var numbers: [String: UInt32] = [:]
        var names: [String] = []
    }

    private let table = LockedValue(Table())

    init(limit: Int) { self.limit = limit }

    /// The number of `name`: the one it has, or a new one while there is room; nil when there is
    /// none.
    func number(of name: String) -> UInt32? {
        table.withLock { table in
            if let number = table.numbers[name] { return number }
            guard table.names.count < limit else { return nil }
            let number = UInt32(table.names.count)
            table.names.append(name)
            table.numbers[name] = number
            return number
        }
    }

    /// The names numbered so far, by number.
    var names: [String] { table.withLock { $0.names } }
}
