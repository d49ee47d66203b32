import Foundation
import ProspectsTestSupport
import Testing

/// The front-ends call the application layer: no file of ProspectsCLI or ProspectsWeb imports the store, a C bridge
/// or a module that is not the package's or the toolchain's, and Package.swift gives them none of those either.
@Suite struct FrontEndImportTests {
    static let frontEnds = ["ProspectsCLI", "ProspectsWeb"]
    /// Below the service, and not for a front-end: what the service speaks for them.
    static let below: Set<String> = [
        "ProspectStore", "CCrypto", "CSQLite", "CPostgres", "CZBar", "CPNG", "CPNGFast", "CTurboJPEG", "CHeif", "CWebP",
        "CQREncode", "CMicroHTTPD", "CLazyLibrary",
    ]

    @Test(arguments: frontEnds) func aFrontEndImportsNothingBelowTheService(module: String) throws {
        let folder = ArchitectureDocumentTests.root.appendingPathComponent("Sources/\(module)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10, "\(module)'s sources were found")
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let match = line.firstMatch(of: /^(?:@[A-Za-z]+(?:\([^)]*\))? )*import ([A-Za-z]+)/) else {
                    continue
                }
                #expect(!Self.below.contains(String(match.1)), "\(module)/\(file): \(line)")
            }
        }
        let dependencies = try #require(ArchitectureDocumentTests.packageTargets()[module]).dependencies
        #expect(Set(dependencies).isDisjoint(with: Self.below), "\(module) in Package.swift: \(dependencies)")
    }
}
