import Crypto
import Foundation
import SystemCalls

/// `serve --tls-self-signed`: a certificate and key made by the `openssl` command and kept in a folder, so that a
/// phone which accepted the certificate once keeps accepting it at the next start; made anew only when it no longer
/// names every address and name the server is reached by.
enum SelfSignedCertificate {
    static let certificateName = "cert.pem"
    static let keyName = "key.pem"

    /// The subjectAltName entries a certificate for a server bound to `host` needs: localhost and loopback, and
    /// the bound address; for every address (`0.0.0.0`, `::`), each interface's address and the host name (with
    /// `.local`, as phones resolve it by mDNS).
    static func names(for host: String) -> [String] {
        var names = ["DNS:localhost", "IP:127.0.0.1", "IP:::1"]
        func add(_ name: String) {
            let entry = (name.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" } ? "IP:" : "DNS:") + name
            if !names.contains(entry) { names.append(entry) }
        }
        if ["0.0.0.0", "::", "[::]"].contains(host) {
            MachineAddresses.interfaceAddresses().forEach(add)
            if let name = MachineAddresses.hostName() {
                add(name)
                if !name.contains(".") { add(name + ".local") }
            }
        } else if !HostCheck.isLoopback(host) {
            add(host)
        }
        return names
    }

    /// The files in `folder`, made first when either is missing or the certificate does not name all of `host`'s
    /// `names`: an EC P-256 key (readable by its owner only) and a certificate valid 825 days (the longest some
    /// browsers take).
    static func files(in folder: String, host: String, environment: [String: String]) throws(WebServerError)
        -> TLSFiles
    {
        let files = TLSFiles(certificate: folder + "/" + certificateName, key: folder + "/" + keyName)
        let manager = FileManager.default
        let names = Self.names(for: host)
        let openssl = program("openssl", environment: environment)
        if manager.fileExists(atPath: files.certificate) && manager.fileExists(atPath: files.key),
            let openssl, Set(names).isSubset(of: named(in: files.certificate, openssl: openssl))
        {
            return files
        }
        guard let openssl else {
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

    /// The subjectAltName entries of the certificate at `path` as `names(for:)` writes them (addresses in their
    /// short form), read by `openssl x509`; empty when it cannot be read.
    static func named(in path: String, openssl: String) -> Set<String> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = ["x509", "-in", path, "-noout", "-ext", "subjectAltName"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        var found: Set<String> = []
        for line in text.split(separator: "\n").dropFirst() {
            for entry in line.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if entry.hasPrefix("DNS:") { found.insert(entry) }
                if entry.hasPrefix("IP Address:") { found.insert("IP:" + shortAddress(String(entry.dropFirst(11)))) }
            }
        }
        return found
    }

    /// An IPv6 address as `inet_ntop` writes it (openssl prints `0:0:0:0:0:0:0:1` for `::1`); others unchanged.
    private static func shortAddress(_ text: String) -> String {
        guard text.contains(":") else { return text }
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return text }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return text }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The SHA-256 fingerprint of the first certificate in `pem` (of its DER bytes), as browsers show it:
    /// `AB:CD:…`; nil when there is none.
    static func fingerprint(ofPEM pem: String) -> String? {
        guard let begin = pem.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = pem.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<pem.endIndex),
            let der = Data(
                base64Encoded: String(pem[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }))
        else { return nil }
        let hex = Array(SHA256.hex([UInt8](der)).uppercased())
        return stride(from: 0, to: hex.count, by: 2).map { String(hex[$0..<$0 + 2]) }.joined(separator: ":")
    }

    /// The first executable `name` on `PATH` (or the usual folders when PATH is unset).
    private static func program(_ name: String, environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
