import ProspectsCore
import QRDecoding

/// Turns one file into a `FileOutcome`: read, hash, decode, parse. Pure per-file work, no store.
///
/// A class because it owns a `QRDecoder` (a zbar scanner and reusable buffers) that must stay on one thread:
/// a parallel run gives each worker its own processor.
public final class FileProcessor {
    public struct Options: Sendable {
        public var pixelLimit: Int
        /// Whether the pipeline computes each file's SHA-256 (the ledger needs it; `decode` does not).
        public var hashContent: Bool

        public init(pixelLimit: Int = PNGReader.defaultPixelLimit, hashContent: Bool = true) {
            self.pixelLimit = pixelLimit
            self.hashContent = hashContent
        }
    }

    private let decoder: QRDecoder
    private let parser = PayloadParser()
    private let options: Options
    /// The file being processed; its storage serves every file this processor reads.
    private var buffer: [UInt8] = []

    public init(options: Options = Options()) {
        self.options = options
        self.decoder = QRDecoder(pixelLimit: options.pixelLimit)
    }

    /// Reads `path` (following a symlink only when `followSymlinks`) and processes its bytes.
    public func process(path: String, followSymlinks: Bool) -> FileOutcome {
        do {
            try InputFile.read(path, followSymlinks: followSymlinks, into: &buffer)
        } catch {
            return FileOutcome(path: InputFile.shownName(path), contentHash: nil, codes: [], fileError: error)
        }
        return process(bytes: buffer, path: InputFile.shownName(path))
    }

    /// Decodes and parses bytes already read.
    public func process(bytes: [UInt8], path: String) -> FileOutcome {
        let hash = options.hashContent ? ContentHash.sha256(bytes) : nil
        let clock = ContinuousClock()
        let start = clock.now
        let decoded: Result<[QRSymbol], ScanError>
        do {
            decoded = .success(try decoder.decode(bytes))
        } catch {
            decoded = .failure(ScanError(error))
        }
        var outcome = FileProcessor.outcome(path: path, contentHash: hash, decoded: decoded, parser: parser)
        outcome.passCount = decoder.lastPassCount
        outcome.warnings = decoder.lastPicture?.warnings.map(ScanWarning.init) ?? []
        outcome.decodeTime = clock.now - start
        return outcome
    }

    /// The part of every file's processing after decoding: order the codes, parse each, or say why the file failed.
    /// `ingest` gets here from `process(bytes:path:)`; `watch`, whose decoding runs in a worker process, directly.
    public static func outcome(
        path: String, contentHash: String?, decoded: Result<[QRSymbol], ScanError>,
        parser: PayloadParser = PayloadParser()
    ) -> FileOutcome {
        let symbols: [QRSymbol]
        switch decoded {
        case .success(let found): symbols = found
        case .failure(let error): return FileOutcome(path: path, contentHash: contentHash, codes: [], fileError: error)
        }
        if symbols.isEmpty {
            return FileOutcome(path: path, contentHash: contentHash, codes: [], fileError: .noCodeFound)
        }
        let codes = symbols.sorted(by: FileProcessor.readingOrder).map { symbol in
            CodeOutcome(symbol: symbol, result: parse(symbol, with: parser))
        }
        return FileOutcome(path: path, contentHash: contentHash, codes: codes, fileError: nil)
    }

    /// Parses the raw bytes first, so that a vCard folded inside a UTF-8 sequence (invalid UTF-8 until unfolded)
    /// still reads right; bytes that are not UTF-8 even then are parsed as the decoder's text (Shift_JIS, Latin-1).
    private static func parse(_ symbol: QRSymbol, with parser: PayloadParser) -> Result<Prospect, ScanError> {
        let fromBytes = parser.parse(utf8: symbol.bytes)
        if case .failure(.invalidText) = fromBytes { return parser.parse(symbol.text) }
        return fromBytes
    }

    /// Top to bottom, then left to right, by each code's top-left corner; so output does not depend on zbar's order.
    static func readingOrder(_ a: QRSymbol, _ b: QRSymbol) -> Bool {
        let pa = topLeft(a)
        let pb = topLeft(b)
        if pa.y != pb.y { return pa.y < pb.y }
        return pa.x < pb.x
    }

    private static func topLeft(_ symbol: QRSymbol) -> (x: Int, y: Int) {
        guard !symbol.corners.isEmpty else { return (0, 0) }
        // Rows within a few pixels count as one row, so two codes side by side read left to right.
        let y = symbol.corners.map(\.y).min()! / 16
        let x = symbol.corners.map(\.x).min()!
        return (x, y)
    }
}

extension ScanWarning {
    /// The decoding module's warnings become scan warnings here, as its errors become scan errors.
    init(_ warning: DecodeWarning) {
        switch warning {
        case .missingEndMarker(let format): self = .missingEndMarker(format: format.name)
        }
    }
}

extension ScanError {
    /// The decoding module knows nothing of prospects; its errors become scan errors here.
    init(_ error: DecodeError) {
        switch error {
        case .unsupportedFormat(let other): self = .unsupportedImage(kind: other.description)
        case .unreadableImage(let format, let reason): self = .unreadableImage(format: format.name, reason: reason)
        case .truncatedImage(let format): self = .truncatedImage(format: format.name)
        case .imageTooLarge(let width, let height, let limit):
            self = .imageTooLarge(width: width, height: height, limit: limit)
        case .scanFailed(let format, let reason):
            self = .unreadableImage(format: format?.name ?? "gray", reason: "the QR scanner failed: \(reason)")
        }
    }
}
