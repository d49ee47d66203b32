import ProspectsCore
import QRDecoding

/// One QR code found in a file, and what the parser made of it.
public struct CodeOutcome: Sendable {
    public var symbol: QRSymbol
    public var result: Result<Prospect, ScanError>

    public init(symbol: QRSymbol, result: Result<Prospect, ScanError>) {
        self.symbol = symbol
        self.result = result
    }
}

/// What decoding and parsing made of one input file, before anything is stored.
public struct FileOutcome: Sendable {
    public var path: String
    /// SHA-256 of the bytes, when they could be read.
    public var contentHash: String?
    /// The codes found, in reading order (top to bottom, then left to right).
    public var codes: [CodeOutcome]
    /// Set when the file as a whole failed: unreadable, not an image, too large, or no code found.
    public var fileError: ScanError?
    /// How many scans the decoder ran on the image (1 for a clean image; 0 when it could not be read).
    public var passCount: Int
    /// Time spent turning the bytes into symbols (PNG decoding and every scan), not reading or parsing.
    public var decodeTime: Duration
    /// What the picture was read in spite of (a JPEG lacking its end marker); a front-end tells the person.
    public var warnings: [ScanWarning] = []

    public init(
        path: String, contentHash: String?, codes: [CodeOutcome], fileError: ScanError?, passCount: Int = 0,
        decodeTime: Duration = .zero
    ) {
        self.path = path
        self.contentHash = contentHash
        self.codes = codes
        self.fileError = fileError
        self.passCount = passCount
        self.decodeTime = decodeTime
    }

    /// The valid prospects the file carried.
    public var prospects: [Prospect] {
        codes.compactMap { try? $0.result.get() }
    }

    /// The codes that are no valid contact, with their place among the file's codes (0-based).
    public var rejectedCodes: [(index: Int, error: ScanError)] {
        codes.enumerated().compactMap { index, code in
            if case .failure(let error) = code.result { (index, error) } else { nil }
        }
    }

    /// Why the file yields no prospect, when it yields none: its own error, or the first code's.
    public var rejection: ScanError? {
        if let fileError { return fileError }
        if !prospects.isEmpty { return nil }
        for code in codes {
            if case .failure(let error) = code.result { return error }
        }
        return .noCodeFound
    }
}
