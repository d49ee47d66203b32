import ProspectsCore

/// One parser for every test: it is a stateless value.
let parser = PayloadParser()

/// `parser.parse(payload)`, short enough to sit inside `#expect`.
func parse(_ payload: String) -> Result<Prospect, ScanError> {
    parser.parse(payload)
}

/// The format `payload` was recognised as, or `nil` when it was refused.
func format(_ payload: String) -> PayloadFormat? {
    try? parser.parseDetailed(payload).get().format
}

/// The failure of `payload`, or `nil` when it parsed.
func failure(_ payload: String) -> ScanError? {
    if case .failure(let error) = parser.parse(payload) { return error }
    return nil
}

/// A successful result, so expectations read `#expect(parse(x) == ok("Paul", "paul@example.com"))`.
/// `parts` are the name's parts in vCard's order (family, given, additional, prefix, suffix).
func ok(
    _ name: String, _ email: String, phone: String? = nil, organization: String? = nil, title: String? = nil,
    parts: [String]? = nil, otherEmails: [String] = [], note: String? = nil, otherPhones: [String] = []
) -> Result<Prospect, ScanError> {
    .success(
        Prospect(
            name: name, email: email, phone: phone, organization: organization, title: title,
            nameParts: parts.map(NameParts.init(components:)), otherEmails: otherEmails, note: note,
            otherPhones: otherPhones))
}

/// `.invalidEmail` for `address`, the expected failure of a two-line payload whose second line it is.
func badEmail(_ address: String, _ reason: EmailProblem) -> Result<Prospect, ScanError> {
    .failure(.invalidEmail(address: address, reason: reason))
}

extension String {
    /// `self` repeated `count` times.
    func times(_ count: Int) -> String { String(repeating: self, count: count) }
}

/// SplitMix64: a seeded generator for the randomised suites, so a failure can be reproduced from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
