/// Transcript records packed into bytes: for a flow that waits long between events (a relayed
/// session, idle between the page's events), about a tenth of the room records take as they are
/// (64 bytes each). Packed by ``FlowLog/compact()``, read back in the order packed.
///
/// A record is packed as:
/// - a byte of its kind (the low four bits), whether the completion took the default answer
///   (bit 4), how its value is kept (bits 5 and 6: none, its text in the bytes, kept as it is in
///   `values`, or the last one kept there again), and whether its name is written as text (bit 7)
///   rather than as its number;
/// - its time and sequence number, as differences from the record packed before (zigzag, then
///   LEB128);
/// - its callback id (LEB128);
/// - its name's number (``RecordNames``; LEB128), or its text (its length, then its UTF-8);
/// - a text value's text, the same way.
///
/// Contacts, payments, models and secrets are kept as they are, in `values`, in the order packed;
/// a contact that is an unchanged copy of the last value kept (the contact of an action and of the
/// call it makes) is kept once. (Not one that is only `==` to it: `==` calls equal strings of
/// different scalars, which the transcript keeps as they were.)
/// The bytes begin with the last record's time and sequence number (8 bytes each), from which the
/// next record's differences are taken.
struct PackedRecords: Sequence, Sendable {
    private var bytes: [UInt8] = []
    private var values: [TranscriptValue] = []

    private static var originSize: Int { 16 }

    var isEmpty: Bool { bytes.isEmpty }

    /// Packs `records` after those packed already, their names numbered by `names` (read them
    /// back with the same table), each as `extras` has it; the bytes and values kept in arrays
    /// of their size.
    mutating func append(_ records: [FlowLog.Record], names: RecordNames = .shared, extras: inout PackedExtras) {
        guard !records.isEmpty else { return }
        var writer = Writer(origin: origin, lastKept: values.last, names: names)
        var newValues: [TranscriptValue] = []
        for record in records {
            let (kind, value) = extras.kindAndValue(of: record)
            writer.write(record, kind: kind, value: value, values: &newValues)
        }
        let written = writer.bytes
        let kept = bytes.isEmpty ? Self.originSize : bytes.count
        bytes = [UInt8](unsafeUninitializedCapacity: kept + written.count) { buffer, count in
            if !bytes.isEmpty {
                _ = buffer.initialize(fromContentsOf: bytes)
            }
            Self.store(writer.last, in: buffer)
            _ = buffer[kept...].initialize(fromContentsOf: written)
            count = kept + written.count
        }
        if !newValues.isEmpty {
            values = [TranscriptValue](unsafeUninitializedCapacity: values.count + newValues.count) {
                buffer, count in
                _ = buffer.initialize(fromContentsOf: values)
                _ = buffer[values.count...].initialize(fromContentsOf: newValues)
                count = values.count + newValues.count
            }
        }
    }

    /// Packs `records` after those packed already (``append(_:names:extras:)``), as they are.
    mutating func append(_ records: [FlowLog.Record], names: RecordNames = .shared) {
        var none = PackedExtras()
        append(records, names: names, extras: &none)
    }

    /// Reads the records packed, oldest first.
    func makeIterator() -> Reader { records(names: .shared) }

    /// Reads the records packed with `names`, oldest first.
    func records(names: RecordNames) -> Reader {
        Reader(bytes: bytes, values: values, names: bytes.isEmpty ? [] : names.names, at: Self.originSize)
    }

