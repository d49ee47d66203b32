import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file read through one fixed buffer, chunk by chunk, so readers never hold more of a file than the buffer.
///
/// A class rather than a struct because it owns a file descriptor and a buffer that `deinit` must release.
final class FileByteSource {
    /// The bytes of the last chunk read; only the first `count` (as returned by `fill`) are valid.
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private let fd: Int32
    private var started = false
    private var atEnd = false

    /// Opens `path` for reading. The corresponding C function is `open`.
    init(path: String, bufferSize: Int = 64 * 1024) throws(ImportError) {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .unreadable(reason: FileByteSource.describe(errno)) }
        // Refuse directories up front: `read` would fail with EISDIR later, with a less helpful message.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .unreadable(reason: "is a directory")
        }
        fd = descriptor
        buffer = .allocate(capacity: max(bufferSize, 16))
    }

    deinit {
        close(fd)
        buffer.deallocate()
    }

    /// Reads the next chunk into `buffer` and returns how many bytes it holds; 0 at the end of the file.
    /// The corresponding C function is `read`.
    func fill() throws(ImportError) -> Int {
        let count = retryingOnInterrupt { read(fd, buffer.baseAddress, buffer.count) }
        guard count >= 0 else { throw .unreadable(reason: FileByteSource.describe(errno)) }
        return count
    }

    /// Reads the next chunk and returns the range of `buffer` that holds it, or nil at the end of the file.
    /// A UTF-8 byte order mark at the start of the file (Excel writes one) is not part of any chunk.
    func nextChunk() throws(ImportError) -> Range<Int>? {
        if atEnd { return nil }
        let count = try fill()
        if count == 0 {
            atEnd = true
            return nil
        }
        if !started {
            started = true
            if count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
                return count == 3 ? try nextChunk() : 3..<count
            }
        }
        return 0..<count
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
