public struct GrayImage: Sendable, Hashable {
    public let width: Int; public let height: Int; public var pixels: [UInt8]
}
public enum ImageError: Error, Sendable, Hashable { case unreadable(reason: String) }
public struct PNGReader: Sendable { public static let defaultPixelLimit = 50_000_000 }
public struct Point: Sendable, Hashable, Codable { public var x: Int; public var y: Int }
public struct QRSymbol: Sendable, Hashable {
    public var bytes: [UInt8]; public var text: String; public var encoding: String; public var corners: [Point];
    public var quality: Int
}
public enum DecodeError: Error, Sendable, Hashable {
    case unreadableImage(reason: String); case imageTooLarge(width: Int, height: Int, limit: Int);
    case scanFailed(reason: String)
}
public final class QRDecoder {
    public init(pixelLimit: Int = 1) {}; public func decode(_ png: [UInt8]) throws(DecodeError) -> [QRSymbol] { [] }
}
public enum QRCodeImage {
    public static func make(text: String, moduleSize: Int = 8, margin: Int = 4) throws(ImageError) -> GrayImage {
        fatalError()
    }
}
public enum PNGWriter { public static func encode(_ image: GrayImage) throws(ImageError) -> [UInt8] { [] } }
