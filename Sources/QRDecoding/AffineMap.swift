/// An affine map of the plane, `(x, y) ↦ (a·x + b·y + c, d·x + e·y + f)`.
///
/// Every recovery pass scans a transformed copy of the image (scaled, padded, rotated); the map from that copy
/// back to the original is how a found code's corners are reported in the coordinates of the file.
public struct AffineMap: Sendable, Hashable {
    public var a, b, c, d, e, f: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = AffineMap(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)

    /// Multiplies both coordinates by `factor`.
    public static func scale(_ factor: Double) -> AffineMap { AffineMap(a: factor, b: 0, c: 0, d: 0, e: factor, f: 0) }

    /// Adds `dx` and `dy`.
    public static func translation(_ dx: Double, _ dy: Double) -> AffineMap {
        AffineMap(a: 1, b: 0, c: dx, d: 0, e: 1, f: dy)
    }

    /// `other` applied first, then `self`.
    public func after(_ other: AffineMap) -> AffineMap {
        AffineMap(
            a: a * other.a + b * other.d, b: a * other.b + b * other.e, c: a * other.c + b * other.f + c,
            d: d * other.a + e * other.d, e: d * other.b + e * other.e, f: d * other.c + e * other.f + f)
    }

    public func apply(_ point: Point) -> Point {
        let x = Double(point.x)
        let y = Double(point.y)
        return Point(x: Int((a * x + b * y + c).rounded()), y: Int((d * x + e * y + f).rounded()))
    }
}