    /// The time and sequence number of the last record packed, or zeros.
    private var origin: (time: Int64, sequence: UInt64) {
        guard !bytes.isEmpty else { return (0, 0) }
        return bytes.withUnsafeBytes {
            (
                Int64(littleEndian: $0.loadUnaligned(as: Int64.self)),
                UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }

    private static func store(_ last: (time: Int64, sequence: UInt64), in buffer: UnsafeMutableBufferPointer<UInt8>) {
        let raw = UnsafeMutableRawBufferPointer(buffer)
        raw.storeBytes(of: last.time.littleEndian, toByteOffset: 0, as: Int64.self)
        raw.storeBytes(of: last.sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
    }

    private enum ValueForm: UInt8 {
        case none = 0
        case text = 1
        case kept = 2
        case repeated = 3
    }

    private struct Writer {
        var bytes: [UInt8] = []
        var last: (time: Int64, sequence: UInt64)
        var lastKept: TranscriptValue?
        let names: RecordNames

        init(origin: (time: Int64, sequence: UInt64), lastKept: TranscriptValue?, names: RecordNames) {
            last = origin
            self.lastKept = lastKept
            self.names = names
            bytes.reserveCapacity(16)
        }

        mutating func write(
            _ record: FlowLog.Record, kind: FlowLog.Record.Kind, value: TranscriptValue?,
            values: inout [TranscriptValue]
        ) {
            let number = names.number(of: record.name)
            var form = ValueForm.none
            var text: String?
            switch value {
            case nil: break
            case .text(let value)?:
                form = .text
                text = value
            case let value? where value.isUnchangedCopy(of: lastKept):
                form = .repeated
            case let value?:
                form = .kept
                values.append(value)
                lastKept = value
            }
            assert(kind.rawValue < 16, "a kind beyond four bits")
            var head = kind.rawValue
            if record.byDefault { head |= 1 << 4 }
            head |= form.rawValue << 5
            if number == nil { head |= 1 << 7 }
            bytes.append(head)
            writeSigned(record.time.nanoseconds &- last.time)
            writeSigned(Int64(bitPattern: record.sequence &- last.sequence))
            writeUnsigned(record.id)
            if let number {
                writeUnsigned(UInt64(number))
            } else {
                writeText(record.name)
            }
            if let text { writeText(text) }
            last = (record.time.nanoseconds, record.sequence)
        }

        private mutating func writeSigned(_ value: Int64) { LEB128.append(signed: value, to: &bytes) }

        private mutating func writeUnsigned(_ value: UInt64) { LEB128.append(value, to: &bytes) }

        private mutating func writeText(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                writeUnsigned(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }
    }

    struct Reader: IteratorProtocol {
        private let bytes: [UInt8]
        private let values: [TranscriptValue]
        private let names: [String]
        private var index: Int
        private var valueIndex = 0
        private var last: (time: Int64, sequence: UInt64) = (0, 0)

        fileprivate init(bytes: [UInt8], values: [TranscriptValue], names: [String], at index: Int) {
            self.bytes = bytes
            self.values = values
            self.names = names
            self.index = index
        }

        mutating func next() -> FlowLog.Record? {
            guard index < bytes.count else { return nil }
            let head = bytes[index]
            index += 1
            guard let kind = FlowLog.Record.Kind(rawValue: head & 0x0F),
                let form = ValueForm(rawValue: (head >> 5) & 0x03)
            else { preconditionFailure("a packed record of no kind") }
            let time = last.time &+ readSigned()
            let sequence = last.sequence &+ UInt64(bitPattern: readSigned())
            let id = readUnsigned()
            let name = head & 0x80 == 0 ? names[Int(readUnsigned())] : readText()
            let value: TranscriptValue? =
                switch form {
                case .none: nil
                case .text: .text(readText())
                case .kept: values[valueIndex]
                case .repeated: values[valueIndex - 1]
                }
            if form == .kept { valueIndex += 1 }
            last = (time, sequence)
            return FlowLog.Record(
                kind, time: FlowInstant(nanoseconds: time), sequence: sequence, name: name, id: id, value: value,
                byDefault: head & 0x10 != 0)
        }

        // The bytes are the log's own, written by `Writer`: one that does not read is a broken log.
        private mutating func readSigned() -> Int64 {
            guard let value = LEB128.readSigned(bytes, at: &index) else {
                preconditionFailure("packed records cut short")
            }
            return value
        }

        private mutating func readUnsigned() -> UInt64 {
            guard let value = LEB128.read(bytes, at: &index) else { preconditionFailure("packed records cut short") }
            return value
        }

        private mutating func readText() -> String {
            let count = Int(readUnsigned())
            defer { index += count }
            return String(decoding: bytes[index..<index + count], as: UTF8.self)
        }
    }
}

extension TranscriptValue {
    /// Whether this value is a contact that is an unchanged copy of `other`'s (``PackedRecords``).
    fileprivate func isUnchangedCopy(of other: TranscriptValue?) -> Bool {
        guard case .contact(let contact) = self, case .contact(let previous)? = other else { return false }
        return contact.isUnchangedCopy(of: previous)
    }
}
