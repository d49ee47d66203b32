/// A multipart/form-data body built by hand, as a browser sends one.
public struct MultipartBody {
    public let boundary: String
    public private(set) var bytes: [UInt8] = []

    public init(boundary: String = "----prospects-test-boundary-7MA4YWxkTrZu0gW") {
        self.boundary = boundary
    }

    /// The request's Content-Type header value.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a text field.
    public mutating func add(field name: String, value: String) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
    }

    /// Adds a file.
    public mutating func add(file name: String, fileName: String, contentType: String, content: [UInt8]) {
        bytes += Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(fileName)\"\r\n"
                + "Content-Type: \(contentType)\r\n\r\n").utf8)
        bytes += content
        bytes += Array("\r\n".utf8)
    }

    /// The finished body, with the closing boundary.
    public var finished: [UInt8] { bytes + Array("--\(boundary)--\r\n".utf8) }
}
