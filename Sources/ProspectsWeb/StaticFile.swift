import HTTPServer
import ProspectsIngest

/// The hand-written files the pages load, built into the binary so that `prospects` alone is the whole server.
struct StaticFile: Sendable {
    let path: String
    let contentType: String
    let content: String
    /// A policy of its own, for a worker that needs more than the pages' (`SecurityHeaders`); nil: the pages'.
    var contentSecurityPolicy: String? = nil

    /// The file at `path`, if there is one.
    static func named(_ path: String) -> StaticFile? {
        all.first { $0.path == path }
    }

    static let all = shell + [manifest, serviceWorker]

    /// Each file's `ETag`, from its content's SHA-256, made once: a browser revalidating (`no-cache`) gets a 304.
    static let tags: [String: String] = Dictionary(
        all.map { ($0.path, "\"" + ContentHash.sha256(Array($0.content.utf8)).prefix(32) + "\"") }
    ) { first, _ in first }

    var response: HTTPResponse {
        var response = HTTPResponse.text(content, contentType: contentType)
        response.headers.set("Cache-Control", "no-cache")
        if let tag = Self.tags[path] { response.headers.set("ETag", tag) }
        if let contentSecurityPolicy { response.headers.set("Content-Security-Policy", contentSecurityPolicy) }
        return response
    }

