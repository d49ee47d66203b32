import FuzzSupport
import QRDecoding

/// Fuzzes the located (geometry) pass and the own-decoder pass on arbitrary gray images: finder-pattern search,
/// grouping, perspective maps, upright crops, zbar; sampled module grids and our own decoder.
///
/// Byte 0 picks the input's shape. Even: the rest is raw pixels, `8 + 2 · byte 1` wide. Odd: a real code (payload
/// from bytes 9…40) drawn into a 240 × 240 picture through a perspective whose corners come from bytes 1…8, with
/// every later byte XORed into the pixels: so the fuzzer reaches the crops and the alignment search, not only the
/// finder scan. Checked: no crash, every symbol found in a drawn code has a payload and four corners. The busy regions
/// of the same image (CodeRegionFinder, which places a large JPEG's full-size crops) lie inside it, busiest first.
nonisolated(unsafe) let decoder = QRDecoder(pixelLimit: 1_000_000, passes: [.located, .ownDecoder])

runFuzzer { data, size in
    let input = inputBytes(data, size)
    guard input.count >= 2 else { return 0 }
    let image: GrayImage
    if input[0] & 1 == 0 {
        let width = 8 + 2 * Int(input[1])
        let pixels = Array(input.dropFirst(2).prefix(300_000))
        let height = pixels.count / width
        guard height > 0 else { return 0 }
        image = GrayImage(width: width, height: height, pixels: Array(pixels.prefix(width * height)))
    } else {
        guard input.count >= 10, let drawn = drawn(input) else { return 0 }
        image = drawn
    }
    let limit = Int(input[input.count - 1] % 8)
    let regions = CodeRegionFinder.regions(in: image, limit: limit)
    require(regions.count <= limit, "\(regions.count) regions for a limit of \(limit)")
    for region in regions {
        require(
            region.x0 >= 0 && region.y0 >= 0 && region.x0 < region.x1 && region.y0 < region.y1
                && region.x1 <= image.width && region.y1 <= image.height && region.score > 0,
            "region \(region) in \(image.width) × \(image.height)")
    }
    require(zip(regions, regions.dropFirst()).allSatisfy { $0.score >= $1.score }, "regions not busiest first")
    let symbols: [QRSymbol]
    do {
        symbols = try decoder.scan(image)
    } catch {
        return 0  // zbar's own failure is reported, not a crash
    }
    for symbol in symbols {
        require(["located", "own-decoder"].contains(symbol.pass), "a symbol from pass \(symbol.pass)")
        require(symbol.corners.count == 4, "\(symbol.corners.count) corners")
    }
    return 0
}

/// The code of `input`'s payload seen through the perspective its bytes 1…8 describe, noise XORed in.
func drawn(_ input: [UInt8]) -> GrayImage? {
    let payload = Array(input[9..<min(input.count, 41)])
    guard !payload.isEmpty, let code = try? QRCodeImage.make(bytes: payload, moduleSize: 3, margin: 2) else {
        return nil
    }
    let side = Double(code.width)
    // Each corner moves within a 120-pixel square around its place in the 240 × 240 picture.
    let bases: [(Double, Double)] = [(0, 0), (120, 0), (120, 120), (0, 120)]
    let quad = (0..<4).map { index in
        (
            x: bases[index].0 + Double(input[1 + 2 * index]) * 120 / 255,
            y: bases[index].1 + Double(input[2 + 2 * index]) * 120 / 255
        )
    }
    guard let toCode = PerspectiveMap(from: quad, to: [(0, 0), (side, 0), (side, side), (0, side)]) else { return nil }
    let width = 240
    var pixels = [UInt8](repeating: 255, count: width * width)
    for y in 0..<width {
        for x in 0..<width {
            guard let point = toCode.apply(Double(x) + 0.5, Double(y) + 0.5), point.x >= 0, point.y >= 0,
                point.x < side, point.y < side
            else { continue }
            pixels[y * width + x] = code.pixels[Int(point.y) * code.width + Int(point.x)]
        }
    }
    for (index, byte) in input.dropFirst(41).enumerated() {
        pixels[(index * 7919) % pixels.count] ^= byte
    }
    return GrayImage(width: width, height: width, pixels: pixels)
}
