/// Finds a code's bottom-right alignment pattern (a dark module in a light ring in a dark ring, 5 × 5 modules) in
/// an upright crop of the code, near where an affine guess puts it.
///
/// Three finder patterns fix an affine map only; perspective moves the code's far corner away from it. The
/// alignment pattern, found where it really is, is the fourth point a perspective map needs.
enum AlignmentPatternFinder {
    /// The centre of the alignment pattern in module coordinates of `crop`, searched within `radius` modules of
    /// `expected`; nil when no place there looks like one.
    ///
    /// `crop` has `pixelsPerModule` pixels per module and module (0, 0) at pixel `quietZone · pixelsPerModule`.
    /// Each candidate centre is scored by the mean of its 8 light-ring cells minus the mean of its 17 dark cells
    /// (each cell one module square); the best score wins if it shows real contrast.
    static func find(
        in crop: GrayImage, pixelsPerModule: Int, quietZone: Int, expected: (x: Double, y: Double), radius: Double
    ) -> (x: Double, y: Double)? {
        let width = crop.width
        let height = crop.height
        let cell = pixelsPerModule
        guard cell > 0, width > 5 * cell, height > 5 * cell else { return nil }
        let stride = width + 1
        var integral = [Int](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var rowSum = 0
            for x in 0..<width {
                rowSum += Int(crop.pixels[y * width + x])
                integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1] + rowSum
            }
        }
        func cellSum(_ left: Int, _ top: Int) -> Int {
            integral[(top + cell) * stride + left + cell] - integral[top * stride + left + cell]
                - integral[(top + cell) * stride + left] + integral[top * stride + left]
        }
        let origin = Double(quietZone * cell)
        let centreX = Int((origin + expected.x * Double(cell)).rounded())
        let centreY = Int((origin + expected.y * Double(cell)).rounded())
        let reach = Int(radius * Double(cell))
        let area = Double(cell * cell)
        var best: (score: Double, x: Int, y: Int)?
        for cy in (centreY - reach)...(centreY + reach) {
            for cx in (centreX - reach)...(centreX + reach) {
                // Top-left pixel of the pattern's top-left cell, for a pattern centred on pixel (cx, cy).
                let left = cx - (5 * cell) / 2
                let top = cy - (5 * cell) / 2
                guard left >= 0, top >= 0, left + 5 * cell <= width, top + 5 * cell <= height else { continue }
                var dark = 0
                var light = 0
                for j in 0..<5 {
                    for i in 0..<5 {
                        let sum = cellSum(left + i * cell, top + j * cell)
                        let ring = max(abs(i - 2), abs(j - 2))
                        if ring == 1 { light += sum } else { dark += sum }
                    }
                }
                let contrast = Double(light) / (8 * area) - Double(dark) / (17 * area)
                // Nearer the guess wins a tie: a pattern's score falls off slowly as it is missed by a pixel.
                let distance = (Double((cx - centreX) * (cx - centreX) + (cy - centreY) * (cy - centreY))).squareRoot()
                let score = contrast - distance / Double(cell)
                if best.map({ score > $0.score }) ?? true, contrast >= 40 { best = (score, cx, cy) }
            }
        }
        guard let best else { return nil }
        // The pattern's cells span cx - 2.5 cells ..< cx + 2.5 cells: its centre is the pixel edge cx.
        return ((Double(best.x) - origin) / Double(cell), (Double(best.y) - origin) / Double(cell))
    }
}
