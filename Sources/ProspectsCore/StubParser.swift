public struct PayloadParser: Sendable {
    public init() {}; public func parse(_ payload: String) -> Result<Prospect, ScanError> { .failure(.emptyName) }
}
