/// One function per element the pages use, each `HTML.element` with that name.
extension HTML {
    /// The document's head.
    public static func head(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("head", attributes, content: content())
    }

    /// The document's body.
    public static func body(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("body", attributes, content: content())
    }

    /// The page's title.
    public static func title(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("title", attributes, content: content())
    }

    /// The page's main content.
    public static func main(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("main", attributes, content: content())
    }

    /// A header.
    public static func header(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("header", attributes, content: content())
    }

    /// A footer.
    public static func footer(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("footer", attributes, content: content())
    }

    /// Navigation links.
    public static func nav(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("nav", attributes, content: content())
    }

    /// A section.
    public static func section(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("section", attributes, content: content())
    }

    /// A self-contained item.
    public static func article(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("article", attributes, content: content())
    }

    /// A side note.
    public static func aside(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("aside", attributes, content: content())
    }

    /// A block.
    public static func div(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("div", attributes, content: content())
    }

    /// An inline run.
    public static func span(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("span", attributes, content: content())
    }

    /// A paragraph.
    public static func p(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("p", attributes, content: content())
    }

    /// A first-level heading.
    public static func h1(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("h1", attributes, content: content())
    }

    /// A second-level heading.
    public static func h2(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("h2", attributes, content: content())
    }

    /// A third-level heading.
    public static func h3(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("h3", attributes, content: content())
    }

    /// A link (its `href` goes through `SafeURL`).
    public static func a(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("a", attributes, content: content())
    }

    /// An unordered list.
    public static func ul(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("ul", attributes, content: content())
    }

    /// An ordered list.
    public static func ol(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("ol", attributes, content: content())
    }

    /// A list item.
    public static func li(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("li", attributes, content: content())
    }

    /// A table.
    public static func table(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("table", attributes, content: content())
    }

    /// A table's head.
    public static func thead(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("thead", attributes, content: content())
    }

    /// A table's body.
    public static func tbody(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("tbody", attributes, content: content())
    }

    /// A table row.
    public static func tr(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("tr", attributes, content: content())
    }

    /// A header cell.
    public static func th(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("th", attributes, content: content())
    }

    /// A cell.
    public static func td(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("td", attributes, content: content())
    }

    /// A form (its `action` goes through `SafeURL`).
    public static func form(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("form", attributes, content: content())
    }

    /// A form control's label.
    public static func label(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("label", attributes, content: content())
    }

    /// A button.
    public static func button(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("button", attributes, content: content())
    }

    /// A drop-down list.
    public static func select(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("select", attributes, content: content())
    }

    /// An option of a list.
    public static func option(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("option", attributes, content: content())
    }

    /// A multi-line text field.
    public static func textarea(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("textarea", attributes, content: content())
    }

    /// Strong importance.
    public static func strong(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("strong", attributes, content: content())
    }

    /// Emphasis.
    public static func em(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("em", attributes, content: content())
    }

    /// Side comments.
    public static func small(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("small", attributes, content: content())
    }

    /// A date or time.
    public static func time(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("time", attributes, content: content())
    }

    /// A disclosure widget.
    public static func details(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("details", attributes, content: content())
    }

    /// A disclosure widget's summary.
    public static func summary(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("summary", attributes, content: content())
    }

    /// A computed result.
    public static func output(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("output", attributes, content: content())
    }

    /// A description list.
    public static func dl(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("dl", attributes, content: content())
    }

    /// A described term.
    public static func dt(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("dt", attributes, content: content())
    }

    /// A description.
    public static func dd(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> HTML = { .empty }) -> HTML {
        element("dd", attributes, content: content())
    }

    /// Metadata. A void element: no content.
    public static func meta(_ attributes: HTMLAttribute...) -> HTML { element("meta", attributes) }

    /// A linked resource. A void element: no content.
    public static func link(_ attributes: HTMLAttribute...) -> HTML { element("link", attributes) }

    /// A form control. A void element: no content.
    public static func input(_ attributes: HTMLAttribute...) -> HTML { element("input", attributes) }

    /// An image (its `src` goes through `SafeURL`). A void element: no content.
    public static func img(_ attributes: HTMLAttribute...) -> HTML { element("img", attributes) }

    /// A line break. A void element: no content.
    public static func br(_ attributes: HTMLAttribute...) -> HTML { element("br", attributes) }

    /// A thematic break. A void element: no content.
    public static func hr(_ attributes: HTMLAttribute...) -> HTML { element("hr", attributes) }

    /// A script loaded from `src` (inline scripts would need `unsafe-inline` in the content security policy).
    public static func script(src: String, _ attributes: HTMLAttribute...) -> HTML {
        element("script", [.src(src)] + attributes)
    }
}
