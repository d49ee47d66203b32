/// PNG bytes → every QR symbol in the image. Owns a PNGReader and a QRScanner; one per thread.
///
/// Runs its passes in order and stops at the first that finds a code, so a clean image costs exactly one scan.
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
    }

    /// The passes used unless others are given: as is, then 2× for 1-pixel modules.
    public static let defaultPasses: [Pass] = [.original, .upscaled(factor: 2, maxSourcePixels: 1_000_000)]

    public let reader: PNGReader
    public let passes: [Pass]
    /// How many scans the last `decode` ran (skipped passes do not count; 0 if the PNG was unreadable).
    public private(set) var lastPassCount = 0

    private let scanner = QRScanner()
    // perf: the first pass's cheap scan and its full-scan fallback (FirstPass.swift).
    private let firstPass = FirstPass()
    private var gray = GrayImage(width: 0, height: 0, pixels: [])

    public convenience init(pixelLimit: Int = PNGReader.defaultPixelLimit) {
        self.init(pixelLimit: pixelLimit, passes: QRDecoder.defaultPasses)
    }

    public init(pixelLimit: Int, passes: [Pass]) {
        self.reader = PNGReader(pixelLimit: pixelLimit)
        self.passes = passes
    }

    /// Every QR symbol in the PNG; `[]` when no pass finds one.
    public func decode(_ png: [UInt8]) throws(DecodeError) -> [QRSymbol] {
        lastPassCount = 0
        do {
            try reader.read(png, into: &gray)
        } catch {
            throw DecodeError(error)
        }
        return try scan(gray)
    }

    /// Every QR symbol in an already decoded image, running the same passes as `decode`.
    public func scan(_ image: GrayImage) throws(DecodeError) -> [QRSymbol] {
        lastPassCount = 0
        for pass in passes {
            let symbols: [QRSymbol]
            do {
                switch pass {
                case .original:
                    lastPassCount += 1
                    symbols = try firstPass.scan(image, with: scanner)
                case .upscaled(let factor, let maxSourcePixels):
                    guard factor > 1, image.width * image.height <= maxSourcePixels else { continue }
                    lastPassCount += 1
                    symbols = try scanner.scan(image.upscaled(by: factor), coordinateScale: factor)
                }
            } catch {
                throw DecodeError(error)
            }
            if !symbols.isEmpty { return symbols }
        }
        return []
    }
}

@available(*, unavailable, message: "a QRDecoder owns zbar objects: create one per thread")
extension QRDecoder: Sendable {}
