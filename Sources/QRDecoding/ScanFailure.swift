/// zbar itself failed (as opposed to finding no code, which is an empty result).
public enum ScanFailure: Error, Sendable, Hashable {
    /// `zbar_scan_image` returned -1, or the image could not be handed to zbar.
    case scannerFailed(reason: String)
}
