import ProspectsCore
import Testing

/// Codes that are not contacts say what they are, without quoting secrets.
@Suite struct UnsupportedPayloadTests {
    @Test(arguments: [
        ("https://example.com/talks/2025?token=secret", "a URL (https://example.com/…)"),
        ("HTTP://Example.com", "a URL (http://Example.com)"),
        ("https://user:hunter2@example.com/", "a URL (https://example.com/…)"),
        ("ftp://files.example.com/a", "a link (ftp://files.example.com/…)"),
        ("WIFI:T:WPA;S:Conference;P:hunter2;;", "a Wi-Fi network code"),
        ("wifi:S:x;;", "a Wi-Fi network code"),
        ("otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP", "a one-time password setup code"),
        ("tel:+15550100", "a phone number"),
        ("SMSTO:+15550100:hello", "a text message"),
        ("geo:51.5,-0.12", "a map location"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nEND:VEVENT\nEND:VCALENDAR", "a calendar event"),
        ("MEBKM:TITLE:Swift;URL:https://swift.org;;", "a bookmark"),
        ("bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1", "a payment request"),
        ("hello world, this is a poster", #"text "hello world, this is a p…""#),
        ("Paul Hudson", #"text "Paul Hudson""#),
        ("line one\nline two\nline three", #"text "line one\nline two\nline t…""#),
        ("\u{1B}]0;pwned\u{7}", #"text "\u{1B}]0;pwned\u{7}""#),
    ])
    func summaries(payload: String, summary: String) {
        #expect(failure(payload) == .unsupportedPayload(summary: summary))
    }

    @Test func theMessageQuotesTheSummary() {
        #expect(failure("https://example.com")?.message == "not a contact code: a URL (https://example.com)")
        #expect(failure("https://example.com")?.kind == "unsupportedPayload")
    }

    @Test func aURLWithAnAddressIsStillAURL() {
        #expect(
            failure("https://example.com/?contact=paul@example.com")
                == .unsupportedPayload(summary: "a URL (https://example.com/…)"))
    }

    @Test func textThatLooksLikeAKeyIsNotMistakenForALink() {
        #expect(parse("Note: Paul\npaul@example.com") == ok("Note: Paul", "paul@example.com"))
    }
}
