/// Reads a Model 2 symbol's codewords from its module grid: two-module columns from the right, up then down,
/// skipping the function patterns, with the data mask removed.
enum CodewordReader {
    /// The codewords of `grid` (Model 2, version from its size) unmasked with `mask`.
    static func codewords(_ grid: ModuleGrid, mask: Int) throws(SymbolDecodeError) -> [UInt8] {
        let dimension = grid.dimension
        guard dimension >= 21, dimension <= 177, dimension % 4 == 1 else { throw .badDimension(dimension) }
        let function = functionPatterns(version: (dimension - 17) / 4)
        var codewords: [UInt8] = []
        codewords.reserveCapacity(dimension * dimension / 8)
        var current: UInt8 = 0
        var bits = 0
        var upward = true
        var right = dimension - 1
        while right > 0 {
            if right == 6 { right -= 1 }  // the vertical timing pattern takes a whole column
            for step in 0..<dimension {
                let y = upward ? dimension - 1 - step : step
                for x in [right, right - 1] where !function[y * dimension + x] {
                    let dark = grid[x: x, y: y] != FormatInformation.masks(mask, x: x, y: y)
                    current = current << 1 | (dark ? 1 : 0)
                    bits += 1
                    if bits == 8 {
                        codewords.append(current)
                        current = 0
                        bits = 0
                    }
                }
            }
            upward.toggle()
            right -= 2
        }
        return codewords
    }

    /// Modules that hold no data in a Model 2 symbol of `version`: finder patterns with their separators and
    /// format information, timing patterns, alignment patterns, version information.
    static func functionPatterns(version: Int) -> [Bool] {
        let dimension = 4 * version + 17
        var function = [Bool](repeating: false, count: dimension * dimension)
        func mark(_ x0: Int, _ y0: Int, _ width: Int, _ height: Int) {
            for y in y0..<(y0 + height) {
                for x in x0..<(x0 + width) { function[y * dimension + x] = true }
            }
        }
        mark(0, 0, 9, 9)
        mark(dimension - 8, 0, 8, 9)
        mark(0, dimension - 8, 9, 8)
        mark(6, 9, 1, dimension - 17)
        mark(9, 6, dimension - 17, 1)
        let centres = alignmentCentres(version: version)
        for cy in centres {
            for cx in centres {
                let nearFinder =
                    (cx == 6 && cy == 6) || (cx == 6 && cy == centres.last) || (cx == centres.last && cy == 6)
                if !nearFinder { mark(cx - 2, cy - 2, 5, 5) }
            }
        }
        if version >= 7 {
            mark(dimension - 11, 0, 3, 6)
            mark(0, dimension - 11, 6, 3)
        }
        return function
    }

    /// The rows (and columns) of the alignment pattern centres: 6, then evenly spaced (an even step) up to the
    /// last, 7 modules in from the far edge; none in version 1.
    static func alignmentCentres(version: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let last = 4 * version + 10
        let step = version == 32 ? 26 : (4 * version + 2 * count + 1) / (2 * count - 2) * 2
        return [6] + (0..<(count - 1)).reversed().map { last - $0 * step }
    }
}
