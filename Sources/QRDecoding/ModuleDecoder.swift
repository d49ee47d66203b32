/// Our own QR decoder, from a module grid to the payload, for the codes zbar does not read: Model 1 symbols and
/// Hanzi (GB2312) segments. Runs only after every zbar pass found nothing; zbar stays the decoder of record.
///
/// Format information (Model 1 or 2, level, mask) → codewords (Model 2 zigzag or Model 1 blocks) → Reed–Solomon
/// correction per block → bit stream. A mirrored code is read by transposing the grid.
public enum ModuleDecoder {
    /// The payload of the code in `grid`, as `QRScanner` gives zbar's (see `BitStreamDecoder`).
    public static func payload(_ grid: ModuleGrid) throws(SymbolDecodeError) -> [UInt8] {
        let dimension = grid.dimension
        guard dimension >= 21, dimension <= 177, dimension % 4 == 1 else { throw .badDimension(dimension) }
        var firstError: SymbolDecodeError?
        for candidate in [grid, grid.transposed()] {
            for format in FormatInformation.candidates(candidate) {
                do {
                    return try payload(candidate, format: format)
                } catch {
                    firstError = firstError ?? error
                }
            }
        }
        throw firstError ?? .unreadableFormat
    }

    private static func payload(_ grid: ModuleGrid, format: FormatInformation) throws(SymbolDecodeError) -> [UInt8] {
        let version = (grid.dimension - 17) / 4
        guard let layout = BlockLayout(model: format.model, version: version, level: format.level) else {
            throw .badDimension(grid.dimension)
        }
        let codewords =
            format.model == .two
            ? try CodewordReader.codewords(grid, mask: format.mask)
            : try ModelOneLayout.codewords(grid, mask: format.mask)
        let data = try layout.dataCodewords(codewords, interleaved: format.model == .two)
        return try BitStreamDecoder.payload(data, version: version, model: format.model)
    }
}

extension ModuleDecoder {
    /// The payload of already corrected data codewords from a symbol of `version` (the bit-stream stage alone,
    /// for fuzzing it with arbitrary bytes).
    public static func payload(
        dataCodewords: [UInt8], version: Int, modelOne: Bool
    ) throws(SymbolDecodeError) -> [UInt8] {
        try BitStreamDecoder.payload(dataCodewords, version: version, model: modelOne ? .one : .two)
    }
}
