import Foundation

/// The email address rules of a practical mail system, for addresses read from untrusted codes.
///
/// Stricter than RFC 5321 where the RFC allows what no real mailbox uses (quoted local parts, comments,
/// IP-address literals) and Unicode-aware where people are (RFC 6531 local parts, IDN domains).
public enum EmailAddress {
    /// The longest local part (before the `@`), in UTF-8 bytes (RFC 5321 §4.5.3.1.1).
    public static let maxLocalPartBytes = 64
    /// The longest address, in UTF-8 bytes: the 256-byte path limit of RFC 5321 less the angle brackets.
    public static let maxAddressBytes = 254
    /// The longest domain label, in Unicode scalars.
    ///
    /// DNS counts the 63 bytes of a label's ASCII (Punycode) form; for an internationalised label that form
    /// is longer than the scalar count, and the mail system refuses it at delivery. Counting scalars here
    /// catches every ASCII label exactly and the grossly long Unicode ones.
    public static let maxLabelLength = 63

    /// Characters allowed in a local part besides letters, marks and digits (RFC 5322 `atext`, plus the dot).
    private static let localSymbols = Set("!#$%&'*+-/=?^_`{|}~.".unicodeScalars)

    /// Checks `text` and returns it trimmed and in Unicode NFC, case preserved (`DedupKey` folds case).
    ///
    /// The rules, each with its `EmailProblem`: exactly one `@`; a local part of 1–64 bytes made of letters
    /// (any script), digits and ``!#$%&'*+-/=?^_`{|}~.``, without a leading, trailing or doubled dot; at most
    /// 254 bytes in all; a domain of at least two dot-separated labels, each 1–63 letters (any script, kept
    /// as written, not Punycode), digits and inner hyphens, with no trailing dot and a top-level label that is
    /// not all digits (so IP addresses are refused: no prospect's mailbox lives on one).
    public static func validate(_ text: String) -> Result<String, EmailProblem> {
        let fast = LatinText.withBytes(of: text, below: 0x80) { bytes in
            let range = LatinText.trimmed(bytes)
            return validateASCII(
                UnsafeBufferPointer(rebasing: bytes[range]), address: LatinText.string(text, bytes, range))
        }
        return fast ?? generalValidate(text)
    }

    /// `validate` without the ASCII shortcut.
    static func generalValidate(_ text: String) -> Result<String, EmailProblem> {
        let address = ScalarText.trimmed(text).precomposedStringWithCanonicalMapping
        let scalars = Array(address.unicodeScalars)
        guard !scalars.isEmpty else { return .failure(.empty) }

        let atPositions = scalars.indices.filter { scalars[$0] == "@" }
        guard let at = atPositions.first else { return .failure(.missingAt) }
        guard atPositions.count == 1 else { return .failure(.multipleAt) }

        let bytes = address.utf8.count
        guard bytes <= maxAddressBytes else { return .failure(.addressTooLong(bytes: bytes)) }

        let local = scalars[..<at]
        let domain = scalars[(at + 1)...]
        if let problem = localPartProblem(local) ?? domainProblem(domain) {
            return .failure(problem)
        }
        return .success(address)
    }

    /// `validate` for an address already trimmed, all ASCII (so already NFC): the same checks in the same
    /// order, on bytes. `address` is the same text as a string, returned on success.
    static func validateASCII(_ bytes: UnsafeBufferPointer<UInt8>, address: String) -> Result<String, EmailProblem> {
        guard !bytes.isEmpty else { return .failure(.empty) }
        var at = -1
        for index in bytes.indices where bytes[index] == UInt8(ascii: "@") {
            guard at < 0 else { return .failure(.multipleAt) }
            at = index
        }
        guard at >= 0 else { return .failure(.missingAt) }
        guard bytes.count <= maxAddressBytes else { return .failure(.addressTooLong(bytes: bytes.count)) }
        if let problem =
            asciiLocalPartProblem(UnsafeBufferPointer(rebasing: bytes[..<at]))
            ?? asciiDomainProblem(UnsafeBufferPointer(rebasing: bytes[(at + 1)...]))
        {
            return .failure(problem)
        }
        return .success(address)
    }

