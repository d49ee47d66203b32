import CZBar

/// Finds every QR code in a gray image with zbar.
///
/// A class because `deinit` must free the zbar scanner and image it owns. zbar objects must not be shared
/// between threads: create one scanner per thread.
public final class QRScanner {
    /// How many codes one zbar scanner decodes before it is replaced. zbar 0.23 keeps every decoded QR code's
    /// symbol in a recycling list it never reuses (mchehab/zbar#258): about 190 bytes per code, held until the
    /// scanner is destroyed, which a long `watch` would grow without bound. Replacing the scanner costs about as
    /// much as one small scan, and bounds that memory at about 190 KB.
    static let codesPerScanner = 1_000

    private var scanner: OpaquePointer
    private let zbarImage: OpaquePointer
    /// The scan settings in force, so a scan changes zbar's configuration only when it asks for other ones.
    private var density = 1
    private var testsInverted = true
    /// Codes decoded by the current zbar scanner, and how many scanners this object has used (for tests).
    private var codesOnScanner = 0
    private(set) var scannerGeneration = 1

    /// A scanner for QR codes only, reporting raw payload bytes and trying light-on-dark codes too.
    public init() {
        guard let zbarImage = zbar_image_create() else {
            fatalError("zbar could not allocate an image")  // only on out-of-memory
        }
        self.scanner = Self.makeScanner()
        self.zbarImage = zbarImage
        // Only Y800 (8-bit gray) is accepted; any other fourcc makes zbar_scan_image return -1.
        zbar_image_set_format(zbarImage, zbar_fourcc_parse("Y800"))
    }

    /// A zbar scanner configured as `init` documents, at density 1 with inverted codes tried.
    private static func makeScanner() -> OpaquePointer {
        guard let scanner = zbar_image_scanner_create() else {
            fatalError("zbar could not allocate a scanner")  // only on out-of-memory
        }
        // Every symbology is on by default; QR only is 1.7–2.6 times cheaper and gives no false EAN hits.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1)
        // Without BINARY, zbar guesses a charset and turns some UTF-8 names into CJK; PayloadText decides instead.
        zbar_image_scanner_set_config(scanner, ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        // When a pass finds nothing, zbar retries on an inverted copy: light-on-dark codes are found too.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, 1)
        return scanner
    }

    /// Swaps in a fresh zbar scanner once the current one has decoded `codesPerScanner` codes.
    private func replaceScannerIfWorn() {
        guard codesOnScanner >= Self.codesPerScanner else { return }
        // The image still refers to the last scan's symbols, which belong to the old scanner: drop them first.
        zbar_image_set_symbols(zbarImage, nil)
        zbar_image_scanner_destroy(scanner)
        scanner = Self.makeScanner()
        density = 1
        testsInverted = true
        codesOnScanner = 0
        scannerGeneration += 1
    }

    deinit {
        zbar_image_destroy(zbarImage)
        zbar_image_scanner_destroy(scanner)
    }

    /// Decodes one small code on a throwaway scanner: call once before starting scanners on several threads.
    ///
    /// zbar calls `iconv_open` for every decoded QR code, even in binary mode; glibc loads its converters on
    /// first use, which thread checkers report as a race when two threads do it at once.
    public static func warmUp() {
        guard let image = try? QRCodeImage.make(text: "warm-up", moduleSize: 2, margin: 2) else { return }
        _ = try? QRScanner().scan(image)
    }

    /// Every QR code in `image`, in zbar's order; `[]` when there is none.
    ///
    /// The corresponding C function is `zbar_scan_image`.
    public func scan(_ image: GrayImage) throws(DecodeError) -> [QRSymbol] {
        try scan(image, coordinateScale: 1)
    }

    /// Scans `image` and divides the corners by `coordinateScale`, for images that were upscaled first.
    func scan(_ image: GrayImage, coordinateScale: Int) throws(DecodeError) -> [QRSymbol] {
        try scan(image, density: 1, testInverted: true) { $0 / coordinateScale }
    }

    /// Scans every `density`-th row and column (zbar's X and Y density), trying the inverted image too only when
    /// `testInverted`; corners are mapped back to the caller's image by `coordinate`.
    ///
    /// The corresponding C functions are `zbar_image_scanner_set_config` and `zbar_scan_image`.
    func scan(
        _ image: GrayImage, density: Int, testInverted: Bool, coordinate: (Int) -> Int
    ) throws(DecodeError) -> [QRSymbol] {
        replaceScannerIfWorn()
        if density != self.density {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(density))
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(density))
            self.density = density
        }
        if testInverted != testsInverted {
            zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, testInverted ? 1 : 0)
            testsInverted = testInverted
        }
        let count = image.width * image.height
        guard image.pixels.count == count else {
            throw .scanFailed(reason: "\(image.pixels.count) pixels for \(image.width) × \(image.height)")
        }
        guard count > 0 else { return [] }
        guard let width = UInt32(exactly: image.width), let height = UInt32(exactly: image.height) else {
            throw .scanFailed(reason: "dimensions \(image.width) × \(image.height) too large for zbar")
        }
        let result: Result<[QRSymbol], DecodeError> = image.pixels.withUnsafeBufferPointer { pixels in
            zbar_image_set_size(zbarImage, width, height)
            // NULL cleanup: the buffer is Swift's and lives only for this closure, so zbar must never free it,
            // and the pointer is cleared again before the closure ends.
            zbar_image_set_data(zbarImage, pixels.baseAddress, UInt(pixels.count), nil)
            defer { zbar_image_set_data(zbarImage, nil, 0, nil) }
            guard zbar_scan_image(scanner, zbarImage) >= 0 else {
                return .failure(.scanFailed(reason: "zbar_scan_image failed on a \(width) × \(height) Y800 image"))
            }
            // Symbol data belongs to zbar and is recycled by the next scan: copy it out now.
            let symbols = collectSymbols(coordinate: coordinate)
            codesOnScanner += symbols.count
            return .success(symbols)
        }
        return try result.get()
    }

    private func collectSymbols(coordinate: (Int) -> Int) -> [QRSymbol] {
        var symbols: [QRSymbol] = []
        var symbol = zbar_image_first_symbol(zbarImage)
        while let current = symbol {
            defer { symbol = zbar_symbol_next(current) }
            guard zbar_symbol_get_type(current) == ZBAR_QRCODE else { continue }
            // The length, not a C string: a payload may contain NUL bytes.
            let length = Int(zbar_symbol_get_data_length(current))
            let payload: [UInt8] =
                if let data = zbar_symbol_get_data(current), length > 0 {
                    Array(UnsafeRawBufferPointer(start: data, count: length))
                } else {
                    []
                }
            let corners = (0..<zbar_symbol_get_loc_size(current)).map { index in
                Point(
                    x: coordinate(Int(zbar_symbol_get_loc_x(current, index))),
                    y: coordinate(Int(zbar_symbol_get_loc_y(current, index))))
            }
            symbols.append(QRSymbol(payload: payload, corners: corners, quality: Int(zbar_symbol_get_quality(current))))
        }
        return symbols
    }
}

@available(*, unavailable, message: "zbar objects are not thread-safe: create one QRScanner per thread")
extension QRScanner: Sendable {}
