import Glibc

/// Three finder patterns that may be one QR code's, named by their place in the code, with its estimated size.
///
/// The top-left pattern is the one at the corner: opposite the longest side of the triangle. The other two are
/// told apart by the turn from one to the other (clockwise in image coordinates, y pointing down), so a code
/// at any rotation, mirrored or not, comes out with the same names.
struct FinderTriple: Sendable, Hashable {
    var topLeft: FinderPatternFinder.Pattern
    var topRight: FinderPatternFinder.Pattern
    var bottomLeft: FinderPatternFinder.Pattern
    /// Modules per side, 4·version + 17, estimated from the distances between the patterns.
    var dimension: Int
    /// How far from an ideal square the triangle is (0 = right angle, equal legs, equal modules); lower first.
    var distortion: Double

    /// The plausible triples among `patterns`, least distorted first; at most `limit`.
    static func triples(from patterns: [FinderPatternFinder.Pattern], limit: Int = 6) -> [FinderTriple] {
        var triples: [FinderTriple] = []
        let count = patterns.count
        guard count >= 3 else { return [] }
        for i in 0..<(count - 2) {
            for j in (i + 1)..<(count - 1) {
                for k in (j + 1)..<count {
                    // Each pattern in turn as the corner: in strong perspective the side opposite the true
                    // corner need not be the longest.
                    let (p, q, r) = (patterns[i], patterns[j], patterns[k])
                    for (corner, first, second) in [(p, q, r), (q, r, p), (r, p, q)] {
                        if let triple = FinderTriple(corner: corner, first, second) { triples.append(triple) }
                    }
                }
            }
        }
        return Array(triples.sorted { $0.distortion < $1.distortion }.prefix(limit))
    }

    /// The three patterns as one code with `corner` at its top-left, or nil when they cannot be one (sizes,
    /// angle or distances implausible).
    init?(
        corner: FinderPatternFinder.Pattern, _ first: FinderPatternFinder.Pattern,
        _ second: FinderPatternFinder.Pattern
    ) {
        let modules = [corner.moduleSize, first.moduleSize, second.moduleSize]
        guard let smallest = modules.min(), let largest = modules.max(), smallest > 0, largest <= 4 * smallest
        else { return nil }
        var (first, second) = (first, second)
        var u = (x: first.x - corner.x, y: first.y - corner.y)
        var v = (x: second.x - corner.x, y: second.y - corner.y)
        // Top-right to bottom-left turns clockwise around top-left: cross(u, v) > 0 with y down.
        if u.x * v.y - u.y * v.x < 0 {
            swap(&first, &second)
            swap(&u, &v)
        }
        let legU = (u.x * u.x + u.y * u.y).squareRoot()
        let legV = (v.x * v.x + v.y * v.y).squareRoot()
        guard legU > 0, legV > 0 else { return nil }
        let cosine = (u.x * v.x + u.y * v.y) / (legU * legV)
        guard abs(cosine) < 0.8, max(legU, legV) < 2.5 * min(legU, legV) else { return nil }
        // Modules between the centres along each leg, measured with the two patterns' own module sizes.
        let modulesU = legU / ((corner.moduleSize + first.moduleSize) / 2)
        let modulesV = legV / ((corner.moduleSize + second.moduleSize) / 2)
        let estimate = (modulesU + modulesV) / 2 + 7
        guard estimate >= 17, estimate <= 185 else { return nil }
        // Dimensions are 4·version + 17: 1 modulo 4.
        let version = max(1, min(40, Int(((estimate - 17) / 4).rounded())))
        self.topLeft = corner
        self.topRight = first
        self.bottomLeft = second
        self.dimension = 4 * version + 17
        let moduleSpread = log(largest / smallest)
        // The corner is usually opposite the longest side: a triangle whose corner is not pays for it.
        let hypotenuse = ((first.x - second.x) * (first.x - second.x) + (first.y - second.y) * (first.y - second.y))
            .squareRoot()
        let notLongest = max(0, max(legU, legV) / hypotenuse - 1)
        self.distortion =
            abs(cosine) + abs(log(legU / legV)) + moduleSpread + abs(log(modulesU / modulesV)) + 4 * notLongest
    }
}
