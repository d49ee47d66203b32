import Foundation
import ProspectsTestSupport
import QRDecoding
import Testing

@testable import ProspectsCLI

/// `decode --json` on a fixed set of pictures, line for line against the output recorded before the decoder's passes
/// became one list (`Fixtures/decode-pipeline.jsonl`): which pass found each code, its corners and text must not
/// change when the pipeline is reorganised. The pictures: SampleImages/, the decoder's own fixtures (recovery,
/// upscale, own-decoder codes), and large JPEGs made here that take the reduced picture's passes.
@Suite("decode --json: the pass and corners of every code, as recorded")
struct DecodePipelineRecordTests {
    static let recorded = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/decode-pipeline.jsonl")

    /// A `width` × `height` desk with `code` drawn at (`x`, `y`), blurred once.
    static func desk(width: Int, height: Int, code: GrayImage?, x: Int = 0, y: Int = 0) -> GrayImage {
        DeskPicture.make(width: width, height: height, codes: code.map { [($0, x, y)] } ?? [])
    }

    /// Writes the pictures into `folder`, under names that sort in a fixed order.
    static func makePictures(in folder: URL) throws {
        let manager = FileManager.default
        let samples = ProspectsProcess.sampleImages()
        for name in try manager.contentsOfDirectory(atPath: samples.path).sorted() where name.hasSuffix(".png") {
            try manager.copyItem(
                at: samples.appendingPathComponent(name), to: folder.appendingPathComponent("a-" + name))
        }
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../QRDecodingTests/Fixtures").standardized
        for name in try manager.contentsOfDirectory(atPath: fixtures.path).sorted() where name.hasSuffix(".png") {
            try manager.copyItem(
                at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent("b-" + name))
        }
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let payload = "Ada Okafor\nada.okafor@example.com"
        // A large code in a large JPEG: the cheap scan of the reduced copy reads it.
        let large = desk(
            width: 3200, height: 2400, code: PNGFixtures.codeImage(payload, moduleSize: 24), x: 1200, y: 900)
        let largeJPEG = try PictureFixtures.convert(PNGFixtures.png(large), .jpegBaseline)
        try write("c-large-code.jpg", largeJPEG)
        try write("c-large-code-turned.jpg", PictureFixtures.withOrientation(largeJPEG, 6))
        // A small code in a large JPEG: too small for the reduced copy, read from a full-size crop of its region.
        let small = desk(
            width: 3200, height: 2400, code: PNGFixtures.codeImage(payload, moduleSize: 3), x: 2900, y: 500)
        let smallJPEG = try PictureFixtures.convert(PNGFixtures.png(small), .jpegBaseline)
        try write("c-small-code.jpg", smallJPEG)
        try write("c-small-code-turned.jpg", PictureFixtures.withOrientation(smallJPEG, 8))
        // A photo-sized JPEG read whole, turned.
        let photo = desk(width: 1200, height: 900, code: PNGFixtures.codeImage(payload, moduleSize: 4), x: 300, y: 200)
        try write(
            "c-photo-turned.jpg",
            PictureFixtures.withOrientation(try PictureFixtures.convert(PNGFixtures.png(photo), .jpegBaseline), 3))
        // A large picture with no code: every pass for reduced pictures runs and finds nothing.
        let empty = desk(width: 3200, height: 2400, code: nil)
        try write("c-no-code.jpg", try PictureFixtures.convert(PNGFixtures.png(empty), .jpegBaseline))
    }

    /// `decode --json` lines with the folder's path taken out of the file names.
    static func decodeJSON(_ folder: URL) -> [String] {
        let run = CommandRun(["decode", "--json", "--jobs", "1", folder.path])
        return run.lines.map { $0.replacingOccurrences(of: folder.path + "/", with: "") }
    }

    @Test("every picture decodes to the recorded lines")
    func matchesRecord() throws {
        let folder = try TemporaryDirectory()
        try Self.makePictures(in: folder.url)
        let lines = Self.decodeJSON(folder.url)
        if let keep = ProcessInfo.processInfo.environment["PROSPECTS_KEEP_PIPELINE_PICTURES"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: folder.url, to: URL(fileURLWithPath: keep))
        }
        let expected = try String(contentsOf: Self.recorded, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        for (index, line) in lines.enumerated() where index < expected.count {
            #expect(line == expected[index], "line \(index + 1)")
        }
        #expect(lines.contains { $0.contains(#""pass":"region""#) })
    }
}
