extension Array {
    /// Keeps the elements in storage of their count, when it has room for more.
    mutating func shrinkToFit() {
        guard capacity > count else { return }
        self = withUnsafeBufferPointer { Array($0) }
    }
}
