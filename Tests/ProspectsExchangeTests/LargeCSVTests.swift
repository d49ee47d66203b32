import Foundation
import ProspectsExchange
import Testing

@Suite struct LargeCSVTests {
    /// 100,000 generated rows (quoted fields, multibyte names, a guarded phone) read through the streaming reader.
    @Test func reads100kRowsInBoundedMemory() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("large.csv")
        let rows = 100_000
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(
            contentsOf: Data(
                "id,name,email,phone,organization,contacted,createdAt,lastSeenAt,scanCount\r\n".utf8))
        var chunk = ""
        for index in 0..<rows {
            let name = index % 10 == 0 ? "\"Müller, Zoë \(index)\"" : "Person Number \(index)"
            chunk +=
                "\(index),\(name),person\(index)@example.com,'+1 555 \(index),\"Company \"\"\(index % 97)\"\"\","
                + "\(index % 2 == 0),2024-05-29T16:26:40.250Z,2024-05-30T16:40:00.500Z,\(index % 5)\r\n"
            if chunk.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
        try handle.close()

        let clock = ContinuousClock()
        var count = 0
        var last: ImportRecord?
        let elapsed = try clock.measure {
            let reader = try CSVRecordReader(path: path)
            while let record = try reader.next() {
                count += 1
                last = record
            }
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("read \(count) rows (\(size) bytes) in \(elapsed)")
        #expect(count == rows)
        #expect(
            last
                == ImportRecord(
                    name: "Person Number 99999", email: "person99999@example.com", phone: "+1 555 99999",
                    organization: "Company \"89\"", contacted: false,
                    createdAt: Timestamp.parse("2024-05-29T16:26:40.250Z"), line: rows + 1))
    }
}
