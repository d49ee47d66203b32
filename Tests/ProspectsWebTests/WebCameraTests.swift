import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsService
import ProspectsTestSupport
import ProspectsWeb
import Testing
import WebTestSupport

/// The Scan page's live camera in headless Chromium, fed a video of a QR code by its fake camera device: the lead
/// is added once however many frames show the code, and only the frame that added it is kept.
@Suite(.serialized) struct WebCameraTests {
    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }
    }

    @Test func aCodeHeldInViewIsAddedOnce() throws {
        let web = try WebFixture(leads: sampleLeads)
        let video = web.folder.file("camera.y4m")
        try FakeCameraVideo.write(
            PNGFixtures.codeImage("Cam Era\ncam.era@example.org", moduleSize: 6), to: video)
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(
            width: 390, height: 844, mobile: true,
            extraArguments: [
                "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                "--use-file-for-fake-video-capture=\(video)",
            ])
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/scan")
        #expect(try session.execute("return document.getElementById('camera').hidden") as? Bool == false)
        #expect(try session.execute("return document.getElementById('camera-insecure').hidden") as? Bool == true)
        try session.click(try session.findElement("#camera-start"))
        try waitUntil("the lead from the camera", seconds: 30) {
            try session.findElements("#camera-results li.added").count == 1
        }
        #expect(try session.text(of: session.findElement("#camera-results li.added")) == "Cam Era new")
        #expect(try session.text(of: session.findElement("#card-name")) == "Cam Era", "the card shows who it was")
        // Many more frames of the same code: none counts again.
        let framesThen =
            Int(try session.execute("return document.getElementById('camera').dataset.frames") as? String ?? "") ?? 0
        try waitUntil("ten more frames", seconds: 30) {
            let frames = try session.execute("return document.getElementById('camera').dataset.frames") as? String
            return (Int(frames ?? "") ?? 0) >= framesThen + 10
        }
        try session.screenshot(to: "\(screenshotFolder)/camera-390x844.png")
        try session.click(try session.findElement("#camera-start"))
        #expect(try session.findElements("#camera-results li").count == 1)
        #expect(try session.openDialogText() == nil)

        let lead = try #require(try web.leads()["Cam Era"])
        let details = try ProspectsService(location: .sqlite(path: web.storePath)).details(of: .id(lead.id))
        #expect(details?.history.count == 1, "one scan, however many frames showed the code")
        let uploads = try UploadFolder(path: web.folder.file("uploads"))
        #expect(files(in: uploads.archive).count == 1, "the frame that added the lead is kept, and only it")
        #expect(files(in: uploads.rejected).isEmpty)
        try waitUntil("the last frame's answer", seconds: 30) { uploadsWaiting(in: uploads.path).isEmpty }
    }

    /// Over plain HTTP under a name that is not loopback (booth.test, mapped to 127.0.0.1 inside Chromium) the
    /// page is no secure context: no camera, a note that says why, and the upload form.
    @Test func withoutASecureContextThePageSaysSoAndKeepsTheUploadForm() throws {
        let web = try WebFixture(accounts: [("ada", .admin, "correct horse battery")]) { $0.host = "0.0.0.0" }
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(
            width: 390, height: 844, mobile: true, extraArguments: ["--host-resolver-rules=MAP booth.test 127.0.0.1"])
        defer { session.close() }
        let base = "http://booth.test:\(web.port)"
        try session.navigate(to: base + "/signin")
        try session.type("ada", into: try session.findElement("input[name=name]"))
        try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try waitUntil("the list", seconds: 30) { try session.currentURL() == base + "/" }
        try session.navigate(to: base + "/scan")
        #expect(try session.execute("return window.isSecureContext") as? Bool == false)
        try waitUntil("the note", seconds: 30) {
            try session.execute("return document.getElementById('camera-insecure').hidden") as? Bool == false
        }
        #expect(try session.execute("return document.getElementById('camera').hidden") as? Bool == true)
        #expect(try session.text(of: session.findElement("#camera-insecure")).contains("needs a secure page"))
        #expect(try session.findElements("#upload-form input[type=file]").count == 1)
        try session.screenshot(to: "\(screenshotFolder)/camera-insecure-390x844.png")
    }
}
