import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

/// `:name` parameters: bound by name in SQLite, renumbered once for PostgreSQL.
@Suite struct NamedParameterTests {
    enum Value: Int, SQLParameter {
        case first, second, unused
    }

    @Test func placeholdersAreNumberedInOrderOfFirstUse() {
        let sql = NumberedSQL<Value>("SELECT :second, :first, :second::text")
        #expect(sql.text == "SELECT $1, $2, $1::text")
        #expect(sql.offsets == [1, 0])
        var values = SQLArguments<Value>()
        values[.first] = .integer(1)
        values[.second] = .text("two")
        values[.unused] = .integer(3)
        // A parameter the text does not use is not sent: PostgreSQL could not type it.
        #expect(sql.values(values) == [.text("two"), .integer(1)])
    }

    @Test func castsQuotesAndCommentsAreLeftAlone() {
        let sql = NumberedSQL<Value>(
            """
            SELECT ':first', ":first", 'it''s :second', x::text, :first -- :second
            """)
        #expect(sql.text == #"SELECT ':first', ":first", 'it''s :second', x::text, $1 -- :second"#)
        #expect(sql.offsets == [0])
    }

    @Test func theUpsertsSendNoTwelfthValueWithoutAnID() {
        #expect(!ProspectSQL.insertProspect(withID: false).contains(":id"))
        #expect(ProspectSQL.insertProspect(withID: true).contains(":id"))
        #expect(!ProspectSQL.insertProspect(withID: true).contains("$"))
        // Every column of a new row is given once.
        let columns = ProspectSQL.newProspectColumns(withID: true).split(separator: ", ")
        #expect(Set(columns).count == columns.count)
        #expect(columns.count == ProspectSQL.newProspectValues(withID: true).split(separator: ", ").count)
    }

    @Test func sqliteBindsByName() throws {
        let folder = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("db.sqlite"))
        var values = SQLArguments<Value>()
        values[.first] = .integer(7)
        values[.second] = .text("seven")
        let statement = try database.statement("SELECT :second, :first, :second", Value.self)
        let rows = try statement.query(values.values) { row throws(StoreError) in
            [try row.text(0), String(try row.int64(1)), try row.text(2)]
        }
        #expect(rows == [["seven", "7", "seven"]])
    }

    @Test func sqliteRefusesANameNoValueHas() throws {
        let folder = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("db.sqlite"))
        #expect(throws: StoreError.self) { try database.statement("SELECT :third", Value.self) }
    }
}
