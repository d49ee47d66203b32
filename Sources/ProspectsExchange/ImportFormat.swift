/// The formats `import` reads a list from.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// CSV with a header row naming the columns (see `CSVRecordReader`).
    case csv
    /// JSON Lines, one object per line, as `export --format json` writes (see `JSONLinesRecordReader`).
    case json
    /// vCard 2.1, 3.0 or 4.0 cards, as address books and phones export them (see `VCardFileReader`).
    case vcard

    /// The format a file's first bytes show: a vCard file starts with `BEGIN:VCARD`; nil for the others.
    public init?(content bytes: some Collection<UInt8>) {
        guard VCardFileReader.recognises(bytes) else { return nil }
        self = .vcard
    }

    /// The format a file name suggests: `.csv` → csv; `.jsonl`, `.ndjson` or `.json` → json; `.vcf` or `.vcard` →
    /// vcard; otherwise nil.
    public init?(fileName: String) {
        let lowered = fileName.lowercased()
        if lowered.hasSuffix(".csv") {
            self = .csv
        } else if lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".json") {
            self = .json
        } else if lowered.hasSuffix(".vcf") || lowered.hasSuffix(".vcard") {
            self = .vcard
        } else {
            return nil
        }
    }

    /// Opens a streaming reader of this format on `path`.
    public func reader(path: String) throws(ImportError) -> any ImportRecordReader {
        switch self {
        case .csv: try CSVRecordReader(path: path)
        case .json: try JSONLinesRecordReader(path: path)
        case .vcard: try VCardFileReader(path: path)
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
    /// The columns of the file no field is read from, as the file names them: an import says which it left out.
    var ignoredColumns: [String] { get }
}

extension ImportRecordReader {
    public var ignoredColumns: [String] { [] }
}
