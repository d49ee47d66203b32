import Glibc
import SystemCalls

/// The kernel's news about one folder and, when asked, the subfolders watched with `watch(folder:)` (inotify): names
/// that became complete files, entries that appeared (a file being written, or a link, FIFO or folder), names that
/// went away, and lost events. Names in a subfolder come as paths relative to the inbox (`sub/x.png`).
///
/// A class because it owns the inotify descriptor. The descriptor is non-blocking: the watch loop `poll`s it and
/// calls `readEvents()` when it is readable, so the watcher sleeps in the kernel until something happens.
final class InboxWatcher {
    enum Event: Sendable, Hashable {
        /// A writer closed the file (`IN_CLOSE_WRITE`) or it was renamed in (`IN_MOVED_TO`): it is complete.
        case completed(name: String)
        /// An entry was created (`IN_CREATE`): a new regular file is being written, and its close will follow.
        case created(name: String)
        /// An entry was deleted (`IN_DELETE`) or renamed away (`IN_MOVED_FROM`): a file being written under that
        /// name will not be announced under it.
        case removed(name: String)
        /// A file was completed or created under a name that is not UTF-8 (see `FileName`).
        case undecodable(shown: String)
        /// The kernel's queue overflowed (`IN_Q_OVERFLOW`): events were lost, the folder must be rescanned.
        case overflow
        /// The folder itself was deleted, moved or unmounted.
        case folderGone
        /// A folder was created or renamed in (after its `created` or `completed` event).
        case folderCreated(name: String)
        /// A watched subfolder went away (`IN_IGNORED`): its watch descriptor is free.
        case watchEnded(descriptor: Int32)
    }

    let descriptor: Int32
    private let path: String
    private let mask: UInt32
    /// Watch descriptor → folder relative to the inbox ("" for the inbox itself).
    private var folders: [Int32: String] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// Starts watching `path`. The corresponding C functions are `inotify_init1` and `inotify_add_watch`.
    init(path: String) throws(SystemCallError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemCallError("inotify_init1") }
        // Glibc imports the masks as Int32; the call wants the bits as UInt32.
        let mask =
            UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE_SELF)
            | UInt32(IN_MOVE_SELF) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_ONLYDIR)
        let watch = inotify_add_watch(fd, path, mask)
        guard watch >= 0 else {
            let error = SystemCallError("inotify_add_watch", path: path)
            close(fd)
            throw error
        }
        descriptor = fd
        self.path = path
        self.mask = mask
        folders[watch] = ""
    }

    /// Watches the subfolder `relative` (to the inbox) too; nothing when it is gone or watched already. Throws when
    /// the kernel refuses (`ENOSPC`: the user's watch limit reached). The corresponding C function is
    /// `inotify_add_watch`.
    func watch(folder relative: String) throws(SystemCallError) {
        guard !folders.values.contains(relative) else { return }
        let full = path + "/" + relative
        let watch = inotify_add_watch(descriptor, full, mask | UInt32(IN_DONT_FOLLOW))
        if watch >= 0 {
            folders[watch] = relative
        } else if errno != ENOENT && errno != ENOTDIR {
            throw SystemCallError("inotify_add_watch", path: full)
        }
    }

    deinit { close(descriptor) }

    /// Every event queued now, oldest first; empty when there are none. The corresponding C function is `read`.
    func readEvents() throws(SystemCallError) -> [Event] {
        var events: [Event] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { read(descriptor, raw.baseAddress!, raw.count) }
            }
            if count < 0 {
                if errno == EAGAIN { return events }
                throw SystemCallError("read", path: "inotify")
            }
            if count == 0 { return events }
            let before = events.count
            InboxWatcher.parse(buffer[..<count], into: &events) { [folders] in folders[$0] }
            // A subfolder that went away is no news for the watch loop: its watch ends (a folder moved elsewhere in
            // the inbox is watched again under its new name by the rescan its arrival causes).
            for event in events[before...] {
                if case .watchEnded(let watch) = event, folders.removeValue(forKey: watch) != nil {
                    inotify_rm_watch(descriptor, watch)
                }
            }
            events.removeAll { if case .watchEnded = $0 { true } else { false } }
        }
    }

    /// Decodes `struct inotify_event` records: `wd`, `mask`, `cookie`, `len`, then `len` bytes of NUL-padded name.
    /// `folder` gives the folder of a watch descriptor relative to the inbox ("" for the inbox; nil: not watched).
    static func parse(
        _ bytes: ArraySlice<UInt8>, into events: inout [Event], folder: (Int32) -> String? = { _ in "" }
    ) {
        let header = MemoryLayout<inotify_event>.size
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + header <= raw.count {
                let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = raw[(offset + header)..<min(raw.count, offset + header + length)]
                let decoded = FileName(nameBytes.prefix(while: { $0 != 0 }))
                offset += header + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    events.append(.overflow)
                    continue
                }
                guard let prefix = folder(watch) else { continue }
                let inFolder = { (name: String) in prefix.isEmpty ? name : prefix + "/" + name }
                let name: String
                switch decoded {
                case .valid(let valid): name = valid.isEmpty ? "" : inFolder(valid)
                case .undecodable(let shown):
                    if mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)) != 0 {
                        events.append(.undecodable(shown: inFolder(shown)))
                    }
                    continue
                }

                if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED)) != 0 {
                    // A subfolder deleted or moved is told by its parent's events: only its watch ends.
                    events.append(prefix.isEmpty ? .folderGone : .watchEnded(descriptor: watch))
                } else if name.isEmpty {
                    continue
                } else if mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) != 0 {
                    events.append(.completed(name: name))
                    if mask & UInt32(IN_ISDIR) != 0 { events.append(.folderCreated(name: name)) }
                } else if mask & UInt32(IN_CREATE) != 0 {
                    events.append(.created(name: name))
                    if mask & UInt32(IN_ISDIR) != 0 { events.append(.folderCreated(name: name)) }
                } else if mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 {
                    events.append(.removed(name: name))
                }
            }
        }
    }
}
