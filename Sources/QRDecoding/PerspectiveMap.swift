/// A projective map of the plane (a homography), `(x, y) ↦ ((a·x + b·y + c) / w, (d·x + e·y + f) / w)` with
/// `w = g·x + h·y + 1`.
///
/// A photographed code is a flat square seen at an angle: one homography takes its module grid to the photo.
/// The geometry pass fits one from four points it knows in both (three finder centres and an alignment pattern).
public struct PerspectiveMap: Sendable, Hashable {
    public var a, b, c, d, e, f, g, h: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double, g: Double, h: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h) = (a, b, c, d, e, f, g, h)
    }

    /// The map taking each of four `from` points to the matching `to` point; nil when three of either lie on a
    /// line (no projective map does that) or the points are not finite.
    public init?(from: [(x: Double, y: Double)], to: [(x: Double, y: Double)]) {
        guard from.count == 4, to.count == 4 else { return nil }
        // Two equations per point pair in the eight unknowns a…h: u·(g·x + h·y + 1) = a·x + b·y + c, likewise v.
        var rows: [[Double]] = []
        for (p, q) in zip(from, to) {
            rows.append([p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x])
            rows.append([0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y])
        }
        guard let solution = Self.solve(&rows) else { return nil }
        self.init(
            a: solution[0], b: solution[1], c: solution[2], d: solution[3], e: solution[4], f: solution[5],
            g: solution[6], h: solution[7])
    }

    /// The affine map as a homography (g = h = 0).
    public init(_ affine: AffineMap) {
        self.init(a: affine.a, b: affine.b, c: affine.c, d: affine.d, e: affine.e, f: affine.f, g: 0, h: 0)
    }

    /// The image of `(x, y)`; nil on the line the map sends to infinity.
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let w = g * x + h * y + 1
        guard abs(w) > 1e-12 else { return nil }
        let u = (a * x + b * y + c) / w
        let v = (d * x + e * y + f) / w
        guard u.isFinite, v.isFinite else { return nil }
        return (u, v)
    }

    /// Gaussian elimination with partial pivoting on an 8 × 9 augmented matrix.
    fileprivate static func solve(_ rows: inout [[Double]]) -> [Double]? {
        let count = rows.count
        for column in 0..<count {
            var pivot = column
            for row in column..<count where abs(rows[row][column]) > abs(rows[pivot][column]) { pivot = row }
            guard abs(rows[pivot][column]) > 1e-9, rows[pivot][column].isFinite else { return nil }
            rows.swapAt(column, pivot)
            for row in 0..<count where row != column {
                let factor = rows[row][column] / rows[column][column]
                guard factor != 0 else { continue }
                for k in column...count { rows[row][k] -= factor * rows[column][k] }
            }
        }
        let solution = (0..<count).map { rows[$0][count] / rows[$0][$0] }
        return solution.allSatisfy(\.isFinite) ? solution : nil
    }
}

extension PerspectiveMap {
    /// `other` applied first, then `self` (the product of the two 3 × 3 matrices, rescaled so its last entry is 1).
    public func after(_ other: PerspectiveMap) -> PerspectiveMap {
        let m = [[a, b, c], [d, e, f], [g, h, 1.0]]
        let n = [[other.a, other.b, other.c], [other.d, other.e, other.f], [other.g, other.h, 1.0]]
        var p = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0..<3 { p[i][j] = m[i][0] * n[0][j] + m[i][1] * n[1][j] + m[i][2] * n[2][j] }
        }
        let w = p[2][2] == 0 ? 1 : p[2][2]
        return PerspectiveMap(
            a: p[0][0] / w, b: p[0][1] / w, c: p[0][2] / w, d: p[1][0] / w, e: p[1][1] / w, f: p[1][2] / w,
            g: p[2][0] / w, h: p[2][1] / w)
    }
}

extension PerspectiveMap {
    /// The least-squares map taking `from` points to `to` points (at least four pairs), or nil when they do not
    /// determine one.
    ///
    /// Both sides are first centred and scaled to unit spread, which keeps the normal equations well conditioned.
    public init?(fitting from: [(x: Double, y: Double)], to: [(x: Double, y: Double)]) {
        guard from.count == to.count, from.count >= 4 else { return nil }
        func normalising(_ points: [(x: Double, y: Double)]) -> AffineMap? {
            let count = Double(points.count)
            let mx = points.reduce(0) { $0 + $1.x } / count
            let my = points.reduce(0) { $0 + $1.y } / count
            let spread = points.reduce(0) { $0 + abs($1.x - mx) + abs($1.y - my) } / count
            guard spread > 1e-9, spread.isFinite else { return nil }
            return AffineMap(a: 1 / spread, b: 0, c: -mx / spread, d: 0, e: 1 / spread, f: -my / spread)
        }
        guard let normalFrom = normalising(from), let normalTo = normalising(to) else { return nil }
        let p = from.map { (x: normalFrom.a * $0.x + normalFrom.c, y: normalFrom.e * $0.y + normalFrom.f) }
        let q = to.map { (x: normalTo.a * $0.x + normalTo.c, y: normalTo.e * $0.y + normalTo.f) }
        // Normal equations AᵀA·s = Aᵀb of the two linear equations per pair.
        var normal = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for (p, q) in zip(p, q) {
            for row in [
                [p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x],
                [0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y],
            ] {
                for i in 0..<8 {
                    for j in 0..<9 { normal[i][j] += row[i] * row[j] }
                }
            }
        }
        guard let solution = Self.solve(&normal) else { return nil }
        let fitted = PerspectiveMap(
            a: solution[0], b: solution[1], c: solution[2], d: solution[3], e: solution[4], f: solution[5],
            g: solution[6], h: solution[7])
        // Undo the normalisations: from-normalise first, then the fit, then to-denormalise.
        let back = AffineMap(
            a: 1 / normalTo.a, b: 0, c: -normalTo.c / normalTo.a, d: 0, e: 1 / normalTo.e, f: -normalTo.f / normalTo.e)
        self = PerspectiveMap(back).after(fitted).after(PerspectiveMap(normalFrom))
    }

    /// The inverse map, or nil when this one is singular.
    public var inverse: PerspectiveMap? {
        // The adjugate of [[a, b, c], [d, e, f], [g, h, 1]].
        let m = [
            [e - f * h, c * h - b, b * f - c * e],
            [f * g - d, a - c * g, c * d - a * f],
            [d * h - e * g, b * g - a * h, a * e - b * d],
        ]
        let w = m[2][2]
        guard abs(w) > 1e-12 else { return nil }
        let map = PerspectiveMap(
            a: m[0][0] / w, b: m[0][1] / w, c: m[0][2] / w, d: m[1][0] / w, e: m[1][1] / w, f: m[1][2] / w,
            g: m[2][0] / w, h: m[2][1] / w)
        return [map.a, map.b, map.c, map.d, map.e, map.f, map.g, map.h].allSatisfy(\.isFinite) ? map : nil
    }
}
