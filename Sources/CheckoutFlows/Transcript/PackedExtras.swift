/// What a log's compaction packed besides the records (``FlowLog/compact()``), oldest first: for
/// each ``FlowLog/Record/Kind/answer`` record, whether its answer was packed (the record is then a
/// ``FlowLog/Record/Kind/packedAnswer`` one); for each record of a deferred value, the text of its
/// card when the card was packed as text (the record then holds it as its value).
struct PackedExtras {
    var answersPacked: ArraySlice<Bool> = []
    var cards: ArraySlice<String?> = []

    /// The kind and value `record` is packed with.
    mutating func kindAndValue(of record: FlowLog.Record) -> (FlowLog.Record.Kind, TranscriptValue?) {
        switch record.kind {
        case .answer:
            return (answersPacked.popFirst() == true ? .packedAnswer : .answer, record.value)
        case .deferredAction where record.value == nil, .deferredCall where record.value == nil:
            guard let card = cards.popFirst(), let card else { return (record.kind, nil) }
            return (record.kind, .text(card))
        default:
            return (record.kind, record.value)
        }
    }
}
