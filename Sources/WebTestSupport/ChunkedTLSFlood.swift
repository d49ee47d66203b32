import Foundation

/// A client that sends a chunked body over TLS until an answer is there to read, as a browser does, then reads the
/// answer to its end: Python's ssl module (Debian's `/usr/bin/python3`), for the tests of a body cut at its limit.
public enum ChunkedTLSFlood {
    /// Sends `head` (a request's line and headers, without the blank line) to `port` on loopback, then chunks of
    /// `chunkSize` bytes of `filler` (at most 1 GiB), and returns what the server answered.
    public static func answer(port: UInt16, head: String, chunkSize: Int, filler: Character = "a") throws -> String {
        let script = """
            import select, socket, ssl, sys
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            tls = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1]))))
            tls.sendall(sys.argv[2].encode() + b"\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n")
            size = int(sys.argv[3])
            piece = b"%x\\r\\n" % size + sys.argv[4].encode() * size + b"\\r\\n"
            sent = 0
            while sent < 1 << 30 and not tls.pending() and not select.select([tls], [], [], 0)[0]:
                try:
                    tls.sendall(piece)
                except OSError:
                    break
                sent += size
            answer = b""
            try:
                while chunk := tls.recv(65536):
                    answer += chunk
            except OSError:
                pass
            sys.stdout.write(answer.decode())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, String(port), head, String(chunkSize), String(filler)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let answer = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return answer
    }
}
