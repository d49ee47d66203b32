import ProspectsCore
import QRDecoding

/// A command line that did not make sense, with the sentence that says why.
public struct UsageError: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The arguments of one subcommand, split into flags, options with values, and positionals.
///
/// Written by hand because no outside package (swift-argument-parser) can be fetched here; it follows the same
/// conventions: `--name value` or `--name=value`, `-o value`, `--` ends options.
struct CommandLineArguments {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    /// `flags` and `options` list the accepted names with their dashes (`--json`, `-o`). With `dashWords`, a word
    /// after one dash that names no option (`tag ada@example.org -demo`) is a positional.
    init(
        _ arguments: [String], flags allowedFlags: Set<String>, options allowedOptions: Set<String>,
        dashWords: Bool = false
    ) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let isDashWord =
                dashWords && !argument.hasPrefix("--") && argument.count > 1 && !allowedFlags.contains(argument)
                && !allowedOptions.contains(argument)
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" || isDashWord {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                throw UsageError("unknown option '\(SafeText.escaped(name, limit: 80))'")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The last value given for `option` (a later one overrides an earlier one).
    func value(_ option: String) -> String? { values[option]?.last }

    /// The value of `option` converted, nil when not given; a value `convert` refuses is a usage error that says
    /// what was `expected`.
    func value<T>(_ option: String, expected: String? = nil, _ convert: (String) -> T?) throws(UsageError) -> T? {
        guard let text = value(option) else { return nil }
        guard let converted = convert(text) else {
            throw UsageError(
                "invalid value '\(SafeText.escaped(text, limit: 80))' for '\(option)'"
                    + (expected.map { ": expected \($0)" } ?? ""))
        }
        return converted
    }

    /// A whole number within `range`, or nil when not given.
    func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        let expected =
            range.upperBound == Int.max
            ? "a whole number from \(range.lowerBound) up"
            : "a whole number from \(range.lowerBound) to \(range.upperBound)"
        return try value(option, expected: expected) { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// `--jobs <n>`: a thread count from 1 to 256, or nil when not given (one per core).
    func jobs() throws(UsageError) -> Int? {
        try integer("--jobs", in: 1...256)
    }

    /// `--pixel-limit <n>`: a positive pixel count, or the reader's default.
    func pixelLimit() throws(UsageError) -> Int {
        try integer("--pixel-limit", in: 1...Int.max) ?? PNGReader.defaultPixelLimit
    }

    /// The value of an option restricted to a set of words.
    func choice<T: RawRepresentable>(_ option: String, default defaultValue: T) throws(UsageError) -> T
    where T.RawValue == String, T: CaseIterable {
        try choice(option) ?? defaultValue
    }

    /// The value of an option restricted to a set of words, nil when not given.
    func choice<T: RawRepresentable>(_ option: String) throws(UsageError) -> T?
    where T.RawValue == String, T: CaseIterable {
        guard let text = value(option) else { return nil }
        guard let chosen = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("'\(option)' must be one of: \(allowed) (got '\(SafeText.escaped(text, limit: 80))')")
        }
        return chosen
    }
}