    /// One small stylesheet: a table on a desktop, one card per lead on a phone.
    static let stylesheet = StaticFile(
        path: "/static/app.css", contentType: "text/css; charset=utf-8",
        content: """
            :root { --ink: #1d2330; --muted: #5d6675; --line: #d9dde5; --accent: #2457c5; --soft: #eef2fa;
              --danger: #b3261e; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
            * { box-sizing: border-box; }
            body { margin: 0; background: #fafbfc; }
            header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem;
              padding: .75rem 1rem; background: var(--ink); color: #fff; }
            header.top a { color: #fff; text-decoration: none; font-weight: 600; }
            header.top a.brand { font-size: 1.15rem; margin-right: auto; }
            header.top a[aria-current=page] { text-decoration: underline; }
            main { max-width: 1200px; margin: 0 auto; padding: 1rem; }
            h1 { font-size: 1.4rem; margin: .25rem 0 1rem; }
            a { color: var(--accent); }
            nav.tabs { display: flex; gap: .25rem; border-bottom: 2px solid var(--line); margin-bottom: .75rem; }
            nav.tabs a { padding: .5rem .75rem; text-decoration: none; color: var(--muted); border-radius: 6px 6px 0 0; }
            nav.tabs a[aria-current=page] { color: var(--ink); background: var(--soft); font-weight: 600; }
            .count { font-variant-numeric: tabular-nums; color: var(--muted); }
            .toolbar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin-bottom: .75rem; }
            .toolbar form { display: flex; gap: .25rem; flex: 1 1 16rem; }
            input[type=search], input[type=text], input[type=email], input[type=tel], input[type=datetime-local] {
              flex: 1; min-width: 0; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 6px;
              font: inherit; }
            button, .button { font: inherit; padding: .4rem .75rem; border: 1px solid var(--accent); border-radius: 6px;
              background: #fff; color: var(--accent); cursor: pointer; text-decoration: none; display: inline-block; }
            button.primary { background: var(--accent); color: #fff; }
            button.danger { border-color: var(--danger); color: var(--danger); }
            .sort a { margin-right: .5rem; }
            .sort a[aria-current=true] { font-weight: 600; color: var(--ink); }
            table.leads { width: 100%; border-collapse: collapse; background: #fff; }
            table.leads th, table.leads td { text-align: left; padding: .5rem; border-bottom: 1px solid var(--line);
              vertical-align: middle; overflow-wrap: anywhere; }
            table.leads th { font-size: .85rem; color: var(--muted); font-weight: 600; }
            .actions { display: flex; gap: .35rem; flex-wrap: wrap; }
            .bulk { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; }
            .paging { display: flex; justify-content: space-between; align-items: center; margin: 1rem 0; gap: .5rem; }
            .notice { background: var(--soft); padding: .75rem; border-radius: 6px; margin-bottom: 1rem; }
            .empty { color: var(--muted); padding: 1rem 0; }
            dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; }
            dl.fields dt { color: var(--muted); }
            dl.fields dd { margin: 0; overflow-wrap: anywhere; }
            section { margin: 1.25rem 0; }
            form.stack { display: flex; flex-direction: column; gap: .5rem; max-width: 28rem; }
            form.inline { display: inline-flex; gap: .35rem; flex-wrap: wrap; align-items: center; }
            ul.outcomes li.rejected { color: var(--danger); }
            .problem { background: #fdecea; color: var(--danger); padding: .75rem; border-radius: 6px; }
            button[aria-pressed=true] { background: var(--accent); color: #fff; }
            ul.tags { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem; }
            ul.tags .tag { background: var(--soft); padding: .2rem .5rem; border-radius: 999px; }
            ul.tags button { padding: .1rem .45rem; }
            ol.notes { padding-left: 1.25rem; }
            ol.notes .note-head { color: var(--muted); font-size: .9rem; }
            ol.notes .note-text { white-space: pre-wrap; margin: .2rem 0 .75rem; overflow-wrap: anywhere; }
            textarea, select { font: inherit; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 6px; }
            table.history { border-collapse: collapse; width: 100%; }
            table.history th, table.history td { text-align: left; padding: .3rem .5rem;
              border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
            form.filters { display: flex; flex-wrap: wrap; gap: .35rem .75rem; align-items: center;
              margin-bottom: .75rem; }
            form.filters label { display: inline-flex; gap: .25rem; align-items: center; }
            form.filters input[type=text] { width: 8rem; flex: none; }
            .rating-hot { color: var(--danger); font-weight: 600; }
            .rating-warm { color: #a45a00; font-weight: 600; }
            .rating-cold { color: var(--accent); }
            table.users { border-collapse: collapse; }
            table.users td, table.users th { padding: .35rem .75rem; border-bottom: 1px solid var(--line);
              text-align: left; }
            img.qr { width: min(100%, 320px); height: auto; image-rendering: pixelated; background: #fff; }
            .payload { font-family: ui-monospace, monospace; white-space: pre-wrap; background: var(--soft);
              padding: .5rem; border-radius: 6px; }
            #notify-reminders { display: inline-flex; align-items: center; justify-content: center; width: 2rem;
              height: 2rem; padding: 0; border: 1px solid #fff6; border-radius: 50%; background: transparent;
              color: #fff; cursor: pointer; }
            #notify-reminders[hidden] { display: none; }
            header.top form.signout { display: flex; align-items: center; gap: .4rem; margin: 0; }
            header.top form.signout button svg { display: none; }
            form.dropping { outline: 2px dashed var(--accent); outline-offset: .5rem; background: var(--soft); }
            #camera video { display: block; width: 100%; max-width: 40rem; max-height: 45vh; object-fit: cover;
              background: #000; border-radius: 6px; }
            #camera video[hidden], .camera-controls [hidden] { display: none; }
            .camera-controls { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: .5rem; }
            .scan-card ul.tags:empty { display: none; }
            .scan-card[data-kind=rejected] .ratings, .scan-card[data-kind=rejected] form { display: none; }
            .scan-card { max-width: 40rem; margin: .75rem 0; padding: .75rem; background: #fff;
              border: 1px solid var(--line); border-radius: 10px; box-shadow: 0 2px 8px #0002; }
            .scan-card h2 { margin: .1rem 0; font-size: 1.25rem; overflow-wrap: anywhere; }
            .scan-card .card-state { margin: 0; color: var(--muted); font-weight: 600; }
            .scan-card[data-kind=added] .card-state { color: #1e7a34; }
            .scan-card[data-kind=rejected] .card-state { color: var(--danger); }
            .scan-card .card-organization { margin: 0 0 .5rem; color: var(--muted); }
            .scan-card .ratings { display: grid; grid-template-columns: repeat(3, 1fr); gap: .5rem; margin: .5rem 0; }
            .scan-card .ratings button { min-height: 48px; font-weight: 600; }
            .scan-card form { margin: .35rem 0; }
            .scan-card form.inline input { flex: 1; }
            .scan-card textarea { width: 100%; }
            .scan-card .card-saved { margin: .25rem 0 0; color: var(--muted); font-size: .9rem; }
            .event-field { display: flex; gap: .5rem; align-items: center; max-width: 40rem; }
            ol.scans { padding-left: 1.5rem; }
            ol.scans li, .waiting-scans li { margin: .2rem 0; overflow-wrap: anywhere; }
            ol.scans .mark, .waiting-scans .mark { color: var(--muted); }
            ol.scans li.added .mark { color: #1e7a34; }
            .waiting-scans { background: #fff8e1; padding: .5rem .75rem; border-radius: 8px; }
            .waiting-scans h2 { font-size: 1rem; margin: 0 0 .25rem; }
            .waiting-scans ul { margin: 0; padding-left: 1.25rem; }
            .waiting-scans li.rejected .mark { color: var(--danger); }
            table.leads tr.waiting td.name::after { content: " · waiting to sync"; color: #a45a00; font-weight: 400;
              font-size: .85rem; }
            .sync-status { background: #ffd166; color: var(--ink); border-radius: 999px; padding: .15rem .6rem;
              font-size: .85rem; font-weight: 600; white-space: nowrap; }
            .sync-status[hidden] { display: none; }
            .sync-status a { color: var(--ink); }
            @media (max-width: 700px) {
              header.top { flex-wrap: nowrap; gap: .3rem; padding: .5rem; overflow-x: auto; white-space: nowrap;
                font-size: .75rem; }
              header.top a.brand { font-size: .9rem; }
              #notify-reminders, header.top form.signout button { width: 1.6rem; height: 1.6rem; flex: none; }
              header.top form.signout { gap: .25rem; min-width: 0; }
              header.top form.signout button { display: inline-flex; align-items: center; justify-content: center;
                padding: 0; border: 1px solid #fff6; border-radius: 50%; background: transparent; color: #fff; }
              header.top form.signout button svg { display: block; }
              header.top form.signout button .label { display: none; }
              header.top .account { display: inline-block; min-width: 2.25rem; max-width: 4.5rem; overflow: hidden;
                text-overflow: ellipsis; vertical-align: bottom; }
              main { padding: .75rem; }
              table.leads thead { display: none; }
              table.leads, table.leads tbody, table.leads tr, table.leads td { display: block; width: 100%; }
              table.leads tr { border: 1px solid var(--line); border-radius: 8px; margin-bottom: .6rem;
                padding: .4rem .6rem; background: #fff; }
              table.leads td { border: 0; padding: .15rem 0; }
              table.leads td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
              table.leads td.name { font-weight: 600; font-size: 1.05rem; }
              table.leads td[data-label]:empty { display: none; }
              table.history thead { display: none; }
              table.history tr, table.history td { display: block; }
              table.history tr { border-bottom: 1px solid var(--line); padding: .3rem 0; }
              table.history td { border: 0; padding: .05rem 0; }
              table.history td[data-label]:empty { display: none; }
              table.history td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
            }
            nav.bottom { display: none; }
            @media (min-width: 601px) {
              details.options > summary { display: none; }
              details.options::details-content { content-visibility: visible; display: contents; }
            }
            @media (max-width: 600px) {
              body { padding-bottom: calc(5rem + env(safe-area-inset-bottom)); }
              html { scroll-padding-bottom: calc(5.5rem + env(safe-area-inset-bottom)); }
              header.top { padding: .25rem .5rem; font-size: .9rem; }
              header.top > a:not(.brand) { display: none; }
              header.top a.brand { display: inline-flex; align-items: center; min-height: 44px; font-size: 1.1rem; }
              #notify-reminders, header.top form.signout button { width: 44px; height: 44px; }
              header.top .account { max-width: 7rem; }
              main { padding: .5rem .75rem; }
              h1 { font-size: 1.2rem; margin: .25rem 0 .5rem; }
              input, select, textarea, button, .button { font-size: 16px; }
              input:not([type=checkbox]):not([type=radio]), select, button, .button { min-height: 44px; }
              button, .button { display: inline-flex; align-items: center; justify-content: center; min-width: 44px; }
              main a { display: inline-flex; align-items: center; justify-content: center; min-height: 44px;
                min-width: 44px; }
              input[type=checkbox] { width: 22px; height: 22px; margin: 0; }
              label:has(> input[type=checkbox]) { display: inline-flex; align-items: center; justify-content: center;
                min-width: 44px; min-height: 44px; }
              nav.tabs { margin-bottom: .5rem; overflow-x: auto; }
              nav.tabs a { gap: .3rem; padding: 0 .6rem; white-space: nowrap; }
              input[type=file] { width: 100%; }
              input[type=file]::file-selector-button { min-height: 44px; margin-right: .75rem; font-size: 16px; }
              form.stack input:not([type=checkbox]):not([type=radio]), form.stack select { width: 100%; }
              .toolbar { margin-bottom: .25rem; }
              .toolbar form { flex-basis: 100%; }
              details.options { margin-bottom: .5rem; }
              details.options > summary { display: flex; align-items: center; min-height: 44px; cursor: pointer;
                color: var(--accent); font-weight: 600; }
              details.options .sort { display: flex; flex-wrap: wrap; align-items: center; gap: 0 .25rem; }
              form.filters label { flex: 1 1 100%; justify-content: space-between; }
              form.filters input[type=text] { width: auto; flex: 1; }
              .export { display: flex; flex-wrap: wrap; align-items: center; gap: 0 .5rem; }
              table.leads tr { display: flex; flex-wrap: wrap; align-items: center; position: relative;
                padding: .2rem .35rem .35rem 44px; margin-bottom: .4rem; }
              table.leads tr::after { content: ""; flex-basis: 100%; height: 0; }
              table.leads td { width: auto; }
              table.leads td.pick { position: absolute; left: 0; top: 0; bottom: 0; width: 44px; padding: 0;
                display: flex; align-items: center; justify-content: center; }
              table.leads td.name { flex: 1 1 0; min-width: 0; padding: 0; }
              table.leads td.name a { display: block; line-height: 44px; white-space: nowrap; overflow: hidden;
                text-overflow: ellipsis; }
              table.leads td.row-actions { flex: none; padding: 0 0 0 .35rem; }
              table.leads td.row-actions .open { display: none; }
              table.leads td.row-actions button { font-size: .85rem; padding: 0 .5rem; }
              table.leads td.organization, table.leads td.rating, table.leads td.contacted, table.leads td.reminder {
                order: 1; flex: 0 1 auto; min-width: 0; padding: 0 .75rem 0 0; font-size: .85rem; white-space: nowrap;
                overflow: hidden; text-overflow: ellipsis; }
              table.leads td.email { display: none; }
              form#leads .bulk { position: fixed; left: 0; right: 0; bottom: calc(4rem + env(safe-area-inset-bottom));
                z-index: 9; margin: 0; padding: .5rem .75rem; background: var(--ink); gap: .4rem; }
              form#leads .bulk button { flex: 1 1 auto; background: #fff; }
              form#leads:not(:has(input[name=id]:checked)) .bulk { display: none; }
              table.users, table.users tbody, table.users tr, table.users td { display: block; }
              table.users thead { display: none; }
              table.users tr { border-bottom: 1px solid var(--line); padding: .4rem 0; }
              table.users td { border: 0; padding: .1rem 0; overflow-wrap: anywhere; }
              form.stack { max-width: none; }
              nav.bottom { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); align-items: end;
                position: fixed; left: 0; right: 0; bottom: 0; z-index: 10; background: #fff;
                border-top: 1px solid var(--line); padding: .2rem .25rem calc(.2rem + env(safe-area-inset-bottom)); }
              nav.bottom a, nav.bottom summary { display: flex; flex-direction: column; align-items: center;
                justify-content: center; gap: 2px; min-height: 56px; min-width: 44px; font-size: .75rem;
                color: var(--muted); text-decoration: none; list-style: none; cursor: pointer; }
              nav.bottom summary::-webkit-details-marker { display: none; }
              nav.bottom svg { width: 24px; height: 24px; }
              nav.bottom [aria-current=page] { color: var(--accent); font-weight: 600; }
              nav.bottom a.scan { justify-self: center; width: 72px; height: 72px; margin-top: -1.25rem;
                border-radius: 50%; background: var(--accent); color: #fff; font-weight: 600;
                box-shadow: 0 2px 8px #0005; }
              nav.bottom a.scan svg { width: 30px; height: 30px; }
              nav.bottom a.scan[aria-current=page] { background: #1b4396; color: #fff; }
              nav.bottom details.more { position: relative; }
              nav.bottom details.more .menu { position: absolute; right: 0; bottom: calc(100% + .5rem);
                min-width: 13rem; display: flex; flex-direction: column; padding: .25rem; background: #fff;
                border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 4px 16px #0003; }
              nav.bottom .menu a, nav.bottom .menu button { flex-direction: row; justify-content: flex-start;
                width: 100%; min-height: 44px; padding: 0 .75rem; border: 0; background: transparent;
                color: var(--ink); font-size: 1rem; text-align: left; }
              nav.bottom .menu form { margin: 0; }
            }
            """)

