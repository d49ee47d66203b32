/// The last recovery pass: locates codes by their finder patterns and hands zbar each one drawn upright.
///
/// For photos where zbar's own scan of the frame fails: perspective, shear, small modules. On the reduced image it
/// finds finder patterns (local-mean threshold, 1:1:3:1:1 runs), groups them three by three into codes, and maps
/// each code's module grid into the photo: an affine map from the three finder centres, then a perspective map
/// once the bottom-right alignment pattern is found in the affine crop. Each map gives a square crop of the code
/// at `pixelsPerModule` with a white quiet zone, sampled from the full-resolution image; zbar decodes it, and
/// stays the decoder of record.
final class GeometryPass {
    /// Pixels per module in the crops zbar scans.
    static let pixelsPerModule = 4
    /// Modules of white around each crop's code.
    static let quietZone = 4
    /// How many finder-pattern triples are tried per image, least distorted first.
    static let triplesTried = 8
    /// The local thresholds tried in order, each only when the ones before it found no code.
    static let thresholdWindows: [ThresholdWindow] = [.fine, .coarse, .blurred]

    /// How many crops the last `scan` handed zbar (for tests).
    private(set) var lastCropCount = 0
    /// How many finder patterns of the last `scan`'s final threshold window no code it read was made of.
    private(set) var lastPatternsUnused = 0

    /// The codes found in `working` (a possibly reduced copy of `source`, mapped back by `toSource`), with
    /// corners in `source`'s coordinates; `[]` when none.
    func scan(
        source: GrayImage, working: GrayImage, toSource: AffineMap, with scanner: QRScanner,
        windows: [ThresholdWindow] = GeometryPass.thresholdWindows, triples: Int = GeometryPass.triplesTried
    ) throws(DecodeError) -> [QRSymbol] {
        try locate(
            source: source, working: working, toSource: toSource, reader: .zbar(scanner), windows: windows,
            triples: triples)
    }

    /// The codes our own decoder (ModuleDecoder.swift) reads where `scan` located finder patterns but zbar read
    /// nothing: each map's module grid is sampled from `source` and decoded, at the estimated size and one
    /// version either side.
    func read(
        source: GrayImage, working: GrayImage, toSource: AffineMap,
        windows: [ThresholdWindow] = GeometryPass.thresholdWindows,
        triples: Int = GeometryPass.triplesTried
    ) -> [QRSymbol] {
        (try? locate(
            source: source, working: working, toSource: toSource, reader: .modules, windows: windows, triples: triples))
            ?? []
    }

    /// zbar's codes in the part of `source` around `triple` as it lies there (not redrawn): what a scan of the whole
    /// frame would read of it, for a few thousand pixels instead of millions. `scale`: source pixels per working pixel.
    private func scanAround(
        _ triple: FinderTriple, source: GrayImage, sourceMap: PerspectiveMap, scale: Double, scanner: QRScanner
    ) throws(DecodeError) -> [QRSymbol] {
        let centres = [triple.topLeft, triple.topRight, triple.bottomLeft]
        let fourth = (
            x: triple.topRight.x + triple.bottomLeft.x - triple.topLeft.x,
            y: triple.topRight.y + triple.bottomLeft.y - triple.topLeft.y
        )
        let points = (centres.map { (x: $0.x, y: $0.y) } + [fourth]).compactMap { sourceMap.apply($0.x, $0.y) }
        guard points.count == 4, let module = centres.map(\.moduleSize).max() else { return [] }
        // The centres are 3.5 modules in from the code's edge; the quiet zone adds 4 and perspective a few more.
        let margin = 12 * module * scale
        let x0 = max(0, Int(points.map(\.x).min()! - margin))
        let y0 = max(0, Int(points.map(\.y).min()! - margin))
        let x1 = min(source.width, Int(points.map(\.x).max()! + margin))
        let y1 = min(source.height, Int(points.map(\.y).max()! + margin))
        guard x1 - x0 >= 21, y1 - y0 >= 21, (x1 - x0) * (y1 - y0) < source.width * source.height / 4 else { return [] }
        var pixels = [UInt8]()
        pixels.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 { pixels += source.pixels[(y * source.width + x0)..<(y * source.width + x1)] }
        lastCropCount += 1
        let crop = GrayImage(width: x1 - x0, height: y1 - y0, pixels: pixels)
        return try scanner.scan(crop, density: 1, testInverted: false) { $0 }.map { symbol in
            var symbol = symbol
            symbol.corners = symbol.corners.map { Point(x: $0.x + x0, y: $0.y + y0) }
            return symbol
        }
    }

    /// Who reads the code once a triple gives its map: zbar on an upright crop, or our own decoder on its modules.
    private enum Reader {
        case zbar(QRScanner)
        case modules
    }

