/// Something a picture was read in spite of, carried with the picture for a front-end to tell (the library prints
/// nothing).
public enum DecodeWarning: Sendable, Hashable {
    /// Every scan's data is there but the file ends without its end marker (a JPEG lacking `EOI`).
    case missingEndMarker(format: ImageFormat)
}
