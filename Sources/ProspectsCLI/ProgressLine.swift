import Dispatch

/// One status line on a terminal's stderr, redrawn in place at most ten times a second.
///
/// Used only when stderr is a terminal and the output is for people (not `--json`, not `--quiet`), as clig.dev
/// advises: a pipe or a log file never receives carriage returns or escape sequences.
final class ProgressLine {
    private let stream: OutputStream
    private var lastDraw: UInt64 = 0
    private var visible = false

    init(stream: OutputStream) { self.stream = stream }

    /// Redraws the line with `text`, unless it was drawn less than 100 ms ago.
    func update(_ text: @autoclosure () -> String) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw >= 100_000_000 else { return }
        lastDraw = now
        stream.partial("\r\u{1B}[K" + text())
        visible = true
    }

    /// Erases the line, so that a message or the summary starts on a clean line.
    func clear() {
        guard visible else { return }
        stream.partial("\r\u{1B}[K")
        visible = false
    }
}
