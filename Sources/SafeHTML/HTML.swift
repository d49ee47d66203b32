/// A piece of HTML that holds only markup made safe by construction: text is escaped when it becomes HTML,
/// attribute values are escaped and quoted, URLs in link attributes are checked, and unescaped markup exists only
/// through `trustedMarkup`, a name that says what it is.
public struct HTML: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The markup, ready to send.
    public let markup: String

    private init(markup: String) {
        self.markup = markup
    }

    /// Nothing.
    public static let empty = HTML(markup: "")

    /// `text` as a text node: `<`, `>`, `&`, `"` and `'` are escaped, so it shows as written and runs nothing.
    public static func text(_ text: String) -> HTML {
        HTML(markup: HTMLEscaping.escape(text))
    }

    /// A string literal is text, escaped like any other.
    public init(stringLiteral text: String) {
        self = .text(text)
    }

    /// Markup taken as it is, unescaped: only for constant markup written in the source (never for data), since
    /// whatever it holds reaches the browser as code.
    public static func trustedMarkup(_ markup: String) -> HTML {
        HTML(markup: markup)
    }

    /// The parts one after another.
    public static func fragment(_ parts: [HTML]) -> HTML {
        // One allocation for the whole: a page is thousands of fragments, rendered on every request.
        var markup = ""
        markup.reserveCapacity(parts.reduce(0) { $0 + $1.markup.utf8.count })
        for part in parts { markup += part.markup }
        return HTML(markup: markup)
    }

    /// Builds a fragment from a block of HTML values, strings (text), conditions and loops.
    public init(@HTMLBuilder _ content: () -> HTML) {
        self = content()
    }

    /// The element `<name attributes…>content</name>`; a void element (`img`, `input`, `br`…) has no content and
    /// no closing tag. The name must be a plain tag name written in the source, not data.
    public static func element(_ name: String, _ attributes: [HTMLAttribute] = [], content: HTML = .empty) -> HTML {
        precondition(HTMLAttribute.isPlainName(name), "\(name) is not a plain element name")
        let name = HTMLAttribute.asciiLowercased(name)
        let isVoid = voidElements.contains(name)
        precondition(!isVoid || content.markup.isEmpty, "<\(name)> is a void element: it has no content")
        // Built in one buffer sized up front: the content is copied once, not once per concatenation.
        var markup = ""
        markup.reserveCapacity(
            2 * name.utf8.count + 5 + content.markup.utf8.count + attributes.reduce(0) { $0 + $1.markup.utf8.count })
        markup += "<"
        markup += name
        for attribute in attributes { markup += attribute.markup }
        markup += ">"
        if isVoid { return HTML(markup: markup) }
        markup += content.markup
        markup += "</"
        markup += name
        markup += ">"
        return HTML(markup: markup)
    }

    /// A whole page: the doctype, then `<html lang>` with `head` and `body`.
    public static func document(
        lang: String = "en", @HTMLBuilder head: () -> HTML, @HTMLBuilder body: () -> HTML
    ) -> HTML {
        HTML(
            markup: "<!DOCTYPE html>"
                + element(
                    "html", [.attribute("lang", lang)],
                    content: .element("head", content: head()).appending(
                        .element("body", content: body()))
                ).markup)
    }

    /// This followed by `other`.
    public func appending(_ other: HTML) -> HTML {
        HTML(markup: markup + other.markup)
    }

    public var description: String { markup }

    /// The markup as UTF-8 bytes, for a response body.
    public var utf8Bytes: [UInt8] { Array(markup.utf8) }

    /// Elements that never have content or a closing tag.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
}
