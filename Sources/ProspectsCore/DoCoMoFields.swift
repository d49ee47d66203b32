/// The `KEY:value;KEY:value;;` field syntax of NTT DoCoMo's MECARD and MATMSG codes.
///
/// Fields end at an unescaped `;` and the record ends at `;;` (an empty field); a missing `;;` is
/// tolerated, as many generators leave it out. A key is recognised only at the start of a field, so text
/// such as `NOTE:EMAIL:x@evil.test` or `NOTE:a\;EMAIL:x@evil.test` stays inside the note.
struct DoCoMoFields {
    /// One `KEY:value` field: the key upper-cased (ASCII) and trimmed, the value still escaped.
    struct Field {
        var key: String
        var rawValue: [Unicode.Scalar]
    }

    /// The fields in the order written, up to the terminating `;;`.
    let fields: [Field]

    /// Reads the fields of `body`, the text after the `MECARD:` or `MATMSG:` prefix.
    init(_ body: some Sequence<Unicode.Scalar>) {
        var fields: [Field] = []
        for piece in EscapedText.split(body, on: ";") {
            if piece.isEmpty { break }  // `;;`: the end of the record; anything after it is not read
            // A field without a colon (stray text, a line break between fields) has no key and is skipped.
            guard let colon = EscapedText.firstUnescaped(":", in: piece) else { continue }
            let key = ScalarText.asciiUppercased(ScalarText.trimmed(ScalarText.string(piece[..<colon])))
            fields.append(Field(key: key, rawValue: Array(piece[(colon + 1)...])))
        }
        self.fields = fields
    }

    /// The raw (still escaped) value of the first `key` field whose value is not blank.
    func first(_ key: String) -> [Unicode.Scalar]? {
        fields.first { field in
            field.key == key && !ScalarText.trimmedScalars(field.rawValue).isEmpty
        }?.rawValue
    }

    /// Every non-blank `key` value, unescaped, in the order written.
    func texts(_ key: String) -> [String] {
        fields.filter { field in field.key == key && !ScalarText.trimmedScalars(field.rawValue).isEmpty }
            .map { EscapedText.unescape($0.rawValue, newlines: false) }
    }

    /// The first non-blank `key` value, unescaped.
    func text(_ key: String) -> String? {
        first(key).map { EscapedText.unescape($0, newlines: false) }
    }
}
