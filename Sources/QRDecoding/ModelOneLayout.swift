/// Where a QR Model 1 symbol keeps its codewords (ISO/IEC 18004:2000 annex M).
///
/// Model 1 has no alignment patterns; its data sits in fixed blocks of 8 modules: 2 wide and 4 tall in the two
/// right-hand column pairs and in the strip between the left finder patterns, 4 wide and 2 tall in between.
/// Extension patterns on the right and bottom edges interrupt the blocks at regular places. The most
/// significant bit is the block's bottom-right module, then right to left, bottom to top.
enum ModelOneLayout {
    /// The codewords of the Model 1 `grid` unmasked with `mask`, in symbol order.
    static func codewords(_ grid: ModuleGrid, mask: Int) throws(SymbolDecodeError) -> [UInt8] {
        let dimension = grid.dimension
        // Versions 1 … 14: 21 … 73 modules.
        guard dimension >= 21, dimension <= 73, dimension % 4 == 1 else { throw .badDimension(dimension) }
        var codewords: [UInt8] = []
        for block in blocks(dimension: dimension) {
            var byte: UInt8 = 0
            for bit in 0..<8 {
                let x = block.x - bit % block.width
                let y = block.y - bit / block.width
                let dark = grid[x: x, y: y] != FormatInformation.masks(mask, x: x, y: y)
                byte = byte << 1 | (dark ? 1 : 0)
            }
            codewords.append(byte)
        }
        // The first block's upper half lies in the bottom-right corner and carries no data: the bit stream
        // starts with 4 zero bits there.
        if !codewords.isEmpty { codewords[0] &= 0x0F }
        return codewords
    }

    /// Each codeword's block: its bottom-right module and its width (2 or 4), in codeword order.
    static func blocks(dimension: Int) -> [(x: Int, y: Int, width: Int)] {
        var blocks: [(x: Int, y: Int, width: Int)] = []
        let strips = dimension / 4 + 3
        // The two right-hand column pairs, bottom to top, 4 rows a block; the outer pair gives way to the
        // extension patterns at every other block but the first and last.
        let rightRows = (dimension - 8) / 4
        for pair in 0..<2 {
            for row in 0..<rightRows {
                if pair == 0, row % 2 == 0, row > 0, row < rightRows - 1 { continue }
                blocks.append((dimension - 1 - 2 * pair, dimension - 1 - 4 * row, 2))
            }
        }
        // The middle: 4-column strips right to left, 2 rows a block bottom to top, stepping over the horizontal
        // timing pattern (row 6); the first strip stops below the top-right finder pattern, and every other
        // strip gives its bottom block to an extension pattern.
        let middleRows = dimension / 2
        for strip in 2..<(strips - 4) {
            for row in 0..<middleRows {
                if strip == 2, row >= middleRows - 4 { continue }
                if row == 0, strip % 2 == 1, strip + 1 != strips - 4 { continue }
                let y = dimension - 1 - 2 * row - (row >= middleRows - 3 ? 1 : 0)
                blocks.append((dimension - 5 - 4 * (strip - 2), y, 4))
            }
        }
        // Between the left finder patterns: four column pairs right to left (skipping the vertical timing
        // pattern, column 6), 4 rows a block, bottom to top.
        let leftRows = (dimension - 16) / 4
        for pair in 0..<4 {
            let x = [8, 5, 3, 1][pair]
            for row in 0..<leftRows { blocks.append((x, dimension - 9 - 4 * row, 2)) }
        }
        return blocks
    }
}
