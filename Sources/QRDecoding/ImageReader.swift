/// Picture bytes of any supported format → 8-bit gray, the format told by the bytes, never by a file name.
///
/// PNG goes to libpng, JPEG to libturbojpeg, HEIC and AVIF to libheif, WebP to libwebp; anything else is refused
/// with `DecodeError.unsupportedFormat` naming what it is. Every reader checks the pixel limit before allocating.
public struct ImageReader: Sendable {
    /// The most pixels (`width * height`) an image may have, in every format.
    public let pixelLimit: Int
    public let png: PNGReader
    public let jpeg: JPEGReader
    public let webp: WebPReader
    public let heif: HEIFReader

    public init(pixelLimit: Int = PNGReader.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
        png = PNGReader(pixelLimit: pixelLimit)
        jpeg = JPEGReader(pixelLimit: pixelLimit)
        webp = WebPReader(pixelLimit: pixelLimit)
        heif = HEIFReader(pixelLimit: pixelLimit)
    }

    /// What a read produced besides the pixels.
    public struct Picture: Sendable, Hashable {
        public var format: ImageFormat
        /// How the pixels read are still to be turned to stand upright (never mirrored: a mirrored picture is
        /// flipped while read, since zbar cannot read a mirrored code).
        public var orientation: ImageOrientation
        /// The stored image's size at full resolution (the pixels read are smaller when `reduction` > 1).
        public var width: Int
        public var height: Int
        /// The pixels read are the stored image reduced this many times (JPEG's DCT scaling); 1 for full size.
        public var reduction: Int
        /// What the picture was read in spite of (a JPEG lacking its end marker), for a front-end to tell.
        public var warnings: [DecodeWarning] = []

        /// The map from the pixels read to the upright picture at full size.
        public var toUpright: AffineMap {
            orientation.toUpright(width: width, height: height).after(.scale(Double(reduction)))
        }
    }

    /// The format of `bytes`, or the error that names what they are instead.
    public func format(of bytes: [UInt8]) throws(DecodeError) -> ImageFormat {
        switch ImageFormat.of(bytes) {
        case .success(let format): return format
        case .failure(let other): throw .unsupportedFormat(other)
        }
    }

    /// Decodes `bytes` into `image`, reusing its storage. A JPEG whose long side is at least `reducedLongSide`
    /// times 2 is decoded reduced (1/2, 1/4 or 1/8, the most that keeps that long side); other formats and
    /// smaller JPEGs at full size.
    @discardableResult
    public func read(
        _ bytes: [UInt8], into image: inout GrayImage, reducedLongSide: Int? = nil
    ) throws(DecodeError) -> Picture {
        let format = try format(of: bytes)
        var picture = Picture(format: format, orientation: .up, width: 0, height: 0, reduction: 1)
        try bytes.withUnsafeBufferPointer { buffer throws(DecodeError) in
            switch format {
            case .png:
                try png.read(bytes, into: &image)
            case .jpeg:
                let header = try jpeg.header(buffer)
                picture.width = header.width
                picture.height = header.height
                if let reducedLongSide {
                    picture.reduction = Self.reduction(longSide: max(header.width, header.height), to: reducedLongSide)
                }
                picture.warnings = try jpeg.read(buffer, reduction: picture.reduction, into: &image)
                picture.orientation = ImageOrientation.ofJPEG(buffer)
            case .heif, .avif:
                try heif.read(buffer, format: format, into: &image)
            case .webp:
                try webp.read(buffer, into: &image)
            }
        }
        if picture.reduction == 1 {
            picture.width = image.width
            picture.height = image.height
        }
        if picture.orientation.isMirrored {
            image.flipHorizontally()
            picture.orientation = picture.orientation.afterHorizontalFlip
        }
        return picture
    }

    /// The largest DCT reduction (8, 4 or 2) that keeps `longSide` at least `target`; 1 when none does.
    static func reduction(longSide: Int, to target: Int) -> Int {
        [8, 4, 2].first { longSide / $0 >= target } ?? 1
    }
}
