import Glibc
import ProspectsCore
import QRDecoding
import SystemCalls

/// Expands the paths given on a command line into the image files to process, in a stable order.
///
/// A path named explicitly is taken as it is (a symlink to a file is followed: the user asked for it).
/// Folders are walked recursively, sorted by name; inside a walk nothing is followed, so a link can never lead the
/// run out of the folder it was given. Hidden entries are skipped. A file in a folder is taken when its name says
/// it is a picture (`isImageName`) or its first bytes do, whatever its name; any other file is reported as skipped,
/// never passed over in silence.
public enum InputWalker {
    public enum Entry: Sendable, Hashable {
        /// A file to process; `followSymlinks` is true only for paths named explicitly.
        case file(path: String, followSymlinks: Bool)
        /// A path that does not exist, cannot be listed, or has a name that is not UTF-8.
        case missing(path: String, error: ScanError)
        /// A folder given on the command line with no image anywhere in it: no error (an empty drop folder is
        /// normal), but worth a word, for the path may be mistyped or the pictures hidden.
        case noImages(folder: String)
        /// A file inside a folder that is no picture, by its name and its first bytes; `kind` says what it is
        /// ("a text file", "a symbolic link").
        case skipped(path: String, kind: String)
    }

    public static func entries(for paths: [String]) -> [Entry] {
        var result: [Entry] = []
        visit(paths) { result.append($0) }
        return result
    }

    /// The files to process under `paths`, in order, as jobs for `ParallelProcessor`; each path that cannot be read
    /// at all goes to `missing` (before any file is processed, since the walk completes first).
    public static func jobs(
        for paths: [String], missing: (_ path: String, _ error: ScanError) throws -> Void,
        noImages: (_ folder: String) throws -> Void, skipped: (_ path: String, _ kind: String) throws -> Void
    ) rethrows -> [ParallelProcessor.Job] {
        // Straight into jobs, without a list of entries beside them: the path list is the one thing a run holds
        // per file.
        var jobs: [ParallelProcessor.Job] = []
        try visit(paths) { entry in
            switch entry {
            case .file(let path, let follow): jobs.append(.init(path: path, followSymlinks: follow))
            case .missing(let path, let error): try missing(path, error)
            case .noImages(let folder): try noImages(folder)
            case .skipped(let path, let kind): try skipped(path, kind)
            }
        }
        return jobs
    }

    private static func visit(_ paths: [String], _ body: (Entry) throws -> Void) rethrows {
        for path in paths {
            if path == InputFile.standardInput {
                try body(.file(path: path, followSymlinks: true))
                continue
            }
            var info = stat()
            if stat(path, &info) != 0 {
                var reason = String(cString: strerror(errno))
                // The shell passed bytes that are not UTF-8 and Swift's arguments repaired them: this path names
                // another file. Say so rather than leave "no such file" unexplained.
                if errno == ENOENT && path.contains("\u{FFFD}") { reason += " (" + FileName.undecodableReason + ")" }
                try body(.missing(path: path, error: .unreadableFile(reason: reason)))
            } else if info.st_mode & S_IFMT == S_IFDIR {
                var found = 0
                try walk(directory: path) { entry in
                    // An image whose name cannot be opened (not UTF-8) is reported; the folder is not "empty".
                    switch entry {
                    case .file, .missing: found += 1
                    case .noImages, .skipped: break
                    }
                    try body(entry)
                }
                if found == 0 { try body(.noImages(folder: path)) }
            } else {
                try body(.file(path: path, followSymlinks: true))
            }
        }
    }

    /// True for names the walk takes without looking inside: a picture's extension in any case, not hidden.
    /// GIF, TIFF and BMP are taken too, so that they are refused with a reason rather than skipped.
    public static func isImageName(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    static let imageExtensions: Set = [
        "png", "jpg", "jpeg", "jpe", "jfif", "heic", "heif", "hif", "avif", "webp", "gif", "tif", "tiff", "bmp",
    ]

    /// Whether the file's first bytes are a picture's (one Prospects reads, or GIF, TIFF, BMP, which get an error
    /// naming them); otherwise what it is instead. Opened without following links and without blocking.
    static func pictureCheck(_ path: String) -> String? {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return nil }  // taken: reading it will say why it cannot be read
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 64)
        let count = head.withUnsafeMutableBytes { raw in retryingOnInterrupt { read(fd, raw.baseAddress!, raw.count) } }
        guard count >= 0 else { return nil }
        switch ImageFormat.of(Array(head.prefix(count))) {
        case .success, .failure(.gif), .failure(.tiff), .failure(.bmp): return nil
        case .failure(let other): return other.description
        }
    }

    private static func walk(directory: String, _ body: (Entry) throws -> Void) rethrows {
        guard let dir = opendir(directory) else {
            let error = ScanError.unreadableFile(reason: String(cString: strerror(errno)))
            try body(.missing(path: directory, error: error))
            return
        }
        defer { closedir(dir) }
        // Each entry, and what it is when it is no picture (nil: a folder, or a file to take).
        var names: [(name: String, isDirectory: Bool, skippedAs: String?)] = []
        while let entry = readdir(dir) {
            let name: String
            switch FileName(FileSystemCalls.name(of: entry)) {
            case .valid(let valid): name = valid
            case .undecodable(let shown):
                // Reported, never skipped in silence.
                if !shown.hasPrefix("."), isImageName(shown) {
                    let error = ScanError.unreadableFile(reason: FileName.undecodableReason)
                    try body(.missing(path: join(directory, shown), error: error))
                }
                continue
            }
            if name.hasPrefix(".") { continue }
            let path = join(directory, name)
            var info = stat()
            // lstat, not stat: a link inside a walk is reported as such and never followed.
            guard lstat(path, &info) == 0 else { continue }
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR {
                names.append((name, true, nil))
            } else if isImageName(name) {
                names.append((name, false, nil))
            } else if type == S_IFREG {
                names.append((name, false, pictureCheck(path)))
            } else {
                names.append((name, false, InputFile.describe(fileType: type)))
            }
        }
        for (name, isDirectory, skippedAs) in names.sorted(by: { $0.name < $1.name }) {
            let path = join(directory, name)
            if isDirectory {
                try walk(directory: path, body)
            } else if let skippedAs {
                try body(.skipped(path: path, kind: skippedAs))
            } else {
                try body(.file(path: path, followSymlinks: false))
            }
        }
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
