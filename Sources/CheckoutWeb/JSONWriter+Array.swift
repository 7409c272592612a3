import CheckoutCore

extension JSONWriter {
    /// Writes `elements` as a JSON array, each element by `write`. (In this module, beside the
    /// wire types' writers that call it, so that it is specialized for each.)
    mutating func array<Elements: Sequence>(_ elements: Elements, _ write: (Elements.Element, inout JSONWriter) -> Void)
    {
        byte(UInt8(ascii: "["))
        for element in elements {
            self.element()
            write(element, &self)
        }
        byte(UInt8(ascii: "]"))
    }
}
