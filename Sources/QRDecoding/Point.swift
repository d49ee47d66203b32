/// A pixel position in image coordinates: x to the right, y downwards, origin at the top-left corner.
public struct Point: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
