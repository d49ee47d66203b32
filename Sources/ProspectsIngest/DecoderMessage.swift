import QRDecoding

/// The decoder worker's wire format: length-prefixed binary frames, requests on its stdin and replies on its stdout.
///
/// A frame is a little-endian `UInt32` length and that many bytes. A request carries the file's name (for the
/// log) and its picture bytes; a reply carries the QR symbols found (each with the pass that found it) or the
/// `DecodeError`. Only decoding crosses the process boundary: hashing and parsing stay in the watcher, on the same
/// code as `ingest`.
enum DecoderMessage {
    /// The largest frame either side accepts: a file at `InputFile.maxBytes` plus its name.
    static let maxFrame = InputFile.maxBytes + 8192

    static func request(name: String, png: [UInt8]) -> [UInt8] {
        var body = FrameWriter()
        body.blob(Array(name.utf8.prefix(4096)))
        body.bytes += png
        return body.framed()
    }

    /// The name and PNG bytes of a request body.
    static func parseRequest(_ body: [UInt8]) -> (name: String, png: [UInt8])? {
        var reader = FrameReader(body[...])
        guard let name = reader.blob() else { return nil }
        return (String(decoding: name, as: UTF8.self), Array(reader.rest))
    }

    static func reply(_ result: Result<[QRSymbol], DecodeError>) -> [UInt8] {
        var body = FrameWriter()
        switch result {
        case .success(let symbols):
            body.byte(0)
            body.integer(symbols.count)
            for symbol in symbols {
                body.blob(symbol.bytes)
                body.blob(Array(symbol.text.utf8))
                body.blob(Array(symbol.encoding.utf8))
                body.integer(symbol.corners.count)
                for corner in symbol.corners {
                    body.integer(corner.x)
                    body.integer(corner.y)
                }
                body.integer(symbol.quality)
                body.blob(Array(symbol.pass.utf8))
            }
        case .failure(.unreadableImage(let format, let reason)):
            body.byte(1)
            body.blob(Array(reason.utf8))
            body.blob(Array(format.rawValue.utf8))
        case .failure(.imageTooLarge(let width, let height, let limit)):
            body.byte(2)
            body.integer(width)
            body.integer(height)
            body.integer(limit)
        case .failure(.scanFailed(let format, let reason)):
            body.byte(3)
            body.blob(Array(reason.utf8))
            body.blob(Array((format?.rawValue ?? "").utf8))
        case .failure(.unsupportedFormat(let other)):
            body.byte(4)
            body.blob(Array(other.rawValue.utf8))
        case .failure(.truncatedImage(let format)):
            body.byte(5)
            body.blob(Array(format.rawValue.utf8))
        }
        return body.framed()
    }

    /// The result a reply body carries; nil when the body is malformed (a worker gone wrong).
    static func parseReply(_ body: ArraySlice<UInt8>) -> Result<[QRSymbol], DecodeError>? {
        var reader = FrameReader(body)
        switch reader.byte() {
        case 0:
            guard let count = reader.integer(), count >= 0, count < 10_000 else { return nil }
            var symbols: [QRSymbol] = []
            for _ in 0..<count {
                guard let bytes = reader.blob(), let text = reader.blob(), let encoding = reader.blob(),
                    let cornerCount = reader.integer(), cornerCount >= 0, cornerCount < 1_000
                else { return nil }
                var corners: [Point] = []
                for _ in 0..<cornerCount {
                    guard let x = reader.integer(), let y = reader.integer() else { return nil }
                    corners.append(Point(x: x, y: y))
                }
                guard let quality = reader.integer(), let pass = reader.blob() else { return nil }
                symbols.append(
                    QRSymbol(
                        bytes: bytes, text: String(decoding: text, as: UTF8.self),
                        encoding: String(decoding: encoding, as: UTF8.self), corners: corners, quality: quality,
                        pass: String(decoding: pass, as: UTF8.self)))
            }
            return .success(symbols)
        case 1:
            guard let reason = reader.blob(), let format = reader.blob().flatMap(Self.format) else { return nil }
            return .failure(.unreadableImage(format: format, reason: String(decoding: reason, as: UTF8.self)))
        case 2:
            guard let width = reader.integer(), let height = reader.integer(), let limit = reader.integer() else {
                return nil
            }
            return .failure(.imageTooLarge(width: width, height: height, limit: limit))
        case 3:
            guard let reason = reader.blob(), let format = reader.blob() else { return nil }
            return .failure(
                .scanFailed(format: Self.format(format), reason: String(decoding: reason, as: UTF8.self)))
        case 4:
            return reader.blob().flatMap { UnsupportedFormat(rawValue: String(decoding: $0, as: UTF8.self)) }
                .map { .failure(.unsupportedFormat($0)) }
        case 5:
            return reader.blob().flatMap(Self.format).map { .failure(.truncatedImage(format: $0)) }
        default:
            return nil
        }
    }

    private static func format(_ name: [UInt8]) -> ImageFormat? {
        ImageFormat(rawValue: String(decoding: name, as: UTF8.self))
    }

    /// The length a frame header announces, once its four bytes are there.
    static func frameLength(_ header: ArraySlice<UInt8>) -> Int? {
        guard header.count >= 4 else { return nil }
        let start = header.startIndex
        return (0..<4).reduce(0) { $0 | Int(header[start + $1]) << (8 * $1) }
    }
}

/// Builds one frame's body, little-endian.
private struct FrameWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func integer(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes += $0 }
    }

    mutating func blob(_ data: [UInt8]) {
        withUnsafeBytes(of: UInt32(data.count).littleEndian) { bytes += $0 }
        bytes += data
    }

    func framed() -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(bytes.count + 4)
        withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { frame += $0 }
        return frame + bytes
    }
}

/// Reads a frame's body; every read returns nil past the end rather than trapping.
private struct FrameReader {
    private var remaining: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { remaining = bytes }

    var rest: ArraySlice<UInt8> { remaining }

    mutating func byte() -> UInt8? { remaining.popFirst() }

    mutating func integer() -> Int? {
        guard let raw = take(8) else { return nil }
        return Int(Int64(littleEndian: raw.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }))
    }

    mutating func blob() -> [UInt8]? {
        guard let raw = take(4) else { return nil }
        let count = Int(UInt32(littleEndian: raw.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
        return take(count).map(Array.init)
    }

    private mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, remaining.count >= count else { return nil }
        defer { remaining = remaining.dropFirst(count) }
        return remaining.prefix(count)
    }
}
