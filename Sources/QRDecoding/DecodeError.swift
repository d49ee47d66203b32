/// Why PNG bytes could not be searched for QR codes. Finding no code is not an error: it is `[]`.
public enum DecodeError: Error, Sendable, Hashable {
    case unreadableImage(reason: String)
    case imageTooLarge(width: Int, height: Int, limit: Int)
    case scanFailed(reason: String)

    init(_ error: ImageError) {
        switch error {
        case .unreadable(let reason), .cannotEncode(let reason):
            self = .unreadableImage(reason: reason)
        case .tooLarge(let width, let height, let limit):
            self = .imageTooLarge(width: width, height: height, limit: limit)
        }
    }

    init(_ failure: ScanFailure) {
        switch failure {
        case .scannerFailed(let reason):
            self = .scanFailed(reason: reason)
        }
    }
}
