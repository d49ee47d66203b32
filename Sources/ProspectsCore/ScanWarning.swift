/// Something a picture was read in spite of: the file is used, and a person is told, as libjpeg warns.
public enum ScanWarning: Sendable, Hashable {
    /// The picture's data is all there but the file lacks its end marker (a JPEG without `EOI`); `format` names it.
    case missingEndMarker(format: String)

    /// A stable, machine-readable name of the case, used in JSON output.
    public var kind: String {
        switch self {
        case .missingEndMarker: "missingEndMarker"
        }
    }

    /// A sentence a person understands.
    public var message: String {
        switch self {
        case .missingEndMarker(let format):
            "the \(format) file ends without its end marker; its picture is whole and was read"
        }
    }
}

extension ScanWarning: CustomStringConvertible {
    public var description: String { message }
}
