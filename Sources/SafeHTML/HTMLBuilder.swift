/// Builds HTML from a block: HTML values, strings and numbers (as escaped text), `if`, `switch` and `for`.
@resultBuilder
public enum HTMLBuilder {
    public static func buildExpression(_ html: HTML) -> HTML { html }
    public static func buildExpression(_ text: String) -> HTML { .text(text) }
    public static func buildExpression(_ number: Int) -> HTML { .text(String(number)) }
    public static func buildBlock(_ parts: HTML...) -> HTML { .fragment(parts) }
    public static func buildOptional(_ part: HTML?) -> HTML { part ?? .empty }
    public static func buildEither(first: HTML) -> HTML { first }
    public static func buildEither(second: HTML) -> HTML { second }
    public static func buildArray(_ parts: [HTML]) -> HTML { .fragment(parts) }
    public static func buildLimitedAvailability(_ part: HTML) -> HTML { part }
}
