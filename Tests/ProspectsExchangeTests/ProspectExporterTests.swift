import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import Testing

@Suite struct ProspectExporterTests {
    @Test func csvHeaderAndRowsUseCRLF() {
        let exporter = ProspectExporter(format: .csv)
        #expect(
            exporter.header()
                == "id,name,email,phone,organization,contacted,createdAt,lastSeenAt,scanCount,remindAt,title,familyName,"
                + "givenName,additionalNames,honorificPrefix,honorificSuffix,otherEmails,otherPhones,rating,tags,"
                + "notes\r\n")
        let row = exporter.record(Fixtures.stored(1, "Paul Hudson", "paul@example.com", contacted: true))
        #expect(
            row
                == "1,Paul Hudson,paul@example.com,,,true,2024-05-29T16:26:40.250Z,2024-05-30T16:26:40.500Z,2,,,,,,,,,,"
                + "none,,\r\n")
    }

    /// A time the store holds in whole milliseconds is written as that millisecond, though as a Double it sits just
    /// below (1764509236.744 is 1764509236.74399996…) and the formatter truncates.
    @Test func timesAreWrittenToTheMillisecondTheStoreHolds() {
        for milliseconds: Int64 in [1_764_509_236_744, 1_764_509_236_001, 1_764_509_236_999, 1_764_509_236_000] {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = ISO8601.string(date)
            #expect(text.hasSuffix(String(format: ".%03dZ", Int(milliseconds % 1000))), "\(text)")
            #expect(Timestamp.parse(text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } == milliseconds)
        }
    }

    @Test func csvRowGuardsAndQuotesEveryCell() {
        let row = ProspectExporter(format: .csv).record(Fixtures.awkward[5])
        #expect(row.hasPrefix("6,'=SUM(A1),formula@example.com,'-1,'@cmd,false,"))
        let quoted = ProspectExporter(format: .csv).record(Fixtures.awkward[6])
        #expect(quoted.hasPrefix("7,\"Quote \"\"Q\"\" Person\",quote@example.com,,\"Line one\nline two\",false,"))
    }

    @Test func jsonLineHasTheListKeysInOrder() throws {
        let exporter = ProspectExporter(format: .json)
        #expect(exporter.header() == "")
        let line = exporter.record(Fixtures.awkward[1])
        #expect(line.hasSuffix("}\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(
            line
                == #"{"id":2,"name":"Zoë Müller","email":"zoe@example.de","contacted":true,"createdAt":"2024-05-29T16:26:40.250Z","lastSeenAt":"2024-05-30T16:26:40.500Z","scanCount":3,"phone":null,"organization":null,"remindAt":"2024-05-30T16:26:40.500Z","source":"scans/2.png","title":null,"otherEmails":[],"otherPhones":[],"rating":"none","tags":[],"event":null,"collectedBy":null}"#
                + "\n")
        // Every awkward prospect is one line of valid JSON.
        for stored in Fixtures.awkward {
            let text = exporter.record(stored)
            #expect(text.dropLast().contains("\n") == false)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect(object?["name"] as? String == stored.prospect.name)
        }
    }

    @Test func vcardFormatHasNoHeader() {
        let exporter = ProspectExporter(format: .vcard)
        #expect(exporter.header() == "")
        #expect(exporter.record(Fixtures.awkward[0]).hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
    }
}
