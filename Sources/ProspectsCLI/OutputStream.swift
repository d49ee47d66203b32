import Foundation
import Glibc
import ProspectsCore
import SystemCalls

/// A buffered writer on a file descriptor: data lines to stdout, messages to stderr.
///
/// Buffered because `decode` over thousands of files prints thousands of lines; `lineFlushed` makes every line
/// reach the reader at once, as long-running modes (`watch --json`) must.
final class OutputStream {
    /// The descriptor written to; nil for a stream kept in memory (`captured`), as tests read one.
    private let fd: Int32?
    private var buffer: [UInt8] = []
    /// Everything a stream in memory was given.
    private(set) var captured: [UInt8] = []
    var lineFlushed: Bool
    /// The errno of the first write that failed, so that the command can fail instead of ending with cut-off output.
    private(set) var writeError: Int32?

    init(fd: Int32, lineFlushed: Bool = false) {
        self.fd = fd
        self.lineFlushed = lineFlushed
        buffer.reserveCapacity(1 << 16)
    }

    /// A stream that keeps what it is given in `captured`, for tests; it is no terminal.
    init(capturing lineFlushed: Bool = false) {
        self.fd = nil
        self.lineFlushed = lineFlushed
    }

    /// What a stream in memory was given, as text.
    var text: String { String(decoding: captured, as: UTF8.self) }

    deinit { flush() }

    /// True when the descriptor is a terminal (colour, tables, progress only then).
    var isTerminal: Bool { fd.map { isatty($0) == 1 } ?? false }

    /// The terminal's width in columns, or nil when the stream is no terminal (a pipe or a file gets full lines).
    /// The corresponding C function is `ioctl` with `TIOCGWINSZ`.
    var terminalColumns: Int? {
        guard let fd, isatty(fd) == 1 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if lineFlushed || buffer.count >= 1 << 16 { flush() }
    }

    /// Writes bytes exactly as given (used for `--raw`, where the payload bytes are the output).
    func bytes(_ data: [UInt8]) {
        buffer.append(contentsOf: data)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes text without a line end and flushes it (the progress line redraws itself in place).
    func partial(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        flush()
    }

    func flush() {
        guard let fd else {
            captured += buffer
            buffer.removeAll(keepingCapacity: true)
            return
        }
        do {
            try writeAll(fd, buffer)
        } catch {
            // A closed pipe (`| head`) or a full disk: nothing more can be said on this stream.
            if writeError == nil { writeError = error.code }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The two streams a command writes to, and how human output should look.
final class Console {
    let out: OutputStream
    let err: OutputStream

    /// Where answers to a question come from: nil when no person can answer (stdin is no terminal).
    private let answers: (() -> String?)?

    init(
        out: OutputStream = OutputStream(fd: 1), err: OutputStream = OutputStream(fd: 2, lineFlushed: true),
        answers: (() -> String?)? = Console.terminalAnswers()
    ) {
        self.out = out
        self.err = err
        self.answers = answers
    }

    /// Two streams in memory, for tests; `answers` are what a person at a terminal would type, in turn.
    static func capturing(answers: [String]? = nil) -> Console {
        var remaining = answers?[...]
        return Console(
            out: OutputStream(capturing: false), err: OutputStream(capturing: true),
            answers: answers == nil ? nil : { remaining?.popFirst() })
    }

    /// A line typed at the terminal, when stdin and stderr are one; nil otherwise (a script, a pipe).
    static func terminalAnswers() -> (() -> String?)? {
        isatty(0) == 1 && isatty(2) == 1 ? { readLine(strippingNewline: true) } : nil
    }

    /// Asks `question` on stderr and reads the answer: true for y or yes; nil when no person can be asked.
    func confirm(_ question: String) -> Bool? {
        guard let answers else { return nil }
        out.flush()
        err.partial("\(question) [y/N] ")
        guard let answer = answers() else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The redrawn progress line on stderr, when one is showing.
    var progress: ProgressLine?

    /// A message for a person, on stderr, prefixed by the program name.
    ///
    /// Callers escape what they quote from the input; `SafeText.neutralized` is the last guard for anything that
    /// slipped through (an argument echoed in a usage error, a path, a library's message), so no control
    /// character, bidi override or invisible character reaches the terminal from here. Likewise no password: a
    /// PostgreSQL URL may be echoed from anywhere on the command line (a mistyped command, an option's value, a
    /// file name), so every URL in a message is shown with its password hidden.
    func warn(_ message: String) {
        out.flush()
        progress?.clear()
        err.line("prospects: \(SafeText.neutralized(StoreLocation.hidingPasswords(in: message)))")
    }

    func flush() {
        progress?.clear()
        out.flush()
        err.flush()
    }
}
