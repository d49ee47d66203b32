import ProspectsExchange
import Testing

@Suite struct CSVFieldTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("Zoë Müller", "Zoë Müller"),
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+1 555", "'+1 555"),
        // A phone number holds nothing a spreadsheet could run, and stays as it is; a formula still gets the guard.
        ("+34 600 123 456", "+34 600 123 456"),
        ("+1 (555) 010-9999", "+1 (555) 010-9999"),
        ("+44.20.7946.0000", "+44.20.7946.0000"),
        ("+1+2345678", "'+1+2345678"),
        ("+1234567A1", "'+1234567A1"),
        ("+123 456 7-", "'+123 456 7-"),
        ("-600 123 456", "'-600 123 456"),
        ("+SUM(1234567)", "'+SUM(1234567)"),
        ("=600123456", "'=600123456"),
        ("-x", "'-x"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "\"'\rx\""),
        ("=1,2", "\"'=1,2\""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("crlf\r\nbreak", "\"crlf\r\nbreak\""),
        ("a=b", "a=b"),
        (" =x", " =x"),
        ("'=x", "''=x"),
        ("''x", "'''x"),
        ("'x'", "'x'"),
        ("'t Hooft", "'t Hooft"),
        ("'", "'"),
    ])
    func escapes(_ value: String, _ expected: String) {
        #expect(CSVField.escape(value) == expected)
    }
}
