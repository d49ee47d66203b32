/// A transformed copy of the image to scan again when the plain scan found nothing.
///
/// Each case answers one way real photos defeat zbar; the decoder tries them in order and stops at the first
/// that finds a code (see `QRDecoder.defaultPasses` for the order and what each one gained on the corpus).
public enum RecoveryPass: Sendable, Hashable {
    /// A box blur of the given radius: removes sensor noise, JPEG blocks, halftone dots and pictures inside
    /// the modules, which give zbar false edges.
    case blurred(radius: Int)
    /// A white quiet zone, then Otsu's global threshold: for codes cropped to the image edge, low contrast,
    /// and coloured or tinted modules.
    case binarized
    /// A white quiet zone, then each pixel against the mean of the window around it (`ThresholdWindow.fine`): for
    /// a code beside a large bright or dark area (a white page, a margin, a shadow), which pulls one threshold for
    /// the whole image, and zbar's own edge thresholds, away from the code's own light and dark.
    case locallyBinarized
    /// A smooth (bilinear) enlargement, for small or soft codes whose modules are too few pixels for zbar to
    /// place its sampling grid. Skipped for images over `maxSourcePixels`, which a `factor²` larger scan would
    /// make expensive and which do not need it.
    case enlarged(factor: Int, maxSourcePixels: Int)
    /// The image turned by `degrees`: scan lines then cross the finder patterns at another angle, which helps
    /// codes with jagged module edges or round finder patterns.
    case rotated(degrees: Double)

    /// A short, stable name for reports (`--json`'s `"pass"`).
    public var name: String {
        switch self {
        case .blurred(let radius): "blurred-\(radius)"
        case .binarized: "binarized"
        case .locallyBinarized: "binarized-local"
        case .enlarged(let factor, _): "enlarged-\(factor)x"
        case .rotated(let degrees): "rotated-\(Int(degrees.rounded()))"
        }
    }

    /// The image to scan and the map from its coordinates back to `image`'s; nil when the pass does not apply.
    func prepare(_ image: GrayImage) -> (image: GrayImage, toSource: AffineMap)? {
        switch self {
        case .blurred(let radius):
            guard radius > 0 else { return nil }
            return (BoxBlur.blurred(image, radius: radius), .identity)
        case .binarized:
            // A tenth of the short side covers the 4-module quiet zone of any code that fills the image.
            let border = max(8, min(image.width, image.height) / 10)
            let padded = QuietZone.padded(Binarizer.otsu(image), by: border)
            return (padded, .translation(-Double(border), -Double(border)))
        case .locallyBinarized:
            let border = max(8, min(image.width, image.height) / 10)
            let radius = max(8, max(image.width, image.height) / ThresholdWindow.fine.divisor)
            let binarized = Binarizer.local(image, radius: radius, bias: ThresholdWindow.fine.bias)
            return (QuietZone.padded(binarized, by: border), .translation(-Double(border), -Double(border)))
        case .enlarged(let factor, let maxSourcePixels):
            guard factor > 1, image.width * image.height <= maxSourcePixels else { return nil }
            return (Resampler.bilinearUpscaled(image, by: factor), .scale(1 / Double(factor)))
        case .rotated(let degrees):
            let rotated = Rotator.rotated(image, degrees: degrees)
            return (rotated.image, rotated.toSource)
        }
    }
}
