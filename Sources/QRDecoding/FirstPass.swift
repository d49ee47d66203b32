/// The first pass over a decoded image: a cheap scan, then the full scan only when the cheap one finds nothing.
///
/// zbar costs about 240 instructions per pixel scanned, and a code needs only 2–3 pixels per module. So the cheap
/// scan looks at fewer pixels: when the modules are large (estimated from the shortest runs along a few rows), the
/// image is shrunk (area average) keeping at least `minimumModulePixels` per module, by half steps on a two-level
/// image (whose modules are measured exactly) and by an integer factor otherwise; an image that cannot be shrunk is
/// scanned on every second row and column instead. Either way the inverted image is
/// not tried. Whatever the cheap scan misses, the full-resolution, full-density scan (with inverted) still sees, so
/// the first pass finds a code wherever a single full scan finds one; only images the cheap scan misses pay for two.
///
/// The cheap scan runs on two-level images (pure black and white, as code generators write them) and on large
/// frames (where the saving is large). A small image with more levels (a photo, a coloured or nested code such as
/// a small code printed inside a large one) gets the full scan alone, as before. A two-level image may still hold a
/// second code with smaller modules beside the one found (the shrink was measured on the larger): any ink outside
/// the codes found sends it to the full scan too, and so do runs far shorter than the modules (a small code printed
/// inside a large one), neither of which a picture of one code has.
///
/// A large photo scanned from `QRDecoder.scan` goes to the geometry pass first: finder patterns on the shrunk image,
/// the code read by zbar from an upright crop at 4 pixels a module, far cheaper than a scan of the frame (figures:
/// docs/performance.md). The scans follow only when that reads nothing or leaves finder patterns unexplained.
final class FirstPass {
    /// What the cheap scan of one image does.
    struct Plan: Sendable, Hashable {
        /// Shrink by `halves` / 2 (2: keep the image's size; 5: 2.5 times). Two-level images shrink by half steps,
        /// to exactly `minimumModulePixels` a module; others by whole factors.
        var halves: Int
        /// Scan every `density`-th row and column.
        var density: Int

        init(factor: Int, density: Int) { self.init(halves: 2 * factor, density: density) }
        init(halves: Int, density: Int) {
            self.halves = halves
            self.density = density
        }

        /// The shrink factor.
        var factor: Double { Double(halves) / 2 }

        static let full = Plan(factor: 1, density: 1)
    }

    /// Shrink only while an estimated module keeps at least this many pixels (2 decodes the benchmark corpora; what
    /// larger values cost: docs/performance.md).
    let minimumModulePixels: Double
    /// Images with more than two levels get a cheap scan only from this many pixels on.
    let largePixels: Int

    /// The plan of the last image, and whether its cheap scan found the codes (for tests and the benchmark).
    private(set) var lastPlan = Plan.full
    private(set) var lastCheapScanFound = false

    /// Whether the last image's codes came from the located crops (`scan` with a locator).
    private(set) var lastLocated = false

    /// The threshold window and finder triples the locating step tries: one window and the least distorted triple.
    static let locatingWindows: [ThresholdWindow] = [.fine]
    static let locatingTriples = 1

    /// The shrunk image, reused from one file to the next.
    private var small = GrayImage(width: 0, height: 0, pixels: [])

    init(minimumModulePixels: Double = 2, largePixels: Int = 500_000) {
        self.minimumModulePixels = minimumModulePixels
        self.largePixels = largePixels
    }

