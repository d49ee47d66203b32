import HTTPServer
import QRDecoding

/// The installed app's icons (named by the web app manifest): a viewfinder's four corners around a square, white on
/// the header's dark ink, drawn and PNG-encoded at start by the project's own writer, so no binary file is checked in.
/// The drawing keeps to the middle 80 %, the safe zone of a maskable icon.
struct AppIcon: Sendable {
    let path: String
    let size: Int
    let png: [UInt8]

    static let all = [192, 512].map { AppIcon(size: $0) }

    /// The icon at `path`, if there is one.
    static func named(_ path: String) -> AppIcon? {
        all.first { $0.path == path }
    }

    init(size: Int) {
        self.size = size
        path = "/static/icon-\(size).png"
        png = (try? PNGWriter.encode(Self.drawing(size: size))) ?? []
    }

    var response: HTTPResponse {
        HTTPResponse(headers: ["Content-Type": "image/png", "Cache-Control": "no-cache"], body: .bytes(png))
    }

    /// The picture on a grid of 24 cells (as the page's scan icon is drawn): corners from cell 5 to 19, a square
    /// from 9 to 15, each stroke two cells wide.
    static func drawing(size: Int) -> GrayImage {
        let ink: UInt8 = 38
        var pixels = [UInt8](repeating: ink, count: size * size)
        func fill(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            let cell = Double(size) / 24
            let (left, top) = (Int(x0 * cell), Int(y0 * cell))
            let (right, bottom) = (Int(x1 * cell), Int(y1 * cell))
            for y in max(0, top)..<min(size, bottom) {
                for x in max(0, left)..<min(size, right) { pixels[y * size + x] = 255 }
            }
        }
        for (x, y, dx, dy) in [(5.0, 5.0, 1.0, 1.0), (19, 5, -1, 1), (5, 19, 1, -1), (19, 19, -1, -1)] {
            // One corner: a horizontal and a vertical stroke, each four cells long, from (x, y) inwards.
            fill(min(x, x + 4 * dx), min(y, y + 1.5 * dy), max(x, x + 4 * dx), max(y, y + 1.5 * dy))
            fill(min(x, x + 1.5 * dx), min(y, y + 4 * dy), max(x, x + 1.5 * dx), max(y, y + 4 * dy))
        }
        fill(9.5, 9.5, 14.5, 14.5)
        return GrayImage(width: size, height: size, pixels: pixels)
    }
}
