import ProspectStore

public enum ExportFormat: String, Sendable, CaseIterable { case csv, json, vcard }
public struct ProspectExporter {
    public init(format: ExportFormat) {}; public func header() -> String { "" };
    public func record(_ prospect: StoredProspect) -> String { "" }
}
public struct ImportRecord: Sendable, Hashable {
    public var name: String; public var email: String; public var phone: String?; public var organization: String?;
    public var contacted: Bool?; public var line: Int
}
public enum ImportError: Error, Sendable, Hashable {
    case unreadable(reason: String); public var message: String { "" }
}
public final class CSVRecordReader {
    public init(path: String) throws(ImportError) {}; public func next() throws(ImportError) -> ImportRecord? { nil }
}
public final class JSONLinesRecordReader {
    public init(path: String) throws(ImportError) {}; public func next() throws(ImportError) -> ImportRecord? { nil }
}
public enum ImportFormat: String, Sendable, CaseIterable { case csv, json }
