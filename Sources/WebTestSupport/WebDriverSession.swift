import Foundation

/// One browser session of a `ChromeDriver`, driven by W3C WebDriver commands.
///
/// A class because `close()` (or release) deletes the session, which ends its Chromium.
public final class WebDriverSession {
    /// An element found on the page, as WebDriver identifies it.
    public struct Element: Sendable, Equatable {
        public let id: String
    }

    private let driver: ChromeDriver
    public let id: String
    private var isOpen = true
    private static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    init(driver: ChromeDriver, id: String) {
        self.driver = driver
        self.id = id
    }

    deinit { close() }

    /// Deletes the session (Chromium exits). Safe to call more than once.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        _ = try? driver.request("DELETE", "/session/\(id)")
    }

    @discardableResult
    private func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws(WebDriverError)
        -> Any?
    {
        let reply = try driver.request(method, "/session/\(id)\(path)", body ?? (method == "POST" ? [:] : nil))
        return reply["value"].flatMap { $0 is NSNull ? nil : $0 }
    }

    /// Sets the viewport to exactly `width` × `height` CSS pixels at scale 1, through the DevTools protocol
    /// (a window size alone gives another viewport).
    public func setViewport(width: Int, height: Int, mobile: Bool = false) throws(WebDriverError) {
        try command(
            "POST", "/goog/cdp/execute",
            [
                "cmd": "Emulation.setDeviceMetricsOverride",
                "params": ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile],
            ])
    }

    /// How long finding an element waits for it to appear.
    public func setImplicitWait(milliseconds: Int) throws(WebDriverError) {
        try command("POST", "/timeouts", ["implicit": milliseconds])
    }

    /// Loads `url` and waits for the page to load.
    public func navigate(to url: String) throws(WebDriverError) {
        try command("POST", "/url", ["url": url])
    }

    /// The URL of the page now shown.
    public func currentURL() throws(WebDriverError) -> String {
        try command("GET", "/url") as? String ?? ""
    }

    /// The page's title.
    public func title() throws(WebDriverError) -> String {
        try command("GET", "/title") as? String ?? ""
    }

    /// The first element matching the CSS `selector`, waiting for it up to the implicit wait.
    public func findElement(_ selector: String) throws(WebDriverError) -> Element {
        let value = try command("POST", "/element", ["using": "css selector", "value": selector])
        guard let object = value as? [String: Any], let id = object[Self.elementKey] as? String else {
            throw .malformedReply(path: "/element", body: "\(value ?? "null")")
        }
        return Element(id: id)
    }

    /// Every element matching the CSS `selector` (none is not an error).
    public func findElements(_ selector: String) throws(WebDriverError) -> [Element] {
        let value = try command("POST", "/elements", ["using": "css selector", "value": selector])
        return (value as? [[String: Any]] ?? []).compactMap { ($0[Self.elementKey] as? String).map(Element.init) }
    }

    /// How many elements match the CSS `selector` now, without the implicit wait: the check for an element that
    /// should be absent, which `findElements` would answer only after waiting the whole implicit wait.
    public func countElements(_ selector: String) throws(WebDriverError) -> Int {
        try execute("return document.querySelectorAll(arguments[0]).length", [selector]) as? Int ?? 0
    }

    /// Clicks `element` as a user would: scrolled to the middle of the screen first, as a person brings what they
    /// tap into view (chromedriver scrolls only what is off screen, and a phone's fixed bottom bar covers the rest).
    public func click(_ element: Element) throws(WebDriverError) {
        try execute(
            "arguments[0].scrollIntoView({ block: 'center', inline: 'nearest' })",
            [["element-6066-11e4-a52e-4f735466cecf": element.id]])
        try command("POST", "/element/\(element.id)/click")
    }

    /// Makes the browser's time zone `identifier` (`Europe/Paris`) for this session's pages, as the DevTools
    /// protocol's `Emulation.setTimezoneOverride` does: what `Intl` and `Date` report.
    public func setTimeZone(_ identifier: String) throws(WebDriverError) {
        try command(
            "POST", "/goog/cdp/execute", ["cmd": "Emulation.setTimezoneOverride", "params": ["timezoneId": identifier]])
    }

    /// Runs one DevTools protocol command (`Page.getInstallabilityErrors`) on the page and returns its result.
    public func devTools(_ name: String, _ parameters: [String: Any] = [:]) throws(WebDriverError) -> [String: Any] {
        try command("POST", "/goog/cdp/execute", ["cmd": name, "params": parameters]) as? [String: Any] ?? [:]
    }

    /// Types `text` into `element`.
    public func type(_ text: String, into element: Element) throws(WebDriverError) {
        try command("POST", "/element/\(element.id)/value", ["text": text])
    }

    /// The rendered text of `element`.
    public func text(of element: Element) throws(WebDriverError) -> String {
        try command("GET", "/element/\(element.id)/text") as? String ?? ""
    }

    /// Runs `script` (a function body; `arguments[i]` are `arguments`) in the page and returns its JSON result.
    @discardableResult
    public func execute(_ script: String, _ arguments: [Any] = []) throws(WebDriverError) -> Any? {
        try command("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    /// The text of the alert, confirm or prompt dialog the page has open; nil when none is (a page that ran a
    /// script it should not have, `alert(1)`, leaves one open).
    public func openDialogText() throws(WebDriverError) -> String? {
        do {
            return try command("GET", "/alert/text") as? String
        } catch {
            if case .command(_, _, _, let code, _) = error, code == "no such alert" { return nil }
            throw error
        }
    }

    /// Saves a PNG screenshot of the viewport to `path`.
    public func screenshot(to path: String) throws(WebDriverError) {
        guard let encoded = try command("GET", "/screenshot") as? String, let png = Data(base64Encoded: encoded)
        else { throw .malformedReply(path: "/screenshot", body: "not base64") }
        do {
            try png.write(to: URL(fileURLWithPath: path))
        } catch {
            throw .malformedReply(path: "/screenshot", body: "cannot write \(path): \(error)")
        }
    }
}
