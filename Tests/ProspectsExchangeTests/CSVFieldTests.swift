import ProspectsExchange
import Testing

@Suite struct CSVFieldTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("Zoë Müller", "Zoë Müller"),
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+1 555", "'+1 555"),
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
