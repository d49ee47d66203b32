import FuzzSupport
import ProspectsCore
import ProspectsExchange

#if canImport(Glibc)
    import Glibc
#endif

/// Fuzzes the streaming import readers, `CSVRecordReader`, `JSONLinesRecordReader` and `VCardFileReader` (with the
/// `VCardDetails` it reads of each card: every NOTE, CATEGORIES, the `X-PROSPECTS-` properties), on the same bytes.
///
/// The readers take a path, so each input is written to a file in `/dev/shm` (memory, no disk wear) first.
/// Small record limits and a small count of records per input keep runs fast and reach the "too long" paths.
/// Checked: every `next()` either returns a record, throws `.malformed` (and the reader goes on), or ends (also by
/// `.wrongFormat`, before any record);
/// the number of calls is bounded by the input's size (no endless loop on a bad record); record lines only
/// grow; every record's fields are text the importer then validates — its accepted prospects meet the
/// parser's invariants and every message is safe to print.
let path = "/dev/shm/prospects-fuzz-import-\(getpid())"
let parser = PayloadParser()

func write(_ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    require(fd >= 0, "cannot create \(path)")
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
        require(written > 0, "cannot write \(path)")
        offset += written
    }
    close(fd)
}

func drain(_ reader: any ImportRecordReader, inputSize: Int, format: String) {
    var calls = 0
    var lastLine = 0
    while true {
        calls += 1
        // Each call consumes at least one line end or the end of the file.
        require(calls <= inputSize + 2, "\(format): \(calls) calls to next() on \(inputSize) bytes")
        do throws(ImportError) {
            guard let record = try reader.next() else { return }
            require(record.line > lastLine, "\(format): record line \(record.line) after \(lastLine)")
            lastLine = record.line
            // What `Importer` does with a record: the two-line contract on its name and address, or a card parsed as
            // a scanned one.
            let parsed = record.card.map { parser.parse(utf8: $0) } ?? parser.parse("\(record.name)\n\(record.email)")
            switch parsed {
            case .success(let prospect): checkProspect(prospect)
            case .failure(let error): checkError(error)
            }
            for what in record.ignored { requireSafe(what, "\(format) ignored cell") }
        } catch {
            requireSafe(error.message, "\(format) error message")
            // A file of another kind (a JSON array) is refused whole, before any record.
            if case .wrongFormat = error, lastLine == 0 { return }
            guard case .malformed(let line, _) = error else {
                violated("\(format): next() threw \(error.message)")
            }
            require(line >= lastLine, "\(format): malformed line \(line) after \(lastLine)")
            lastLine = line
        }
    }
}

runFuzzer { data, size in
    write(inputBytes(data, size))
    do throws(ImportError) {
        let csv = try CSVRecordReader(path: path, maxRecordBytes: 512)
        drain(csv, inputSize: size, format: "CSV")
    } catch {
        requireSafe(error.message, "CSV header error message")
    }
    do throws(ImportError) {
        let jsonLines = try JSONLinesRecordReader(path: path, maxLineBytes: 512)
        drain(jsonLines, inputSize: size, format: "JSON Lines")
    } catch {
        requireSafe(error.message, "JSON Lines open error message")
    }
    do throws(ImportError) {
        let cards = try VCardFileReader(path: path, maxCardBytes: 512)
        drain(cards, inputSize: size, format: "vCard")
    } catch {
        requireSafe(error.message, "vCard open error message")
    }
    return 0
}
