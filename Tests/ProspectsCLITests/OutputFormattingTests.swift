import Foundation
import ProspectsCore
import ProspectsExchange
import Testing

@testable import ProspectsCLI

/// What people and programs read: aligned tables, JSON records, counts, and messages that nothing can smuggle
/// terminal control or a password through.
@Suite struct OutputFormattingTests {
    func table(_ rows: [[String]], sampleSize: Int = 1_000) -> [String] {
        let out = OutputStream(capturing: false)
        var table = TextTable([.init("ID"), .init("NAME", limit: 8), .init("EMAIL")], out: out, sampleSize: sampleSize)
        for row in rows { table.add(row) }
        table.finish()
        out.flush()
        return out.text.split(separator: "\n").map(String.init)
    }

    @Test func columnsAreAsWideAsTheirWidestCell() {
        #expect(
            table([["1", "Ada", "ada@example.org"], ["12", "Grace", "g@example.mil"]]) == [
                "ID  NAME   EMAIL",
                "1   Ada    ada@example.org",
                "12  Grace  g@example.mil",
            ])
    }

    @Test func aLimitedColumnCutsWithAnEllipsis() {
        #expect(
            table([["1", "Bartholomew Smith", "b@example.org"]]) == [
                "ID  NAME      EMAIL", "1   Barthol…  b@example.org",
            ])
    }

    @Test func wideCharactersTakeTwoColumnsAndMarksNone() {
        #expect(TextTable.displayWidth("李小龙") == 6)
        #expect(TextTable.displayWidth("e\u{301}") == 1)
        #expect(
            table([["1", "李小龙", "li@example.cn"], ["2", "Bo", "bo@example.org"]])[2] == "2   Bo      bo@example.org")
    }

    @Test func anEscapeIsCutWholeOrNotAtAll() {
        #expect(TextTable.cut("ab\\u{1B}cdef", to: 5) == "ab…")
        #expect(TextTable.cut("abcdef", to: 4) == "abc…")
        #expect(TextTable.cut("abc", to: 4) == "abc")
    }

    @Test func rowsAfterTheSampleKeepTheSampleWidths() {
        let lines = table([["1", "Al", "a@x.org"], ["2", "Bo", "b@x.org"], ["300", "Cy", "c@x.org"]], sampleSize: 2)
        #expect(lines == ["ID  NAME  EMAIL", "1   Al    a@x.org", "2   Bo    b@x.org", "300  Cy    c@x.org"])
    }

    @Test func jsonRecordsEscapeWhatTheyQuote() {
        let record = JSONRecords.fileError(path: "a\"b\n.png", .unreadableFile(reason: "gone"))
        #expect(
            record.rendered
                == #"{"file":"a\"b\n.png","error":{"kind":"unreadableFile","message":"cannot read the file: gone"}}"#)
        let prospect = JSONRecords.prospect(Prospect(name: "Zoë", email: "zoe@example.org", phone: "+1 555"))
        #expect(prospect.rendered == #"{"name":"Zoë","email":"zoe@example.org","phone":"+1 555"}"#)
    }

    @Test func countsAndCodesReadAsEnglish() {
        #expect(HumanText.count(1, "file") == "1 file")
        #expect(HumanText.count(2, "file") == "2 files")
        #expect(HumanText.count(0, "decoder process", plural: "decoder processes") == "0 decoder processes")
        #expect(HumanText.whichCode(1, of: 3) == " (code 2 of 3)")
        #expect(HumanText.whichCode(0, of: 1) == "")
        #expect(
            HumanText.prospect(Prospect(name: "Eve\u{202E}", email: "eve@example.org"))
                == "Eve\\u{202E} <eve@example.org>")
    }

    @Test func datesAreLocalTimeToTheMinute() {
        setenv("TZ", "UTC", 1)
        tzset()
        #expect(HumanText.date(Date(timeIntervalSince1970: 1_796_135_400)) == "2026-12-01 14:30 UTC")
    }

    @Test func messagesNeutralizeControlAndHidePasswords() {
        let console = Console.capturing()
        console.warn("bad \u{1B}[2J name at postgres://ada:secret@db/prospects: refused")
        #expect(console.err.text == "prospects: bad \\u{1B}[2J name at postgres://ada:***@db/prospects: refused\n")
    }

    @Test func aMessageFlushesTheDataBeforeIt() {
        let console = Console.capturing()
        console.out.line("data")
        #expect(console.out.text.isEmpty, "stdout is buffered")
        console.warn("note")
        #expect(console.out.text == "data\n")
    }
}
