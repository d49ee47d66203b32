/// A file sent in a multipart/form-data request, streamed to a temporary file on disk.
///
/// The file is removed once the response has been sent: a handler that keeps it moves it elsewhere first.
public struct UploadedFile: Sendable, Equatable {
    /// The form field's name.
    public var fieldName: String
    /// The name the client gave the file (only a name: never use it as a path).
    public var fileName: String
    /// The content type the client declared, unchecked.
    public var contentType: String?
    /// Where the bytes are, in the server's upload folder.
    public var path: String
    /// Its size in bytes.
    public var size: Int

    public init(fieldName: String, fileName: String, contentType: String?, path: String, size: Int) {
        self.fieldName = fieldName
        self.fileName = fileName
        self.contentType = contentType
        self.path = path
        self.size = size
    }
}
