import Foundation
import ProspectsExchange
import Testing

/// Attendee lists: columns found by their names, by Eventbrite's profile or by `--columns`; bad rows refused with
/// their line, the rest read.
@Suite struct RosterReaderTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func rows(
        _ text: String, profile: RosterColumns.Profile? = nil, columns: [RosterColumns.Field: String] = [:]
    ) throws -> [Result<RosterRow, RosterError>] {
        let reader = try RosterReader(
            path: try folder.write("roster.csv", Array(text.utf8)), profile: profile, columns: columns)
        return try Self.readAll(reader)
    }

    /// Every row, refused ones as errors, reading on past them as a caller would.
    static func readAll(_ reader: RosterReader) throws(RosterError) -> [Result<RosterRow, RosterError>] {
        var rows: [Result<RosterRow, RosterError>] = []
        while true {
            do {
                guard let row = try reader.next() else { return rows }
                rows.append(.success(row))
            } catch {
                guard case .refused = error else { throw error }
                rows.append(.failure(error))
            }
        }
    }

    static let eventbrite = """
        Order #,Order Date,First Name,Last Name,Email,Quantity,Ticket Type,Attendee #,Barcode #,Company,Job Title,\
        Work Phone
        1001,2026-02-01,Ada,Lovelace,ada@example.com,1,General,2001,0814847311126137001,Engines Ltd,CTO,+44 20 7946 0000
        1001,2026-02-01,Bob,Byte,,1,General,2002,0814847311126137002,Acme,,
        1002,2026-02-02,,,nobody@example.com,1,General,2003,0814847311126137003,,,
        1003,2026-02-03,Cy,Other,not-an-address,1,General,2004,0814847311126137004,,,
        1004,2026-02-03,Dee,Dot,dee@example.com,1,General,2005,,,,

        """

    @Test func eventbritesReportIsReadByItsBarcodeAndBadRowsAreRefusedOneByOne() throws {
        let rows = try rows(Self.eventbrite, profile: .eventbrite)
        #expect(rows.count == 5)
        let ada = try rows[0].get()
        #expect(ada.attendeeID == "0814847311126137001" && ada.name == "Ada Lovelace" && ada.line == 2)
        #expect(ada.email == "ada@example.com" && ada.organization == "Engines Ltd" && ada.title == "CTO")
        #expect(ada.phone == "+44 20 7946 0000")
        let bob = try rows[1].get()
        #expect(bob.name == "Bob Byte" && bob.email == nil && bob.title == nil)
        #expect(rows[2] == .failure(.refused(line: 4, reason: "attendee 0814847311126137003 has no name")))
        guard case .failure(.refused(5, let reason)) = rows[3] else {
            Issue.record("an address that is none is refused")
            return
        }
        #expect(reason.contains("not-an-address") && reason.contains("no @"))
        #expect(rows[4] == .failure(.refused(line: 6, reason: "no attendee ID")))
        // Without the profile the barcode is found by its name too: it comes before "Attendee #" and "Order #".
        #expect(try self.rows(Self.eventbrite).compactMap { try? $0.get().attendeeID }.first == "0814847311126137001")
    }

    @Test func columnsAreFoundByTheirUsualNamesOrAsGiven() throws {
        let found = try rows("Ticket Number;Full Name;E-mail;Organization\nT-1;Grace Hopper;grace@example.com;Navy\n")
        #expect(try found.first?.get().attendeeID == "T-1")
        #expect(try found.first?.get().name == "Grace Hopper" && found.first?.get().organization == "Navy")
        let given = try rows(
            "Badge Code,Who,Mail\nB-7,Alan Turing,alan@example.com\n",
            columns: [.id: "Badge Code", .name: "who", .email: "Mail"])
        #expect(try given.first?.get().attendeeID == "B-7" && given.first?.get().email == "alan@example.com")
        #expect(try RosterColumns.parse("id=Badge Code, email = Mail") == [.id: "Badge Code", .email: "Mail"])
        #expect(throws: RosterError.invalidColumns("idx=Badge")) { try RosterColumns.parse("idx=Badge") }
    }

    @Test func aListWithoutAnIDOrANameColumnIsRefusedWhole() throws {
        let path = try folder.write("people.csv", Array("Name,Email\nAda,ada@example.com\n".utf8))
        #expect {
            _ = try RosterReader(path: path)
        } throws: { error in
            guard case RosterError.missingColumn(_, .id, let found) = error else { return false }
            return found == ["Name", "Email"]
        }
        let nameless = try folder.write("ids.csv", Array("ID,Email\n1,ada@example.com\n".utf8))
        #expect {
            _ = try RosterReader(path: nameless)
        } throws: { error in
            if case RosterError.missingColumn(_, .name, _) = error { true } else { false }
        }
        let absent = try folder.write("other.csv", Array("Badge,Name\n1,Ada\n".utf8))
        #expect {
            _ = try RosterReader(path: absent, columns: [.id: "Ticket"])
        } throws: { error in
            if case RosterError.missingColumn("Ticket", .id, _) = error { true } else { false }
        }
    }
}
