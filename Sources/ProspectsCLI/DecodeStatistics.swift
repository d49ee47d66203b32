import ProspectsIngest

/// What `decode --stats` prints: how many decoder passes each image needed and how long decoding took.
///
/// A clean image costs one pass; more passes mean the recovery passes ran. Times are per image, PNG decoding
/// and every scan included, file reading and parsing excluded; with several workers they overlap.
struct DecodeStatistics {
    private var passCounts: [Int: Int] = [:]
    private var found = 0
    private var milliseconds: [Double] = []

    mutating func add(_ outcome: FileOutcome) {
        // A file that could not be read at all never reached the decoder.
        guard outcome.passCount > 0 else { return }
        passCounts[outcome.passCount, default: 0] += 1
        if !outcome.codes.isEmpty { found += 1 }
        let (seconds, attoseconds) = outcome.decodeTime.components
        milliseconds.append(Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }

    /// Two lines: images, codes found and the pass distribution; then mean, median and maximum time.
    var summary: [String] {
        guard !milliseconds.isEmpty else { return ["stats: no image decoded"] }
        let distribution = passCounts.keys.sorted().map { "\($0): \(passCounts[$0]!)" }.joined(separator: ", ")
        let sorted = milliseconds.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        return [
            "stats: \(HumanText.count(sorted.count, "image")), codes found in \(found); images by passes run: \(distribution)",
            "stats: decode time per image: mean \(Self.format(mean)) ms, median \(Self.format(median)) ms, "
                + "max \(Self.format(sorted.last!)) ms",
        ]
    }

    private static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
