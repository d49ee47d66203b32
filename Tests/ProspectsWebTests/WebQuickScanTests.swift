import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import ProspectsWeb
import QRDecoding
import Testing
import WebTestSupport

@testable import ProspectsService

/// The quick scan at 390 × 844 in headless Chromium on the real server: badges shown in turn to the fake camera
/// each take the card and become one lead, rated from the card; and the offline queue, which keeps scans made while
/// the server is down (its process killed) in IndexedDB, opens from the service worker's cache, and sends them when
/// the server is back.
@Suite(.serialized) struct WebQuickScanTests {
    static let phone = (width: 390, height: 844)

    /// `picture` turned by `degrees` about its centre (nearest pixel), on white, in a frame that holds it whole.
    static func rotated(_ picture: GrayImage, degrees: Double) -> GrayImage {
        let angle = degrees * .pi / 180
        let (cosine, sine) = (cos(angle), sin(angle))
        let side = Int((Double(max(picture.width, picture.height)) * (abs(cosine) + abs(sine))).rounded(.up))
        var pixels = [UInt8](repeating: 255, count: side * side)
        let (centre, pictureX, pictureY) = (Double(side) / 2, Double(picture.width) / 2, Double(picture.height) / 2)
        for y in 0..<side {
            for x in 0..<side {
                let (dx, dy) = (Double(x) - centre, Double(y) - centre)
                let sourceX = Int((cosine * dx + sine * dy + pictureX).rounded(.down))
                let sourceY = Int((-sine * dx + cosine * dy + pictureY).rounded(.down))
                guard sourceX >= 0, sourceX < picture.width, sourceY >= 0, sourceY < picture.height else { continue }
                pixels[y * side + x] = picture.pixels[sourceY * picture.width + sourceX]
            }
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }

    /// Evaluates `expression` (JavaScript, may be a promise) in the page until it is `true`; the page's scripts are
    /// asynchronous (IndexedDB, the Cache API), WebDriver's execute is not.
    static func waitForTrue(
        _ session: WebDriverSession, _ what: String, seconds: Int = 30, _ expression: String
    ) throws {
        try waitUntil(what, seconds: seconds) {
            try session.execute(
                """
                var key = arguments[0], waits = window.testWaits || (window.testWaits = {}), state = waits[key];
                if (state && state.done) { delete waits[key]; return state.value === true; }
                if (!state) {
                  waits[key] = { done: false };
                  Promise.resolve().then(function () { return \(expression); }).then(
                    function (value) { waits[key] = { done: true, value: value }; },
                    function () { waits[key] = { done: true, value: false }; });
                }
                return false;
                """, [what]) as? Bool == true
        }
    }

    static func cardName(_ session: WebDriverSession) throws -> String? {
        try session.execute(
            "var card = document.getElementById('scan-card'); "
                + "return card.hidden ? null : document.getElementById('card-name').textContent") as? String
    }

    static func attribute(_ session: WebDriverSession, _ id: String, _ name: String) throws -> String? {
        try session.execute(
            "var e = document.getElementById(arguments[0]); return e ? e.getAttribute(arguments[1]) : null", [id, name])
            as? String
    }

    @Test func twoBadgesInTurnMakeTwoLeadsTheFirstRatedHotFromTheCard() throws {
        let web = try WebFixture()
        let video = web.folder.file("badges.y4m")
        let first = PNGFixtures.codeImage("Ada Badge\nada.badge@example.org", moduleSize: 3)
        let second = Self.rotated(PNGFixtures.codeImage("Bob Badge\nbob.badge@example.org", moduleSize: 3), degrees: 20)
        // Ada for 6 s, a white second, Bob for 4 s, then 5 s of white before the file starts again.
        try FakeCameraVideo.write(
            [(first, 60), (nil, 10), (second, 40), (nil, 50)], to: video, width: 320, height: 240)
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(
            width: Self.phone.width, height: Self.phone.height, mobile: true,
            extraArguments: [
                "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                "--use-file-for-fake-video-capture=\(video)",
            ])
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/scan")
        try session.click(try session.findElement("#camera-start"))
        try waitUntil("Ada's card", seconds: 30) { try Self.cardName(session) == "Ada Badge" }
        // Read on the phone, the card says "waiting to sync" until the server has stored the scan.
        try waitUntil("Ada's card says new", seconds: 30) {
            try session.text(of: session.findElement("#card-state")) == "new"
        }
        try session.click(try session.findElement("#scan-card button[data-rating=hot]"))
        try waitUntil("the rating saved", seconds: 30) { try Self.attribute(session, "scan-card", "data-saved") == "1" }
        #expect(try Self.cardName(session) == "Ada Badge", "the rating went to Ada's card")
        try waitUntil("Bob's card", seconds: 30) { try Self.cardName(session) == "Bob Badge" }
        try session.screenshot(to: "\(screenshotFolder)/quick-scan-390x844.png")
        try waitUntil("Bob's scan stored", seconds: 30) {
            try session.text(of: session.findElement("#card-state")) == "new"
        }
        try session.click(try session.findElement("#camera-start"))

        let listed =
            try session.execute(
                "return Array.prototype.map.call(document.querySelectorAll('#camera-results li'), "
                    + "function (item) { return item.textContent; })") as? [String] ?? []
        #expect(listed == ["Bob Badge new", "Ada Badge new · Hot"], "the session's scans, newest first: \(listed)")
        let leads = try web.store().list(filter: .everyone, sort: .name, reverse: false)
        #expect(leads.map(\.prospect.name) == ["Ada Badge", "Bob Badge"], "two leads, each once")
        #expect(leads.first?.rating == .hot, "rated Hot from the card")
        #expect(leads.last?.rating == ProspectRating.none)
        #expect(leads.map(\.scanCount) == [1, 1], "a code held in view counts once")
    }

    /// The built `prospects serve` on `store` at `port` (0: the system's choice), and the port it printed.
    static func serve(_ store: String, port: UInt16, signIn: Bool = false) throws -> (Process, UInt16) {
        let process = Process()
        process.executableURL = ProspectsProcess.executable
        process.arguments = ["serve", "--store", store, "--port", String(port)] + (signIn ? ["--sign-in"] : [])
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let address = ServeAddressLine(readingFrom: out)
        let printed = try #require(address.port, "\(address.line)")
        return (process, printed)
    }

    static let guests = (1...5).map { index in
        (
            payload: "Guest \(index)\nguest\(index)@example.org", name: "Guest \(index)",
            rating: ["hot", "warm", "cold"][index % 3], note: "Met at the booth, visit \(index)"
        )
    }

    @Test func scansMadeWhileTheServerIsDownAreStoredOnceWhenItIsBack() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-offline")
        defer { folder.cleanup() }
        let store = folder.file("prospects.sqlite")
        var (server, port) = try Self.serve(store, port: 0)
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        let driver = try ChromeDriver()
        defer { driver.stop() }
        // A profile of the test's own, so that the browser can be closed and started again on it.
        let profile = ["--user-data-dir=" + folder.file("profile")]
        var session = try driver.newSession(
            width: Self.phone.width, height: Self.phone.height, mobile: true, extraArguments: profile)
        defer { session.close() }

        // Online: the service worker installs, then keeps the list and the scan page as they are loaded.
        try session.navigate(to: base + "/scan")
        try waitUntil("the service worker in control", seconds: 30) {
            try session.execute("return !!navigator.serviceWorker.controller") as? Bool == true
        }
        try session.navigate(to: base + "/")
        try session.navigate(to: base + "/scan")
        try Self.waitForTrue(
            session, "the list and the scan page cached",
            "Promise.all([caches.match('/'), caches.match('/scan')]).then(function (r) { return !!(r[0] && r[1]); })")

        // The server is killed by its PID; five codes read on the phone (through the page's path for a code its
        // decoder read: queue and card), each rated and noted from the card.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        var saves = 0
        for guest in Self.guests {
            let read = try session.execute(
                "return prospectsQuickScan.codesRead([arguments[0]]).length", [guest.payload])
            #expect(read as? Int == 1)
            try waitUntil("\(guest.name)'s card") { try Self.cardName(session) == guest.name }
            #expect(try session.text(of: session.findElement("#card-state")) == "waiting to sync")
            try session.click(try session.findElement("#scan-card button[data-rating=\(guest.rating)]"))
            try session.type(guest.note, into: try session.findElement("#card-note-form textarea"))
            try session.click(try session.findElement("#card-note-form button"))
            saves += 2
            try waitUntil("\(guest.name)'s rating and note saved") {
                try Self.attribute(session, "scan-card", "data-saved") == String(saves)
            }
        }
        try waitUntil("five waiting in the header") {
            try Self.attribute(session, "sync-status", "data-waiting") == "5"
        }

        // The browser closed and started again, the server still down: the page comes from the service worker's
        // cache, the queue from IndexedDB.
        session.close()
        session = try driver.newSession(
            width: Self.phone.width, height: Self.phone.height, mobile: true, extraArguments: profile)
        try session.navigate(to: base + "/scan")
        #expect(try session.title().hasPrefix("Scan"))
        try waitUntil("five waiting after the restart") {
            try Self.attribute(session, "sync-status", "data-waiting") == "5"
        }
        #expect(try session.text(of: session.findElement("#sync-status")).hasPrefix("5 waiting to sync"))
        try session.navigate(to: base + "/")
        try waitUntil("the five marked on the cached list") {
            try session.execute("return document.querySelectorAll('#waiting-scans li.waiting').length") as? Int == 5
        }
        try session.screenshot(to: "\(screenshotFolder)/offline-waiting-390x844.png")
        _ = try session.execute(
            "window.testIDs = null; prospectsQueue.all().then(function (scans) { "
                + "window.testIDs = scans.map(function (scan) { return scan.id; }); }); return true")
        var ids: [String] = []
        try waitUntil("the queued scans' ids") {
            ids = try session.execute("return window.testIDs") as? [String] ?? []
            return ids.count == 5
        }
        #expect(try ProspectsService(location: .sqlite(path: store)).store(create: false).count() == 0)

        // The server again, same store, same port: within 10 s every scan is in the store, once, rated and noted.
        (server, _) = try Self.serve(store, port: port)
        let service = ProspectsService(location: .sqlite(path: store))
        try waitUntil("the five stored", seconds: 10) {
            try service.store(create: false).count() == 5
        }
        try waitUntil("the queue empty") { try Self.attribute(session, "sync-status", "data-waiting") == "0" }
        #expect(try session.execute("return document.getElementById('sync-status').hidden") as? Bool == true)
        for guest in Self.guests {
            let details = try #require(try service.details(of: .email(guest.payload.components(separatedBy: "\n")[1])))
            #expect(details.stored.prospect.name == guest.name)
            #expect(details.stored.rating.rawValue == guest.rating, "\(guest.name)")
            #expect(details.notes.map(\.text) == [guest.note], "\(guest.name)")
            #expect(details.history.count == 1, "\(guest.name) stored once")
        }

        // The same batch posted again changes nothing.
        let tokenPage = try RawHTTPClient(port: port).request("GET", "/scans/token")
        let cookie = try #require(tokenPage.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(tokenPage.text.utf8)) as? [String: Any])?["csrf"] as? String)
        let batch = zip(ids, Self.guests).map { id, guest in
            ["id": id, "payload": guest.payload, "scannedAt": "2026-12-04T09:00:00.000Z", "rating": guest.rating]
        }
        let scans = String(decoding: try JSONSerialization.data(withJSONObject: batch), as: UTF8.self)
        let body = "csrf=\(WebFixture.encode(token))&scans=\(WebFixture.encode(scans))"
        let again = try RawHTTPClient(port: port).request(
            "POST", "/scans/sync",
            headers: [("Cookie", cookie), ("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8)
        )
        #expect(again.status == 200, "\(again.text)")
        let results = (try JSONSerialization.jsonObject(with: Data(again.text.utf8)) as? [String: Any])?["results"]
        #expect(
            (results as? [[String: Any]])?.map { $0["status"] as? String }
                == Array(repeating: "alreadyStored", count: 5))
        #expect(try service.store(create: false).count() == 5)
        for guest in Self.guests {
            let details = try service.details(of: .email(guest.payload.components(separatedBy: "\n")[1]))
            #expect(details?.history.count == 1)
            #expect(details?.notes.count == 1)
        }

        // The cached list reloads itself from the server once the change is announced: the five are in it.
        try waitUntil("the list showing the five") {
            try session.execute("return document.querySelectorAll('table.leads tbody tr').length") as? Int == 5
        }

        // Online again, a code read on the phone goes through the queue at once and its card says who it was.
        try session.navigate(to: base + "/scan")
        _ = try session.execute(
            "return prospectsQuickScan.codesRead([arguments[0]]).length", [Self.guests[0].payload])
        try waitUntil("the card of a lead seen before") {
            try session.text(of: session.findElement("#card-state")) == "seen before (scan 2)"
        }
        #expect(try Self.cardName(session) == Self.guests[0].name)

        // A queued payload the parser refuses stays on the phone with the parser's reason.
        let bad = "Booth 12, ask for Sam"
        guard case .failure(let error) = PayloadParser().parse(bad) else {
            Issue.record("the parser took “\(bad)”")
            return
        }
        try session.navigate(to: base + "/scan")
        _ = try session.execute("return prospectsQuickScan.codesRead([arguments[0]]).length", [bad])
        try waitUntil("the rejected scan") {
            try session.execute("return document.querySelectorAll('#waiting-scans li.rejected').length") as? Int == 1
        }
        let shown = try session.text(of: session.findElement("#waiting-scans li.rejected"))
        #expect(shown.contains("rejected: " + error.message), "\(shown)")
        try waitUntil("the card says why") {
            try session.text(of: session.findElement("#card-state")) == "rejected: " + error.message
        }
        #expect(try Self.attribute(session, "sync-status", "data-rejected") == "1")
        #expect(try service.store(create: false).count() == 5)
        try session.screenshot(to: "\(screenshotFolder)/offline-rejected-390x844.png")
    }

    /// The server killed, badges shown in turn to the fake camera: the scan page, its worker and zbar.wasm come from
    /// the service worker's cache, the worker reads each code on the phone, each is queued once; when the server is
    /// back every one is stored once.
    @Test func codesShownToTheCameraWhileTheServerIsDownAreReadOnThePhoneAndSyncedOnce() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-offline-camera")
        defer { folder.cleanup() }
        let store = folder.file("prospects.sqlite")
        let names = ["Cam One", "Cam Two", "Cam Three"]
        let video = folder.file("badges.y4m")
        var segments: [(picture: GrayImage?, frames: Int)] = [(nil, 10)]
        for (index, name) in names.enumerated() {
            let code = PNGFixtures.codeImage("\(name)\ncam\(index)@example.org", moduleSize: 3)
            segments += [(index == 1 ? Self.rotated(code, degrees: 15) : code, 30), (nil, 10)]
        }
        // A long white tail, so that the file does not start again before the camera is stopped.
        try FakeCameraVideo.write(segments + [(nil, 200)], to: video, width: 320, height: 240)
        var (server, port) = try Self.serve(store, port: 0)
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(
            width: Self.phone.width, height: Self.phone.height, mobile: true,
            extraArguments: [
                "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                "--use-file-for-fake-video-capture=\(video)", "--user-data-dir=" + folder.file("profile"),
            ])
        defer { session.close() }

        // Online, the camera off: the page under the service worker loads the scan worker once (it keeps the worker
        // and the module it fetches), and the scan page is cached.
        try session.navigate(to: base + "/scan")
        try waitUntil("the service worker in control", seconds: 30) {
            try session.execute("return !!navigator.serviceWorker.controller") as? Bool == true
        }
        try session.navigate(to: base + "/scan")
        _ = try session.execute(
            "window.testWorker = new Worker('/static/zbar-worker.js'); window.testReady = false; "
                + "window.testWorker.onmessage = function (event) { if (!event.data.error) window.testReady = true; "
                + "else setTimeout(function () { window.testWorker.postMessage(blank); }, 200); }; "
                + "var blank = { id: 0, width: 2, height: 2, data: new Uint8ClampedArray(16) }; "
                + "window.testWorker.postMessage(blank); return true")
        try waitUntil("the worker's module loaded", seconds: 30) {
            try session.execute("return window.testReady") as? Bool == true
        }
        try Self.waitForTrue(
            session, "the scan page, the worker and zbar.wasm cached",
            "caches.keys().then(function (names) { return Promise.all(names.map(function (name) { "
                + "return caches.open(name).then(function (cache) { return cache.keys(); }); })); })"
                + ".then(function (lists) { var paths = [].concat.apply([], lists).map(function (request) { "
                + "return new URL(request.url).pathname; }); return paths.indexOf('/scan') >= 0 && "
                + "paths.indexOf('/static/zbar-worker.js') >= 0 && paths.some(function (path) { "
                + "return /^\\/static\\/zbar-[0-9a-f]+\\.wasm$/.test(path); }); })")

        // The server killed by its PID: the page again (from the cache), the camera on, the badges read on the phone.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        try session.navigate(to: base + "/scan")
        try session.click(try session.findElement("#camera-start"))
        try waitUntil("the phone's decoder, loaded offline", seconds: 30) {
            try Self.attribute(session, "camera", "data-decoder") == "phone"
        }
        try waitUntil("three codes read and queued", seconds: 60) {
            try Self.attribute(session, "sync-status", "data-waiting") == "3"
        }
        try session.click(try session.findElement("#camera-start"))
        let queued =
            try session.execute(
                "return Array.prototype.map.call(document.querySelectorAll('#waiting-scans li.waiting strong'), "
                    + "function (item) { return item.textContent; })") as? [String] ?? []
        #expect(queued == names, "each badge queued once, in turn: \(queued)")
        let service = ProspectsService(location: .sqlite(path: store))
        #expect(try service.store(create: false).count() == 0)

        // The server again, same store and port: each scan stored once, the queue empty.
        (server, _) = try Self.serve(store, port: port)
        try waitUntil("the three stored", seconds: 10) { try service.store(create: false).count() == 3 }
        try waitUntil("the queue empty") { try Self.attribute(session, "sync-status", "data-waiting") == "0" }
        for (index, name) in names.enumerated() {
            let details = try #require(try service.details(of: .email("cam\(index)@example.org")))
            #expect(details.stored.prospect.name == name)
            #expect(details.history.count == 1, "\(name) stored once")
        }
    }

