import ProspectsTestSupport
import QRDecoding
import Testing

/// Codes beside a large bright, grey or dark area (a page, a margin, a shadow): found with exact payloads.
@Suite("Margins and backgrounds: a code beside a large bright or dark area")
struct MarginTests {
    static let payloads = [
        "Zoë Müller\nzoe@example.com", "MECARD:N:Sean Owen;TEL:+12125658770;EMAIL:srowen@google.com;;",
    ]

    /// How a code looks in the picture: pixels a module, ink and paper levels, box blurs of radius 1, and how much
    /// darker (in percent) its bottom edge is lit than its top.
    struct Look: Sendable, CustomTestStringConvertible {
        var moduleSize: Int
        var ink: UInt8
        var paper: UInt8
        var blurs: Int
        var shade: Int = 0

        var testDescription: String {
            "\(moduleSize) px a module, ink \(ink) on \(paper), \(blurs) blurs, shade \(shade) %"
        }
    }

    /// `payload` drawn as `look` says with one module of quiet zone, beside `margin` pixels of `background` to its
    /// left and right and half that above.
    static func picture(_ payload: String, look: Look, background: UInt8, margin: Int) -> GrayImage {
        var code = PNGFixtures.codeImage(payload, moduleSize: look.moduleSize, margin: 1)
        let side = code.height
        for y in 0..<side {
            for x in 0..<code.width {
                let level = Int(code.pixels[y * code.width + x] < 128 ? look.ink : look.paper)
                code.pixels[y * code.width + x] = UInt8(level * (100 - look.shade * y / side) / 100)
            }
        }
        for _ in 0..<look.blurs { code = BoxBlur.blurred(code, radius: 1) }
        let width = code.width + 2 * margin
        let top = margin / 2
        let height = code.height + top
        var pixels = [UInt8](repeating: background, count: width * height)
        for y in 0..<code.height {
            for x in 0..<code.width {
                pixels[(y + top) * width + x + margin] = code.pixels[y * code.width + x]
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    @Test(
        "white, light grey, grey and black margins of 8 to 300 pixels: every code read exactly",
        arguments: [255, 208, 128, 0] as [UInt8], [8, 40, 120, 300])
    func margins(background: UInt8, margin: Int) throws {
        let looks = [
            Look(moduleSize: 4, ink: 20, paper: 235, blurs: 0),
            Look(moduleSize: 5, ink: 40, paper: 199, blurs: 2),
            Look(moduleSize: 6, ink: 51, paper: 178, blurs: 3),
        ]
        let decoder = QRDecoder()
        for payload in Self.payloads {
            for look in looks {
                let image = Self.picture(payload, look: look, background: background, margin: margin)
                #expect(try decoder.scan(image).map(\.text) == [payload], "\(look.testDescription)")
            }
        }
    }

    @Test("a soft, unevenly lit code beside a wide light grey area: only the local threshold reads it")
    func localThreshold() throws {
        let look = Look(moduleSize: 4, ink: 51, paper: 178, blurs: 2, shade: 10)
        let local = QRDecoder.Pass.recovery(.locallyBinarized)
        let earlier = Array(QRDecoder.defaultPasses.prefix { $0 != local })
        #expect(earlier.count < QRDecoder.defaultPasses.count)
        for payload in Self.payloads {
            let image = Self.picture(payload, look: look, background: 208, margin: 300)
            // Global Otsu, zbar's own thresholds, blurs and enlargements all miss it.
            #expect(try QRDecoder(pixelLimit: 1_000_000, passes: earlier).scan(image) == [])
            let decoder = QRDecoder()
            let symbols = try decoder.scan(image)
            #expect(symbols.map(\.text) == [payload])
            #expect(symbols.map(\.pass) == ["binarized-local"])
            #expect(decoder.lastPass == local)
            // Corners in the picture's pixels: the code lies right of the 300-pixel margin.
            for corner in try #require(symbols.first).corners {
                #expect(
                    (290...image.width - 290).contains(corner.x) && (140...image.height).contains(corner.y), "\(corner)"
                )
            }
        }
    }
}
