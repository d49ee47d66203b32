/// Picture bytes → every QR symbol in the image. Owns an ImageReader and a QRScanner; one per thread.
///
/// Runs its passes in order and stops at the first that finds a code, so a clean image costs exactly one scan.
/// A large JPEG is first decoded reduced (DCT scaling) and scanned cheaply once; only when that finds nothing is it
/// decoded at full size, once, and read in crops where the reduced picture shows a code may be. Corners are reported
/// in the upright picture (EXIF orientation applied).
/// A class because it reuses its zbar objects and gray buffer from one decode to the next.
public final class QRDecoder {
    /// One attempt at finding codes in the decoded image.
    public enum Pass: Sendable, Hashable {
        /// The image as decoded.
        case original
        /// The image enlarged `factor` times (nearest neighbour), for codes drawn at 1 pixel per module.
        /// Skipped for images over `maxSourcePixels`: such codes live in small images, and a large photo
        /// with no code should not cost a `factor²`-times larger scan.
        case upscaled(factor: Int, maxSourcePixels: Int)
        /// A transformed copy of the image, for photos the plain scan misses. Runs on the image reduced to at
        /// most `QRDecoder.recoveryLongSide` pixels on its long side, so a large photo with no code stays cheap.
        case recovery(RecoveryPass)
        /// Each code located by its finder patterns on the reduced image and handed to zbar drawn upright and
        /// square (GeometryPass.swift): for perspective, shear and small modules.
        case located
        /// The codes the located pass finds but zbar cannot read (QR Model 1, Hanzi mode), read by our own decoder
        /// from their sampled modules (ModuleDecoder.swift). Images under `smallLongSide` pixels on their long side
        /// are enlarged first so that codes at 1 or 2 pixels a module still show their finder patterns.
        case ownDecoder

        /// A short, stable name for reports: "original", "upscaled-2x", or the recovery pass's name.
        public var name: String {
            switch self {
            case .original: "original"
            case .upscaled(let factor, _): "upscaled-\(factor)x"
            case .recovery(let pass): pass.name
            case .located: "located"
            case .ownDecoder: "own-decoder"
            }
        }
    }

    /// The passes used unless others are given, cheapest per code found first (what each finds on real photos, and
    /// the passes measured and left out: docs/performance.md).
    public static let defaultPasses: [Pass] = [
        .original,
        .upscaled(factor: 2, maxSourcePixels: 1_000_000),
        .recovery(.blurred(radius: 1)),
        .recovery(.binarized),
        .recovery(.blurred(radius: 2)),
        .recovery(.enlarged(factor: 3, maxSourcePixels: 250_000)),
        .recovery(.locallyBinarized),
        .located,
        .ownDecoder,
    ]

    /// Recovery passes work on a copy reduced (box filter, integer factor) to at most this long side: a 12 MP
    /// photo with no code then costs one full scan plus a few scans of ~1 MP, not ten full scans. A code
    /// that fills a fifth of such a copy still has over 2 pixels per module at QR version 10.
    public static let recoveryLongSide = 1280

    /// The threshold windows and finder triples tried on a reduced picture zbar's scan found nothing in: one window
    /// and three triples read as many codes of the phone-photo benchmark as two and eight, in a third of the time.
    static let locatingWindows: [ThresholdWindow] = [.fine]
    static let locatingTriples = 3

    /// How many busy regions of a large picture's reduced copy are read from full-size crops (CodeRegionFinder).
    static let regionsTried = 6
    /// The `pass` of codes read from those crops.
    static let regionPassName = "region"
    /// The threshold windows for finder patterns in a region's crop: a twentieth of its long side, a few modules
    /// (a tenth or a fifth found fewer patterns on the phone-photo benchmark's small codes), then the same for a
    /// blurred code.
    static let regionWindows: [ThresholdWindow] = [.fine, .blurred]

    /// The own-decoder pass enlarges images shorter than this on their long side (nearest neighbour) before it
    /// looks for finder patterns: the finder search needs a few pixels a module.
    public static let smallLongSide = 400

    /// A JPEG whose long side is at least twice this is first decoded reduced to at least this long side (a 12 MP
    /// photo at 1/2, a 48 MP one at 1/4) and scanned once: DCT scaling costs little, and the scan of a quarter of the
    /// pixels a quarter of the time. A code still has over 2 pixels per module there when it spans a twentieth of
    /// the photo's width at QR version 10.
    public static let reducedLongSide = 1600

