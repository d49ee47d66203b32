/// Arithmetic in GF(256) as QR codes use it: the field polynomial x⁸ + x⁴ + x³ + x² + 1 (0x11D), generator α = 2.
///
/// Addition is XOR; multiplication and division go through the exponent and logarithm tables.
enum GaloisField {
    /// αⁱ for i in 0 ..< 512: doubled so that a sum of two logarithms needs no modulo.
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for index in 255..<512 { table[index] = table[index - 255] }
        return table
    }()

    /// log_α(v) for v in 1 ... 255; entry 0 is unused.
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 { table[Int(exponents[index])] = index }
        return table
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0, b != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }

    /// a / b; b must not be 0.
    static func divide(_ a: UInt8, _ b: UInt8) -> UInt8 {
        guard a != 0 else { return 0 }
        return exponents[logarithms[Int(a)] + 255 - logarithms[Int(b)]]
    }

    /// αⁿ for any n ≥ 0.
    static func power(_ n: Int) -> UInt8 { exponents[n % 255] }
}
