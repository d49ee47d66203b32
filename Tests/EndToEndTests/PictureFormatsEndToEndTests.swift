import Foundation
import ProspectsTestSupport
import QRDecoding
import Testing

/// `prospects decode` and `ingest` on a folder of every picture a phone makes, named or misnamed, beside files that
/// are no pictures.
@Suite struct PictureFormatsEndToEndTests {
    /// A folder with one contact in each readable format (each its own person), a JPEG named `.png`, a GIF, a
    /// text file and a PDF; returns the folder and the lines `decode` prints for the pictures.
    func folderOfEveryFormat() throws -> (TemporaryDirectory, [String: String]) {
        let folder = try TemporaryDirectory()
        var expected: [String: String] = [:]
        let files: [(String, PictureFixtures.Conversion?)] = [
            ("baseline.jpg", .jpegBaseline), ("progressive.jpeg", .jpegProgressive), ("gray.jpg", .jpegGray),
            ("cmyk.jpg", .jpegCMYK), ("lossy.webp", .webpLossy), ("lossless.webp", .webpLossless),
            ("phone.heic", .heic), ("phone.avif", .avif), ("misnamed.png", .jpegRestartMarkers), ("source.png", nil),
        ]
        for (index, (name, conversion)) in files.enumerated() {
            let png = PNGFixtures.contactCode("Person \(index)\np\(index)@example.com", moduleSize: 5)
            let bytes = try conversion.map { try PictureFixtures.convert(png, $0) } ?? png
            try Data(bytes).write(to: folder.url.appendingPathComponent(name))
            expected[name] = "\(folder.path)/\(name): Person \(index) <p\(index)@example.com>"
        }
        let gif = try PictureFixtures.convert(PNGFixtures.contactCode("G\ng@example.com"), .gif)
        try Data(gif).write(to: folder.url.appendingPathComponent("scan.gif"))
        try Data("call Paul back\n".utf8).write(to: folder.url.appendingPathComponent("notes.txt"))
        try Data("%PDF-1.4\n".utf8).write(to: folder.url.appendingPathComponent("badge.pdf"))
        return (folder, expected)
    }

    @Test func decodeReadsEveryFormatNamesTheGIFAndTheSkippedFiles() throws {
        let (folder, expected) = try folderOfEveryFormat()
        let result = try ProspectsProcess.run(["decode", folder.path])
        #expect(result.status == 65, "the GIF is rejected data")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        #expect(lines == Set(expected.values), "\(result.output)\n\(result.stderr)")
        #expect(result.stderr.contains("scan.gif: a GIF image; Prospects reads PNG, JPEG, HEIC, AVIF and WebP"))
        #expect(
            result.stderr.contains(
                "skipped 2 files that are not pictures: \(folder.path)/badge.pdf (a PDF document), "
                    + "\(folder.path)/notes.txt (a text file)"), "\(result.stderr)")
    }

    @Test func ingestLoadsEveryPictureAndCountsTheSkippedFiles() throws {
        let (folder, expected) = try folderOfEveryFormat()
        let storeFolder = try TemporaryDirectory()
        let store = storeFolder.file("prospects.sqlite")
        let result = try ProspectsProcess.run(["ingest", "--json", "--store", store, folder.path])
        #expect(result.status == 65)
        let summary = try #require(result.lines.last)
        #expect(
            summary.hasPrefix(
                #"{"files":\#(expected.count + 1),"inserted":\#(expected.count),"duplicates":0,"rejected":1"#),
            "\(summary)")
        #expect(summary.contains(#""skipped":2"#), "\(summary)")
        #expect(result.stderr.contains("notes.txt (a text file)"))
        // A text file named as a picture is read, and refused for what it is.
        let named = folder.file("named.jpg")
        try Data("not a photo\n".utf8).write(to: URL(fileURLWithPath: named))
        let refused = try ProspectsProcess.run(["decode", named])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("named.jpg: a text file; Prospects reads PNG, JPEG, HEIC, AVIF and WebP"))
    }

    @Test func aTruncatedJPEGIsNamedAsCutShort() throws {
        let folder = try TemporaryDirectory()
        let jpeg = try PictureFixtures.convert(PNGFixtures.contactCode("A\na@example.com"), .jpegBaseline)
        let path = folder.file("cut.jpg")
        try Data(jpeg.prefix(jpeg.count / 2)).write(to: URL(fileURLWithPath: path))
        let result = try ProspectsProcess.run(["decode", "--json", path])
        #expect(result.status == 65)
        #expect(result.output.contains(#""kind":"unreadableImage""#))
        #expect(result.output.contains("the JPEG image is cut short"), "\(result.output)")
    }

    @Test func aJPEGLackingOnlyItsEndMarkerIsReadWithAWarning() throws {
        let folder = try TemporaryDirectory()
        let jpeg = try PictureFixtures.convert(PNGFixtures.contactCode("A\na@example.com"), .jpegProgressive)
        let path = folder.file("no-eoi.jpg")
        try Data(jpeg.dropLast(2)).write(to: URL(fileURLWithPath: path))
        let decoded = try ProspectsProcess.run(["decode", path])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.output == "\(path): A <a@example.com>\n")
        #expect(
            decoded.stderr.contains(
                "\(path): warning: the JPEG file ends without its end marker; its picture is whole and was read"),
            "\(decoded.stderr)")
        let store = folder.file("prospects.sqlite")
        let ingested = try ProspectsProcess.run(["ingest", "--store", store, path])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(ingested.stderr.contains("\(path): warning: the JPEG file ends without its end marker"))
    }

    @Test func aPictureOverThePixelLimitNamesTheOptionAndTheValueThatReadIt() throws {
        let folder = try TemporaryDirectory()
        let png = PNGFixtures.contactCode("A\na@example.com")
        let image = try PNGReader().read(png)
        let pixels = image.width * image.height
        let path = folder.file("code.png")
        try Data(png).write(to: URL(fileURLWithPath: path))
        let refused = try ProspectsProcess.run(["decode", "--pixel-limit", "1000", path])
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains(
                "\(path): a \(image.width) × \(image.height) picture ("), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("pixels) is over the limit of 1,000 pixels; --pixel-limit \(pixels) reads it"),
            "\(refused.stderr)")
        let named = try ProspectsProcess.run(["decode", "--pixel-limit", String(pixels), path])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.output == "\(path): A <a@example.com>\n")
        #expect(try ProspectsProcess.run(["decode", "--pixel-limit", String(pixels - 1), path]).status == 65)
        // A phone's 108 MP photo against the default limit, from its header alone.
        let huge = folder.file("huge.png")
        try Data(PNGFixtures.hugeDimensionsHeader()).write(to: URL(fileURLWithPath: huge))
        let json = try ProspectsProcess.run(["decode", "--json", huge])
        #expect(json.status == 65)
        #expect(
            json.output.contains(
                "a 30,000 × 30,000 picture (900 MP) is over the 50 MP limit; --pixel-limit 900000000 reads it"),
            "\(json.output)")
    }
}
