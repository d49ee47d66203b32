import Foundation
import HTTPServer

/// zbar compiled to WebAssembly (Scripts/build-zbar-wasm), which the scan worker loads to read QR codes on the phone.
///
/// Built into the binary as base64 (a 230 KB array literal takes the compiler minutes, a string a second) and served
/// under a name holding its hash, so a browser may keep it for a year: a new module has a new address.
enum ZBarModule {
    /// The module's SHA-256, written by Scripts/build-zbar-wasm; a test checks the bytes against it.
    static let sha256 = "9b4eb73d424fa819219fd2baf07ddd3f612a75dd27666e1ae7c6216885a69811"

    /// Where the worker fetches the module.
    static let path = "/static/zbar-\(sha256.prefix(16)).wasm"

    /// The module's bytes, decoded once on first use.
    static let bytes: [UInt8] = {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            fatalError("ZBarModule+Bytes.swift holds no valid base64: rerun Scripts/build-zbar-wasm")
        }
        return [UInt8](data)
    }()

    /// The module as `application/wasm` (which `WebAssembly.instantiateStreaming` requires), cached for a year.
    static var response: HTTPResponse {
        HTTPResponse(
            headers: [
                "Content-Type": "application/wasm",
                "Cache-Control": "public, max-age=31536000, immutable",
                "ETag": "\"\(sha256)\"",
            ],
            body: .bytes(bytes))
    }
}
