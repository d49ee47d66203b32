import Glibc

/// Writes a file a person asked for: private (mode 0600, it holds names and addresses) and never half-written
/// (a temporary file in the same folder, synced, then renamed over the target).
enum OutputFile {
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        try refuseDatabase(path)
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
        guard synced, closed else {
            let error = failure("cannot write \(path)", status: .ioError)
            unlink(temporary)
            throw error
        }
        // The bytes are safe; what fails now is the name (a folder there, say): the file cannot be created.
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot create \(path)", status: .cannotCreate)
            unlink(temporary)
            throw error
        }
    }

    /// `export -o "$PROSPECTS_STORE"`, or a typo, would otherwise replace the whole store with a CSV file. Any other
    /// existing file is replaced, as `-o` does everywhere.
    private static func refuseDatabase(_ path: String) throws(CommandFailure) {
        let sideFile = ["-wal", "-shm", "-journal"].first { path.hasSuffix($0) }
        let database = sideFile.map { String(path.dropLast($0.count)) } ?? path
        guard startsLikeSQLite(database) else { return }
        throw CommandFailure(
            message: "\(path) belongs to an SQLite database (a prospect store?); not replacing it",
            status: .cannotCreate)
    }

    private static func startsLikeSQLite(_ path: String) -> Bool {
        // Non-blocking, so that a FIFO at the path cannot hang the check.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 16)
        return read(fd, &header, header.count) == header.count && header == Array("SQLite format 3\u{0}".utf8)
    }

    private static func failure(_ what: String, status: ExitCode) -> CommandFailure {
        CommandFailure(message: "\(what): \(String(cString: strerror(errno)))", status: status)
    }
}
