/// One name–value pair, as a header, a query item or a form field is; values are decoded text.
public struct HTTPField: Sendable, Equatable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