    public let reader: ImageReader
    public let passes: [Pass]
    /// Whether large JPEGs get the reduced first scan; false decodes every picture at full size first.
    public let reducesLargePictures: Bool
    /// How many scans the last `decode` ran (skipped passes do not count; 0 if the PNG was unreadable).
    public private(set) var lastPassCount = 0
    /// The pass that found the codes of the last `decode`; nil when none did.
    public private(set) var lastPass: Pass?
    /// What the last `decode` read: its format, orientation, size, and the reduction of the image that gave the
    /// codes (1 when it was the full-size image, or nothing was found); nil when the bytes were unreadable.
    public private(set) var lastPicture: ImageReader.Picture?

    private let scanner = QRScanner()
    // perf: the first pass's cheap scan and its full-scan fallback (FirstPass.swift).
    private let firstPass = FirstPass()
    private let geometryPass = GeometryPass()
    private var gray = GrayImage(width: 0, height: 0, pixels: [])

    public convenience init(pixelLimit: Int = PNGReader.defaultPixelLimit) {
        self.init(pixelLimit: pixelLimit, passes: QRDecoder.defaultPasses)
    }

    public init(pixelLimit: Int, passes: [Pass], reducesLargePictures: Bool = true) {
        self.reader = ImageReader(pixelLimit: pixelLimit)
        self.passes = passes
        self.reducesLargePictures = reducesLargePictures
    }

    /// Every QR symbol in the picture (PNG, JPEG, HEIC, AVIF or WebP, told by its bytes); `[]` when no pass finds
    /// one. Corners are in the upright picture's coordinates.
    public func decode(_ bytes: [UInt8]) throws(DecodeError) -> [QRSymbol] {
        lastPassCount = 0
        lastPass = nil
        lastPicture = nil
        let reducedLongSide = reducesLargePictures ? Self.reducedLongSide : nil
        var picture = try reader.read(bytes, into: &gray, reducedLongSide: reducedLongSide)
        lastPicture = picture
        let symbols: [QRSymbol]
        if picture.reduction > 1 {
            symbols = try decodeLarge(bytes, reduced: &picture)
        } else {
            symbols = try scan(gray)
        }
        guard picture.orientation != .up || picture.reduction > 1 else { return symbols }
        let toUpright = picture.toUpright
        return symbols.map { symbol in
            var symbol = symbol
            symbol.corners = symbol.corners.map(toUpright.apply)
            return symbol
        }
    }

    /// The codes of a large JPEG whose reduced copy is in `gray`, corners in the pixels `picture` describes when it
    /// returns (the reduced copy's, or the full-size image's once that is read and gave the codes). First FirstPass's
    /// cheap scan of the reduced copy. When it finds nothing, the full-size image is decoded once and read in the busy regions of the reduced copy
    /// (CodeRegionFinder), then where finder patterns on the reduced copy place codes, then by a full scan of the
    /// reduced copy, light-on-dark codes too, and last through the local threshold (`binarized-local`, for a code
    /// beside a bright area such as white bars) (what each reads and costs on 12 MP photos: docs/performance.md).
    private func decodeLarge(_ bytes: [UInt8], reduced picture: inout ImageReader.Picture) throws(DecodeError)
        -> [QRSymbol]
    {
        let reduction = picture.reduction
        var symbols = try firstPass.cheapScan(gray, plan: firstPass.plan(for: gray), with: scanner)
        var scans = 1
        defer { lastPassCount = scans }
        guard symbols.isEmpty else {
            lastPass = .original
            return Self.labelled(symbols, by: .original)
        }
        let reduced = gray
        let reducedPicture = picture
        let regions = CodeRegionFinder.regions(in: reduced, limit: Self.regionsTried)
        let fullSize = try reader.read(bytes, into: &gray)
        picture = fullSize
        lastPicture = fullSize
        symbols = try scanRegions(regions, reduction: reduction)
        scans += lastPassCount
        guard symbols.isEmpty else { return symbols }
        symbols = try locate(in: reduced, reduction: reduction) ?? []
        scans += lastPassCount
        guard symbols.isEmpty else { return symbols }
        scans += 1
        symbols = try scanner.scan(reduced, density: 1, testInverted: true) { $0 }
        var pass = Pass.original
        let local = Pass.recovery(.locallyBinarized)
        if symbols.isEmpty, passes.contains(local) {
            // A code beside a large bright area (white bars around a photo): the local threshold, on a copy of at
            // most `recoveryLongSide`, mapped back to the reduced copy's pixels.
            let copy = Self.reduced(reduced)
            if let prepared = RecoveryPass.locallyBinarized.prepare(copy.image) {
                scans += 1
                let toReduced = copy.toSource.after(prepared.toSource)
                symbols = try scanner.scan(prepared.image).map { symbol in
                    var symbol = symbol
                    symbol.corners = symbol.corners.map(toReduced.apply)
                    return symbol
                }
                pass = local
            }
        }
        guard symbols.isEmpty else {
            lastPass = pass
            picture = reducedPicture
            lastPicture = reducedPicture
            return Self.labelled(symbols, by: pass)
        }
        return []
    }

