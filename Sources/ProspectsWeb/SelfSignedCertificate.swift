import Foundation

/// `serve --tls-self-signed`: a certificate and key made once by the `openssl` command and kept in a folder, so
/// that a phone which accepted the certificate once keeps accepting it at the next start.
enum SelfSignedCertificate {
    static let certificateName = "cert.pem"
    static let keyName = "key.pem"

    /// The files in `folder`, made first when either is missing: an EC P-256 key (readable by its owner only) and a
    /// certificate for `host`, localhost and loopback, valid 825 days (the longest some browsers take).
    static func files(in folder: String, host: String, environment: [String: String]) throws(WebServerError)
        -> TLSFiles
    {
        let files = TLSFiles(certificate: folder + "/" + certificateName, key: folder + "/" + keyName)
        let manager = FileManager.default
        if manager.fileExists(atPath: files.certificate) && manager.fileExists(atPath: files.key) { return files }
        guard let openssl = program("openssl", environment: environment) else {
            throw .tlsUnavailable(
                "--tls-self-signed makes its certificate with the openssl command, which is not installed "
                    + "(Debian: apt-get install openssl); or give --tls-cert and --tls-key")
        }
        do {
            try manager.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .tlsUnavailable(
                "cannot make \(folder) for the self-signed certificate: \(error.localizedDescription)")
        }
        // Made under temporary names and renamed into place, so that a start killed halfway leaves no half pair.
        let suffix = ".\(ProcessInfo.processInfo.processIdentifier).tmp"
        var names = ["DNS:localhost", "IP:127.0.0.1", "IP:::1"]
        if !["0.0.0.0", "::", "localhost", "127.0.0.1", "::1"].contains(host) {
            names.insert((host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } ? "IP:" : "DNS:") + host, at: 0)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "825",
            "-subj", "/CN=prospects serve", "-addext", "subjectAltName=" + names.joined(separator: ","),
            "-keyout", files.key + suffix, "-out", files.certificate + suffix,
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .tlsUnavailable("cannot run \(openssl): \(error.localizedDescription)")
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            try? manager.removeItem(atPath: files.key + suffix)
            try? manager.removeItem(atPath: files.certificate + suffix)
            throw .tlsUnavailable("openssl could not make a certificate: \(said.split(separator: "\n").first ?? "")")
        }
        _ = chmod(files.key + suffix, 0o600)
        guard rename(files.key + suffix, files.key) == 0, rename(files.certificate + suffix, files.certificate) == 0
        else {
            throw .tlsUnavailable("cannot put the certificate in \(folder) (errno \(errno))")
        }
        return files
    }

    /// The first executable `name` on `PATH` (or the usual folders when PATH is unset).
    private static func program(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
