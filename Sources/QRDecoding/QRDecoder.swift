/// Picture bytes → every QR symbol in the image. Owns an ImageReader and a QRScanner; one per thread.
///
/// One ordered list of passes (`passes`, by default `defaultPasses`) run by one loop: each pass that applies to the
/// picture runs in turn, and the first that finds a code ends the decode, so a clean image costs exactly one scan.
/// A large JPEG is read reduced first (DCT scaling) and gets the passes for a reduced picture: the cheap scan of the
/// reduced copy, then crops of the full-size image (read once, when a pass first needs it). Corners are reported in
/// the upright picture (EXIF orientation applied).
/// A class because it reuses its zbar objects and gray buffer from one decode to the next.
public final class QRDecoder {
    /// One attempt at finding codes in the decoded image.
    ///
    /// A pass applies to pictures read whole, to large JPEGs read reduced, or to both (`appliesTo`). `name` is what
    /// reports show (`--json`'s `"pass"`): kept stable, so several passes share "original" and "region".
    public enum Pass: Sendable, Hashable {
        /// zbar over the picture as read: on a picture read whole, FirstPass's finder patterns on a shrunk copy
        /// (large photos), cheap scan and full scan; on a reduced picture, the cheap scan only.
        case plainScan
        /// The image enlarged `factor` times (nearest neighbour), for codes drawn at 1 pixel per module.
        /// Skipped for images over `maxSourcePixels`: such codes live in small images, and a large photo
        /// with no code should not cost a `factor²`-times larger scan.
        case upscaled(factor: Int, maxSourcePixels: Int)
        /// A transformed copy of the image, for photos the plain scan misses. Runs on the image reduced to at
        /// most `QRDecoder.recoveryLongSide` pixels on its long side, so a large photo with no code stays cheap.
        /// On a reduced picture only the local threshold runs (for a code beside white bars).
        case recovery(RecoveryPass)
        /// Each code located by its finder patterns on the reduced image and handed to zbar drawn upright and
        /// square (GeometryPass.swift): for perspective, shear and small modules.
        case located
        /// The codes the located pass finds but zbar cannot read (QR Model 1, Hanzi mode), read by our own decoder
        /// from their sampled modules (ModuleDecoder.swift). Images under `smallLongSide` pixels on their long side
        /// are enlarged first so that codes at 1 or 2 pixels a module still show their finder patterns.
        case ownDecoder
        /// Reduced picture: the busy regions of the reduced copy (CodeRegionFinder) cut from the full-size image and
        /// read by `reader`; a region bigger than a quarter of the picture is left to the later passes.
        case regionCrops(RegionReader)
        /// Reduced picture: codes located by their finder patterns on the reduced copy and read by zbar from upright
        /// crops of the full-size image, for modules too small for the scan of the reduced copy.
        case locatedInFullSize
        /// Reduced picture: the codes `locatedInFullSize` places but zbar cannot read, read by our own decoder.
        case ownDecoderInFullSize
        /// Reduced picture: zbar's full scan of the reduced copy, every row and column, light-on-dark codes too.
        case reducedFullScan

        /// How a region's crop is read.
        public enum RegionReader: Sendable, Hashable {
            /// zbar scans the crop as it is.
            case zbar
            /// Finder patterns found in the crop at full size; zbar reads each code drawn upright.
            case located
            /// The codes so located, read by our own decoder.
            case ownDecoder
        }

        /// Which pictures a pass applies to: read whole, or a large JPEG read reduced.
        public enum Pictures: Sendable, Hashable {
            case whole, reduced, both
        }

        /// The pictures this pass runs on.
        public var appliesTo: Pictures {
            switch self {
            case .plainScan, .recovery(.locallyBinarized): .both
            case .upscaled, .recovery, .located, .ownDecoder: .whole
            case .regionCrops, .locatedInFullSize, .ownDecoderInFullSize, .reducedFullScan: .reduced
            }
        }

        /// Whether the pass reads the full-size image of a reduced picture (its corners are in that image's pixels).
        var readsFullSize: Bool {
            switch self {
            case .regionCrops, .locatedInFullSize, .ownDecoderInFullSize: true
            default: false
            }
        }

        /// A short, stable name for reports: "original", "upscaled-2x", "region", or the recovery pass's name.
        public var name: String {
            switch self {
            case .plainScan, .reducedFullScan: "original"
            case .upscaled(let factor, _): "upscaled-\(factor)x"
            case .recovery(let pass): pass.name
            case .located, .locatedInFullSize: "located"
            case .ownDecoder, .ownDecoderInFullSize: "own-decoder"
            case .regionCrops: "region"
            }
        }
    }

