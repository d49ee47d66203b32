import CMicroHTTPD
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// One request while libmicrohttpd reads it: its headers, its body or form so far, its uploaded files on disk, and
/// the status it is refused with once a limit is passed.
///
/// A class because libmicrohttpd holds it (as `*con_cls`) from the first call of the access handler until the
/// request is completed, when `discard()` removes its files. Only the thread serving its connection touches it.
final class RequestInProgress {
    let method: String
    let path: String
    let query: [HTTPField]
    let headers: HTTPHeaders
    let cookies: [HTTPField]
    let remoteAddress: String
    private let limits: HTTPServerConfiguration

    private var body: [UInt8] = []
    private var fields: [HTTPField] = []
    private var files: [UploadedFile] = []
    private var postProcessor: OpaquePointer?
    private var receivedBytes = 0
    /// The open file of the upload being written (the last of `files`), or -1.
    private var fileDescriptor: Int32 = -1
    /// Bytes of text fields so far, held in memory: at most `maximumBodySize`.
    private var fieldBytes = 0
    private var isWritingField = false

    /// The status the request is answered with instead of calling the handler (413, 400, 500).
    private(set) var refusal: (status: Int, message: String)?
    /// Set once a response is queued: later body data is read and dropped.
    var answered = false
    /// Set while a writer thread answers the request (the connection suspended meanwhile).
    var handedOff: HandedOffAnswer?

    init(connection: OpaquePointer, method: String, path: String, limits: HTTPServerConfiguration) {
        self.method = method
        self.path = path
        self.limits = limits
        query = Self.values(of: connection, kind: .GET_ARGUMENT_KIND)
        headers = HTTPHeaders(Self.values(of: connection, kind: .HEADER_KIND))
        cookies = Self.values(of: connection, kind: .COOKIE_KIND)
        var address = [CChar](repeating: 0, count: 64)
        remoteAddress =
            prospects_mhd_client_address(connection, &address, address.count) == 0
            ? String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        if let declared = headers["Content-Length"].flatMap(Int.init), declared > bodyLimit {
            refuse(413, "the request body is larger than \(bodyLimit) bytes")
        }
    }

    /// True for a urlencoded or multipart body, which is parsed as a form instead of being kept.
    private var isForm: Bool {
        let type = headers["Content-Type"]?.lowercased() ?? ""
        return type.hasPrefix("multipart/form-data") || type.hasPrefix("application/x-www-form-urlencoded")
    }

    private var bodyLimit: Int { isForm ? limits.maximumFormSize : limits.maximumBodySize }

    /// Starts libmicrohttpd's form parser when the body is a form, with `context` passed back to `formData`.
    func startFormParser(connection: OpaquePointer, context: UnsafeMutableRawPointer) {
        guard isForm, refusal == nil else { return }
        postProcessor = MHD_create_post_processor(connection, 64 * 1024, postDataIterator, context)
        if postProcessor == nil { refuse(400, "the form's content type has no boundary") }
    }

    /// Takes the next piece of the body: kept, parsed as a form, or dropped once the request is refused
    /// (libmicrohttpd lets a response be queued only before the body or after all of it).
    func receive(_ data: UnsafePointer<CChar>, count: Int) {
        guard refusal == nil else { return }
        receivedBytes += count
        guard receivedBytes <= bodyLimit else {
            return refuse(413, "the request body is larger than \(bodyLimit) bytes")
        }
        if let postProcessor {
            if MHD_post_process(postProcessor, data, count) != MHD_Result.YES, refusal == nil {
                refuse(400, "the form data is malformed")
            }
        } else {
            body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        }
    }

    /// Called by the form parser for each piece of a field or file; false stops the parsing.
    func formData(
        key: String, fileName: String?, contentType: String?, offset: UInt64, data: UnsafeRawBufferPointer
    ) -> Bool {
        guard refusal == nil else { return false }
        if offset == 0 { startPart(key: key, fileName: fileName, contentType: contentType) }
        guard refusal == nil else { return false }
        if isWritingField {
            fieldBytes += data.count
            guard fieldBytes <= limits.maximumBodySize else {
                refuse(413, "the form's text fields are larger than \(limits.maximumBodySize) bytes")
                return false
            }
            fields[fields.count - 1].value += String(decoding: data, as: UTF8.self)
            return true
        }
        guard fileDescriptor >= 0 else { return true }
        files[files.count - 1].size += data.count
        guard files[files.count - 1].size <= limits.maximumFileSize else {
            refuse(413, "the file \(files[files.count - 1].fileName) is larger than \(limits.maximumFileSize) bytes")
            return false
        }
        do {
            try writeAll(fileDescriptor, data, path: files[files.count - 1].path)
        } catch {
            refuse(500, "cannot write the upload: \(error.message)")
            return false
        }
        return true
    }

