/// Which `Host` headers the server answers: the names it is bound under, so that a page of another site whose
/// name was made to resolve to this machine (DNS rebinding) reaches nothing.
struct HostCheck: Sendable, Hashable {
    /// Host names without the port, lowercased (`127.0.0.1`, `localhost`, `[::1]`).
    let names: Set<String>
    /// Bound to every address (`0.0.0.0`, `::`): the machine's names are not known, so any is answered; sign-in,
    /// which such an address requires, is then what keeps a rebound page out (it has no session cookie).
    let anyName: Bool

    /// The bound address, and for loopback the other loopback names a browser on this machine uses.
    init(boundHost: String) {
        var names: Set<String> = [Self.bracketed(boundHost.lowercased())]
        if Self.isLoopback(boundHost) { names.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
        self.names = names
        anyName = ["0.0.0.0", "::", "[::]"].contains(boundHost)
    }

    /// Whether `header` (a `Host` value, with or without a port) names this server.
    func allows(_ header: String?) -> Bool {
        guard let header, !header.isEmpty else { return false }
        return anyName || names.contains(Self.hostName(header.lowercased()))
    }

    /// `example.org:8080` → `example.org`; `[::1]:8080` → `[::1]`.
    static func hostName(_ header: String) -> String {
        if header.hasPrefix("[") {
            guard let end = header.firstIndex(of: "]") else { return header }
            return String(header[...end])
        }
        guard let colon = header.lastIndex(of: ":") else { return header }
        return String(header[..<colon])
    }

    /// `127.0.0.0/8`, `::1` and `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    private static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
