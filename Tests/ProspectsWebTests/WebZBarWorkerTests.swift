import Foundation
import ProspectsIngest
import ProspectsTestSupport
import QRDecoding
import Testing
import WebTestSupport

@testable import ProspectsWeb

/// zbar.wasm and the scan worker: the module served is the one committed (its SHA-256 recorded), cacheable under
/// its hash; in a real headless Chromium, pictures drawn onto a canvas are read by the worker as the server reads
/// them (UTF-8 names exact, a byte order mark dropped), a picture without a code gives no codes, and a malformed
/// message an error naming what was wrong.
@Suite struct WebZBarWorkerTests {
    @Test func theServedModuleIsTheCommittedOneAndCachedUnderItsHash() throws {
        #expect(ZBarModule.bytes.starts(with: [0x00, 0x61, 0x73, 0x6D]), "a WebAssembly module starts with \\0asm")
        #expect(
            ContentHash.sha256(ZBarModule.bytes) == ZBarModule.sha256,
            "ZBarModule+Bytes.swift is not the module whose SHA-256 ZBarModule.swift records")
        #expect(ZBarModule.path.contains(String(ZBarModule.sha256.prefix(16))))

        let web = try WebFixture()
        let response = try web.get(ZBarModule.path)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/wasm")
        #expect(response.header("Cache-Control")?.contains("max-age=31536000") == true)
        #expect(response.header("ETag") == "\"\(ZBarModule.sha256)\"")
        #expect(ContentHash.sha256(response.body) == ZBarModule.sha256)
        #expect(try web.get("/static/zbar-0000000000000000.wasm").status == 404)

        let worker = try web.get("/static/zbar-worker.js")
        #expect(worker.status == 200)
        #expect(worker.text.contains(ZBarModule.path), "the worker fetches the module by its hashed name")
        // Only the worker may compile WebAssembly; pages keep the strict policy.
        #expect(worker.header("Content-Security-Policy")?.contains("'wasm-unsafe-eval'") == true)
        #expect(try web.get("/static/app.css").header("Content-Security-Policy")?.contains("wasm") == false)
        #expect(try web.get("/").header("Content-Security-Policy")?.contains("wasm") == false)
    }

    /// 山田太郎 (Yamada Tarō) and a backslash in Shift_JIS; "Zoë Müller" in Latin-1 (0xEB is not valid Shift_JIS there).
    static let shiftJIS: [UInt8] = [0x8E, 0x52, 0x93, 0x63, 0x91, 0xBE, 0x98, 0x59, 0x5C, 0x3A]
    static let latin1: [UInt8] = Array("Zo".utf8) + [0xEB, 0x20, 0x4D, 0xFC] + Array("ller".utf8)

    @Test func theWorkerReadsPicturesDrawnOnACanvas() throws {
        let samples = ProspectsProcess.sampleImages()
        func sample(_ name: String) throws -> String {
            try Data(contentsOf: samples.appendingPathComponent(name)).base64EncodedString()
        }
        let pictures = [
            try sample("04-bjorn-odegard.png"),
            try sample("10-no-code.png"),
            try sample("12-two-codes.png"),
            Data(PNGFixtures.contactCode("\u{FEFF}Jürgen Groß\njuergen@example.de")).base64EncodedString(),
            Data(PNGFixtures.png(PNGFixtures.codeImage(bytes: Self.shiftJIS))).base64EncodedString(),
            Data(PNGFixtures.png(PNGFixtures.codeImage(bytes: Self.latin1))).base64EncodedString(),
        ]
        let web = try WebFixture()
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession()
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/")
        // Each picture as RGBA from the canvas; the first again as gray bytes; then two malformed messages.
        try session.execute(
            """
            var pictures = arguments[0], answers = {}, expected = pictures.length + 3;
            window.zbarAnswers = null;
            var worker = new Worker("/static/zbar-worker.js");
            worker.onmessage = function (event) {
              answers[event.data.id] = event.data;
              if (Object.keys(answers).length === expected) window.zbarAnswers = answers;
            };
            worker.onerror = function (event) { window.zbarAnswers = { failed: String(event.message) }; };
            Promise.all(pictures.map(function (base64, index) {
              var bytes = Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
              return createImageBitmap(new Blob([bytes], { type: "image/png" })).then(function (bitmap) {
                var canvas = document.createElement("canvas");
                canvas.width = bitmap.width;
                canvas.height = bitmap.height;
                var context = canvas.getContext("2d");
                context.drawImage(bitmap, 0, 0);
                var image = context.getImageData(0, 0, canvas.width, canvas.height);
                worker.postMessage({ id: index, width: image.width, height: image.height, data: image.data });
                if (index === 0) {
                  var gray = new Uint8Array(image.width * image.height);
                  for (var i = 0; i < gray.length; i++) gray[i] = image.data[4 * i + 1];
                  worker.postMessage({ id: "gray", width: image.width, height: image.height, data: gray });
                }
              });
            })).catch(function (error) { window.zbarAnswers = { failed: String(error) }; });
            worker.postMessage({ id: "short", width: 10, height: 10, data: new Uint8Array(7) });
            worker.postMessage({ id: "size", width: -1, height: 10, data: new Uint8Array(10) });
            """, [pictures])
        var answers: [String: [String: Any]] = [:]
        try waitUntil("the worker answers every message", seconds: 30) {
            let value = try session.execute("return window.zbarAnswers") as? [String: Any]
            answers = (value ?? [:]).compactMapValues { $0 as? [String: Any] }
            if let failed = value?["failed"] { Issue.record("the page failed: \(failed)") }
            return value != nil
        }
        func codes(_ id: String) -> [String]? { answers[id]?["codes"] as? [String] }
        #expect(codes("0") == ["Björn Ødegård\nbjorn@example.no"])
        #expect(codes("gray") == ["Björn Ødegård\nbjorn@example.no"])
        #expect(codes("1") == [])
        #expect(Set(codes("2") ?? []) == ["Grace Hopper\ngrace@example.mil", "Ada Lovelace\nada@example.org"])
        #expect(codes("3") == ["Jürgen Groß\njuergen@example.de"], "the byte order mark is dropped")
        #expect(codes("4") == [PayloadText(Self.shiftJIS).text], "Shift_JIS read as the server reads it")
        #expect(codes("5") == [PayloadText(Self.latin1).text], "Latin-1 read as the server reads it")
        #expect(answers["0"]?["ms"] is Double || answers["0"]?["ms"] is Int)
        let short = answers["short"]?["error"] as? String ?? ""
        #expect(short.contains("holds 7 bytes"), "\(short)")
        let size = answers["size"]?["error"] as? String ?? ""
        #expect(size.contains("positive whole numbers"), "\(size)")
    }
}
