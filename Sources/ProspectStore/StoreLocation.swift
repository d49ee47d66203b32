import Foundation

/// Where `--store` / `PROSPECTS_STORE` points: an SQLite file, or a PostgreSQL server.
public enum StoreLocation: Sendable, Hashable {
    case sqlite(path: String)
    /// A libpq connection URI (`postgres://` or `postgresql://`).
    case postgres(url: String)

    /// The default when neither `--store` nor `PROSPECTS_STORE` is given.
    public static let defaultPath = "prospects.sqlite"

    public init(parsing text: String) throws(StoreError) {
        let lower = text.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.isEmpty {
            throw .invalidLocation("empty store path")
        } else {
            self = .sqlite(path: text)
        }
    }

    /// `--store` if given, else `PROSPECTS_STORE`, else `./prospects.sqlite`.
    public static func resolve(option: String?, environment: [String: String]) throws(StoreError) -> StoreLocation {
        if let option { return try StoreLocation(parsing: option) }
        if let env = environment["PROSPECTS_STORE"], !env.isEmpty { return try StoreLocation(parsing: env) }
        return .sqlite(path: defaultPath)
    }

    /// The location as it may be shown to a person or written to a log: any password replaced by `***`.
    public var redacted: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return StoreLocation.redactPassword(in: url)
        }
    }

    /// Replaces the password of a `scheme://user:password@host` URL, and any `password=` query value, by `***`.
    public static func redactPassword(in url: String) -> String {
        var result = url
        if let schemeEnd = result.range(of: "://") {
            let rest = result[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"),
                let colon = rest[..<at].firstIndex(of: ":")
            {
                result.replaceSubrange(result.index(after: colon)..<at, with: "***")
            }
        }
        if let range = result.range(of: "password=", options: .caseInsensitive) {
            let valueEnd = result[range.upperBound...].firstIndex(of: "&") ?? result.endIndex
            result.replaceSubrange(range.upperBound..<valueEnd, with: "***")
        }
        return result
    }
}
