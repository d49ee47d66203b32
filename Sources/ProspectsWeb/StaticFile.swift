import HTTPServer

/// The hand-written files the pages load, built into the binary so that `prospects` alone is the whole server.
struct StaticFile: Sendable {
    let path: String
    let contentType: String
    let content: String

    /// The file at `path`, if there is one.
    static func named(_ path: String) -> StaticFile? {
        all.first { $0.path == path }
    }

    static let all = [stylesheet, liveUpdates, camera, reminders, dropUpload]

    var response: HTTPResponse {
        var response = HTTPResponse.text(content, contentType: contentType)
        response.headers.set("Cache-Control", "no-cache")
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
            #camera video { display: block; width: 100%; max-width: 40rem; background: #000; border-radius: 6px; }
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
              var events = new EventSource("/events");
              events.addEventListener("change", function (event) {
                var shown = document.body.getAttribute("data-generation");
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
