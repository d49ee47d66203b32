import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the server's own small files (TLS certificates and keys).
enum FileBytes {
    /// The whole content of the file at `path`. The corresponding C functions are `open` and `read`.
    static func read(_ path: String) throws(SystemCallError) -> [UInt8] {
        let fd = try valueOrErrno("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try valueOrErrno("read", path: path) {
                chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }
}
