/// A QR code's modules as dark or light, `dimension` × `dimension`, module (0, 0) at the top-left finder pattern.
///
/// What our own decoder reads: sampled from a photo through the geometry pass's map, or given directly (tests,
/// fuzzing).
public struct ModuleGrid: Sendable, Hashable {
    public let dimension: Int
    /// Row-major, true for a dark module.
    public private(set) var modules: [Bool]

    /// The grid of `modules` (row-major, `dimension`² of them); nil when the count does not match.
    public init?(dimension: Int, modules: [Bool]) {
        guard dimension > 0, modules.count == dimension * dimension else { return nil }
        self.dimension = dimension
        self.modules = modules
    }

    public subscript(x x: Int, y y: Int) -> Bool { modules[y * dimension + x] }

    /// The grid mirrored about its main diagonal: a code printed mirrored reads right this way.
    public func transposed() -> ModuleGrid {
        var out = modules
        for y in 0..<dimension {
            for x in 0..<dimension { out[x * dimension + y] = modules[y * dimension + x] }
        }
        return ModuleGrid(dimension: dimension, modules: out) ?? self
    }

    /// The modules `map` (module coordinates → `image` pixels) places in `image`: each module's gray value is the
    /// mean of nine points around its centre, and Otsu's threshold over all modules splits dark from light.
    /// `sharpening` k > 0 first moves each value k times its difference from its four neighbours' mean further
    /// from it, undoing blur at the scale of a module. nil when the map sends a module off the image.
    static func sampled(_ image: GrayImage, map: PerspectiveMap, dimension: Int, sharpening: Double = 0) -> ModuleGrid?
    {
        guard dimension > 0, dimension <= 177, image.width > 0, image.height > 0 else { return nil }
        var values = [Int](repeating: 0, count: dimension * dimension)
        let offsets = [0.3, 0.5, 0.7]
        for my in 0..<dimension {
            for mx in 0..<dimension {
                var sum = 0
                for oy in offsets {
                    for ox in offsets {
                        guard let point = map.apply(Double(mx) + ox, Double(my) + oy) else { return nil }
                        let x = Int(point.x.rounded(.down))
                        let y = Int(point.y.rounded(.down))
                        guard x >= 0, y >= 0, x < image.width, y < image.height else { return nil }
                        sum += Int(image.pixels[y * image.width + x])
                    }
                }
                values[my * dimension + mx] = sum / 9
            }
        }
        if sharpening > 0 { values = sharpened(values, dimension: dimension, by: sharpening) }
        let threshold = otsuThreshold(values)
        return ModuleGrid(dimension: dimension, modules: values.map { $0 <= threshold })
    }

    /// `values` (row-major, `dimension` a side) each moved `k` times its difference from the mean of its neighbours
    /// inside the grid, clamped to 0…255.
    private static func sharpened(_ values: [Int], dimension: Int, by k: Double) -> [Int] {
        var out = values
        for y in 0..<dimension {
            for x in 0..<dimension {
                var sum = 0
                var count = 0
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                where nx >= 0 && ny >= 0 && nx < dimension && ny < dimension {
                    sum += values[ny * dimension + nx]
                    count += 1
                }
                let value = Double(values[y * dimension + x])
                let moved = value + k * (value - Double(sum) / Double(max(count, 1)))
                out[y * dimension + x] = max(0, min(255, Int(moved.rounded())))
            }
        }
        return out
    }

    /// The gray level (0…255) that best splits `values` into two classes.
    private static func otsuThreshold(_ values: [Int]) -> Int {
        var histogram = [Int](repeating: 0, count: 256)
        for value in values { histogram[max(0, min(255, value))] += 1 }
        let total = Double(values.count)
        let sumAll = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var below = 0.0
        var sumBelow = 0.0
        var best = 0.0
        var threshold = 127
        for level in 0..<256 {
            below += Double(histogram[level])
            guard below > 0 else { continue }
            let above = total - below
            guard above > 0 else { break }
            sumBelow += Double(level * histogram[level])
            let meanBelow = sumBelow / below
            let meanAbove = (sumAll - sumBelow) / above
            let between = below * above * (meanBelow - meanAbove) * (meanBelow - meanAbove)
            if between > best {
                best = between
                threshold = level
            }
        }
        return threshold
    }
}
