import Foundation

/// Version 5 (SHA-1, name-based) UUIDs as RFC 9562 defines them: the same name always gives the same UUID.
enum NameBasedUUID {
    /// RFC 9562's namespace for names that are URLs.
    static let urlNamespace = UUID(uuidString: "6ba7b811-9dad-11d1-80b4-00c04fd430c8")!

    static func make(namespace: UUID, name: String) -> UUID {
        let space = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        var hash = SHA1.digest(space + Array(name.utf8))
        hash[6] = (hash[6] & 0x0F) | 0x50  // version 5
        hash[8] = (hash[8] & 0x3F) | 0x80  // RFC variant
        return UUID(
            uuid: (
                hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7], hash[8], hash[9], hash[10],
                hash[11], hash[12], hash[13], hash[14], hash[15]
            ))
    }
}
