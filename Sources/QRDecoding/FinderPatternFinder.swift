/// Finds the three square "eyes" of QR codes (finder patterns) in a dark/light mask, by their 1:1:3:1:1 runs.
///
/// Every row is scanned for five runs dark, light, dark, light, dark in that ratio; each hit is confirmed by the
/// same ratio down its centre column and again along its centre row, which also centres it. Hits on one pattern
/// (one per row it spans) are merged. Tolerant enough for perspective and shear, which stretch the runs along
/// any one line but keep their ratio.
enum FinderPatternFinder {
    /// One finder pattern: its centre in pixels and the width of one of its modules.
    struct Pattern: Sendable, Hashable {
        var x: Double
        var y: Double
        var moduleSize: Double
        /// How many rows confirmed it: patterns seen once are often noise.
        var count: Int
    }

    /// The patterns in `mask` (1 = dark, one byte per pixel, `width` × `height`), most confirmed first; at most
    /// `limit`.
    static func find(mask: [UInt8], width: Int, height: Int, limit: Int = 16) -> [Pattern] {
        guard width >= 7, height >= 7, mask.count == width * height else { return [] }
        var patterns: [Pattern] = []
        // Run lengths along one row (at most one per pixel); runs[0] is dark when the row starts dark.
        let runs = UnsafeMutablePointer<Int>.allocate(capacity: width)
        defer { runs.deallocate() }
        mask.withUnsafeBufferPointer { mask in
            guard let pixels = mask.baseAddress else { return }
            for y in 0..<height {
                let row = pixels + y &* width
                let firstDark = row[0] != 0
                var current = row[0]
                var count = 0
                var runStart = 0
                for x in 1..<width where row[x] != current {
                    runs[count] = x &- runStart
                    count &+= 1
                    current = row[x]
                    runStart = x
                }
                runs[count] = width &- runStart
                count &+= 1
                // Start at the first dark run that has a light run before it (so it is bounded).
                var start = firstDark ? 2 : 1
                guard start + 4 < count else { continue }  // too few runs, e.g. a row all dark
                var x0 = runs[0] + (firstDark ? runs[1] : 0)
                while start + 4 < count {
                    let counts = (runs[start], runs[start + 1], runs[start + 2], runs[start + 3], runs[start + 4])
                    if Self.hasFinderRatio(counts) {
                        let centre = Double(x0 + counts.0 + counts.1) + Double(counts.2) / 2
                        let total = counts.0 + counts.1 + counts.2 + counts.3 + counts.4
                        if let found = confirm(
                            mask: mask, width: width, height: height, x: centre, y: Double(y) + 0.5, total: total)
                        {
                            merge(found, into: &patterns)
                        }
                    }
                    x0 += runs[start] + runs[start + 1]
                    start += 2
                }
            }
        }
        return Array(patterns.sorted { $0.count > $1.count }.prefix(limit))
    }

    /// Whether five run lengths are 1:1:3:1:1 within half a module each (1.5 for the centre).
    static func hasFinderRatio(_ counts: (Int, Int, Int, Int, Int)) -> Bool {
        let total = counts.0 + counts.1 + counts.2 + counts.3 + counts.4
        guard total >= 7 else { return false }
        let module = Double(total) / 7
        let variance = module * 0.6
        return abs(module - Double(counts.0)) < variance && abs(module - Double(counts.1)) < variance
            && abs(3 * module - Double(counts.2)) < 3 * variance && abs(module - Double(counts.3)) < variance
            && abs(module - Double(counts.4)) < variance
    }

    /// The pattern through `(x, y)` checked down its column then along its row, centred; nil when either
    /// check fails or its size differs much from the row's `total`.
    private static func confirm(
        mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, x: Double, y: Double, total: Int
    ) -> Pattern? {
        guard
            let vertical = crossCheck(
                mask: mask, width: width, height: height, x: Int(x), y: Int(y), dx: 0, dy: 1, total: total),
            let horizontal = crossCheck(
                mask: mask, width: width, height: height, x: Int(x), y: Int(vertical.centre), dx: 1, dy: 0,
                total: total)
        else { return nil }
        // A pattern is square: its height and width agree within a factor of three, even at a steep angle.
        let ratio = Double(vertical.total) / Double(horizontal.total)
        guard ratio > 1.0 / 3, ratio < 3 else { return nil }
        return Pattern(
            x: horizontal.centre, y: vertical.centre,
            moduleSize: Double(vertical.total + horizontal.total) / 14, count: 1)
    }

    /// The five runs through `(x, y)` along `(dx, dy)` (both directions), if they have the finder ratio and a
    /// total between a third and three times the row's `total` (perspective stretches one direction).
    private static func crossCheck(
        mask: UnsafeBufferPointer<UInt8>, width: Int, height: Int, x: Int, y: Int, dx: Int, dy: Int, total: Int
    ) -> (centre: Double, total: Int)? {
        guard x >= 0, x < width, y >= 0, y < height, mask[y * width + x] != 0 else { return nil }
        let limit = 2 * total + 2
        // Runs outward: [centre part, light, dark] backwards and forwards.
        func walk(_ sign: Int) -> [Int]? {
            var counts = [0, 0, 0]
            var px = x
            var py = y
            var state = 0
            var steps = 0
            while px >= 0, px < width, py >= 0, py < height {
                let dark = mask[py * width + px] != 0
                let wanted = state != 1  // centre and outer rings are dark
                if dark != wanted {
                    state += 1
                    if state == 3 { return counts }
                }
                counts[state] += 1
                steps += 1
                if steps > limit { return nil }
                px += sign * dx
                py += sign * dy
            }
            // The outer dark ring may touch the image edge; the inner runs may not.
            return state == 2 ? counts : nil
        }
        guard let back = walk(-1), let forward = walk(1) else { return nil }
        let counts = (back[2], back[1], back[0] + forward[0] - 1, forward[1], forward[2])
        guard hasFinderRatio(counts) else { return nil }
        let sum = counts.0 + counts.1 + counts.2 + counts.3 + counts.4
        guard 3 * sum > total, sum < 3 * total else { return nil }
        let along = dy == 0 ? x : y
        let centre = Double(along - back[0] + 1) + Double(counts.2) / 2
        return (centre, sum)
    }

    /// Adds `found` to the pattern it repeats (same place within 3 modules, size within half), or as a new one.
    private static func merge(_ found: Pattern, into patterns: inout [Pattern]) {
        for index in patterns.indices {
            let pattern = patterns[index]
            let module = max(pattern.moduleSize, found.moduleSize)
            // Two finder patterns' centres are at least 14 modules apart; one pattern's hits, within 3.
            guard abs(pattern.x - found.x) <= module * 3, abs(pattern.y - found.y) <= module * 3,
                abs(pattern.moduleSize - found.moduleSize) <= module * 0.5
            else { continue }
            let weight = Double(pattern.count)
            let sum = weight + 1
            patterns[index] = Pattern(
                x: (pattern.x * weight + found.x) / sum, y: (pattern.y * weight + found.y) / sum,
                moduleSize: (pattern.moduleSize * weight + found.moduleSize) / sum, count: pattern.count + 1)
            return
        }
        // A mask of noise could make thousands; real images have a handful.
        if patterns.count < maximumCandidates { patterns.append(found) }
    }

    /// How many distinct candidates one image may collect.
    static let maximumCandidates = 256
}
