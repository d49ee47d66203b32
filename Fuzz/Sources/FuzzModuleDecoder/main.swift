import FuzzSupport
import QRDecoding

/// Fuzzes our own QR decoder (ModuleDecoder: format information, Model 1 and Model 2 codeword layouts,
/// Reed–Solomon, the bit stream) on arbitrary module grids and codewords.
///
/// Byte 0 picks the input's shape (modulo 3). 0: a grid of 21 + 4 · (byte 1 mod 40) modules a side, its modules
/// the bits of bytes 3…, with valid Model 1 or Model 2 format information (from byte 2) stamped on when byte 1 is
/// 128 or more, so the codeword layouts and Reed–Solomon run. 1: a real code (libqrencode) of the payload in
/// bytes 2…(2 + byte 1 mod 64), each later byte pair flipping one module; mirrored when byte 1 is 128 or more.
/// 2: bytes 2… as corrected data codewords of version 1 + (byte 1 mod 40), Model 1 when byte 1 is 128 or more.
/// Checked: no crash; an unflipped real code decodes to its payload.
runFuzzer { data, size in
    let input = inputBytes(data, size)
    guard input.count >= 2 else { return 0 }
    switch input[0] % 3 {
    case 0:
        let dimension = 21 + 4 * (Int(input[1]) % 40)
        let bits = input.dropFirst(3)
        var modules = (0..<(dimension * dimension)).map { index -> Bool in
            guard !bits.isEmpty else { return false }
            let byte = bits[bits.startIndex + (index / 8) % bits.count]
            return byte >> (index % 8) & 1 == 1
        }
        if input[1] >= 128, input.count >= 3 {
            let format = formatBits(Int(input[2]) % 32) ^ (input[2] & 32 == 0 ? 0x5412 : 0x2825)
            stamp(format, into: &modules, dimension: dimension)
        }
        if let grid = ModuleGrid(dimension: dimension, modules: modules) {
            _ = try? ModuleDecoder.payload(grid)
        }
    case 1:
        let count = Int(input[1]) % 64 + 1
        guard input.count >= 2 + count else { return 0 }
        let payload = Array(input[2..<(2 + count)])
        guard let code = try? QRCodeImage.make(bytes: payload, moduleSize: 1, margin: 0),
            var grid = ModuleGrid(dimension: code.width, modules: code.pixels.map { $0 < 128 })
        else { return 0 }
        let flips = Array(input.dropFirst(2 + count))
        var modules = grid.modules
        for pair in stride(from: 0, to: flips.count - 1, by: 2) {
            let x = Int(flips[pair]) % grid.dimension
            let y = Int(flips[pair + 1]) % grid.dimension
            modules[y * grid.dimension + x].toggle()
        }
        grid = ModuleGrid(dimension: grid.dimension, modules: modules) ?? grid
        if input[1] >= 128 { grid = grid.transposed() }
        let decoded = try? ModuleDecoder.payload(grid)
        if flips.count < 2 {
            require(decoded == payload, "a clean code of \(payload) read as \(String(describing: decoded))")
        }
    default:
        let version = 1 + Int(input[1]) % 40
        let modelOne = input[1] >= 128 && version <= 14
        _ = try? ModuleDecoder.payload(dataCodewords: Array(input.dropFirst(2)), version: version, modelOne: modelOne)
    }
    return 0
}

/// The 5 format bits and their 10 BCH check bits (generator 0x537), unmasked.
func formatBits(_ data: Int) -> Int {
    var remainder = data << 10
    for bit in stride(from: 14, through: 10, by: -1) where remainder & (1 << bit) != 0 {
        remainder ^= 0x537 << (bit - 10)
    }
    return data << 10 | remainder
}

/// Writes both copies of the 15 format bits into `modules`, where readers look for them.
func stamp(_ format: Int, into modules: inout [Bool], dimension: Int) {
    let first: [(Int, Int)] = (0..<6).map { ($0, 8) } + [(7, 8), (8, 8), (8, 7)] + (0..<6).reversed().map { (8, $0) }
    let second: [(Int, Int)] = (0..<7).map { (8, dimension - 1 - $0) } + (0..<8).map { (dimension - 8 + $0, 8) }
    for copy in [first, second] {
        for (index, (x, y)) in copy.enumerated() {
            modules[y * dimension + x] = format >> (14 - index) & 1 == 1
        }
    }
}
