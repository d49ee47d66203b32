import Foundation
import ProspectsCore
import Testing

@Suite struct EmailAddressTests {
    @Test(arguments: [
        "paul@example.com",
        "Paul.Hudson@Example.COM",
        "p@x.io",
        "first.last+tag@sub.domain.example.org",
        "!#$%&'*+-/=?^_`{|}~@example.com",
        "o'brien@example.ie",
        "user@bücher.example",  // IDN domain, kept in Unicode
        "用户@例子.广告",  // Chinese local part and domain
        "χρήστης@παράδειγμα.ελ",
        "δοκιμή@xn--bcher-kva.example",  // Punycode labels are ordinary ASCII labels
        "user@a-b.c-d.example",
        "user@123.example",  // digits in a label are fine, only the last may not be all digits
        "user@example.co1",
        "संपर्क@उदाहरण.भारत",  // Devanagari, with vowel signs (combining marks)
    ])
    func accepted(address: String) {
        #expect(EmailAddress.validate(address) == .success(address))
    }

    @Test func theResultIsTrimmedAndInNFC() {
        #expect(EmailAddress.validate("  paul@example.com\r\n") == .success("paul@example.com"))
        let decomposed = "user@bu\u{0308}cher.example"
        #expect(EmailAddress.validate(decomposed) == .success("user@bücher.example"))
        #expect(EmailAddress.validate(decomposed) == .success("user@b\u{00FC}cher.example"))
    }

    @Test(arguments: [
        ("", EmailProblem.empty),
        ("   ", .empty),
        ("paul.example.com", .missingAt),
        ("paul@@example.com", .multipleAt),
        ("a@b@example.com", .multipleAt),
        ("\"a@b\"@example.com", .multipleAt),  // quoted local parts are not supported
        ("@example.com", .emptyLocalPart),
        (".paul@example.com", .badDots),
        ("paul.@example.com", .badDots),
        ("pa..ul@example.com", .badDots),
        (".@example.com", .badDots),
        ("pa ul@example.com", .invalidLocalCharacter(0x20)),
        ("\"paul\"@example.com", .invalidLocalCharacter(0x22)),
        ("pa(ul)@example.com", .invalidLocalCharacter(0x28)),
        ("pa,ul@example.com", .invalidLocalCharacter(0x2C)),
        ("<paul@example.com>", .invalidLocalCharacter(0x3C)),
        ("pa\\ul@example.com", .invalidLocalCharacter(0x5C)),
        ("pa:ul@example.com", .invalidLocalCharacter(0x3A)),
        ("\u{0301}paul@example.com", .invalidLocalCharacter(0x301)),  // a mark with nothing to sit on
        ("pa\u{200B}ul@example.com", .invalidLocalCharacter(0x200B)),
        ("paul@", .emptyDomain),
        ("paul@localhost", .domainWithoutDot),
        ("paul@example.com.", .emptyDomainLabel),  // trailing dot
        ("paul@.example.com", .emptyDomainLabel),
        ("paul@example..com", .emptyDomainLabel),
        ("paul@-example.com", .invalidDomainLabel("-example")),
        ("paul@example-.com", .invalidDomainLabel("example-")),
        ("paul@exa_mple.com", .invalidDomainLabel("exa_mple")),
        ("paul@exa mple.com", .invalidDomainLabel("exa mple")),
        ("paul@[192.168.0.1]", .invalidDomainLabel("[192")),
        ("paul@example.com>", .invalidDomainLabel("com>")),
        ("paul@192.168.0.1", .numericTopLevelDomain("1")),
        ("paul@example.123", .numericTopLevelDomain("123")),
    ])
    func refused(address: String, problem: EmailProblem) {
        #expect(EmailAddress.validate(address) == .failure(problem))
    }

    @Test func theLocalPartMayHave64BytesButNot65() {
        let local64 = repeated("a", 64)
        #expect(EmailAddress.validate("\(local64)@example.com") == .success("\(local64)@example.com"))
        #expect(EmailAddress.validate("\(local64)a@example.com") == .failure(.localPartTooLong(bytes: 65)))
    }

    @Test func theLocalPartLimitCountsUTF8Bytes() {
        let local64 = repeated("é", 32)  // 32 scalars, 64 bytes
        #expect(EmailAddress.validate("\(local64)@example.com") == .success("\(local64)@example.com"))
        #expect(EmailAddress.validate("\(local64)e@example.com") == .failure(.localPartTooLong(bytes: 65)))
    }

    @Test func theAddressMayHave254BytesButNot255() {
        // 64 + 1 + 189 = 254: labels of 63, 63 and 61 letters with two dots.
        let domain189 = [repeated("a", 63), repeated("b", 63), repeated("c", 61)].joined(separator: ".")
        let address254 = "\(repeated("l", 64))@\(domain189)"
        #expect(address254.utf8.count == 254)
        #expect(EmailAddress.validate(address254) == .success(address254))
        let address255 = "\(repeated("l", 64))@\(domain189)c"
        #expect(EmailAddress.validate(address255) == .failure(.addressTooLong(bytes: 255)))
    }

    @Test func aDomainLabelMayHave63CharactersButNot64() {
        let label63 = repeated("a", 63)
        #expect(EmailAddress.validate("p@\(label63).com") == .success("p@\(label63).com"))
        #expect(EmailAddress.validate("p@\(repeated("a", 64)).com") == .failure(.domainLabelTooLong(length: 64)))
    }

    @Test func theProblemHasAKindAndAMessage() {
        let problem = EmailProblem.invalidLocalCharacter(0x202E)
        #expect(problem.kind == "invalidLocalCharacter")
        #expect(problem.message == "the part before the @ contains U+202E RIGHT-TO-LEFT OVERRIDE")
        #expect(EmailProblem.numericTopLevelDomain("1").kind == "numericTopLevelDomain")
        #expect(EmailProblem.emptyDomainLabel.message == "the domain has a leading, trailing or double dot")
    }

    /// `text` repeated `count` times.
    private func repeated(_ text: String, _ count: Int) -> String {
        String(repeating: text, count: count)
    }
}
