import Glibc

/// Writes a file a person asked for: private (mode 0600, it holds names and addresses) and never half-written
/// (a temporary file in the same folder, synced, then renamed over the target).
enum OutputFile {
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot create \(path)", status: .cannotCreate) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = failure("cannot write \(path)", status: .ioError)
                close(fd)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        // The descriptor is closed whether or not fsync succeeds.
        let synced = fsync(fd) == 0
        let closed = close(fd) == 0
        guard synced, closed, rename(temporary, path) == 0 else {
            let error = failure("cannot write \(path)", status: .ioError)
            unlink(temporary)
            throw error
        }
    }

    private static func failure(_ what: String, status: ExitCode) -> CommandFailure {
        CommandFailure(message: "\(what): \(String(cString: strerror(errno)))", status: status)
    }
}