    private func startPart(key: String, fileName: String?, contentType: String?) {
        closeFile()
        isWritingField = fileName == nil
        guard let fileName else {
            fields.append(HTTPField(key, ""))
            return
        }
        guard files.count < limits.maximumFileCount else {
            return refuse(413, "more than \(limits.maximumFileCount) files in one request")
        }
        // The client's file name (made safe) ends the temporary one, so that a file found there after a crash
        // still has it.
        let tag = limits.uploadTagQueryName.flatMap { name in query.first { $0.name == name }?.value }.flatMap {
            value in
            let hex = value.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
            return hex && (1...32).contains(value.utf8.count) ? value + "~" : nil
        }
        let suffix = "." + (tag ?? "") + Self.safeName(fileName)
        var template = Array((limits.uploadDirectory + "/upload-XXXXXX" + suffix).utf8CString)
        let fd = mkstemps(&template, Int32(suffix.utf8.count))
        guard fd >= 0 else {
            return refuse(500, "cannot create an upload file in \(limits.uploadDirectory) (errno \(errno))")
        }
        fileDescriptor = fd
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        files.append(
            UploadedFile(fieldName: key, fileName: fileName, contentType: contentType, path: path, size: 0))
    }

    /// A client's file name reduced to letters, digits, `.`, `-` and `_`, at most 64 bytes: never a path.
    static func safeName(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
                ? Character(scalar) : "_"
        }
        var text = String(kept).trimmingPrefix(while: { $0 == "." })
        while text.utf8.count > 64 { text.removeFirst() }
        return text.isEmpty ? "file" : String(text)
    }

    private func closeFile() {
        if fileDescriptor >= 0 { close(fileDescriptor) }
        fileDescriptor = -1
    }

    /// Ends the body: flushes the form parser and closes the last file.
    func finishBody() {
        if let postProcessor {
            MHD_destroy_post_processor(postProcessor)
            self.postProcessor = nil
        }
        closeFile()
    }

    /// Answers `status` instead of calling the handler, and removes the files uploaded so far.
    private func refuse(_ status: Int, _ message: String) {
        guard refusal == nil else { return }
        refusal = (status, message)
        closeFile()
        removeFiles()
    }

    /// The refusal as the handler's `refused` sees it.
    func refusalDetails() -> HTTPRefusal? {
        refusal.map {
            HTTPRefusal(
                status: $0.status, message: $0.message, method: method, path: path, headers: headers,
                remoteAddress: remoteAddress)
        }
    }

    /// The request as the handler sees it.
    func request() -> HTTPRequest {
        HTTPRequest(
            method: method, path: path, query: query, headers: headers, cookies: cookies, remoteAddress: remoteAddress,
            body: body, form: HTTPForm(fields: fields, files: files))
    }

    /// Frees the parser and removes every uploaded file still in the upload folder.
    func discard() {
        finishBody()
        removeFiles()
    }

    private func removeFiles() {
        for file in files { unlink(file.path) }
        files.removeAll()
    }

    /// Every value of one kind (headers, query items) of `connection`, decoded, in order.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [HTTPField] {
        var collected: [HTTPField] = []
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(
                connection, kind,
                { context, _, key, keySize, value, valueSize in
                    let fields = context!.assumingMemoryBound(to: [HTTPField].self)
                    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
                    let text =
                        value.map {
                            String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self)
                        }
                        ?? ""
                    fields.pointee.append(HTTPField(name, text))
                    return MHD_Result.YES
                }, pointer)
        }
        return collected
    }
}

/// libmicrohttpd's form parser callback: hands each piece to the request it was created for.
private func postDataIterator(
    context: UnsafeMutableRawPointer?, kind: MHD_ValueKind, key: UnsafePointer<CChar>?,
    fileName: UnsafePointer<CChar>?, contentType: UnsafePointer<CChar>?, transferEncoding: UnsafePointer<CChar>?,
    data: UnsafePointer<CChar>?, offset: UInt64, size: Int
) -> MHD_Result {
    let request = Unmanaged<RequestInProgress>.fromOpaque(context!).takeUnretainedValue()
    let accepted = request.formData(
        key: key.map { String(cString: $0) } ?? "", fileName: fileName.map { String(cString: $0) },
        contentType: contentType.map { String(cString: $0) }, offset: offset,
        data: UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return accepted ? MHD_Result.YES : MHD_Result.NO
}
