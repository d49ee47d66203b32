import Foundation

/// Where `--store` / `PROSPECTS_STORE` points: an SQLite file, or a PostgreSQL server.
public enum StoreLocation: Sendable, Hashable {
    case sqlite(path: String)
    /// A libpq connection URI (`postgres://` or `postgresql://`).
    case postgres(url: String)

    /// The default when neither `--store` nor `PROSPECTS_STORE` is given.
    public static let defaultPath = "prospects.sqlite"

    /// How long a command waits for a lock another process holds on the store before failing with `.busy`.
    public static let defaultLockWait: Duration = .seconds(10)

    public init(parsing text: String) throws(StoreError) {
        // A URL pasted with a space or line break around it is still that URL.
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let scheme = ["postgres://", "postgresql://"].first(where: { trimmed.lowercased().hasPrefix($0) }) {
            // libpq knows the scheme in lower case only; in any other case it would read the URL as `key=value`
            // settings and quote all of it, password included, in its error.
            let url = scheme + trimmed.dropFirst(scheme.count)
            try Self.refuseMisreadUserInfo(in: url)
            self = .postgres(url: url)
        } else if let scheme = Self.urlScheme(trimmed) {
            // Taken as a file path, a mistyped URL would become a new SQLite file named after it, password and all.
            throw .invalidLocation(
                "'\(scheme)…' is not a store location: give postgres://user:password@host/database for PostgreSQL, "
                    + "or the path of an SQLite file")
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

    /// The scheme of text that is meant as a URL but not one this program reads (`postgress://`, `mysql://`,
    /// `postgres:/…`, `postgres:user@host`), shown up to its `:` or `://`; nil for a file path. `postgres.sqlite`
    /// and `pg-backup/list.sqlite` are paths.
    static func urlScheme(_ text: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
        let scheme = text.prefix { allowed.contains($0) }
        guard let first = scheme.first, first.isLetter else { return nil }
        let rest = text.dropFirst(scheme.count)
        if rest.hasPrefix("://") { return scheme + "://" }
        // `postgres:/…` or `postgres:user:password@host`; `pg:list.sqlite` and `pg//list.sqlite` are paths.
        let postgresLike = ["postgres", "postgresql", "pg", "psql"].contains(scheme.lowercased())
        if postgresLike && rest.hasPrefix(":") && (rest.hasPrefix(":/") || rest.contains("@")) { return scheme + ":" }
        return nil
    }

    /// libpq takes the user and password to end at the first `@`, and to be absent when a `/` comes first. An `@`
    /// left after that, before the query, means a user or password holding an `@` or `/` not written `%40` or
    /// `%2F`: libpq would read the rest of it as the host, port or database, and quote it in its errors.
    static func refuseMisreadUserInfo(in url: String) throws(StoreError) {
        guard let schemeEnd = url.range(of: "://") else { return }
        let afterScheme = url[schemeEnd.upperBound...]
        var rest = afterScheme
        if let end = afterScheme.firstIndex(where: { $0 == "@" || $0 == "/" }), afterScheme[end] == "@" {
            rest = afterScheme[afterScheme.index(after: end)...]
        }
        guard rest.prefix(while: { $0 != "?" }).contains("@") else { return }
        throw .invalidLocation(
            "\(redactPassword(in: url)): libpq would read part of the user or password as the host or database; "
                + "write '@' as %40 and '/' as %2F in them")
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
        if let password = writtenPassword(in: result) { result.replaceSubrange(password, with: "***") }
        var searchFrom = result.startIndex
        while let range = result.range(of: "password=", options: .caseInsensitive, range: searchFrom..<result.endIndex)
        {
            let valueEnd = result[range.upperBound...].firstIndex(where: { $0 == "&" || $0 == "#" }) ?? result.endIndex
            result.replaceSubrange(range.upperBound..<valueEnd, with: "***")
            searchFrom = result.index(range.upperBound, offsetBy: 3)
        }
        // libpq decodes %-escapes in parameter names too: `pass%77ord=` is the password.
        if let query = result.firstIndex(of: "?") {
            let parameters = result[result.index(after: query)...].split(
                separator: "&", omittingEmptySubsequences: false)
            let hidden = parameters.map { parameter -> String in
                guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
                let name = String(parameter[..<equals])
                let decoded = (name.removingPercentEncoding ?? name).lowercased()
                return decoded.hasSuffix("password") ? name + "=***" : String(parameter)
            }
            result.replaceSubrange(result.index(after: query)..., with: hidden.joined(separator: "&"))
        }
        return result
    }

    /// Where the password of `scheme://user:password@host` is written: from the user's `:` to the last `@`.
    public static func writtenPassword(in url: String) -> Range<String.Index>? {
        guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@"),
            let colon = url[schemeEnd.upperBound..<at].firstIndex(of: ":")
        else { return nil }
        return url.index(after: colon)..<at
    }

    /// Text that may quote PostgreSQL URLs (a message, a path argument), with the password of each hidden and all
    /// else as it is. Each URL is taken to end at white space: `redactPassword` applied to a whole message would
    /// read the text after a URL as part of its last parameter and hide it too. A `:` that ends a word is the
    /// message's (`cannot connect to URL: why`), not part of a `password=` value.
    public static func hidingPasswords(in text: String) -> String {
        guard text.contains("://") else { return text }
        func hiding(_ word: String) -> String {
            guard word.contains("://") else { return word }
            return word.hasSuffix(":") ? redactPassword(in: String(word.dropLast())) + ":" : redactPassword(in: word)
        }
        var result = ""
        var word = ""
        for character in text {
            guard character.isWhitespace else {
                word.append(character)
                continue
            }
            result += hiding(word)
            result.append(character)
            word = ""
        }
        return result + hiding(word)
    }
}
