/// SQL text written with `:name` placeholders, renumbered `$1`, `$2`… for libpq, which knows no names.
///
/// The numbers follow the placeholders' first appearance, and `offsets` says which value each number takes, so
/// that a parameter the text does not use is not sent (PostgreSQL cannot type a parameter nothing refers to).
/// Made once per statement; a `::type` cast, a quoted literal or identifier and a `--` comment are left alone.
struct NumberedSQL<Parameter: SQLParameter>: Sendable {
    let text: String
    /// For `$n`, at offset n-1, the raw value of the parameter it stands for.
    let offsets: [Int]

    init(_ named: String) {
        let placeholders = Parameter.placeholders
        let bytes = Array(named.utf8)
        var text: [UInt8] = []
        var offsets: [Int] = []
        var index = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                // A quoted literal or identifier, copied whole; a doubled quote inside it closes and reopens.
                let end = bytes[(index + 1)...].firstIndex(of: byte).map { $0 + 1 } ?? bytes.count
                text += bytes[index..<end]
                index = end
            } else if byte == UInt8(ascii: "-") && next == UInt8(ascii: "-") {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                text += bytes[index..<end]
                index = end
            } else if byte == UInt8(ascii: ":") && next == UInt8(ascii: ":") {
                text += [byte, next]
                index += 2
            } else if byte == UInt8(ascii: ":") && isNameByte(next) {
                var end = index + 1
                while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
                let placeholder = String(decoding: bytes[index..<end], as: UTF8.self)
                guard let offset = placeholders.firstIndex(of: placeholder) else {
                    preconditionFailure("\(placeholder) names no \(Parameter.self) in: \(named)")
                }
                let number = (offsets.firstIndex(of: offset) ?? offsets.count) + 1
                if number > offsets.count { offsets.append(offset) }
                text += Array("$\(number)".utf8)
                index = end
            } else {
                text.append(byte)
                index += 1
            }
        }
        self.text = String(decoding: text, as: UTF8.self)
        self.offsets = offsets
    }

    /// The values to send, in `$n` order.
    func values(_ arguments: SQLArguments<Parameter>) -> [SQLValue] {
        offsets.map { arguments.values[$0] }
    }
}
