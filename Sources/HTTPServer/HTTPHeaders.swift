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
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the header `name` (any case), in order.
    public func values(for name: String) -> [String] {
        let wanted = name.lowercased()
        return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Adds a field after the existing ones (a header may repeat, as `Set-Cookie` does).
    public mutating func append(_ name: String, _ value: String) {
        fields.append(HTTPField(name, value))
    }

    /// Replaces every field named `name` (any case) by one with `value`.
    public mutating func set(_ name: String, _ value: String) {
        let wanted = name.lowercased()
        fields.removeAll { $0.name.lowercased() == wanted }
        fields.append(HTTPField(name, value))
    }

    public func makeIterator() -> IndexingIterator<[HTTPField]> {
        fields.makeIterator()
    }
}
