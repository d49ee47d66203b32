/// The values of many runs of one kind of statement, one row a run, packed into two buffers: a slot per parameter
/// and the bytes of every text. Made ahead of the write (an import makes them on its reading thread), so that
/// binding a run is pointer arithmetic: no `SQLValue` per value, no string retained, nothing copied.
///
/// Rows are only appended while the values are made, by one thread; statements then read the text in place
/// (`SQLiteStatement`), so it lives in a buffer of its own that keeps its address.
struct PackedArguments<Parameter: SQLParameter>: Sendable {
    /// One value: NULL, an integer, or `count` bytes of text at `payload` in `text`.
    struct Slot {
        static var null: Slot { Slot(payload: 0, count: -1) }
        static var integerCount: Int { -2 }

        var payload: Int64
        var count: Int

        var isNull: Bool { count == -1 }
        var isInteger: Bool { count == Self.integerCount }
    }

    /// Slots a row: `Parameter.allCases.count`, counted once (`allCases` makes an array each time).
    let width = Parameter.allCases.count
    private var slots: [Slot] = []
    private var storage: TextStorage
    private var textCount = 0

    init(rows: Int = 0, textBytes: Int = 256) {
        slots.reserveCapacity(rows * width)
        storage = TextStorage(byteCount: textBytes)
    }

    var rowCount: Int { slots.count / width }

    /// The bytes of every text value, in the order they were set; never empty, so that even an empty text has an
    /// address (a NULL pointer would bind SQL NULL).
    var text: UnsafeRawPointer { UnsafeRawPointer(storage.bytes.baseAddress!) }

    /// Starts a row whose values are all NULL until set.
    mutating func appendRow() {
        slots.append(contentsOf: repeatElement(.null, count: width))
    }

    /// Sets `parameter` of the last row to `text`, or NULL for nil.
    mutating func set(_ parameter: Parameter, text value: String?) {
        guard var value else { return setSlot(parameter, .null) }
        let offset = textCount
        value.withUTF8 { bytes in
            reserveText(bytes.count)
            if let base = bytes.baseAddress {
                (storage.bytes.baseAddress! + offset).copyMemory(from: base, byteCount: bytes.count)
            }
            textCount += bytes.count
            setSlot(parameter, Slot(payload: Int64(offset), count: bytes.count))
        }
    }

    /// Sets `parameter` of the last row to `value`, or NULL for nil.
    mutating func set(_ parameter: Parameter, integer value: Int64?) {
        setSlot(parameter, value.map { Slot(payload: $0, count: Slot.integerCount) } ?? .null)
    }

    /// The value `parameter` (its raw value) holds in `row`.
    func slot(_ row: Int, _ parameter: Int) -> Slot {
        slots[row * width + parameter]
    }

    /// The value `parameter` holds in `row`, as SQLite reads it (a boolean is its 0 or 1).
    func value(_ row: Int, _ parameter: Parameter) -> SQLValue {
        let slot = slot(row, parameter.rawValue)
        if slot.isNull { return .null }
        if slot.isInteger { return .integer(slot.payload) }
        let bytes = UnsafeRawBufferPointer(start: text + Int(slot.payload), count: slot.count)
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    private mutating func setSlot(_ parameter: Parameter, _ slot: Slot) {
        slots[slots.count - width + parameter.rawValue] = slot
    }

    /// Makes room for `count` more bytes of text: only while rows are made, when nothing reads the text in place.
    private mutating func reserveText(_ count: Int) {
        guard textCount + count > storage.bytes.count else { return }
        let larger = TextStorage(byteCount: max(textCount + count, 2 * storage.bytes.count))
        larger.bytes.baseAddress!.copyMemory(from: storage.bytes.baseAddress!, byteCount: textCount)
        storage = larger
    }

    /// The text's buffer, freed with the last copy of the values that refer to it.
    private final class TextStorage: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer

        init(byteCount: Int) {
            bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(byteCount, 1), alignment: 1)
        }

        deinit {
            bytes.deallocate()
        }
    }
}