    /// The passes used unless others are given, in the order they run; each pass runs only on the pictures it
    /// applies to, cheapest per code found first (what each finds on real photos and costs on 12 MP photos, and the
    /// passes measured and left out: docs/performance.md).
    public static let defaultPasses: [Pass] = [
        .plainScan,
        // A large JPEG read reduced, once the cheap scan of the reduced copy found nothing.
        .regionCrops(.zbar),
        .regionCrops(.located),
        .regionCrops(.ownDecoder),
        .locatedInFullSize,
        .ownDecoderInFullSize,
        .reducedFullScan,
        // A picture read whole, once the plain scan found nothing.
        .upscaled(factor: 2, maxSourcePixels: 1_000_000),
        .recovery(.blurred(radius: 1)),
        .recovery(.binarized),
        .recovery(.blurred(radius: 2)),
        .recovery(.enlarged(factor: 3, maxSourcePixels: 250_000)),
        // Both (for a code beside a large bright area such as white bars).
        .recovery(.locallyBinarized),
        // A picture read whole.
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
        let read = try reader.read(bytes, into: &gray, reducedLongSide: reducedLongSide)
        lastPicture = read
        var input = PassInput(image: gray, picture: read, bytes: read.reduction > 1 ? bytes : nil)
        let symbols: [QRSymbol]
        do {
            symbols = try runPasses(on: &input)
        } catch {
            // zbar does not know what it scans: the failure names the picture's format.
            guard case .scanFailed(nil, let reason) = error else { throw error }
            throw .scanFailed(format: read.format, reason: reason)
        }
        // Corners are in the full-size image's pixels when a pass read it, else in the pixels first read; with
        // nothing found, the last picture read is reported.
        let picture =
            if let lastPass, !lastPass.readsFullSize { read } else { input.fullSizePicture ?? read }
        lastPicture = picture
        guard picture.orientation != .up || picture.reduction > 1 else { return symbols }
        let toUpright = picture.toUpright
        return symbols.map { symbol in
            var symbol = symbol
            symbol.corners = symbol.corners.map(toUpright.apply)
            return symbol
        }
    }

    /// Every QR symbol in an already decoded image, running the same passes as `decode` (those for pictures read
    /// whole).
    ///
    /// Each symbol's corners are in `image`'s coordinates and its `pass` names the pass that found it.
    public func scan(_ image: GrayImage) throws(DecodeError) -> [QRSymbol] {
        lastPassCount = 0
        lastPass = nil
        var input = PassInput(image: image, picture: nil, bytes: nil)
        return try runPasses(on: &input)
    }

    /// What the passes of one decode read, and what they made of it that later passes reuse.
    private struct PassInput {
        /// The image as first read: the whole picture, or a large JPEG's reduced copy.
        let image: GrayImage
        /// What was read; nil for `scan`.
        let picture: ImageReader.Picture?
        /// A reduced picture's bytes, read again at full size when a pass first needs it; nil for a whole picture.
        let bytes: [UInt8]?
        /// `image` reduced to at most `recoveryLongSide`, made on the first pass that needs it.
        var working: (image: GrayImage, toSource: AffineMap)?
        /// A reduced picture's busy regions, found on the first region pass.
        var regions: [CodeRegionFinder.Region]?
        /// The full-size picture once read (its pixels in the decoder's `gray`).
        var fullSizePicture: ImageReader.Picture?

        /// The picture was read reduced (a large JPEG): the passes for reduced pictures apply.
        var isReduced: Bool { bytes != nil }
        var reduction: Int { picture?.reduction ?? 1 }
    }

    /// The one loop: each pass that applies to the input in turn, until one finds a code.
    private func runPasses(on input: inout PassInput) throws(DecodeError) -> [QRSymbol] {
        for pass in passes {
            switch pass.appliesTo {
            case .both: break
            case .whole: guard !input.isReduced else { continue }
            case .reduced: guard input.isReduced else { continue }
            }
            guard let (symbols, scans) = try run(pass, on: &input) else { continue }
            lastPassCount += scans
            guard symbols.isEmpty else {
                lastPass = pass
                return symbols.map { symbol in
                    var symbol = symbol
                    symbol.pass = pass.name
                    return symbol
                }
            }
        }
        return []
    }

