import ProspectsExchange
import Testing

@Suite struct JSONLinesRecordReaderTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func records(_ text: String) throws -> [Result<ImportRecord, ImportError>] {
        try readAll(JSONLinesRecordReader(path: folder.write("list.jsonl", text)))
    }

    @Test func readsObjectsSkipsBlankLinesAndReportsBadOnes() throws {
        let text = """
            {"id":1,"name":"Ada","email":"a@x.io","contacted":true,"phone":null,"organization":"ACME","source":"x"}

            {"name":"Bob","emailAddress":"b@x.io","isContacted":false,"phone":"+1 555"}
            not json
            [1,2]
            {"name":"Cy"}
            {"name":7,"email":"c@x.io"}
            {"name":"Dee","email":"d@x.io","contacted":"yes"}
            {"name":"Gus","email":"g@x.io","contacted":"maybe"}
            \r
            {"name":"Eve","email":"e@x.io","organization":"  "}\r
            {"name":"Fay","email":"f@x.io"}
            """
        #expect(
            try records(text) == [
                .success(ImportRecord(name: "Ada", email: "a@x.io", organization: "ACME", contacted: true, line: 1)),
                .success(ImportRecord(name: "Bob", email: "b@x.io", phone: "+1 555", contacted: false, line: 3)),
                .failure(.malformed(line: 4, reason: "not valid JSON")),
                .failure(.malformed(line: 5, reason: "not a JSON object")),
                .failure(.malformed(line: 6, reason: "no \"email\"")),
                .failure(.malformed(line: 7, reason: "\"name\" is not a string")),
                .success(ImportRecord(name: "Dee", email: "d@x.io", contacted: true, line: 8)),
                .success(
                    {
                        var gus = ImportRecord(name: "Gus", email: "g@x.io", line: 9)
                        gus.ignored = [#""contacted" "maybe" is not true or false"#]
                        return gus
                    }()),
                .success(ImportRecord(name: "Eve", email: "e@x.io", line: 11)),
                .success(ImportRecord(name: "Fay", email: "f@x.io", line: 12)),
            ])
    }

    /// A value that cannot be read is quoted as the file wrote it, in JSON.
    @Test func anIgnoredValueIsQuotedAsJSON() throws {
        let text = #"{"name":"Hal","email":"h@x.io","organization":{"x":1},"remindAt":[true]}"#
        var hal = ImportRecord(name: "Hal", email: "h@x.io", line: 1)
        hal.ignored = [
            #""organization" {"x":1} is not text"#, #""remindAt" [true] is not a date"#,
        ]
        #expect(try records(text) == [.success(hal)])
    }

    /// A JSON array, pretty-printed or on one line, is refused whole: read line by line, some of its lines would
    /// pass for records and others not.
    @Test func aJSONArrayIsRefusedWhole() throws {
        for text in [
            "[\n {\"name\":\"Ann\",\"email\":\"a@x.io\"},\n {\"name\":\"Bob\",\"email\":\"b@x.io\"}\n]\n",
            "  [{\"name\":\"Ann\",\"email\":\"a@x.io\"}]",
        ] {
            #expect(
                throws: ImportError.wrongFormat(
                    "the file is a JSON array; import --format json reads JSON Lines, one object per line (jq -c '.[]' FILE "
                        + "turns an array into them)")
            ) { try self.records(text) }
        }
        // Minified, a long array is one line over the length limit: refused whole all the same.
        let contacts = (1...10).map { #"{"name":"N\#($0)","email":"n\#($0)@x.io"}"# }
        let path = try folder.write("array.json", "[" + contacts.joined(separator: ",") + "]")
        #expect(
            throws: ImportError.wrongFormat(
                "the file is a JSON array; import --format json reads JSON Lines, one object per line (jq -c '.[]' FILE "
                    + "turns an array into them)")
        ) { try JSONLinesRecordReader(path: path, maxLineBytes: 100) }
    }

    /// A CSV file given as JSON Lines is refused whole, as JSON Lines given as CSV is, instead of once per row. A
    /// first line that is no object and no CSV (a stray word) is still one bad record.
    @Test func aCSVFileIsRefusedWhole() throws {
        for text in ["name,email\nAnn,a@x.io\n", "\u{FEFF}Name;Email\nAnn;a@x.io\n", "name\temail\n"] {
            #expect(throws: ImportError.wrongFormat("the file looks like CSV, not JSON Lines: use --format csv")) {
                try self.records(text)
            }
        }
        let stray = try records("hello\n")
        #expect(stray.count == 1)
        if case .failure(.malformed(line: 1, _))? = stray.first {} else { Issue.record("\(stray)") }
    }

    /// Keys in any case, as CSV headers; numbers for a phone; a date in the forms `Timestamp` reads.
    @Test func keysInAnyCaseAndValuesAsSpreadsheetsWriteThem() throws {
        let text = #"{"Name":"Ann","EMAIL":"a@x.io","Phone":5551234,"IsContacted":true,"RemindAt":"2031-05-06"}"#
        var ann = ImportRecord(name: "Ann", email: "a@x.io", phone: "5551234", contacted: true, line: 1)
        ann.remindAt = Timestamp.parse("2031-05-06 09:00")
        #expect(try records(text) == [.success(ann)])
        // One key in several cases: ours if written, else the first in byte order, every time.
        for _ in 0..<5 {
            let exact = try records(#"{"name":"A","EMAIL":"b@x.io","Email":"c@x.io","email":"a@x.io"}"#)
            #expect(try exact.first?.get().email == "a@x.io")
            let other = try records(#"{"name":"A","Email":"c@x.io","EMAIL":"b@x.io"}"#)
            #expect(try other.first?.get().email == "b@x.io")
        }
    }

    @Test func byteOrderMarkAndEmptyFile() throws {
        let path = try folder.write("bom.jsonl", [0xEF, 0xBB, 0xBF] + Array(#"{"name":"Ada","email":"a@x.io"}"#.utf8))
        #expect(
            try readAll(JSONLinesRecordReader(path: path)) == [
                .success(ImportRecord(name: "Ada", email: "a@x.io", line: 1))
            ])
        #expect(try records("").isEmpty)
        #expect(try records("\n\n").isEmpty)
    }

    @Test func invalidUTF8IsMalformed() throws {
        let path = try folder.write(
            "bad.jsonl", Array(#"{"name":"A"#.utf8) + [0xFF] + Array(#"","email":"a@x.io"}"#.utf8) + [0x0A])
        #expect(
            try readAll(JSONLinesRecordReader(path: path)) == [.failure(.malformed(line: 1, reason: "not valid JSON"))])
    }

    @Test func overlongLineIsSkipped() throws {
        let long = #"{"name":""# + String(repeating: "x", count: 3000) + #"","email":"a@x.io"}"#
        let path = try folder.write("long.jsonl", long + "\n" + #"{"name":"Bob","email":"b@x.io"}"# + "\n")
        #expect(
            try readAll(JSONLinesRecordReader(path: path, maxLineBytes: 1000)) == [
                .failure(.malformed(line: 1, reason: "the line is longer than 1000 bytes")),
                .success(ImportRecord(name: "Bob", email: "b@x.io", line: 2)),
            ])
    }

    @Test func importFormatFromFileName() throws {
        #expect(ImportFormat(fileName: "list.CSV") == .csv)
        #expect(ImportFormat(fileName: "a.jsonl") == .json)
        #expect(ImportFormat(fileName: "a.ndjson") == .json)
        #expect(ImportFormat(fileName: "a.vcf") == .vcard)
        #expect(ImportFormat(fileName: "a.txt") == nil)
        let reader = try ImportFormat.json.reader(path: folder.write("x.jsonl", #"{"name":"A","email":"a@x.io"}"#))
        #expect(try reader.next()?.email == "a@x.io")
    }
}
