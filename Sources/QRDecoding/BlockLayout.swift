/// How a QR version and error-correction level split the codewords into Reed–Solomon blocks (ISO/IEC 18004
/// table 9 for Model 2, annex M for Model 1), and how the blocks are interleaved in the symbol.
struct BlockLayout: Sendable, Hashable {
    /// Error-correction codewords in every block.
    var correctionPerBlock: Int
    /// The data codewords of each block, shorter blocks first.
    var dataPerBlock: [Int]

    /// Codewords in the blocks; a Model 1 symbol can hold a few more, which are left unused.
    var totalCodewords: Int { dataPerBlock.reduce(0, +) + correctionPerBlock * dataPerBlock.count }

    /// The layout of Model 2 version 1 … 40 or Model 1 version 1 … 14 at `level`; nil for other versions.
    init?(model: FormatInformation.Model, version: Int, level: FormatInformation.Level) {
        let table = model == .two ? Self.modelTwo : Self.modelOne
        guard version >= 1, version <= table.count else { return nil }
        let row = table[version - 1][level.rawValue]
        correctionPerBlock = row[0]
        dataPerBlock = [Int](repeating: row[2], count: row[1])
        if row.count == 5 { dataPerBlock += [Int](repeating: row[4], count: row[3]) }
    }

    /// The corrected data codewords of `codewords` as read from the symbol: Model 2 interleaves the blocks
    /// (`interleaved`), Model 1 stores them one after the other (all data codewords, then all check codewords).
    func dataCodewords(_ codewords: [UInt8], interleaved: Bool) throws(SymbolDecodeError) -> [UInt8] {
        guard codewords.count >= totalCodewords else { throw .badDimension(codewords.count) }
        let count = dataPerBlock.count
        var blocks = dataPerBlock.map { [UInt8](repeating: 0, count: $0 + correctionPerBlock) }
        var index = 0
        if interleaved {
            // Data codewords column by column across the blocks (the longer blocks hold one more), then the
            // check codewords the same way.
            let longest = dataPerBlock.max() ?? 0
            for column in 0..<longest {
                for block in 0..<count where column < dataPerBlock[block] {
                    blocks[block][column] = codewords[index]
                    index += 1
                }
            }
            for column in 0..<correctionPerBlock {
                for block in 0..<count {
                    blocks[block][dataPerBlock[block] + column] = codewords[index]
                    index += 1
                }
            }
        } else {
            for block in 0..<count {
                blocks[block].replaceSubrange(
                    0..<dataPerBlock[block], with: codewords[index..<(index + dataPerBlock[block])])
                index += dataPerBlock[block]
            }
            for block in 0..<count {
                blocks[block].replaceSubrange(
                    dataPerBlock[block]..., with: codewords[index..<(index + correctionPerBlock)])
                index += correctionPerBlock
            }
        }
        var data: [UInt8] = []
        for block in 0..<count {
            _ = try ReedSolomonDecoder.correct(&blocks[block], correctionCount: correctionPerBlock)
            data += blocks[block].prefix(dataPerBlock[block])
        }
        return data
    }