    /// The codes in the full-size image now in `gray`, cropped to each of `regions` (found on the picture read
    /// `reduction` times smaller), corners in the full-size image; `[]` when none holds one. zbar scans every crop
    /// first; then each crop is searched for finder patterns at full size, read by zbar from upright crops and by our
    /// own decoder. A region bigger than a quarter of the picture is left to the later passes: its crop would cost as
    /// much as they do.
    private func scanRegions(_ regions: [CodeRegionFinder.Region], reduction: Int) throws(DecodeError) -> [QRSymbol] {
        lastPassCount = 0
        // The boxes in full-size pixels; each crop is cut when it is read, so only one is held at a time.
        let boxes = regions.compactMap { region -> (x0: Int, y0: Int, x1: Int, y1: Int)? in
            let box = (
                x0: min(gray.width, region.x0 * reduction), y0: min(gray.height, region.y0 * reduction),
                x1: min(gray.width, region.x1 * reduction), y1: min(gray.height, region.y1 * reduction)
            )
            let (width, height) = (box.x1 - box.x0, box.y1 - box.y0)
            guard width >= 21, height >= 21, width * height <= gray.width * gray.height / 4 else { return nil }
            return box
        }
        for attempt in 0..<3 {
            for box in boxes {
                var pixels = [UInt8]()
                pixels.reserveCapacity((box.x1 - box.x0) * (box.y1 - box.y0))
                for y in box.y0..<box.y1 {
                    pixels += gray.pixels[(y * gray.width + box.x0)..<(y * gray.width + box.x1)]
                }
                let crop = (
                    image: GrayImage(width: box.x1 - box.x0, height: box.y1 - box.y0, pixels: pixels), x0: box.x0,
                    y0: box.y0
                )
                lastPassCount += 1
                let symbols: [QRSymbol]
                switch attempt {
                case 0:
                    symbols = try scanner.scan(crop.image, density: 1, testInverted: true) { $0 }
                case 1:
                    symbols = try geometryPass.scan(
                        source: crop.image, working: crop.image, toSource: .identity, with: scanner,
                        windows: Self.regionWindows, triples: Self.locatingTriples)
                default:
                    symbols = geometryPass.read(
                        source: crop.image, working: crop.image, toSource: .identity, windows: Self.regionWindows,
                        triples: Self.locatingTriples)
                }
                guard symbols.isEmpty else {
                    lastPass = .original
                    return symbols.map { symbol in
                        var symbol = symbol
                        symbol.corners = symbol.corners.map { Point(x: $0.x + crop.x0, y: $0.y + crop.y0) }
                        symbol.pass = Self.regionPassName
                        return symbol
                    }
                }
            }
        }
        return []
    }

    /// The codes found by their finder patterns on `reduced` (the picture read `reduction` times smaller) and read
    /// from the full-size image now in `gray`, by zbar on upright crops, then by our own decoder; nil when neither
    /// reads one. Codes with modules too small for zbar's scan of the reduced picture: crops of a few thousand
    /// pixels instead of whole-frame scans of 12 MP (what each costs and reads: docs/performance.md).
    private func locate(in reduced: GrayImage, reduction: Int) throws(DecodeError) -> [QRSymbol]? {
        lastPassCount = 0
        let toSource = AffineMap.scale(Double(reduction))
        for pass in passes {
            let symbols: [QRSymbol]
            switch pass {
            case .located:
                lastPassCount += 1
                symbols = try geometryPass.scan(
                    source: gray, working: reduced, toSource: toSource, with: scanner,
                    windows: Self.locatingWindows, triples: Self.locatingTriples)
            case .ownDecoder:
                lastPassCount += 1
                symbols = geometryPass.read(
                    source: gray, working: reduced, toSource: toSource, windows: Self.locatingWindows,
                    triples: Self.locatingTriples)
            default:
                continue
            }
            if !symbols.isEmpty {
                lastPass = pass
                return Self.labelled(symbols, by: pass)
            }
        }
        return nil
    }

