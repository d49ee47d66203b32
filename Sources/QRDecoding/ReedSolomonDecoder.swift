/// Corrects a QR block's codewords in place: syndromes, Berlekamp–Massey, Chien search and Forney over GF(256).
///
/// A block of n codewords with e of them for error correction holds up to e / 2 wrong codewords; more and the
/// block is refused (never guessed at): the corrected block must have zero syndromes again.
enum ReedSolomonDecoder {
    /// Corrects `block` (data codewords then `correctionCount` error-correction codewords, first codeword the
    /// highest power) and returns how many codewords were wrong.
    static func correct(_ block: inout [UInt8], correctionCount: Int) throws(SymbolDecodeError) -> Int {
        let length = block.count
        guard correctionCount > 0, correctionCount < length, length <= 255 else {
            throw .tooManyErrors
        }
        let syndromes = Self.syndromes(block, count: correctionCount)
        guard syndromes.contains(where: { $0 != 0 }) else { return 0 }

        // Berlekamp–Massey: the shortest error locator Λ(x) (lowest power first) that generates the syndromes.
        var locator: [UInt8] = [1]
        var previous: [UInt8] = [1]
        var errors = 0
        var shift = 1
        var lastDiscrepancy: UInt8 = 1
        for n in 0..<correctionCount {
            var discrepancy = syndromes[n]
            if errors > 0 {
                for i in 1...errors where i < locator.count {
                    discrepancy ^= GaloisField.multiply(locator[i], syndromes[n - i])
                }
            }
            if discrepancy == 0 {
                shift += 1
                continue
            }
            let factor = GaloisField.divide(discrepancy, lastDiscrepancy)
            var updated = locator
            if updated.count < previous.count + shift {
                updated += [UInt8](repeating: 0, count: previous.count + shift - updated.count)
            }
            for (i, coefficient) in previous.enumerated() {
                updated[i + shift] ^= GaloisField.multiply(factor, coefficient)
            }
            if 2 * errors <= n {
                previous = locator
                errors = n + 1 - errors
                lastDiscrepancy = discrepancy
                shift = 1
            } else {
                shift += 1
            }
            locator = updated
        }
        while locator.count > 1, locator.last == 0 { locator.removeLast() }
        guard errors == locator.count - 1, errors > 0, 2 * errors <= correctionCount else { throw .tooManyErrors }

        // Error evaluator Ω(x) = S(x)·Λ(x) mod x^correctionCount.
        var evaluator = [UInt8](repeating: 0, count: correctionCount)
        for (i, s) in syndromes.enumerated() {
            for (j, l) in locator.enumerated() where i + j < correctionCount {
                evaluator[i + j] ^= GaloisField.multiply(s, l)
            }
        }

        // Chien search: codeword i (power length-1-i) is wrong when Λ(α^-(length-1-i)) = 0; Forney gives its error.
        var found = 0
        for index in 0..<length {
            let power = length - 1 - index
            let inverse = GaloisField.power(255 - power % 255)  // X⁻¹
            guard evaluate(locator, at: inverse) == 0 else { continue }
            // Λ'(x): the odd-power terms, one power down.
            var derivative: UInt8 = 0
            var xPower: UInt8 = 1
            let xSquared = GaloisField.multiply(inverse, inverse)
            for i in stride(from: 1, to: locator.count, by: 2) {
                derivative ^= GaloisField.multiply(locator[i], xPower)
                xPower = GaloisField.multiply(xPower, xSquared)
            }
            guard derivative != 0 else { throw .tooManyErrors }
            let magnitude = GaloisField.multiply(
                GaloisField.power(power), GaloisField.divide(evaluate(evaluator, at: inverse), derivative))
            block[index] ^= magnitude
            found += 1
        }
        guard found == errors, !Self.syndromes(block, count: correctionCount).contains(where: { $0 != 0 }) else {
            throw .tooManyErrors
        }
        return found
    }

    /// S_j = c(α^j) for j in 0 ..< count.
    private static func syndromes(_ block: [UInt8], count: Int) -> [UInt8] {
        (0..<count).map { j in
            let root = GaloisField.power(j)
            var sum: UInt8 = 0
            for codeword in block { sum = GaloisField.multiply(sum, root) ^ codeword }
            return sum
        }
    }

    /// p(x) for p given lowest power first.
    private static func evaluate(_ polynomial: [UInt8], at x: UInt8) -> UInt8 {
        var sum: UInt8 = 0
        for coefficient in polynomial.reversed() { sum = GaloisField.multiply(sum, x) ^ coefficient }
        return sum
    }
}
