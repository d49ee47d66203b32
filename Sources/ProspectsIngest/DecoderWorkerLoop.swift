import Glibc
import QRDecoding
import SystemCalls

/// The worker side of out-of-process decoding: `prospects watch --decoder-worker` runs this loop.
///
/// libpng and zbar are C; a poisonous file that crashes them must take down only this process, never the watcher.
/// The loop reads request frames on stdin, decodes each with the same `QRDecoder` that `ingest` uses, and writes a
/// reply frame on stdout, until stdin ends (the watcher closed it, or died). It ignores SIGINT and SIGTERM: a stop
/// is the watcher's to decide, and a Ctrl-C or `systemctl stop` reaching the whole process group must not make the
/// file in hand look like a decoder crash.
public enum DecoderWorkerLoop {
    /// Serves requests until stdin ends; returns the exit status.
    public static func run(pixelLimit: Int) -> Int32 {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let decoder = QRDecoder(pixelLimit: pixelLimit)
        while let body = readFrame() {
            guard let request = DecoderMessage.parseRequest(body) else { return 70 }
            let result: Result<[QRSymbol], DecodeError>
            do {
                result = .success(try decoder.decode(request.png))
            } catch {
                result = .failure(error)
            }
            do {
                try writeAll(1, DecoderMessage.reply(result), path: "stdout")
            } catch {
                return 0  // the watcher is gone; nobody is left to answer
            }
        }
        return 0
    }

    /// One request frame from stdin, or nil at its end.
    private static func readFrame() -> [UInt8]? {
        guard let header = readExactly(4), let length = DecoderMessage.frameLength(header[...]),
            length <= DecoderMessage.maxFrame
        else { return nil }
        return readExactly(length)
    }

    /// Exactly `count` bytes from stdin, or nil when it ends first. The corresponding C function is `read`.
    private static func readExactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { read(0, raw.baseAddress! + filled, count - filled) }
            }
            if got <= 0 { return nil }
            filled += got
        }
        return bytes
    }
}