    /// The codes in `image`, as a single full scan with `scanner` would find them.
    ///
    /// With a `locator`, a large photo (more than two levels) is first searched for finder patterns on the shrunk
    /// image and the code read by zbar from an upright crop of it: tens of thousands of pixels instead of the frame.
    /// Its codes are taken only when no well-seen finder pattern is left outside them; otherwise the scans follow.
    func scan(
        _ image: GrayImage, with scanner: QRScanner, locator: GeometryPass? = nil
    ) throws(DecodeError) -> [QRSymbol] {
        let runs = ModuleSize.measure(image)
        let plan = plan(for: image, runs: runs)
        lastPlan = plan
        lastCheapScanFound = false
        lastLocated = false
        var shrunk = false
        if let locator, !runs.twoLevel, image.width * image.height >= largePixels {
            let factor = max(2, plan.halves / 2)
            Resampler.boxDownscale(image, by: factor, into: &small)
            shrunk = 2 * factor == plan.halves
            let symbols = try locator.scan(
                source: image, working: small, toSource: .scale(Double(factor)),
                with: scanner, windows: Self.locatingWindows, triples: Self.locatingTriples)
            if !symbols.isEmpty, locator.lastPatternsUnused == 0 {
                lastLocated = true
                return symbols
            }
        }
        if plan != .full {
            let symbols = try cheapScan(image, plan: plan, with: scanner, shrunk: shrunk)
            if !symbols.isEmpty {
                lastCheapScanFound = true
                // Around each code: its quiet zone, and room for zbar's corners and the shrink's rounding.
                let margin = 4 * (runs.module ?? 1) + plan.halves
                // A second code with smaller modules beside or inside the ones found (a code printed in another's
                // area): ink outside them, or runs far shorter than their modules.
                guard runs.twoLevel,
                    runs.finer || image.hasInk(outside: symbols.map(\.corners), margin: margin)
                else { return symbols }
                lastCheapScanFound = false
            }
        }
        return try scanner.scan(image, density: 1, testInverted: true) { $0 }
    }

    /// The cheap scan alone, as `plan` says: the image shrunk `plan.factor` times (already in the reused buffer when
    /// `shrunk`), every `plan.density`-th row and column, light-on-dark codes not tried; corners in `image`'s pixels.
    func cheapScan(_ image: GrayImage, plan: Plan, with scanner: QRScanner, shrunk: Bool = false) throws(DecodeError)
        -> [QRSymbol]
    {
        let halves = plan.halves
        guard halves > 2 else {
            return try scanner.scan(image, density: plan.density, testInverted: false) { $0 }
        }
        if !shrunk {
            if halves % 2 == 0 {
                Resampler.boxDownscale(image, by: halves / 2, into: &small)
            } else {
                Resampler.boxDownscale(image, halves: halves, into: &small)
            }
        }
        // A module's corner at x in the small image spans x * halves / 2 ..< (x + 1) * halves / 2.
        return try scanner.scan(small, density: plan.density, testInverted: false) { ($0 * halves + halves / 2) / 2 }
    }

    /// The cheapest scan likely to find a code in `image`: shrunk when the modules are large enough, else every
    /// second row and column (what that saves and finds: docs/performance.md).
    func plan(for image: GrayImage) -> Plan {
        plan(for: image, runs: ModuleSize.measure(image))
    }

    private func plan(for image: GrayImage, runs: ModuleSize.Runs) -> Plan {
        guard runs.twoLevel || image.width * image.height >= largePixels else { return .full }
        if let module = runs.module {
            // Half steps only where edges are crisp: a blurred photo's modules are not measured that exactly.
            let halves = Int(2 * Double(module) / minimumModulePixels)
            if runs.twoLevel, halves > 2 { return Plan(halves: halves, density: 1) }
            let factor = halves / 2
            if factor > 1 { return Plan(factor: factor, density: 1) }
        }
        return Plan(factor: 1, density: 2)
    }
}

/// A cheap guess of a QR code's module size in pixels, from black and white run lengths along a few rows.
enum ModuleSize {
    /// The smallest run length that is common (the 20th percentile of runs bounded on both sides), or nil when the
    /// sampled rows hold too few edges. Noise makes short runs, so errors lean towards too small: a safe direction,
    /// since a smaller estimate only means a less reduced scan.
    /// How far past the middle level a pixel must go to end a run, in percent of the row's range: 15 estimated
    /// every clean image exactly and under-estimated rather than over-estimated noisy camera frames (30 did not).
    static let hysteresisPercent = 15

    static func estimate(_ image: GrayImage, rows: Int = 16) -> Int? {
        measure(image, rows: rows).module
    }

