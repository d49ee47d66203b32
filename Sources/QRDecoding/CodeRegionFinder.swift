/// Finds the parts of a large photo that may hold a QR code, by their density of sharp edges.
///
/// A code's modules make an edge every few pixels in both directions; a desk, a wall or a face make few. The image
/// is cut into square cells; a cell is busy when many of its pixels differ strongly from their right or lower
/// neighbour, and busy cells that touch are one region. Used on the reduced picture of a large JPEG whose scan found
/// nothing, so that the codes too small for it are read from full-size crops of a few regions instead of a scan of
/// the whole full-size frame (what that saves and reads: docs/performance.md).
public enum CodeRegionFinder {
    /// One region, in pixels of the image searched: `x0..<x1` × `y0..<y1`, and how busy it is (the sum of its cells'
    /// busy fractions), busiest first in `regions`' answer.
    public struct Region: Sendable, Hashable {
        public var x0: Int
        public var y0: Int
        public var x1: Int
        public var y1: Int
        public var score: Double
    }

    /// The side of a cell in pixels: about ten modules of a code at 1.5 pixels a module.
    static let cell = 16
    /// A cell is busy when at least this fraction of its pixels has a strong edge to the right or below (a code's
    /// cells reach 0.4–0.6 at 1.5 pixels a module, a smooth desk with sensor noise stays under 0.02).
    static let busyFraction = 0.12
    /// An edge is strong when neighbours differ by at least this many levels, or by four times the median
    /// neighbour difference when the picture is noisier than that.
    static let minimumEdge = 20

    /// The busy regions of `image`, busiest first, at most `limit`; each grown by one cell on every side (the quiet
    /// zone and a module or two that blur made less busy) and clipped to the image.
    public static func regions(in image: GrayImage, limit: Int) -> [Region] {
        let cell = Self.cell
        let columns = image.width / cell
        let rows = image.height / cell
        guard columns > 0, rows > 0, limit > 0 else { return [] }
        let threshold = edgeThreshold(image)
        var counts = [Int32](repeating: 0, count: columns * rows)
        image.pixels.withUnsafeBufferPointer { pixels in
            counts.withUnsafeMutableBufferPointer { counts in
                let width = image.width
                for y in 0..<(rows * cell) {
                    let row = y * width
                    // The last row of the image has no lower neighbour: compare it with itself (no edge).
                    let below = y + 1 < image.height ? row + width : row
                    let cellRow = (y / cell) * columns
                    for column in 0..<columns {
                        var count: Int32 = 0
                        let start = column * cell
                        for x in start..<(start + cell) {
                            let here = Int(pixels[row + x])
                            let right = x + 1 < width ? Int(pixels[row + x + 1]) : here
                            let under = Int(pixels[below + x])
                            if abs(here - right) >= threshold || abs(here - under) >= threshold { count += 1 }
                        }
                        counts[cellRow + column] += count
                    }
                }
            }
        }
        let busy = Int32((busyFraction * Double(cell * cell)).rounded(.up))
        // Connected busy cells (8-neighbours), each component's box and score.
        var label = [Int32](repeating: -1, count: columns * rows)
        var found: [Region] = []
        var stack: [Int] = []
        for start in 0..<(columns * rows) where counts[start] >= busy && label[start] < 0 {
            var region = (x0: start % columns, y0: start / columns, x1: start % columns, y1: start / columns)
            var score = 0.0
            var cells = 0
            label[start] = Int32(found.count)
            stack.append(start)
            while let index = stack.popLast() {
                let cx = index % columns
                let cy = index / columns
                cells += 1
                score += Double(counts[index]) / Double(cell * cell)
                region = (min(region.x0, cx), min(region.y0, cy), max(region.x1, cx), max(region.y1, cy))
                for dy in -1...1 {
                    for dx in -1...1 {
                        let nx = cx + dx
                        let ny = cy + dy
                        guard nx >= 0, nx < columns, ny >= 0, ny < rows else { continue }
                        let next = ny * columns + nx
                        guard label[next] < 0, counts[next] >= busy else { continue }
                        label[next] = Int32(found.count)
                        stack.append(next)
                    }
                }
            }
            // A single busy cell is an edge or a speck: a code spans at least two.
            let box = Region(
                x0: max(0, (region.x0 - 1) * cell), y0: max(0, (region.y0 - 1) * cell),
                x1: min(image.width, (region.x1 + 2) * cell), y1: min(image.height, (region.y1 + 2) * cell),
                score: cells >= 2 ? score : 0)
            found.append(box)
        }
        return Array(found.filter { $0.score > 0 }.sorted { $0.score > $1.score }.prefix(limit))
    }

    /// The level difference that counts as an edge: `minimumEdge`, or four times the median difference between
    /// horizontal neighbours on every eighth row when that is higher (a noisy picture).
    static func edgeThreshold(_ image: GrayImage) -> Int {
        var histogram = [Int](repeating: 0, count: 256)
        var total = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in stride(from: 0, to: image.height, by: 8) {
                let row = y * image.width
                for x in 0..<max(0, image.width - 1) {
                    histogram[abs(Int(pixels[row + x]) - Int(pixels[row + x + 1]))] += 1
                    total += 1
                }
            }
        }
        var seen = 0
        for (difference, count) in histogram.enumerated() {
            seen += count
            if 2 * seen >= total { return max(minimumEdge, 4 * difference) }
        }
        return minimumEdge
    }
}
