/// The formats `import` reads a list from.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// CSV with a header row naming the columns (see `CSVRecordReader`).
    case csv
    /// JSON Lines, one object per line, as `export --format json` writes (see `JSONLinesRecordReader`).
    case json

    /// The format a file name suggests: `.csv` → csv; `.jsonl`, `.ndjson` or `.json` → json; otherwise nil.
    public init?(fileName: String) {
        let lowered = fileName.lowercased()
        if lowered.hasSuffix(".csv") {
            self = .csv
        } else if lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".json") {
            self = .json
        } else {
            return nil
        }
    }

    /// Opens a streaming reader of this format on `path`.
    public func reader(path: String) throws(ImportError) -> any ImportRecordReader {
        switch self {
        case .csv: try CSVRecordReader(path: path)
        case .json: try JSONLinesRecordReader(path: path)
        }
    }
}

/// A streaming reader of import records: each call to `next` reads one more record from the file.
///
/// After `.malformed` the reader has skipped that record, so calling `next` again goes on with the following one.
/// Other errors end the import.
public protocol ImportRecordReader: AnyObject {
    /// The next record, or nil at the end of the file.
    func next() throws(ImportError) -> ImportRecord?
}
