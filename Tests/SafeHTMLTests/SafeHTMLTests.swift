import SafeHTML
import Testing

@Suite struct SafeHTMLTests {
    @Test func textThatLooksLikeMarkupRendersAsInertText() {
        let name = "<img src=x onerror=alert(1)>"
        let row = HTML.td { name }
        #expect(row.markup == "<td>&lt;img src=x onerror=alert(1)&gt;</td>")
        #expect(!row.markup.contains("<img"))
        let literal: HTML = "Tom & \"Jerry\" 'n' <b>"
        #expect(literal.markup == "Tom &amp; &quot;Jerry&quot; &#39;n&#39; &lt;b&gt;")
    }

    @Test func attributeValuesAreQuotedAndEscaped() {
        let input = HTML.input(.name("q"), .value("\" autofocus onfocus=\"alert(1)"), .flag("required"))
        #expect(input.markup == #"<input name="q" value="&quot; autofocus onfocus=&quot;alert(1)" required>"#)
        let single = HTML.span(.class("a' onclick='x")) { "ok" }
        #expect(single.markup == #"<span class="a&#39; onclick=&#39;x">ok</span>"#)
        #expect(HTML.input(.flag("checked", false)).markup == "<input>")
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:alert(1)", "\u{1}javascript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<script>",
    ])
    func scriptURLsAreNeutralisedInLinksAndSources(url: String) {
        #expect(HTML.a(.href(url)) { "x" }.markup == #"<a href="about:invalid#refused">x</a>"#)
        #expect(HTML.img(.src(url)).markup == #"<img src="about:invalid#refused">"#)
        #expect(HTML.form(.action(url)).markup == #"<form action="about:invalid#refused"></form>"#)
        #expect(!SafeURL(url).isAllowed)
    }

    @Test(arguments: [
        "https://example.com/a?b=c", "http://x", "mailto:ada@example.com", "tel:+441234", "/leads/12", "?page=2",
        "#top", "leads/12:edit", "",
    ])
    func ordinaryURLsAreKept(url: String) {
        #expect(SafeURL(url).isAllowed)
        #expect(SafeURL(url).value == url)
    }

    @Test func aURLIsEscapedAfterItIsChecked() {
        #expect(
            HTML.a(.href("/search?q=a&b=\"c\"")) { "s" }.markup == #"<a href="/search?q=a&amp;b=&quot;c&quot;">s</a>"#)
    }

    @Test func buildersWriteAPage() {
        let leads = ["Ada", "<Bob>"]
        let showEmpty = leads.isEmpty
        let page = HTML.document {
            HTML.meta(.attribute("charset", "utf-8"))
            HTML.title { "Leads (\(leads.count))" }
        } body: {
            HTML.main(.class("list")) {
                HTML.h1 { "Leads" }
                if showEmpty {
                    HTML.p { "Nobody yet" }
                } else {
                    HTML.ul {
                        for lead in leads { HTML.li { lead } }
                    }
                }
                HTML.p {
                    "Total: "; leads.count
                }
                HTML.script(src: "/static/app.js")
            }
        }
        #expect(
            page.markup
                == "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Leads (2)</title></head>"
                + "<body><main class=\"list\"><h1>Leads</h1><ul><li>Ada</li><li>&lt;Bob&gt;</li></ul>"
                + "<p>Total: 2</p><script src=\"/static/app.js\"></script></main></body></html>")
    }

    @Test func trustedMarkupIsTheOnlyWayInForRawMarkup() {
        let icon = HTML.trustedMarkup("<svg viewBox=\"0 0 1 1\"></svg>")
        #expect(HTML.span { icon }.markup == "<span><svg viewBox=\"0 0 1 1\"></svg></span>")
        #expect(HTML.text(icon.markup).markup.hasPrefix("&lt;svg"))
    }
}