    /// Every QR symbol in an already decoded image, running the same passes as `decode`.
    ///
    /// Each symbol's corners are in `image`'s coordinates and its `pass` names the pass that found it.
    public func scan(_ image: GrayImage) throws(DecodeError) -> [QRSymbol] {
        lastPassCount = 0
        lastPass = nil
        // Made on the first recovery pass only: a clean image never pays for it.
        var working: (image: GrayImage, toSource: AffineMap)?
        for pass in passes {
            let prepared: (image: GrayImage, toSource: AffineMap)
            switch pass {
            case .original:
                prepared = (image, .identity)
            case .upscaled(let factor, let maxSourcePixels):
                guard factor > 1, image.width * image.height <= maxSourcePixels else { continue }
                prepared = (image.upscaled(by: factor), .scale(1 / Double(factor)))
            case .recovery(let recovery):
                let copy = working ?? Self.reduced(image)
                working = copy
                guard let transformed = recovery.prepare(copy.image) else { continue }
                prepared = (transformed.image, copy.toSource.after(transformed.toSource))
            case .located:
                let copy = working ?? Self.reduced(image)
                working = copy
                lastPassCount += 1
                // Corners come back in `image`'s coordinates.
                let symbols = try geometryPass.scan(
                    source: image, working: copy.image, toSource: copy.toSource, with: scanner)
                guard symbols.isEmpty else {
                    lastPass = pass
                    return Self.labelled(symbols, by: pass)
                }
                continue
            case .ownDecoder:
                var copy = working ?? Self.reduced(image)
                working = copy
                let longSide = max(copy.image.width, copy.image.height)
                if longSide < Self.smallLongSide, longSide > 0 {
                    let factor = min(8, (Self.smallLongSide + longSide - 1) / longSide)
                    copy = (copy.image.upscaled(by: factor), copy.toSource.after(.scale(1 / Double(factor))))
                }
                lastPassCount += 1
                let symbols = geometryPass.read(source: image, working: copy.image, toSource: copy.toSource)
                guard symbols.isEmpty else {
                    lastPass = pass
                    return Self.labelled(symbols, by: pass)
                }
                continue
            }
            lastPassCount += 1
            let symbols: [QRSymbol]
            switch pass {
            case .original:
                // perf: a cheap scan, then the full scan only if it finds nothing (FirstPass.swift); corners come
                // back in `image`'s coordinates, as `.identity` expects.
                symbols = try firstPass.scan(image, with: scanner, locator: geometryPass)
            default:
                symbols = try scanner.scan(prepared.image)
            }
            if !symbols.isEmpty {
                lastPass = pass
                return symbols.map { symbol in
                    var symbol = symbol
                    symbol.corners = symbol.corners.map(prepared.toSource.apply)
                    symbol.pass = pass.name
                    return symbol
                }
            }
        }
        return []
    }

    /// `symbols` with the name of the pass that read them.
    private static func labelled(_ symbols: [QRSymbol], by pass: Pass) -> [QRSymbol] {
        symbols.map { symbol in
            var symbol = symbol
            symbol.pass = pass.name
            return symbol
        }
    }

    /// `image` box-filtered down to at most `recoveryLongSide` on its long side, and the map back.
    private static func reduced(_ image: GrayImage) -> (image: GrayImage, toSource: AffineMap) {
        let longSide = max(image.width, image.height)
        guard longSide > recoveryLongSide else { return (image, .identity) }
        let factor = (longSide + recoveryLongSide - 1) / recoveryLongSide
        return (Resampler.boxDownscaled(image, by: factor), .scale(Double(factor)))
    }
}

@available(*, unavailable, message: "a QRDecoder owns zbar objects: create one per thread")
extension QRDecoder: Sendable {}