    /// Opens the list's sort, filter and export options on a wide screen, folds them on a phone (600 px and
    /// narrower), and follows the window when it changes size. Without it the stylesheet shows them on a desktop.
    static let options = StaticFile(
        path: "/static/options.js", contentType: "text/javascript; charset=utf-8",
        content: """
            "use strict";
            (function () {
              var options = document.getElementById("options");
              if (!options || !window.matchMedia) return;
              var phone = window.matchMedia("(max-width: 600px)");
              function follow() { options.open = !phone.matches; }
              follow();
              phone.addEventListener("change", follow);
            })();
            """)

    /// Reloads a page that asks for it (`data-live`) when the server says the list changed, unless the person is
    /// in the middle of something (a box ticked, a field being typed in) or the page was rendered at the
    /// generation the change event names (it already shows that change: the page a form's 303 led to).
    static let liveUpdates = StaticFile(
        path: "/static/live.js", contentType: "text/javascript; charset=utf-8",
        content: """
            "use strict";
            (function () {
              if (!document.body.hasAttribute("data-live") || !window.EventSource) return;
              var shown = document.body.getAttribute("data-generation");
              var events = new EventSource("/events" + (shown ? "?shown=" + encodeURIComponent(shown) : ""));
              events.addEventListener("change", function (event) {
                if (shown && event.data === shown) return;
                var busy = document.querySelector("input[type=checkbox]:checked") ||
                  (document.activeElement && document.activeElement.matches("input, textarea, select"));
                if (busy) {
                  var note = document.getElementById("stale");
                  if (note) note.hidden = false;
                  return;
                }
                window.location.reload();
              });
            })();
            """)
}