    private func locate(
        source: GrayImage, working: GrayImage, toSource: AffineMap, reader: Reader, windows: [ThresholdWindow],
        triples: Int
    ) throws(DecodeError) -> [QRSymbol] {
        lastCropCount = 0
        lastPatternsUnused = 0
        let longSide = max(working.width, working.height)
        guard min(working.width, working.height) >= 21 else { return [] }
        let sourceMap = PerspectiveMap(toSource)
        for window in windows {
            let mask = LocalThreshold.darkMask(working, radius: max(8, longSide / window.divisor), bias: window.bias)
            let patterns = FinderPatternFinder.find(mask: mask, width: working.width, height: working.height)
            var found: [QRSymbol] = []
            var used: [FinderPatternFinder.Pattern] = []
            for triple in FinderTriple.triples(from: patterns, limit: triples) {
                let corners = [triple.topLeft, triple.topRight, triple.bottomLeft]
                guard !corners.contains(where: { used.contains($0) }) else { continue }
                var symbols: [QRSymbol] = []
                switch reader {
                case .zbar(let scanner):
                    symbols = try decode(triple, mask: mask, working: working, source: source, sourceMap: sourceMap) {
                        (crop, map) throws(DecodeError) in
                        try self.scan(crop(), map: map, sourceMap: sourceMap, scanner: scanner)
                    }
                    if symbols.isEmpty {
                        symbols = try scanAround(
                            triple, source: source, sourceMap: sourceMap,
                            scale: Double(source.width) / Double(working.width), scanner: scanner)
                    }
                case .modules:
                    for dimension in [triple.dimension, triple.dimension - 4, triple.dimension + 4]
                    where dimension >= 21 && dimension <= 177 {
                        var sized = triple
                        sized.dimension = dimension
                        symbols = try decode(sized, mask: mask, working: working, source: source, sourceMap: sourceMap)
                        {
                            (_, map) in self.readModules(source, map: sourceMap.after(map), dimension: dimension)
                        }
                        if !symbols.isEmpty { break }
                    }
                }
                if !symbols.isEmpty {
                    found += symbols.filter { symbol in !found.contains { $0.bytes == symbol.bytes } }
                    used += corners
                }
            }
            lastPatternsUnused = Self.strayPatterns(patterns, used: used, codes: found, toSource: sourceMap)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// How many of `patterns` (working pixels) may belong to a code not read: not used by a code read, seen on
    /// `strayRows` rows or more (noise rarely is), and outside each code read (its corners' box in `source` pixels,
    /// widened by a quarter of its size on each side, where its own modules give false hits).
    private static func strayPatterns(
        _ patterns: [FinderPatternFinder.Pattern], used: [FinderPatternFinder.Pattern], codes: [QRSymbol],
        toSource: PerspectiveMap
    ) -> Int {
        let boxes = codes.compactMap { code -> (x: ClosedRange<Double>, y: ClosedRange<Double>)? in
            let xs = code.corners.map { Double($0.x) }
            let ys = code.corners.map { Double($0.y) }
            guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
            let margin = max(maxX - minX, maxY - minY) / 4
            return ((minX - margin)...(maxX + margin), (minY - margin)...(maxY + margin))
        }
        return patterns.filter { pattern in
            guard pattern.count >= strayRows, !used.contains(pattern),
                let point = toSource.apply(pattern.x, pattern.y)
            else { return false }
            return !boxes.contains { $0.x.contains(point.x) && $0.y.contains(point.y) }
        }.count
    }

    /// Rows a finder pattern must be seen on to count as a possible code's (a module of 2 pixels gives 6).
    static let strayRows = 4

    /// The code our own decoder reads in the modules `map` (modules → `source` pixels) places; `[]` when none.
    private func readModules(_ source: GrayImage, map: PerspectiveMap, dimension: Int) -> [QRSymbol] {
        lastCropCount += 1
        // Sharpened only when the plain grid does not decode: blur greys a lone module towards its neighbours.
        guard
            let payload = [0.0, 1.0].lazy.compactMap({ sharpening in
                ModuleGrid.sampled(source, map: map, dimension: dimension, sharpening: sharpening).flatMap {
                    try? ModuleDecoder.payload($0)
                }
            }).first
        else { return [] }
        let size = Double(dimension)
        let corners = [(0.0, 0.0), (size, 0), (size, size), (0, size)].compactMap { corner in
            map.apply(corner.0, corner.1).map { Point(x: Int($0.x.rounded()), y: Int($0.y.rounded())) }
        }
        return [QRSymbol(payload: payload, corners: corners, quality: 1)]
    }

    /// The code of one triple: the affine crop first, then the perspective crop when an alignment pattern is found.
    /// `attempt` reads the code given the map (modules → working pixels) and the crop it gives, made on demand.
    private func decode(
        _ triple: FinderTriple, mask: [UInt8], working: GrayImage, source: GrayImage, sourceMap: PerspectiveMap,
        attempt: (_ crop: () -> GrayImage, _ map: PerspectiveMap) throws(DecodeError) -> [QRSymbol]
    ) throws(DecodeError) -> [QRSymbol] {
        let dimension = Double(triple.dimension)
        let modules: [(x: Double, y: Double)] = [(3.5, 3.5), (dimension - 3.5, 3.5), (3.5, dimension - 3.5)]
        let pixels: [(x: Double, y: Double)] = [triple.topLeft, triple.topRight, triple.bottomLeft].map { ($0.x, $0.y) }
        // The affine map through the three centres, extended to a fourth point by the parallelogram rule.
        let fourthModule = (x: dimension - 3.5, y: dimension - 3.5)
        let fourthPixel = (x: pixels[1].x + pixels[2].x - pixels[0].x, y: pixels[1].y + pixels[2].y - pixels[0].y)
        guard let affine = PerspectiveMap(from: modules + [fourthModule], to: pixels + [fourthPixel]) else {
            return []
        }
        var first: GrayImage?
        let firstCrop = {
            let image = first ?? self.crop(source, map: affine, sourceMap: sourceMap, dimension: triple.dimension)
            first = image
            return image
        }
        var symbols = try attempt(firstCrop, affine)
        guard symbols.isEmpty else { return symbols }
        // Perspective: a map fitted to the twelve outer corners of the three finder patterns.
        let size = Double(triple.dimension)
        var outlined: PerspectiveMap?
        if let toModules = affine.inverse {
            let finders = [triple.topLeft, triple.topRight, triple.bottomLeft]
            let origins: [(x: Double, y: Double)] = [(0, 0), (size - 7, 0), (0, size - 7)]
            var from: [(x: Double, y: Double)] = []
            var to: [(x: Double, y: Double)] = []
            for (finder, origin) in zip(finders, origins) {
                guard
                    let corners = FinderOutline.corners(
                        mask: mask, width: working.width, height: working.height, centre: (finder.x, finder.y),
                        moduleSize: finder.moduleSize, toModules: toModules)
                else { continue }
                from += [(0, 0), (7, 0), (7, 7), (0, 7)].map { (x: origin.x + $0.0, y: origin.y + $0.1) }
                to += corners
            }
            if from.count == 12, let fitted = PerspectiveMap(fitting: from + modules, to: to + pixels) {
                outlined = fitted
                symbols = try attempt(
                    { self.crop(source, map: fitted, sourceMap: sourceMap, dimension: triple.dimension) }, fitted)
                guard symbols.isEmpty else { return symbols }
            }
        }
        // Version 2 and up: the alignment pattern's centre is 6.5 modules in from the bottom-right corner.
        if triple.dimension >= 25 {
            let expected = (x: dimension - 6.5, y: dimension - 6.5)
            let guess = outlined ?? affine
            let guessCrop =
                outlined.map { crop(source, map: $0, sourceMap: sourceMap, dimension: triple.dimension) } ?? firstCrop()
            let radius = outlined == nil ? max(3, dimension / 8) : 3
            if let alignment = AlignmentPatternFinder.find(
                in: guessCrop, pixelsPerModule: Self.pixelsPerModule, quietZone: Self.quietZone, expected: expected,
                radius: radius),
                let alignmentPixel = guess.apply(alignment.x, alignment.y),
                let perspective = PerspectiveMap(from: modules + [expected], to: pixels + [alignmentPixel])
            {
                symbols = try attempt(
                    { self.crop(source, map: perspective, sourceMap: sourceMap, dimension: triple.dimension) },
                    perspective)
                guard symbols.isEmpty else { return symbols }
            }
        }
        return []
    }

    /// The upright crop of the code that `map` (modules → working pixels) places, sampled from the source image.
    private func crop(_ source: GrayImage, map: PerspectiveMap, sourceMap: PerspectiveMap, dimension: Int) -> GrayImage
    {
        let toSource = sourceMap.after(map)
        return Rectifier.rectified(
            source, map: toSource, dimension: dimension, pixelsPerModule: Self.pixelsPerModule,
            quietZone: Self.quietZone)
    }

    /// zbar's codes in `crop`, corners mapped back through `map` and `sourceMap` to the source image.
    private func scan(
        _ crop: GrayImage, map: PerspectiveMap, sourceMap: PerspectiveMap, scanner: QRScanner
    ) throws(DecodeError) -> [QRSymbol] {
        let symbols = try scanOnce(crop, map: map, sourceMap: sourceMap, scanner: scanner)
        guard symbols.isEmpty else { return symbols }
        // Blurred or unevenly printed modules: the same crop in black and white.
        return try scanOnce(Binarizer.otsu(crop), map: map, sourceMap: sourceMap, scanner: scanner)
    }

    private func scanOnce(
        _ crop: GrayImage, map: PerspectiveMap, sourceMap: PerspectiveMap, scanner: QRScanner
    ) throws(DecodeError) -> [QRSymbol] {
        lastCropCount += 1
        let symbols = try scanner.scan(crop, density: 1, testInverted: true) { $0 }
        let toSource = sourceMap.after(map)
        let scale = 1 / Double(Self.pixelsPerModule)
        return symbols.map { symbol in
            var symbol = symbol
            symbol.corners = symbol.corners.map { corner in
                let mx = Double(corner.x) * scale - Double(Self.quietZone)
                let my = Double(corner.y) * scale - Double(Self.quietZone)
                guard let point = toSource.apply(mx, my) else { return corner }
                return Point(x: Int(point.x.rounded()), y: Int(point.y.rounded()))
            }
            return symbol
        }
    }
}
