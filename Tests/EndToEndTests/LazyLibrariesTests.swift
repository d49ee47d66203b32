import Foundation
import ProspectsTestSupport
import Testing

/// libpq and libmicrohttpd are loaded on first use (Sources/CPostgres, Sources/CMicroHTTPD): without them the command
/// that needs one says which library it could not load, and the others go on working. An empty file under the
/// library's soname, first on `LD_LIBRARY_PATH`, is a library the dynamic loader cannot load.
@Suite struct LazyLibrariesTests {
    /// A folder holding an unloadable libpq.so.5 and libmicrohttpd.so.12.
    func brokenLibraries(in folder: TemporaryDirectory) throws -> [String: String?] {
        let libraries = folder.url.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: false)
        for soname in ["libpq.so.5", "libmicrohttpd.so.12"] {
            try Data().write(to: libraries.appendingPathComponent(soname))
        }
        return ["LD_LIBRARY_PATH": libraries.path]
    }

    @Test func withoutLibpqAPostgresStoreIsUnavailableAndSaysWhy() throws {
        let folder = try TemporaryDirectory()
        // Port 1: nothing listens there, so with libpq the connection is refused instead.
        let store = "postgresql://prospects:hunter2hunter2@127.0.0.1:1/prospects"
        let broken = try ProspectsProcess.run(["list", "--store", store], environment: brokenLibraries(in: folder))
        #expect(broken.status == 69)
        #expect(broken.stderr.contains("libpq.so.5 could not be loaded"))
        #expect(!broken.stderr.contains("hunter2"))

        let working = try ProspectsProcess.run(["list", "--store", store])
        #expect(working.status == 69)
        #expect(!working.stderr.contains("could not be loaded"))
    }

    @Test func withoutLibpqAnSQLiteStoreStillWorks() throws {
        let folder = try TemporaryDirectory()
        let environment = try brokenLibraries(in: folder)
        let list = folder.file("list.csv")
        try Data("name,email\nAda Lovelace,ada@example.com\n".utf8).write(to: URL(fileURLWithPath: list))
        let store = folder.file("prospects.sqlite")
        let imported = try ProspectsProcess.run(["import", list, "--store", store], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try ProspectsProcess.run(["list", "--store", store], environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.output.contains("ada@example.com"))
    }

    @Test func withoutLibmicrohttpdServeSaysWhy() throws {
        let folder = try TemporaryDirectory()
        let result = try ProspectsProcess.run(
            ["serve", "--store", folder.file("prospects.sqlite"), "--port", "0"],
            environment: brokenLibraries(in: folder))
        #expect(result.status == 74)
        #expect(result.stderr.contains("libmicrohttpd.so.12 could not be loaded"))
    }
}
