#if canImport(Glibc)
    import Glibc
#endif

/// The addresses and name others on the network can reach this machine by: what a server bound to every address
/// (`0.0.0.0`, `::`) is reached at, for its certificate's names and the addresses it prints.
public enum MachineAddresses {
    /// The numeric addresses of the interfaces that are up, IPv4 first, loopback and link-local IPv6 left out. The C
    /// functions are `getifaddrs` and `getnameinfo`.
    public static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var version4: [String] = []
        var version6: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = Int32(bitPattern: current.pointee.ifa_flags)
            guard let address = current.pointee.ifa_addr, flags & Int32(IFF_UP) != 0,
                flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
                continue
            }
            let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET {
                if !version4.contains(name) { version4.append(name) }
            } else if !name.lowercased().hasPrefix("fe80"), !name.contains("%"), !version6.contains(name) {
                version6.append(name)
            }
        }
        return version4 + version6
    }

    /// The machine's host name (`gethostname`), nil when it has none.
    public static func hostName() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return nil }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty || text == "localhost" ? nil : text
    }
}
