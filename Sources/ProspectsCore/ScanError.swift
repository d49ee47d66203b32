/// Why a picture or a payload did not become a prospect.
///
/// The Linux counterpart of CodeScanner's `ScanError`, with a case for each reason a caller may want to
/// switch on, and a `message` a person understands. Messages never quote more of a payload than needed.
public enum ScanError: Error, Sendable, Hashable {
    // MARK: The file
    /// The file could not be opened or read (missing, permission denied, I/O error).
    case unreadableFile(reason: String)
    /// The path is not a regular file (a directory, FIFO, socket, device, or a symlink where none is followed).
    case notARegularFile(kind: String)
    /// The bytes are no picture format Prospects reads; `kind` says what they are ("a GIF image", "a text file").
    case unsupportedImage(kind: String)
    /// The picture's library could not decode it (bad CRC, corrupt data), or zbar failed on it; `format` names it
    /// ("PNG", "JPEG"…).
    case unreadableImage(format: String, reason: String)
    /// The picture's bytes end before the picture does: cut short, or still being written.
    case truncatedImage(format: String)
    /// The image declares more pixels than the configured limit; refused before any pixel memory is allocated.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// The image decoded, but no QR code was found in it.
    case noCodeFound
    /// The decoder process died on this file (a crash inside libpng or zbar); the file is kept for inspection.
    case decoderCrashed(reason: String)

    // MARK: The payload
    /// The payload is longer than any contact code could reasonably be.
    case payloadTooLong(bytes: Int, limit: Int)
    /// The payload's bytes are not valid text in any supported encoding.
    case invalidText
    /// The two-line form needs exactly two non-empty lines: a name, then an email address.
    case wrongLineCount(Int)
    /// The name line is empty, or the format carried no usable name.
    case emptyName
    /// The payload carried no email address.
    case missingEmail
    /// The email address is not one a practical mail system would accept.
    case invalidEmail(address: String, reason: EmailProblem)
    /// A name or address contains a control character, a bidi override or an invisible character.
    case unsafeCharacters(field: String, scalar: UInt32)
    /// The code holds something other than a contact (a URL, plain text…).
    case unsupportedPayload(summary: String)

    // MARK: A badge that holds an attendee ID
    /// The code holds an attendee ID (`BadgeCode`) that the event's roster does not hold.
    case badgeNotInRoster(id: String, event: String)
    /// The roster's attendee has no email address, which a lead needs.
    case badgeAttendeeWithoutEmail(id: String, event: String)

    /// A stable, machine-readable name of the case, used in JSON output and reason files.
    public var kind: String {
        switch self {
        case .unreadableFile: "unreadableFile"
        case .notARegularFile: "notARegularFile"
        // One kind for every file that is no readable picture, whatever the reason: JSON readers and reason files
        // keep the kind they know; the message says what the file is.
        case .unsupportedImage, .unreadableImage, .truncatedImage: "unreadableImage"
        case .imageTooLarge: "imageTooLarge"
        case .noCodeFound: "noCodeFound"
        case .decoderCrashed: "decoderCrashed"
        case .payloadTooLong: "payloadTooLong"
        case .invalidText: "invalidText"
        case .wrongLineCount: "wrongLineCount"
        case .emptyName: "emptyName"
        case .missingEmail: "missingEmail"
        case .invalidEmail: "invalidEmail"
        case .unsafeCharacters: "unsafeCharacters"
        case .unsupportedPayload: "unsupportedPayload"
        case .badgeNotInRoster: "badgeNotInRoster"
        case .badgeAttendeeWithoutEmail: "badgeAttendeeWithoutEmail"
        }
    }

    /// A sentence a person understands. Any text taken from the input is escaped (see `SafeText`).
    public var message: String {
        switch self {
        case .unreadableFile(let reason):
            "cannot read the file: \(reason)"
        case .notARegularFile(let kind):
            "not a regular file (\(kind))"
        case .unsupportedImage(let kind):
            "\(kind); Prospects reads \(Self.readableFormats)"
        case .unreadableImage(let format, let reason):
            "not a readable \(format) image: \(reason)"
        case .truncatedImage(let format):
            "the \(format) image is cut short (the file ends before the picture does)"
        case .imageTooLarge(let width, let height, let limit):
            Self.tooLargeMessage(width: width, height: height, limit: limit)
        case .noCodeFound:
            "no QR code found in the image"
        case .decoderCrashed(let reason):
            "the decoder crashed on this file (\(reason)); the file is kept for inspection"
        case .payloadTooLong(let bytes, let limit):
            // Said of the contact, not "the code": an imported row gets the same message.
            "the contact is \(bytes) bytes long, more than the \(limit) a contact may have"
        case .invalidText:
            "the code's bytes are not valid text"
        case .wrongLineCount(let count):
            "expected two lines (name, then email address), found \(count)"
        case .emptyName:
            "the name is empty"
        case .missingEmail:
            "no email address is given"
        case .invalidEmail(let address, let reason):
            "\"\(SafeText.escaped(address, limit: 80))\" is not a valid email address: \(reason.message)"
        case .unsafeCharacters(let field, let scalar):
            "the \(field) contains an unsafe character (\(SafeText.codePoint(scalar)))"
        case .unsupportedPayload(let summary):
            "not a contact code: \(summary)"
        case .badgeNotInRoster(let id, let event):
            "badge \(SafeText.escaped(id, limit: 80)) is not in the roster of \(SafeText.escaped(event, limit: 80)) "
                + "(prospects roster import adds the attendee list)"
        case .badgeAttendeeWithoutEmail(let id, let event):
            "badge \(SafeText.escaped(id, limit: 80)) is an attendee of \(SafeText.escaped(event, limit: 80)) "
                + "without an email address, which a lead needs"
        }
    }
}

