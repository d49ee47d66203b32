import Foundation

/// The first line a started `prospects serve` prints on `out` (`serving http://HOST:PORT/`), and the port in it.
struct ServeAddressLine {
    let line: String
    let port: UInt16?

    init(readingFrom out: Pipe) {
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let more = out.fileHandleForReading.availableData
            if more.isEmpty { break }
            printed += more
        }
        line = String(decoding: printed, as: UTF8.self)
        port = UInt16(line.split(separator: ":").last?.prefix { $0.isNumber } ?? "")
    }
}
