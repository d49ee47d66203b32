/// The 15 bits beside the finder patterns that give a code's error-correction level and data mask, read from a
/// module grid; the XOR mask they carry tells Model 1 (0x2825) from Model 2 (0x5412).
struct FormatInformation: Sendable, Hashable {
    enum Model: Sendable, Hashable {
        case one, two
    }

    /// L, M, Q, H: about 7, 15, 25 and 30 % of the codewords may be wrong.
    enum Level: Int, Sendable, Hashable, CaseIterable {
        case low, medium, quartile, high
    }

    var model: Model
    var level: Level
    /// The data mask pattern, 0 … 7.
    var mask: Int
    /// Bits that differed from the nearest valid format information.
    var distance: Int

    /// Every reading within 3 bits of `grid`'s two copies, nearest first (a damaged copy can be near two).
    static func candidates(_ grid: ModuleGrid) -> [FormatInformation] {
        let dimension = grid.dimension
        guard dimension >= 21 else { return [] }
        var first = 0
        var points: [(Int, Int)] = (0..<6).map { ($0, 8) } + [(7, 8), (8, 8), (8, 7)]
        points += (0..<6).reversed().map { (8, $0) }
        for (x, y) in points { first = first << 1 | (grid[x: x, y: y] ? 1 : 0) }
        var second = 0
        points = (0..<7).map { (8, dimension - 1 - $0) } + (0..<8).map { (dimension - 8 + $0, 8) }
        for (x, y) in points { second = second << 1 | (grid[x: x, y: y] ? 1 : 0) }

        var found: [FormatInformation] = []
        for (model, xorMask) in [(Model.two, 0x5412), (Model.one, 0x2825)] {
            for data in 0..<32 {
                let code = Self.code(data) ^ xorMask
                let distance = min((code ^ first).nonzeroBitCount, (code ^ second).nonzeroBitCount)
                guard distance <= 3 else { continue }
                // Bits 4-3: 01 L, 00 M, 11 Q, 10 H.
                let level: Level = [.medium, .low, .high, .quartile][data >> 3]
                found.append(FormatInformation(model: model, level: level, mask: data & 7, distance: distance))
            }
        }
        return found.sorted { $0.distance < $1.distance }
    }

    /// The 5 data bits followed by their 10 BCH(15, 5) check bits (generator 0x537), before masking.
    static func code(_ data: Int) -> Int {
        var remainder = data << 10
        for bit in stride(from: 14, through: 10, by: -1) where remainder & (1 << bit) != 0 {
            remainder ^= 0x537 << (bit - 10)
        }
        return data << 10 | remainder
    }

    /// Whether the data mask `mask` flips module (x, y).
    static func masks(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (x * y) % 2 + (x * y) % 3 == 0
        case 6: ((x * y) % 2 + (x * y) % 3) % 2 == 0
        default: ((x + y) % 2 + (x * y) % 3) % 2 == 0
        }
    }
}
