/// A request's or response's header fields in the order they came, looked up by name without regard to case.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var fields: [HTTPField]

    public init(_ fields: [HTTPField] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { HTTPField($0.0, $0.1) }
    }

    /// The first value of the header `name` (any case), or nil when it is absent.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// Every value of the header `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Adds a field after the existing ones (a header may repeat, as `Set-Cookie` does).
    public mutating func append(_ name: String, _ value: String) {
        fields.append(HTTPField(name, value))
    }

    /// Replaces every field named `name` (any case) by one with `value`.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { Self.sameName($0.name, name) }
        fields.append(HTTPField(name, value))
    }

    /// Removes every field named `name` (any case).
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// Header names compare without regard to ASCII case (they are ASCII tokens), without allocating.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowered($0) == lowered($1) }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    public func makeIterator() -> IndexingIterator<[HTTPField]> {
        fields.makeIterator()
    }
}
