/// Turns a gray image into pure black and white, so that zbar's edge detector sees hard module edges.
///
/// zbar finds edges from the gradient along each scan line; on low-contrast or soft photos, and on codes with
/// coloured or textured modules, those edges wander and the finder patterns are missed. One threshold for the
/// whole image (Otsu) gives it clean edges again. A local, mean-of-window threshold (`local`) serves a
/// code beside a large bright or dark area, which skews the one threshold.
public enum Binarizer {
    /// Black where a pixel is at or below the global Otsu threshold (the one that best separates the histogram
    /// into two classes), white elsewhere. Right for evenly lit, low-contrast or slightly blurred images.
    public static func otsu(_ image: GrayImage) -> GrayImage {
        let threshold = otsuThreshold(image)
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            for index in pixels.indices {
                pixels[index] = pixels[index] <= threshold ? 0 : 255
            }
        }
        return out
    }

    /// Black where a pixel is darker than the mean of the `2 * radius + 1` square around it by more than `bias`
    /// levels, white elsewhere (LocalThreshold.swift). Right where one threshold cannot serve the whole image: a code
    /// beside a large bright or dark area.
    public static func local(_ image: GrayImage, radius: Int, bias: Int) -> GrayImage {
        let mask = LocalThreshold.darkMask(image, radius: radius, bias: bias)
        guard mask.count == image.pixels.count else { return image }
        return GrayImage(width: image.width, height: image.height, pixels: mask.map { $0 == 0 ? 255 : 0 })
    }

    /// The Otsu threshold of `image`: the gray level that maximises the between-class variance.
    static func otsuThreshold(_ image: GrayImage) -> UInt8 {
        var histogram = [Int](repeating: 0, count: 256)
        image.pixels.withUnsafeBufferPointer { pixels in
            histogram.withUnsafeMutableBufferPointer { counts in
                for value in pixels { counts[Int(value)] += 1 }
            }
        }
        let total = Double(image.pixels.count)
        let weightedSum = histogram.enumerated().reduce(0.0) { $0 + Double($1.offset * $1.element) }
        var backgroundCount = 0.0
        var backgroundSum = 0.0
        var best = (threshold: 127, variance: -1.0)
        for level in 0..<256 {
            backgroundCount += Double(histogram[level])
            if backgroundCount == 0 { continue }
            let foregroundCount = total - backgroundCount
            if foregroundCount == 0 { break }
            backgroundSum += Double(level * histogram[level])
            let meanDifference = backgroundSum / backgroundCount - (weightedSum - backgroundSum) / foregroundCount
            let variance = backgroundCount * foregroundCount * meanDifference * meanDifference
            if variance > best.variance { best = (level, variance) }
        }
        return UInt8(best.threshold)
    }
}