    /// Per version, per level L, M, Q, H: correction codewords per block, then the count and data codewords of
    /// each block group.
    private static let modelTwo: [[[Int]]] = [
        [[7, 1, 19], [10, 1, 16], [13, 1, 13], [17, 1, 9]],
        [[10, 1, 34], [16, 1, 28], [22, 1, 22], [28, 1, 16]],
        [[15, 1, 55], [26, 1, 44], [18, 2, 17], [22, 2, 13]],
        [[20, 1, 80], [18, 2, 32], [26, 2, 24], [16, 4, 9]],
        [[26, 1, 108], [24, 2, 43], [18, 2, 15, 2, 16], [22, 2, 11, 2, 12]],
        [[18, 2, 68], [16, 4, 27], [24, 4, 19], [28, 4, 15]],
        [[20, 2, 78], [18, 4, 31], [18, 2, 14, 4, 15], [26, 4, 13, 1, 14]],
        [[24, 2, 97], [22, 2, 38, 2, 39], [22, 4, 18, 2, 19], [26, 4, 14, 2, 15]],
        [[30, 2, 116], [22, 3, 36, 2, 37], [20, 4, 16, 4, 17], [24, 4, 12, 4, 13]],
        [[18, 2, 68, 2, 69], [26, 4, 43, 1, 44], [24, 6, 19, 2, 20], [28, 6, 15, 2, 16]],
        [[20, 4, 81], [30, 1, 50, 4, 51], [28, 4, 22, 4, 23], [24, 3, 12, 8, 13]],
        [[24, 2, 92, 2, 93], [22, 6, 36, 2, 37], [26, 4, 20, 6, 21], [28, 7, 14, 4, 15]],
        [[26, 4, 107], [22, 8, 37, 1, 38], [24, 8, 20, 4, 21], [22, 12, 11, 4, 12]],
        [[30, 3, 115, 1, 116], [24, 4, 40, 5, 41], [20, 11, 16, 5, 17], [24, 11, 12, 5, 13]],
        [[22, 5, 87, 1, 88], [24, 5, 41, 5, 42], [30, 5, 24, 7, 25], [24, 11, 12, 7, 13]],
        [[24, 5, 98, 1, 99], [28, 7, 45, 3, 46], [24, 15, 19, 2, 20], [30, 3, 15, 13, 16]],
        [[28, 1, 107, 5, 108], [28, 10, 46, 1, 47], [28, 1, 22, 15, 23], [28, 2, 14, 17, 15]],
        [[30, 5, 120, 1, 121], [26, 9, 43, 4, 44], [28, 17, 22, 1, 23], [28, 2, 14, 19, 15]],
        [[28, 3, 113, 4, 114], [26, 3, 44, 11, 45], [26, 17, 21, 4, 22], [26, 9, 13, 16, 14]],
        [[28, 3, 107, 5, 108], [26, 3, 41, 13, 42], [30, 15, 24, 5, 25], [28, 15, 15, 10, 16]],
        [[28, 4, 116, 4, 117], [26, 17, 42], [28, 17, 22, 6, 23], [30, 19, 16, 6, 17]],
        [[28, 2, 111, 7, 112], [28, 17, 46], [30, 7, 24, 16, 25], [24, 34, 13]],
        [[30, 4, 121, 5, 122], [28, 4, 47, 14, 48], [30, 11, 24, 14, 25], [30, 16, 15, 14, 16]],
        [[30, 6, 117, 4, 118], [28, 6, 45, 14, 46], [30, 11, 24, 16, 25], [30, 30, 16, 2, 17]],
        [[26, 8, 106, 4, 107], [28, 8, 47, 13, 48], [30, 7, 24, 22, 25], [30, 22, 15, 13, 16]],
        [[28, 10, 114, 2, 115], [28, 19, 46, 4, 47], [28, 28, 22, 6, 23], [30, 33, 16, 4, 17]],
        [[30, 8, 122, 4, 123], [28, 22, 45, 3, 46], [30, 8, 23, 26, 24], [30, 12, 15, 28, 16]],
        [[30, 3, 117, 10, 118], [28, 3, 45, 23, 46], [30, 4, 24, 31, 25], [30, 11, 15, 31, 16]],
        [[30, 7, 116, 7, 117], [28, 21, 45, 7, 46], [30, 1, 23, 37, 24], [30, 19, 15, 26, 16]],
        [[30, 5, 115, 10, 116], [28, 19, 47, 10, 48], [30, 15, 24, 25, 25], [30, 23, 15, 25, 16]],
        [[30, 13, 115, 3, 116], [28, 2, 46, 29, 47], [30, 42, 24, 1, 25], [30, 23, 15, 28, 16]],
        [[30, 17, 115], [28, 10, 46, 23, 47], [30, 10, 24, 35, 25], [30, 19, 15, 35, 16]],
        [[30, 17, 115, 1, 116], [28, 14, 46, 21, 47], [30, 29, 24, 19, 25], [30, 11, 15, 46, 16]],
        [[30, 13, 115, 6, 116], [28, 14, 46, 23, 47], [30, 44, 24, 7, 25], [30, 59, 16, 1, 17]],
        [[30, 12, 121, 7, 122], [28, 12, 47, 26, 48], [30, 39, 24, 14, 25], [30, 22, 15, 41, 16]],
        [[30, 6, 121, 14, 122], [28, 6, 47, 34, 48], [30, 46, 24, 10, 25], [30, 2, 15, 64, 16]],
        [[30, 17, 122, 4, 123], [28, 29, 46, 14, 47], [30, 49, 24, 10, 25], [30, 24, 15, 46, 16]],
        [[30, 4, 122, 18, 123], [28, 13, 46, 32, 47], [30, 48, 24, 14, 25], [30, 42, 15, 32, 16]],
        [[30, 20, 117, 4, 118], [28, 40, 47, 7, 48], [30, 43, 24, 22, 25], [30, 10, 15, 67, 16]],
        [[30, 19, 118, 6, 119], [28, 18, 47, 31, 48], [30, 34, 24, 34, 25], [30, 20, 15, 61, 16]],
    ]

    private static let modelOne: [[[Int]]] = [
        [[7, 1, 19], [10, 1, 16], [13, 1, 13], [17, 1, 9]],
        [[10, 1, 36], [16, 1, 30], [22, 1, 24], [30, 1, 16]],
        [[15, 1, 57], [28, 1, 44], [36, 1, 36], [48, 1, 24]],
        [[20, 1, 80], [40, 1, 60], [50, 1, 50], [66, 1, 34]],
        [[26, 1, 108], [52, 1, 82], [66, 1, 68], [44, 2, 23]],
        [[34, 1, 136], [32, 2, 53], [42, 2, 43], [56, 2, 29]],
        [[42, 1, 170], [40, 2, 66], [52, 2, 54], [46, 3, 24]],
        [[24, 2, 104], [48, 2, 80], [64, 2, 64], [56, 3, 29]],
        [[30, 2, 123], [60, 2, 93], [50, 3, 52], [68, 3, 34]],
        [[34, 2, 145], [68, 2, 111], [58, 3, 61], [58, 4, 31]],
        [[40, 2, 168], [40, 4, 64], [52, 4, 52], [54, 5, 29]],
        [[46, 2, 192], [46, 4, 73], [58, 4, 61], [62, 5, 33]],
        [[36, 3, 144], [52, 4, 83], [66, 4, 69], [58, 6, 32]],
        [[40, 3, 163], [60, 4, 92], [60, 5, 62], [66, 6, 35]],
    ]
}
