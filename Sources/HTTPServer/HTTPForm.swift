/// The fields and files of an `application/x-www-form-urlencoded` or `multipart/form-data` request body.
public struct HTTPForm: Sendable, Equatable {
    /// Text fields, decoded, in the order they came.
    public var fields: [HTTPField]
    /// Uploaded files, in the order they came.
    public var files: [UploadedFile]

    public init(fields: [HTTPField] = [], files: [UploadedFile] = []) {
        self.fields = fields
        self.files = files
    }

    /// The first value of the field `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every value of the field `name` (checkboxes, multiple selects), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }
}
