import Foundation
import ProspectsTestSupport
import Testing

/// docs/architecture.md describes what Package.swift declares: every module it lists exists, every module of the
/// package is listed, and each module's imports in the layer diagram are the dependencies Package.swift gives it.
@Suite struct ArchitectureDocumentTests {
    static let root = ProspectsProcess.sampleImages().deletingLastPathComponent()

    @Test func theModuleTableNamesEveryModuleAndNoOther() throws {
        let package = try Self.packageTargets()
        let document = try Self.document()
        let modules = package.filter { !$0.value.isTest }.map(\.key)
        // The table's first column: "| `A`, `B` | job | may import |".
        var listed: Set<String> = []
        for line in document.split(separator: "\n") where line.hasPrefix("| `") {
            let firstCell = line.dropFirst(2).prefix { $0 != "|" }
            for match in firstCell.matches(of: /`([A-Za-z]+)`/) { listed.insert(String(match.1)) }
        }
        #expect(Set(modules).subtracting(listed).sorted() == [], "modules Package.swift has and the table lacks")
        #expect(listed.subtracting(modules).sorted() == [], "modules the table lists and Package.swift lacks")
    }

    @Test func theLayerDiagramGivesEachModuleItsDependencies() throws {
        let package = try Self.packageTargets()
        let document = try Self.document()
        let section = try #require(document.firstRange(of: "## Modules and what they may import"))
        let block = document[section.upperBound...].split(separator: "```", maxSplits: 2)[1]
        var checked = 0
        for match in block.matches(of: /([A-Za-z]+) \(([^)]*)\)/) {
            guard let target = package[String(match.1)] else { continue }
            let items = match.2.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            // Only module names, or what needs no target: the list is exact, prose goes outside the parentheses.
            let names = items.filter { !["nothing", "Foundation only", "Glibc only"].contains($0) }
            #expect(Set(names) == Set(target.dependencies), "\(match.1): the diagram says \(names.sorted())")
            checked += 1
        }
        #expect(checked >= 12, "the diagram lists the modules with their imports")
    }

    /// Package.swift's targets by name: their dependencies, and whether they are tests.
    static func packageTargets() throws -> [String: (dependencies: [String], isTest: Bool)] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: (dependencies: [String], isTest: Bool)] = [:]
        let declaration = /\.(target|testTarget|executableTarget|systemLibrary)\(\s*name: "([A-Za-z]+)"/
        let starts = text.matches(of: declaration)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : text.endIndex
            let body = text[start.range.upperBound..<end]
            var dependencies: [String] = []
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/) {
                dependencies = list.1.matches(of: /"([A-Za-z]+)"/).map { String($0.1) }
            }
            targets[String(start.2)] = (dependencies, start.1 == "testTarget")
        }
        return targets
    }

    static func document() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    }
}
