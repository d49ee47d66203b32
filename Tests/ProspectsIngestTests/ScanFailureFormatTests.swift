import ProspectsCore
import QRDecoding
import Testing

@testable import ProspectsIngest

/// A picture whose scan fails is named by its own format, in `ingest` and through `watch`'s decoder worker alike.
@Suite("A failed scan names the picture's format")
struct ScanFailureFormatTests {
    @Test("a JPEG whose scan fails is reported as a JPEG, not as a PNG", arguments: [ImageFormat.jpeg, .webp, .png])
    func failedScanSaysItsFormat(format: ImageFormat) throws {
        let failure = DecodeError.scanFailed(format: format, reason: "zbar_scan_image failed")
        // Through the worker's reply, as `watch` decodes.
        let frame = DecoderMessage.reply(.failure(failure))
        let carried = try #require(DecoderMessage.parseReply(frame[4...]))
        let outcome = FileProcessor.outcome(
            path: "photo", contentHash: nil, decoded: carried.mapError { ScanError($0) })
        let error = try #require(outcome.fileError)
        #expect(error == .unreadableImage(format: format.name, reason: "the QR scanner failed: zbar_scan_image failed"))
        #expect(error.message.contains("not a readable \(format.name) image"))
        if format != .png { #expect(!error.message.contains("PNG")) }
    }

    @Test("a gray image scanned directly, with no file, is named as such")
    func scanOfPixels() {
        let error = ScanError(DecodeError.scanFailed(reason: "dimensions too large for zbar"))
        #expect(error.message == "not a readable gray image: the QR scanner failed: dimensions too large for zbar")
    }
}
