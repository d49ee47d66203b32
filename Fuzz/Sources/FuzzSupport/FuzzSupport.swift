import ProspectsCore

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer's driver, linked in by `-sanitize=fuzzer`: it parses the command line (corpus folders,
/// `-max_total_time`, …) and calls `callback` once per input. SwiftPM links its own `main`, so the usual
/// `LLVMFuzzerTestOneInput` symbol is not picked up; `LLVMFuzzerRunDriver` is libFuzzer's entry for that case.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with this process's arguments, calling `callback` with each input; never returns.
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// The input as an array (libFuzzer may pass a NULL pointer with size 0).
public func inputBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run with a message libFuzzer reports as a crash (and saves the input as an artifact).
public func violated(_ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("invariant violated: \(what())", file: file, line: line)
}

public func require(
    _ condition: Bool, _ what: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { violated(what(), file: file, line: line) }
}

/// The invariants of text that reaches a person: no scalar `SafeText` calls unsafe.
public func requireSafe(_ text: String, _ what: String, file: StaticString = #fileID, line: UInt = #line) {
    if let scalar = SafeText.firstUnsafe(in: text) {
        violated("\(what) holds \(SafeText.codePoint(scalar.value)): \(SafeText.escaped(text))", file: file, line: line)
    }
}

/// What must hold for every prospect any parser or reader accepts.
public func checkProspect(_ prospect: Prospect, file: StaticString = #fileID, line: UInt = #line) {
    requireSafe(prospect.name, "an accepted name", file: file, line: line)
    requireSafe(prospect.email, "an accepted email", file: file, line: line)
    if let phone = prospect.phone { requireSafe(phone, "an accepted phone", file: file, line: line) }
    for phone in prospect.otherPhones {
        requireSafe(phone, "an accepted other phone", file: file, line: line)
        require(!phone.isEmpty && phone != prospect.phone, "an other phone empty or the phone", file: file, line: line)
    }
    require(
        prospect.phone != nil || prospect.otherPhones.isEmpty, "other phones without a phone", file: file, line: line)
    if let organization = prospect.organization {
        requireSafe(organization, "an accepted organisation", file: file, line: line)
    }
    require(!prospect.name.isEmpty, "an accepted name is empty", file: file, line: line)
    // An accepted address re-validates to itself: validation is idempotent.
    switch EmailAddress.validate(prospect.email) {
    case .success(let again):
        require(again == prospect.email, "re-validating \(prospect.email) gave \(again)", file: file, line: line)
    case .failure(let problem):
        violated(
            "accepted \(SafeText.escaped(prospect.email)) fails re-validation: \(problem.message)", file: file,
            line: line)
    }
    // The dedup key is a fixed point of its own normalisation.
    let key = prospect.key
    require(DedupKey.make(key) == key, "DedupKey is not idempotent on \(SafeText.escaped(key))", file: file, line: line)
}

/// What must hold for every refusal: a kind, and a message with nothing unsafe in it.
public func checkError(_ error: ScanError, file: StaticString = #fileID, line: UInt = #line) {
    require(!error.kind.isEmpty, "an error without a kind", file: file, line: line)
    requireSafe(error.message, "the message of \(error.kind)", file: file, line: line)
}

/// `SafeText.escaped` never lets an unsafe scalar through, and its limit bounds the output.
public func checkEscaping(_ text: String, file: StaticString = #fileID, line: UInt = #line) {
    requireSafe(SafeText.escaped(text), "escaped text", file: file, line: line)
    let limited = SafeText.escaped(text, limit: 16)
    requireSafe(limited, "escaped, limited text", file: file, line: line)
    // Each of at most 16 scalars becomes at most `\u{10FFFF}` (10 scalars), plus the ellipsis.
    require(limited.unicodeScalars.count <= 16 * 10 + 1, "escaped(limit: 16) is too long", file: file, line: line)
}