    /// What the sampled rows show: the module estimate; whether every sampled row holds only two levels (its darkest
    /// and its lightest); and whether `finerRuns` or more runs are under half the estimate, on a two-level image a
    /// sign of a second code with smaller modules (inside or beside the first), which a scan shrunk for the larger
    /// modules would miss.
    struct Runs {
        var module: Int?
        var twoLevel: Bool
        var finer = false
    }

    /// Runs under half a module that make a two-level image a picture of codes of two sizes: a code of one module
    /// size has none.
    static let finerRuns = 8

    static func measure(_ image: GrayImage, rows: Int = 16) -> Runs {
        guard image.width >= 8, image.height >= 8 else { return Runs(module: nil, twoLevel: false) }
        var histogram = [Int](repeating: 0, count: 65)
        var total = 0
        var twoLevel = true
        image.pixels.withUnsafeBufferPointer { pixels in
            for sample in 1...rows {
                let y = image.height * sample / (rows + 1)
                let row = UnsafeBufferPointer(rebasing: pixels[y * image.width..<(y + 1) * image.width])
                var low = UInt8.max
                var high = UInt8.min
                for value in row {
                    low = min(low, value)
                    high = max(high, value)
                }
                if twoLevel { twoLevel = row.allSatisfy { $0 == low || $0 == high } }
                guard high - low >= 48 else { continue }  // a flat row: margin or background
                // Each level is the mean of two neighbours (doubled, to stay in integers), and a run ends only when
                // a level crosses well past the middle (hysteresis): so camera noise does not cut runs into 1-pixel
                // pieces. On a camera corpus this estimated 92 % of frames exactly, against 60 % without the mean.
                let middle = Int(low) + Int(high)
                let margin = (Int(high) - Int(low)) * 2 * hysteresisPercent / 100
                var dark = Int(row[0]) + Int(row[1]) < middle
                var start = 0
                var bounded = false  // the first run touches the image edge: its length is unknown
                for x in 1..<row.count - 1 {
                    let level = Int(row[x]) + Int(row[x + 1])
                    guard dark ? level >= middle + margin : level < middle - margin else { continue }
                    if bounded {
                        histogram[min(x - start, 64)] += 1
                        total += 1
                    }
                    bounded = true
                    dark.toggle()
                    start = x
                }
            }
        }
        guard total >= 16 else { return Runs(module: nil, twoLevel: twoLevel) }
        var seen = 0
        for (length, count) in histogram.enumerated() {
            seen += count
            if seen * 5 >= total {
                let finer = histogram[0..<(length + 1) / 2].reduce(0, +) >= finerRuns
                return Runs(module: length, twoLevel: twoLevel, finer: finer)
            }
        }
        return Runs(module: nil, twoLevel: twoLevel)
    }
}

extension GrayImage {
    /// Whether a dark pixel (below mid-grey) lies outside every box around `codes` (each code's corners), widened by
    /// `margin` on each side.
    func hasInk(outside codes: [[Point]], margin: Int) -> Bool {
        let boxes = codes.compactMap { corners -> (x: Range<Int>, y: Range<Int>)? in
            guard let minX = corners.map(\.x).min(), let maxX = corners.map(\.x).max(),
                let minY = corners.map(\.y).min(), let maxY = corners.map(\.y).max()
            else { return nil }
            return ((minX - margin)..<(maxX + margin + 1), (minY - margin)..<(maxY + margin + 1))
        }
        return pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                let row = y * width
                // Jump over each box; scan the stretches between them (on one code's picture, none: its box with
                // the margin covers the image).
                var x = 0
                while x < width {
                    if let box = boxes.first(where: { $0.y.contains(y) && $0.x.contains(x) }) {
                        x = box.x.upperBound
                        continue
                    }
                    var next = width
                    for box in boxes where box.y.contains(y) && box.x.lowerBound > x {
                        next = min(next, box.x.lowerBound)
                    }
                    if pixels[(row + x)..<(row + next)].contains(where: { $0 < 128 }) { return true }
                    x = next
                }
            }
            return false
        }
    }
}