    /// `localPartProblem` for ASCII bytes.
    private static func asciiLocalPartProblem(_ local: UnsafeBufferPointer<UInt8>) -> EmailProblem? {
        guard let first = local.first, let last = local.last else { return .emptyLocalPart }
        guard local.count <= maxLocalPartBytes else { return .localPartTooLong(bytes: local.count) }
        for byte in local where !isASCIILetterOrDigit(byte) && !isLocalSymbol(byte) {
            return .invalidLocalCharacter(UInt32(byte))
        }
        let dot = UInt8(ascii: ".")
        if first == dot || last == dot || zip(local, local.dropFirst()).contains(where: { $0 == dot && $1 == dot }) {
            return .badDots
        }
        return nil
    }

    /// `domainProblem` for ASCII bytes.
    private static func asciiDomainProblem(_ domain: UnsafeBufferPointer<UInt8>) -> EmailProblem? {
        guard !domain.isEmpty else { return .emptyDomain }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count > 1 else { return .domainWithoutDot }
        let hyphen = UInt8(ascii: "-")
        for label in labels {
            guard let first = label.first, let last = label.last else { return .emptyDomainLabel }
            guard label.count <= maxLabelLength else { return .domainLabelTooLong(length: label.count) }
            let valid =
                first != hyphen && last != hyphen && label.allSatisfy { isASCIILetterOrDigit($0) || $0 == hyphen }
            if !valid { return .invalidDomainLabel(String(decoding: label, as: UTF8.self)) }
        }
        if let tld = labels.last, tld.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return .numericTopLevelDomain(String(decoding: tld, as: UTF8.self))
        }
        return nil
    }

    /// An ASCII letter or digit: what `isLetterOrDigit` accepts below U+0080.
    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        let folded = byte | 0x20
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(folded)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// One of ``!#$%&'*+-/=?^_`{|}~.``, the `localSymbols`.
    private static func isLocalSymbol(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "/"),
            UInt8(ascii: "="), UInt8(ascii: "?"), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"), UInt8(ascii: "~"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    /// What is wrong with the part before the `@`, if anything.
    private static func localPartProblem(_ local: ArraySlice<Unicode.Scalar>) -> EmailProblem? {
        guard let first = local.first, let last = local.last else { return .emptyLocalPart }
        let bytes = ScalarText.string(local).utf8.count
        guard bytes <= maxLocalPartBytes else { return .localPartTooLong(bytes: bytes) }
        for (offset, scalar) in local.enumerated() {
            let allowed =
                isLetterOrDigit(scalar) || localSymbols.contains(scalar) || (offset > 0 && isMark(scalar))
            if !allowed { return .invalidLocalCharacter(scalar.value) }
        }
        if first == "." || last == "." || zip(local, local.dropFirst()).contains(where: { $0 == "." && $1 == "." }) {
            return .badDots
        }
        return nil
    }

    /// What is wrong with the part after the `@`, if anything.
    private static func domainProblem(_ domain: ArraySlice<Unicode.Scalar>) -> EmailProblem? {
        guard !domain.isEmpty else { return .emptyDomain }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count > 1 else { return .domainWithoutDot }
        for label in labels {
            guard let first = label.first, let last = label.last else { return .emptyDomainLabel }
            guard label.count <= maxLabelLength else { return .domainLabelTooLong(length: label.count) }
            let valid =
                first != "-" && last != "-" && !isMark(first)
                && label.allSatisfy { isLetterOrDigit($0) || isMark($0) || $0 == "-" }
            if !valid { return .invalidDomainLabel(ScalarText.string(label)) }
        }
        if let tld = labels.last, tld.allSatisfy({ ("0"..."9").contains($0) }) {
            return .numericTopLevelDomain(ScalarText.string(tld))
        }
        return nil
    }

    /// A letter of any script, or a decimal digit of any script.
    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
            true
        default:
            false
        }
    }

    /// A visible combining mark: part of the letter before it (Devanagari vowel signs, accents that have no
    /// precomposed form). Invisible marks (variation selectors, the combining grapheme joiner) are not.
    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: !scalar.properties.isDefaultIgnorableCodePoint
        default: false
        }
    }
}