    /// The codes `pass` finds, corners in the pixels of `input.image` (or of the full-size image when the pass
    /// `readsFullSize`), and how many scans it ran; nil when the pass does not apply to this image.
    private func run(_ pass: Pass, on input: inout PassInput) throws(DecodeError) -> (
        symbols: [QRSymbol], scans: Int
    )? {
        let image = input.image
        switch pass {
        case .plainScan:
            guard input.isReduced else {
                // A cheap scan, then the full scan only if it finds nothing (FirstPass.swift).
                return (try firstPass.scan(image, with: scanner, locator: geometryPass), 1)
            }
            return (try firstPass.cheapScan(image, plan: firstPass.plan(for: image), with: scanner), 1)
        case .upscaled(let factor, let maxSourcePixels):
            guard factor > 1, image.width * image.height <= maxSourcePixels else { return nil }
            let toSource = AffineMap.scale(1 / Double(factor))
            return (try scanner.scan(image.upscaled(by: factor)).map { $0.mapped(by: toSource) }, 1)
        case .recovery(let recovery):
            let copy = working(&input)
            guard let transformed = recovery.prepare(copy.image) else { return nil }
            let toSource = copy.toSource.after(transformed.toSource)
            return (try scanner.scan(transformed.image).map { $0.mapped(by: toSource) }, 1)
        case .located:
            let copy = working(&input)
            // Corners come back in `image`'s coordinates.
            return (
                try geometryPass.scan(source: image, working: copy.image, toSource: copy.toSource, with: scanner), 1
            )
        case .ownDecoder:
            var copy = working(&input)
            let longSide = max(copy.image.width, copy.image.height)
            if longSide < Self.smallLongSide, longSide > 0 {
                let factor = min(8, (Self.smallLongSide + longSide - 1) / longSide)
                copy = (copy.image.upscaled(by: factor), copy.toSource.after(.scale(1 / Double(factor))))
            }
            return (geometryPass.read(source: image, working: copy.image, toSource: copy.toSource), 1)
        case .regionCrops(let reader):
            if input.regions == nil { input.regions = CodeRegionFinder.regions(in: image, limit: Self.regionsTried) }
            try readFullSize(&input)
            return try scanRegions(input.regions ?? [], reduction: input.reduction, with: reader)
        case .locatedInFullSize:
            try readFullSize(&input)
            let symbols = try geometryPass.scan(
                source: gray, working: image, toSource: .scale(Double(input.reduction)), with: scanner,
                windows: Self.locatingWindows, triples: Self.locatingTriples)
            return (symbols, 1)
        case .ownDecoderInFullSize:
            try readFullSize(&input)
            let symbols = geometryPass.read(
                source: gray, working: image, toSource: .scale(Double(input.reduction)),
                windows: Self.locatingWindows, triples: Self.locatingTriples)
            return (symbols, 1)
        case .reducedFullScan:
            return (try scanner.scan(image, density: 1, testInverted: true) { $0 }, 1)
        }
    }

    /// `input.image` reduced to at most `recoveryLongSide`, made once per decode (a clean image never pays for it).
    private func working(_ input: inout PassInput) -> (image: GrayImage, toSource: AffineMap) {
        if let working = input.working { return working }
        let working = Self.reduced(input.image)
        input.working = working
        return working
    }

    /// Reads a reduced picture's full-size image into `gray`, once.
    private func readFullSize(_ input: inout PassInput) throws(DecodeError) {
        guard input.fullSizePicture == nil, let bytes = input.bytes else { return }
        let fullSize = try reader.read(bytes, into: &gray)
        input.fullSizePicture = fullSize
        lastPicture = fullSize
    }

    /// The codes in the full-size image now in `gray`, cropped to each of `regions` (found on the picture read
    /// `reduction` times smaller) and read by `reader`, corners in the full-size image; `[]` when none holds one.
    /// A region bigger than a quarter of the picture is left to the later passes: its crop would cost as much as
    /// they do. Each crop read counts as a scan.
    private func scanRegions(
        _ regions: [CodeRegionFinder.Region], reduction: Int, with reader: Pass.RegionReader
    ) throws(DecodeError) -> (symbols: [QRSymbol], scans: Int) {
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
        var scans = 0
        for box in boxes {
            var pixels = [UInt8]()
            pixels.reserveCapacity((box.x1 - box.x0) * (box.y1 - box.y0))
            for y in box.y0..<box.y1 {
                pixels += gray.pixels[(y * gray.width + box.x0)..<(y * gray.width + box.x1)]
            }
            let crop = GrayImage(width: box.x1 - box.x0, height: box.y1 - box.y0, pixels: pixels)
            scans += 1
            let symbols: [QRSymbol]
            switch reader {
            case .zbar:
                symbols = try scanner.scan(crop, density: 1, testInverted: true) { $0 }
            case .located:
                symbols = try geometryPass.scan(
                    source: crop, working: crop, toSource: .identity, with: scanner, windows: Self.regionWindows,
                    triples: Self.locatingTriples)
            case .ownDecoder:
                symbols = geometryPass.read(
                    source: crop, working: crop, toSource: .identity, windows: Self.regionWindows,
                    triples: Self.locatingTriples)
            }
            guard symbols.isEmpty else {
                let toFullSize = AffineMap.translation(Double(box.x0), Double(box.y0))
                return (symbols.map { $0.mapped(by: toFullSize) }, scans)
            }
        }
        return ([], scans)
    }

    /// `image` box-filtered down to at most `recoveryLongSide` on its long side, and the map back.
    private static func reduced(_ image: GrayImage) -> (image: GrayImage, toSource: AffineMap) {
        let longSide = max(image.width, image.height)
        guard longSide > recoveryLongSide else { return (image, .identity) }
        let factor = (longSide + recoveryLongSide - 1) / recoveryLongSide
        var copy = GrayImage(width: 0, height: 0, pixels: [])
        Resampler.boxDownscale(image, by: factor, into: &copy)
        return (copy, .scale(Double(factor)))
    }
}

@available(*, unavailable, message: "a QRDecoder owns zbar objects: create one per thread")
extension QRDecoder: Sendable {}
