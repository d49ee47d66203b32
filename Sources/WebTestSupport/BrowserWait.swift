import Foundation

/// Polls `condition` every 100 ms (a page loads after a click, a script answers later) and throws
/// `WebDriverError.timedOut` naming `what` when it has not held within `seconds`.
public func waitUntil(_ what: String, seconds: Int = 10, _ condition: () throws -> Bool) throws {
    for _ in 0..<(seconds * 10) {
        if (try? condition()) == true { return }
        usleep(100_000)
    }
    throw WebDriverError.timedOut(waitingFor: what, seconds: seconds)
}

/// Where the browser tests keep their screenshots: `.build/screenshots` in the package, made on first use.
public let screenshotFolder: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        url.deleteLastPathComponent()
    }
    let folder = url.appendingPathComponent(".build/screenshots").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}()

extension WebDriverSession {
    /// Waits until the page shown is the one at the URL ending in `urlSuffix` and holds an element matching
    /// `selector`: the page a click or navigation leads to, not the one before it nor a reload of that one.
    public func waitForPage(_ urlSuffix: String, showing selector: String, seconds: Int = 10) throws {
        try waitUntil("\(urlSuffix) showing \(selector)", seconds: seconds) {
            try currentURL().hasSuffix(urlSuffix) && findElements(selector).count == 1
        }
    }
}
