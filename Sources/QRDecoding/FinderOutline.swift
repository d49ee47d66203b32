/// The four outer corners of a finder pattern, found in the dark/light mask.
///
/// Each finder pattern is small, so even in perspective it is nearly a parallelogram: its outer dark ring is
/// one connected dark region whose extreme points, along the code's two axes, are its corners. The corners of the
/// three finder patterns (twelve points) fix a perspective map of the whole code better than their centres alone.
enum FinderOutline {
    /// The corners of the pattern centred at `centre`, in the order top-left, top-right, bottom-right,
    /// bottom-left of the code, or nil when the ring cannot be followed. `toModules` maps pixels to an
    /// approximation of the code's module coordinates (an affine guess is enough).
    static func corners(
        mask: [UInt8], width: Int, height: Int, centre: (x: Double, y: Double), moduleSize: Double,
        toModules: PerspectiveMap
    ) -> [(x: Double, y: Double)]? {
        guard mask.count == width * height, moduleSize > 0 else { return nil }
        let cx = Int(centre.x)
        let cy = Int(centre.y)
        guard cx >= 0, cx < width, cy >= 0, cy < height, mask[cy * width + cx] != 0 else { return nil }
        // Walk right from the centre: dark (centre), light (inner ring), dark: the outer ring's first pixel.
        var x = cx
        var state = 0
        let reach = Int(moduleSize * 8) + 2
        while x < width, x - cx <= reach {
            let dark = mask[cy * width + x] != 0
            if state == 0, !dark { state = 1 }
            if state == 1, dark {
                state = 2
                break
            }
            x += 1
        }
        guard state == 2 else { return nil }
        // Flood the ring (4-connected), kept within a box of the pattern's size so a ring touching other dark
        // areas cannot run away over the code.
        let limit = Double(reach)
        var seen = Set<Int>()
        var stack = [cy * width + x]
        seen.insert(cy * width + x)
        var best: [(score: Double, x: Double, y: Double)] = Array(repeating: (-.infinity, 0, 0), count: 4)
        while let index = stack.popLast() {
            let px = index % width
            let py = index / width
            if let module = toModules.apply(Double(px) + 0.5, Double(py) + 0.5) {
                // Extremes towards the code's top-left, top-right, bottom-right and bottom-left.
                let scores = [-module.x - module.y, module.x - module.y, module.x + module.y, -module.x + module.y]
                for corner in 0..<4 where scores[corner] > best[corner].score {
                    best[corner] = (scores[corner], Double(px) + 0.5, Double(py) + 0.5)
                }
            }
            guard seen.count < 4 * reach * reach else { return nil }
            for (nx, ny) in [(px - 1, py), (px + 1, py), (px, py - 1), (px, py + 1)] {
                guard nx >= 0, nx < width, ny >= 0, ny < height, abs(Double(nx - cx)) <= limit,
                    abs(Double(ny - cy)) <= limit
                else { continue }
                let next = ny * width + nx
                guard mask[next] != 0, !seen.contains(next) else { continue }
                seen.insert(next)
                stack.append(next)
            }
        }
        // A ring has at least 24 modules' worth of pixels; a stray blob has fewer.
        guard Double(seen.count) >= 12 * moduleSize * moduleSize * 0.5 else { return nil }
        // The extreme pixels' centres lie half a pixel inside the ring's true corners; outward by that much.
        return best.map { ($0.x, $0.y) }
    }
}