extension ScanError {
    /// The picture formats a person can give, as said in `unsupportedImage`'s message (and wherever else a
    /// message lists them): the one list.
    public static let readableFormats = "PNG, JPEG, HEIC, AVIF and WebP"

    /// The pixel limit that would read the picture an `imageTooLarge` names (its pixel count); nil for other cases.
    /// Front-ends that take a limit say how to give it; the message itself names no option.
    public var pixelLimitNeeded: Int? {
        guard case .imageTooLarge(let width, let height, _) = self else { return nil }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : count
    }

    /// "a 10,000 × 10,800 picture (108 MP) is over the 50 MP limit", in exact pixels where megapixels would round
    /// the picture and the limit to the same figure.
    private static func tooLargeMessage(width: Int, height: Int, limit: Int) -> String {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        let size = "\(grouped(width)) × \(grouped(height)) picture"
        if !overflow, count >= 1_000_000, limit >= 1_000_000, megapixels(count) != megapixels(limit) {
            return "a \(size) (\(megapixels(count)) MP) is over the \(megapixels(limit)) MP limit"
        }
        let pixels = overflow ? "" : " (\(grouped(count)) pixels)"
        return "a \(size)\(pixels) is over the limit of \(grouped(limit)) pixels"
    }

    /// Megapixels to one decimal, without a trailing ".0": "108", "12.2".
    private static func megapixels(_ pixels: Int) -> String {
        let tenths = (pixels + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// Digits in groups of three: "10,800".
    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}

extension ScanError: CustomStringConvertible {
    public var description: String { message }
}

/// Why an email address was refused; each case says which rule it broke (see `EmailAddress.validate`).
public enum EmailProblem: Error, Sendable, Hashable {
    case empty
    case missingAt
    case multipleAt
    case emptyLocalPart
    case localPartTooLong(bytes: Int)
    case addressTooLong(bytes: Int)
    case badDots
    case invalidLocalCharacter(UInt32)
    case emptyDomain
    case domainWithoutDot
    case invalidDomainLabel(String)
    /// The domain starts or ends with a dot, or has two in a row (`example.com.`, `a..b`).
    case emptyDomainLabel
    /// A part of the domain is longer than the 63 characters DNS allows.
    case domainLabelTooLong(length: Int)
    /// The last part of the domain is all digits (`user@192.168.0.1`): no top-level domain is.
    case numericTopLevelDomain(String)

    /// A stable, machine-readable name of the case, for JSON output next to `ScanError.kind`.
    public var kind: String {
        switch self {
        case .empty: "empty"
        case .missingAt: "missingAt"
        case .multipleAt: "multipleAt"
        case .emptyLocalPart: "emptyLocalPart"
        case .localPartTooLong: "localPartTooLong"
        case .addressTooLong: "addressTooLong"
        case .badDots: "badDots"
        case .invalidLocalCharacter: "invalidLocalCharacter"
        case .emptyDomain: "emptyDomain"
        case .domainWithoutDot: "domainWithoutDot"
        case .invalidDomainLabel: "invalidDomainLabel"
        case .emptyDomainLabel: "emptyDomainLabel"
        case .domainLabelTooLong: "domainLabelTooLong"
        case .numericTopLevelDomain: "numericTopLevelDomain"
        }
    }

    /// A phrase that completes "… is not a valid email address: ". Input text in it is escaped.
    public var message: String {
        switch self {
        case .empty: "it is empty"
        case .missingAt: "it has no @"
        case .multipleAt: "it has more than one @"
        case .emptyLocalPart: "nothing comes before the @"
        case .localPartTooLong(let bytes): "the part before the @ is \(bytes) bytes, over 64"
        case .addressTooLong(let bytes): "it is \(bytes) bytes, over 254"
        case .badDots: "it has a leading, trailing or double dot"
        case .invalidLocalCharacter(let scalar): "the part before the @ contains \(SafeText.codePoint(scalar))"
        case .emptyDomain: "nothing comes after the @"
        case .domainWithoutDot: "the domain has no dot"
        case .invalidDomainLabel(let label):
            "the domain part \"\(SafeText.escaped(label, limit: 63))\" is not letters, digits and inner hyphens"
        case .emptyDomainLabel: "the domain has a leading, trailing or double dot"
        case .domainLabelTooLong(let length): "a part of the domain is \(length) characters, over 63"
        case .numericTopLevelDomain(let label):
            "the domain ends in \"\(SafeText.escaped(label, limit: 63))\", which is all digits"
        }
    }
}
