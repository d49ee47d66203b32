import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing
import WebTestSupport

@testable import ProspectsService

/// Drag-and-drop on the Scan page in headless Chromium: a drop event carrying a picture (made in the page, as a
/// drop from the desktop carries one) sends the upload form, and the page shows the outcome.
@Suite(.serialized) struct WebDropUploadTests {
    @Test func aPictureDroppedOnTheFormIsUploaded() throws {
        let web = try WebFixture()
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 1280, height: 800)
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/scan")
        let picture = Data(PNGFixtures.contactCode("Dropped Person\ndropped@example.org")).base64EncodedString()
        try session.execute(
            """
            var bytes = Uint8Array.from(atob(arguments[0]), function (c) { return c.charCodeAt(0); });
            var transfer = new DataTransfer();
            transfer.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
            var form = document.getElementById("upload-form");
            form.dispatchEvent(new DragEvent("dragenter", { dataTransfer: transfer, bubbles: true, cancelable: true }));
            form.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
            """, [picture])
        var added: [WebDriverSession.Element] = []
        for _ in 0..<100 where added.isEmpty {
            added = (try? session.findElements("#outcomes li.added")) ?? []
            if added.isEmpty { usleep(100_000) }
        }
        try #require(added.count == 1)
        #expect(try session.text(of: added[0]) == "dropped.png: added: Dropped Person <dropped@example.org>")
        #expect(try web.leads()["Dropped Person"] != nil)
        #expect(try web.store().count() == 1)
    }
}
