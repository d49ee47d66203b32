import Foundation

/// Where `--store` / `PROSPECTS_STORE` points: an SQLite file, or a PostgreSQL server.
public enum StoreLocation: Sendable, Hashable {
    case sqlite(path: String)
    /// A libpq connection URI (`postgres://` or `postgresql://`).
    case postgres(url: String)

    /// The default when neither `--store` nor `PROSPECTS_STORE` is given.
    public static let defaultPath = "prospects.sqlite"

    public init(parsing text: String) throws(StoreError) {
        if let scheme = ["postgres://", "postgresql://"].first(where: { text.lowercased().hasPrefix($0) }) {
            // libpq knows the scheme in lower case only; in any other case it would read the URL as `key=value`
            // settings and quote all of it, password included, in its error.
            self = .postgres(url: scheme + text.dropFirst(scheme.count))
        } else if text.isEmpty {
            throw .invalidLocation("empty store path")
        } else if text == ":memory:" || text.lowercased().hasPrefix("file:") {
            // SQLite's special names: an in-memory store would vanish with the command, and a URI filename would
            // be created as a file of that literal name.
            throw .invalidLocation("\(text) is not a file path; give the path of the store's file")
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

    /// Replaces the password of a `scheme://user:password@host` URL, and the value of every `password=` (and
    /// `sslpassword=`) parameter, by `***`.
    ///
    /// Errs on the side of hiding: the user part is taken to end at the last `@` of the whole URL, so a password
    /// holding `?`, `#` or `/` (which libpq may still read as the password) is hidden too; at worst a host is.
    public static func redactPassword(in url: String) -> String {
        var result = url
        if let schemeEnd = result.range(of: "://"), let at = result[schemeEnd.upperBound...].lastIndex(of: "@"),
            let colon = result[schemeEnd.upperBound..<at].firstIndex(of: ":")
        {
            result.replaceSubrange(result.index(after: colon)..<at, with: "***")
        }
        var searchFrom = result.startIndex
        while let range = result.range(of: "password=", options: .caseInsensitive, range: searchFrom..<result.endIndex)
        {
            let valueEnd = result[range.upperBound...].firstIndex(where: { $0 == "&" || $0 == "#" }) ?? result.endIndex
            result.replaceSubrange(range.upperBound..<valueEnd, with: "***")
            searchFrom = result.index(range.upperBound, offsetBy: 3)
        }
        return result
    }
}
