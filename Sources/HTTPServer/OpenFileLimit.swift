#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit on open file descriptors, which bounds the connections a server can hold: a shell's or a
/// systemd service's soft limit (1,024) is raised within the hard limit, as Go's runtime and nginx do.
enum OpenFileLimit {
    /// Descriptors kept beside the connections: the listening socket, the store, uploads, libraries' own files.
    static let reserve = 256

    /// Raises the soft limit to at least `count` when the hard limit allows, else to the hard limit, and returns the
    /// soft limit in force. The corresponding C functions are `getrlimit` and `setrlimit`.
    @discardableResult
    static func raise(toAtLeast count: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return count }
        let wanted = rlim_t(count)
        if limit.rlim_cur < wanted && limit.rlim_cur != infinity {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == infinity ? wanted : min(wanted, limit.rlim_max)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == infinity ? Int.max : Int(clamping: limit.rlim_cur)
    }

    /// RLIM_INFINITY, which Swift cannot import (it is -1 in an unsigned type).
    private static let infinity = rlim_t.max

    private static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
}
