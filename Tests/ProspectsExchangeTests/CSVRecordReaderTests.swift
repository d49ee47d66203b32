import Foundation
import ProspectsExchange
import Testing

/// Every record of a reader, with malformed ones as errors, reading on past them as a caller would.
func readAll(_ reader: any ImportRecordReader) throws(ImportError) -> [Result<ImportRecord, ImportError>] {
    var results: [Result<ImportRecord, ImportError>] = []
    while true {
        do {
            guard let record = try reader.next() else { return results }
            results.append(.success(record))
        } catch .malformed(let line, let reason) {
            results.append(.failure(.malformed(line: line, reason: reason)))
        }
    }
}

@Suite struct CSVRecordReaderTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func records(_ text: String, maxRecordBytes: Int = 1 << 20) throws -> [Result<ImportRecord, ImportError>] {
        try records(Array(text.utf8), maxRecordBytes: maxRecordBytes)
    }

    func records(_ bytes: [UInt8], maxRecordBytes: Int = 1 << 20) throws -> [Result<ImportRecord, ImportError>] {
        let path = try folder.write("list.csv", bytes)
        return try readAll(CSVRecordReader(path: path, maxRecordBytes: maxRecordBytes))
    }

    @Test func readsSimpleRowsWithLineNumbers() throws {
        let results = try records("name,email\nAda,ada@example.com\nBob,bob@example.com\n")
        #expect(
            results == [
                .success(ImportRecord(name: "Ada", email: "ada@example.com", line: 2)),
                .success(ImportRecord(name: "Bob", email: "bob@example.com", line: 3)),
            ])
    }

    @Test func byteOrderMarkCRLFAndNoFinalLineEnd() throws {
        let results = try records([0xEF, 0xBB, 0xBF] + Array("Name,E-Mail\r\nAda,ada@example.com\r\nBob,b@x.io".utf8))
        #expect(
            results == [
                .success(ImportRecord(name: "Ada", email: "ada@example.com", line: 2)),
                .success(ImportRecord(name: "Bob", email: "b@x.io", line: 3)),
            ])
    }

    @Test func quotedFieldsSpanLinesAndDoubleQuotes() throws {
        let text =
            "name,email,organization\r\n\"Ada \"\"the\"\" Countess\",ada@example.com,\"Analytical\r\nEngines, Ltd\"\r\n"
            + "Bob,bob@example.com,\"\"\n"
        let results = try records(text)
        #expect(
            results == [
                .success(
                    ImportRecord(
                        name: "Ada \"the\" Countess", email: "ada@example.com",
                        organization: "Analytical\r\nEngines, Ltd", line: 2)),
                .success(ImportRecord(name: "Bob", email: "bob@example.com", line: 4)),
            ])
    }

    @Test func loneCRLineEndsAndBlankLines() throws {
        let results = try records("name,email\r\rAda,a@x.io\r\n\r\nBob,b@x.io\n\n")
        #expect(
            results == [
                .success(ImportRecord(name: "Ada", email: "a@x.io", line: 3)),
                .success(ImportRecord(name: "Bob", email: "b@x.io", line: 5)),
            ])
    }

    @Test func matchesColumnsByNameInAnyOrderAndCase() throws {
        let text =
            "Notes,E-mail Address,Company,PHONE,Full Name,Contacted\n"
            + "x,ada@example.com,ACME,+1 555,Ada Lovelace,Yes\n" + "y,bob@example.com,,,Bob,0\n"
            + "z,cy@example.com, ,  ,Cy,\n"
        let results = try records(text)
        func noted(_ record: ImportRecord, _ note: String) -> Result<ImportRecord, ImportError> {
            var record = record
            record.plainNotes = [note]
            return .success(record)
        }
        #expect(
            results == [
                noted(
                    ImportRecord(
                        name: "Ada Lovelace", email: "ada@example.com", phone: "+1 555", organization: "ACME",
                        contacted: true, line: 2), "x"),
                noted(ImportRecord(name: "Bob", email: "bob@example.com", contacted: false, line: 3), "y"),
                noted(ImportRecord(name: "Cy", email: "cy@example.com", line: 4), "z"),
            ])
    }

    @Test func combinesFirstAndLastNameColumns() throws {
        let text = "First Name,Last Name,Email\nAda,Lovelace,ada@example.com\n,Hopper,grace@example.com\nCher,,c@x.io\n"
        let names = try records(text).map { try $0.get().name }
        #expect(names == ["Ada Lovelace", "Hopper", "Cher"])
        let given = try records("given_name,email\nAda,a@x.io\n").map { try $0.get().name }
        #expect(given == ["Ada"])
    }

    /// The column names CRMs and address books export (HubSpot, Salesforce, Outlook).
    @Test func crmColumnNames() throws {
        let text = "First Name,Last Name,E-mail Address,Company Name,Business Phone\nAda,Lovelace,a@x.io,ACME,+1 555\n"
        let record = try #require(try records(text).first?.get())
        #expect(
            [record.name, record.email, record.organization, record.phone] == [
                "Ada Lovelace", "a@x.io", "ACME", "+1 555",
            ])
        let account = try records("Name,Email,Account Name\nAda,a@x.io,ACME\n").first?.get()
        #expect(account?.organization == "ACME")
        // Outlook writes Business Phone before Mobile Phone: a row takes the mobile, or else whichever is filled.
        let outlook =
            "Name,E-mail Address,Business Phone,Mobile Phone\nA,a@x.io,,+1 111\nB,b@x.io,+1 222,\nC,c@x.io,+1 333,+1 444\n"
        #expect(try records(outlook).map { try $0.get().phone } == ["+1 111", "+1 222", "+1 444"])
    }

    @Test func missingColumns() throws {
        let noName = try folder.write("a.csv", "email,phone\na@x.io,1\n")
        #expect(throws: ImportError.missingColumn("name", found: ["email", "phone"])) {
            try CSVRecordReader(path: noName)
        }
        let noEmail = try folder.write("b.csv", "name,phone\nAda,1\n")
        #expect(throws: ImportError.missingColumn("email", found: ["name", "phone"])) {
            try CSVRecordReader(path: noEmail)
        }
        let empty = try folder.write("c.csv", "")
        #expect(throws: ImportError.malformed(line: 1, reason: "the file is empty; a header row is required")) {
            try CSVRecordReader(path: empty)
        }
        #expect(ImportError.missingColumn("email").message.contains("e-mail"))
        // No header at all: the message shows what the first line holds, and what it should be.
        let noHeader = try folder.write("d.csv", "Ada,a@x.io\n")
        #expect {
            try CSVRecordReader(path: noHeader)
        } throws: { error in
            (error as? ImportError)?.message.hasSuffix(
                #"it reads "Ada", "a@x.io" — the first line must name the columns"#)
                == true
        }
    }

    /// Files of another kind are named as such, not reported as a header that lacks a column.
    @Test func jsonLinesOrUTF16GivenAsCSVAreSaidToBeSo() throws {
        let json = try folder.write("a.csv", #"{"name":"Ada","email":"a@x.io"}"# + "\n")
        #expect(throws: ImportError.wrongFormat("the file looks like JSON Lines, not CSV: use --format json")) {
            try CSVRecordReader(path: json)
        }
        let utf16 = try folder.write(
            "b.csv", Array("name,email\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        #expect(throws: ImportError.wrongFormat("the file is UTF-16 (or binary), not UTF-8 text: save it as CSV UTF-8"))
        {
            try CSVRecordReader(path: utf16)
        }
    }

    /// A spreadsheet saved where the comma is the decimal mark separates with `;`; a TSV file with tabs.
    @Test func semicolonsOrTabsSeparateWhenTheHeaderHasNoComma() throws {
        #expect(
            try records("\u{FEFF}E-mail;Full name\r\na@x.io;\"Hudson; Paul\"\r\n") == [
                .success(ImportRecord(name: "Hudson; Paul", email: "a@x.io", line: 2))
            ])
        #expect(
            try records("name\temail\nAda\ta@x.io\n") == [.success(ImportRecord(name: "Ada", email: "a@x.io", line: 2))]
        )
        // Excel's `sep=;` line names the separator and is no header; blank lines before the header are skipped.
        #expect(
            try records("sep=;\r\nname;email\r\nAda;a@x.io\r\n") == [
                .success(ImportRecord(name: "Ada", email: "a@x.io", line: 3))
            ])
        #expect(
            try records("\n\nname;email\nAda;a@x.io\n") == [
                .success(ImportRecord(name: "Ada", email: "a@x.io", line: 4))
            ])
        // A comma in the header keeps the comma, whatever else the lines hold.
        #expect(
            try records("name,email\nAda;x,a@x.io\n") == [
                .success(ImportRecord(name: "Ada;x", email: "a@x.io", line: 2))
            ])
    }

    @Test func unreadableFiles() {
        #expect(throws: ImportError.unreadable(reason: "No such file or directory")) {
            try CSVRecordReader(path: folder.path("absent.csv"))
        }
        #expect(throws: ImportError.unreadable(reason: "is a directory")) { try CSVRecordReader(path: folder.url.path) }
    }

    @Test func unterminatedQuoteAtEndOfFile() throws {
        let results = try records("name,email\nAda,a@x.io\n\"Bob,b@x.io\nCy,c@x.io\n")
        try #require(results.count == 2)
        #expect(results[0] == .success(ImportRecord(name: "Ada", email: "a@x.io", line: 2)))
        #expect(
            results[1]
                == .failure(
                    .malformed(
                        line: 3,
                        reason: "a quote opened on this line is never closed: every line after it, to the end of the "
                            + "file, was read into this one field and none was imported; close the quote and import "
                            + "again")))
        // A quote opened on the last line swallows nothing, and says only that.
        let last = try records("name,email\nAda,a@x.io\n\"Bob,b@x.io\n")
        #expect(
            last.last
                == .failure(.malformed(line: 3, reason: "a quoted field is not closed before the end of the file")))
    }

    /// Each bad record costs itself only. Missing cells at the end are empty and rows of empty cells are skipped,
    /// as spreadsheets write them; an optional cell that cannot be read is left out, and the record kept.
    @Test func malformedRecordsAreReportedAndSkipped() throws {
        let bytes =
            Array("name,email,contacted\nAda,a@x.io,yes\nBob,b@x.io\n".utf8) + [0x42, 0xFF, 0x2C]
            + Array("b@x.io,no\n\"Cy\"x,c@x.io,no\nDee,d@x.io,maybe\nEve,e@x.io,1\n,, \nFay,f@x.io,no,extra\n".utf8)
            + Array("Gus,g@x.io,n,,\n".utf8)
        let results = try records(bytes)
        #expect(
            results == [
                .success(ImportRecord(name: "Ada", email: "a@x.io", contacted: true, line: 2)),
                .success(ImportRecord(name: "Bob", email: "b@x.io", line: 3)),
                .failure(
                    .malformed(line: 4, reason: "the \"name\" field is not valid UTF-8 (save the file as CSV UTF-8)")),
                .failure(.malformed(line: 5, reason: "text follows a closing quote")),
                .success(
                    {
                        var dee = ImportRecord(name: "Dee", email: "d@x.io", line: 6)
                        dee.ignored = [#""contacted" "maybe" is not yes or no"#]
                        return dee
                    }()),
                .success(ImportRecord(name: "Eve", email: "e@x.io", contacted: true, line: 7)),
                .failure(
                    .malformed(line: 9, reason: "the record has 4 cells, the header 3 (a comma that is not in quotes?)")
                ),
                .success(ImportRecord(name: "Gus", email: "g@x.io", contacted: false, line: 10)),
            ])
    }

    /// Dates as spreadsheets and other programs write them; what is no date (or no real day) is left out.
    @Test func datesInTheFormsPeopleWriteThem() throws {
        let text = """
            name,email,createdAt,remindAt
            A,a@x.io,2024-01-31T12:00:00.250Z,2024-02-01
            B,b@x.io,20240131T120000Z,2024-02-01 14:30
            C,c@x.io,2024-01-31 13:00:00+01:00,call next week
            D,d@x.io,2024-02-30T09:00:00Z,

            """
        let results = try records(text).map { try $0.get() }
        let noon = try #require(Timestamp.parse("2024-01-31T12:00:00Z"))
        #expect(results.map(\.createdAt) == [noon.addingTimeInterval(0.25), noon, noon, nil])
        #expect(results[0].remindAt == Timestamp.parse("2024-02-01 09:00"), "a day alone is 09:00 local")
        #expect(results[1].remindAt == Timestamp.parse("2024-02-01T14:30"))
        #expect(results[2].ignored == [#""remindAt" "call next week" is not a date"#])
        #expect(results[3].ignored == [#""createdAt" "2024-02-30T09:00:00Z" is not a date"#])
    }

    /// A record over the limit is skipped whole, to its real end: lines inside a long quoted field (here one that
    /// looks like a contact) are never read as rows of their own.
    @Test func oversizedRecordIsSkippedToItsEnd() throws {
        let notes = String(repeating: String(repeating: "x", count: 100) + "\n", count: 20) + "Mallory,m@evil.example\n"
        let text = "name,email,notes\nAnn,a@x.io,\"\(notes)end \"\"quoted\"\" \"\nBob,b@x.io,ok\n"
        let results = try records(text, maxRecordBytes: 1000)
        try #require(results.count == 2, "\(results)")
        guard case .failure(.malformed(let line, let reason)) = results[0] else {
            Issue.record("expected a malformed record, got \(results[0])")
            return
        }
        #expect(line == 2)
        #expect(reason == "the record (lines 2–23) is longer than 1000 bytes; skipped")
        var bob = ImportRecord(name: "Bob", email: "b@x.io", line: 24)
        bob.plainNotes = ["ok"]
        #expect(results[1] == .success(bob))
    }

    /// An unclosed quote in a long file swallows the rest of it, as in a short one, and the message says which
    /// lines were lost rather than resuming somewhere inside them.
    @Test func anUnclosedQuoteOverTheLimitNamesTheLinesItSwallowed() throws {
        let rows = (0..<100).map { "P\($0),p\($0)@x.io\n" }.joined()
        let results = try records("name,email\nAnn,a@x.io\n\"Bob,b@x.io\n\(rows)", maxRecordBytes: 1000)
        try #require(results.count == 2, "\(results)")
        #expect(results[0] == .success(ImportRecord(name: "Ann", email: "a@x.io", line: 2)))
        guard case .failure(.malformed(let line, let reason)) = results[1] else {
            Issue.record("expected a malformed record, got \(results[1])")
            return
        }
        #expect(line == 3)
        #expect(reason.hasPrefix("a quote opened on this line is never closed: lines 3–103, to the end of the file"))
    }

    @Test func stripsOnlyOurFormulaGuard() throws {
        let text = "name,email,phone,organization\n'=SUM(A1),a@x.io,'+1 555,'@cmd\n\"'\rx\",b@x.io,'-1,'plain\n"
        let results = try records(text).map { try $0.get() }
        #expect(results.map(\.name) == ["=SUM(A1)", "\rx"])
        #expect(results.map(\.phone) == ["+1 555", "-1"])
        #expect(results.map(\.organization) == ["@cmd", "'plain"])
    }

    @Test func fieldsAcrossBufferBoundaries() throws {
        // Rows longer than the 64 KiB buffer, with quotes and CRLF falling on both sides of refills.
        var text = "name,email,organization\r\n"
        var expected: [ImportRecord] = []
        for index in 0..<40 {
            let org = String(repeating: "o\"", count: 1000 + index * 97) + "\r\nend"
            text += "Name \(index),n\(index)@x.io,\(CSVField.escape(org))\r\n"
            expected.append(ImportRecord(name: "Name \(index)", email: "n\(index)@x.io", organization: org, line: 0))
        }
        let results = try records(text).map { try $0.get() }
        #expect(results.count == expected.count)
        for (result, want) in zip(results, expected) {
            #expect(result.name == want.name)
            #expect(result.organization == want.organization)
        }
        #expect(results.map(\.line) == (0..<40).map { 2 + 2 * $0 })
    }
}
