/// Hands a non-Sendable value to exactly one other thread, which becomes its only user.
final class Owned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
