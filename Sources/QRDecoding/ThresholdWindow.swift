/// One local threshold the geometry pass looks for finder patterns through (LocalThreshold.swift): the window's
/// radius as a fraction (1 / `divisor`) of the image's long side, and how far below the window's mean a pixel must
/// be to count as dark.
struct ThresholdWindow: Sendable, Hashable {
    let divisor: Int
    let bias: Int

    /// A window a twentieth of the image follows uneven light closely; one of a tenth keeps the dark centre of a
    /// large finder pattern dark.
    static let fine = ThresholdWindow(divisor: 20, bias: 3)
    static let coarse = ThresholdWindow(divisor: 10, bias: 3)
    /// For blurred codes: blur darkens a finder pattern's one-module light ring below its window's mean, which the
    /// code's dark modules pull down; a threshold further below the mean keeps the ring light.
    static let blurred = ThresholdWindow(divisor: 20, bias: 12)
}