    /// A change on the card of a lead already stored, made while the server is down (its process killed), is kept
    /// on the phone and applied when the server is back, in the order made, instead of "Not saved".
    @Test func aCardChangeToAStoredLeadMadeOfflineIsAppliedOnReconnect() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-offline-edit")
        defer { folder.cleanup() }
        let store = folder.file("prospects.sqlite")
        var (server, port) = try Self.serve(store, port: 0)
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: Self.phone.width, height: Self.phone.height, mobile: true)
        defer { session.close() }
        try session.navigate(to: base + "/scan")
        _ = try session.execute(
            "return prospectsQuickScan.codesRead([arguments[0]]).length", ["Edit Later\nedit.later@example.org"])
        try waitUntil("the lead stored") { try session.text(of: session.findElement("#card-state")) == "new" }

        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        try session.click(try session.findElement("#scan-card button[data-rating=hot]"))
        try waitUntil("the rating kept") { try Self.attribute(session, "scan-card", "data-saved") == "1" }
        #expect(try session.text(of: session.findElement("#card-saved")).hasPrefix("Saved on this phone"))
        try session.type("Call back on Monday", into: try session.findElement("#card-note-form textarea"))
        try session.click(try session.findElement("#card-note-form button"))
        try waitUntil("the note kept") { try Self.attribute(session, "scan-card", "data-saved") == "2" }
        try waitUntil("two changes waiting") { try Self.attribute(session, "sync-status", "data-edits") == "2" }
        #expect(try session.text(of: session.findElement("#sync-status")).hasPrefix("2 changes to send"))
        let service = ProspectsService(location: .sqlite(path: store))
        let before = try #require(try service.details(of: .email("edit.later@example.org")))
        #expect(before.stored.rating == ProspectRating.none && before.notes.isEmpty)

        (server, _) = try Self.serve(store, port: port)
        try waitUntil("the changes applied", seconds: 10) {
            let details = try service.details(of: .email("edit.later@example.org"))
            return details?.stored.rating == .hot && details?.notes.map(\.text) == ["Call back on Monday"]
        }
        try waitUntil("none left to send") { try Self.attribute(session, "sync-status", "data-edits") == "0" }
        #expect(try service.details(of: .email("edit.later@example.org"))?.history.count == 1)
    }

    /// Ada scans while the server is down (its process killed); the phone passes to Bob, whose session sends the
    /// scan when the server is back: the scan holds the stamp the server signed for Ada, so Ada collected it.
    @Test func aScanMadeOfflineIsCollectedByWhoWasSignedInOnThePhone() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-offline-collector")
        defer { folder.cleanup() }
        let store = folder.file("prospects.sqlite")
        let service = ProspectsService(location: .sqlite(path: store))
        _ = try service.store(create: true)
        for name in ["ada", "bob"] {
            _ = try service.addAccount(name: name, role: .staff, password: "correct horse battery", iterations: 1_000)
        }
        var (server, port) = try Self.serve(store, port: 0, signIn: true)
        defer {
            kill(server.processIdentifier, SIGTERM)
            server.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: Self.phone.width, height: Self.phone.height, mobile: true)
        defer { session.close() }
        func signIn(_ name: String) throws {
            try session.type(name, into: try session.findElement("input[name=name]"))
            try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
            try session.click(try session.findElement("form.stack button.primary"))
        }
        try session.navigate(to: base + "/signin")
        try signIn("ada")
        try waitUntil("the list") { try session.currentURL() == base + "/" }
        try session.navigate(to: base + "/scan")
        try waitUntil("the service worker in control", seconds: 30) {
            try session.execute("return !!navigator.serviceWorker.controller") as? Bool == true
        }
        try session.navigate(to: base + "/scan")
        try Self.waitForTrue(
            session, "the scan page cached", "caches.match('/scan').then(function (r) { return !!r; })")
        try waitUntil("Ada's collector stamp kept on the phone") {
            (try session.execute("return prospectsQueue.stamp()") as? String)?.hasPrefix("c1.") == true
        }

        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        _ = try session.execute(
            "return prospectsQuickScan.codesRead([arguments[0]]).length", ["Offline Guest\noffline.guest@example.org"])
        try waitUntil("the card") { try Self.cardName(session) == "Offline Guest" }
        try waitUntil("one waiting") { try Self.attribute(session, "sync-status", "data-waiting") == "1" }

        // Ada's session ends while the server is down (as her signing out would); Bob signs in on the phone.
        let removed = try SQLiteStore(path: store, create: false).removeSessions(usedBefore: Date() + 3600)
        #expect(removed == 1)
        (server, _) = try Self.serve(store, port: port, signIn: true)
        try waitUntil("the header asking to sign in", seconds: 20) {
            try session.execute("return document.querySelectorAll('#sync-status a').length") as? Int == 1
        }
        try session.click(try session.findElement("#sync-status a"))
        try waitUntil("the sign-in page") { try session.currentURL().contains("/signin") }
        try signIn("bob")
        try waitUntil("back on the scan page") { try session.currentURL() == base + "/scan" }
        try waitUntil("the scan stored", seconds: 10) { try service.store(create: false).count() == 1 }
        let details = try #require(try service.details(of: .email("offline.guest@example.org")))
        #expect(details.collectors == ["ada"], "scanned by Ada, sent by Bob's session")
        try waitUntil("the queue empty") { try Self.attribute(session, "sync-status", "data-waiting") == "0" }
        try waitUntil("Bob's stamp kept now") {
            (try session.execute("return prospectsQueue.stamp()") as? String)?.contains(".626f62.") == true
        }
    }

    /// A session that ended while a scan waited (removed from the store, as an idle one is): the scan stays queued,
    /// the header asks to sign in, and after signing in it is sent, collected by the account signed in.
    @Test func aScanQueuedWhenTheSessionEndedIsSentAfterSigningIn() throws {
        let web = try WebFixture(accounts: [("ada", .staff, "correct horse battery")]) { $0.requiresSignIn = true }
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: Self.phone.width, height: Self.phone.height, mobile: true)
        defer { session.close() }
        func signIn() throws {
            try session.type("ada", into: try session.findElement("input[name=name]"))
            try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
            try session.click(try session.findElement("form.stack button.primary"))
        }
        try session.navigate(to: web.baseURL + "/signin")
        try signIn()
        try waitUntil("the list") { try session.currentURL() == web.baseURL + "/" }
        try session.navigate(to: web.baseURL + "/scan")
        try waitUntil("the service worker in control", seconds: 30) {
            try session.execute("return !!navigator.serviceWorker.controller") as? Bool == true
        }
        try session.navigate(to: web.baseURL + "/scan")
        try Self.waitForTrue(
            session, "the scan page cached", "caches.match('/scan').then(function (r) { return !!r; })")

        let sessions = try SQLiteStore(path: web.storePath, create: false)
        let before = try sessions.sessionCount()
        let removed = try sessions.removeSessions(usedBefore: Date() + 3600)
        #expect(removed == 1 && before == 1, "\(removed) of \(before)")
        _ = try session.execute(
            "return prospectsQuickScan.codesRead([arguments[0]]).length", ["Late Guest\nlate.guest@example.org"])
        try waitUntil("the card") { try Self.cardName(session) == "Late Guest" }
        try session.click(try session.findElement("#scan-card button[data-rating=warm]"))
        try waitUntil("the rating saved with the scan") {
            try Self.attribute(session, "scan-card", "data-saved") == "1"
        }
        try waitUntil("the header asking to sign in", seconds: 20) {
            try session.execute("return document.querySelectorAll('#sync-status a').length") as? Int == 1
        }
        #expect(try session.text(of: session.findElement("#sync-status")).hasPrefix("1 waiting to sync"))
        #expect(try web.store().count() == 0)

        try session.click(try session.findElement("#sync-status a"))
        try waitUntil("the sign-in page") { try session.currentURL().contains("/signin") }
        try Self.waitForTrue(
            session, "the kept pages dropped", "caches.match('/scan').then(function (r) { return !r; })")
        try signIn()
        try waitUntil("back on the scan page") { try session.currentURL() == web.baseURL + "/scan" }
        try waitUntil("the scan stored", seconds: 10) { try web.store().count() == 1 }
        let details = try #require(
            try ProspectsService(location: web.location).details(of: .email("late.guest@example.org")))
        #expect(details.stored.rating == .warm)
        #expect(details.collectors == ["ada"])
        try waitUntil("the queue empty") { try Self.attribute(session, "sync-status", "data-waiting") == "0" }
    }

    /// The manifest says what an installed app needs, its icons are PNGs of their size, and Chromium finds nothing
    /// missing to install the app once the service worker controls the page.
    @Test func theAppIsInstallable() throws {
        let web = try WebFixture()
        let manifest = try web.get("/manifest.webmanifest")
        #expect(manifest.header("Content-Type") == "application/manifest+json")
        let fields = try JSONSerialization.jsonObject(with: Data(manifest.body)) as? [String: Any]
        #expect(fields?["display"] as? String == "standalone")
        #expect(fields?["start_url"] as? String == "/")
        let icons = fields?["icons"] as? [[String: Any]] ?? []
        #expect(icons.map { $0["src"] as? String } == ["/static/icon-192.png", "/static/icon-512.png"])
        for size in [192, 512] {
            let icon = try PNGReader().read(try web.get("/static/icon-\(size).png").body)
            #expect(icon.width == size && icon.height == size)
            #expect(Set(icon.pixels).count == 2, "ink and white")
        }
        #expect(try web.get("/sw.js").header("Content-Type") == "text/javascript; charset=utf-8")

        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: Self.phone.width, height: Self.phone.height, mobile: true)
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/")
        try waitUntil("the service worker in control", seconds: 30) {
            try session.execute("return !!navigator.serviceWorker.controller") as? Bool == true
        }
        var errors: [Any] = []
        try waitUntil("nothing missing to install", seconds: 30) {
            errors = try session.devTools("Page.getInstallabilityErrors")["installabilityErrors"] as? [Any] ?? ["?"]
            return errors.isEmpty
        }
        #expect(errors.isEmpty, "\(errors)")
    }
}
