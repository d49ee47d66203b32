extension StaticFile {
    /// On every page: the count of due reminders in the tab's title (`(2) Leads · Prospects`), asked of
    /// `GET /reminders/due` at load, when the tab is shown again, and when the next reminder comes due (the server
    /// says in how many seconds; at least once a minute); a browser notification for each newly due reminder once
    /// the person allowed them, asked by the header's button (a user gesture), once.
    static let reminders = StaticFile(
        path: "/static/reminders.js", contentType: "text/javascript; charset=utf-8",
        content: """
            "use strict";
            (function () {
              var base = document.title;
              var button = document.getElementById("notify-reminders");
              var canNotify = "Notification" in window;
              var timer = 0;

              function notified() {
                try { return JSON.parse(localStorage.getItem("prospects-notified") || "[]"); } catch (e) { return []; }
              }

              function notify(leads) {
                if (!canNotify || Notification.permission !== "granted") return;
                var already = notified();
                var fresh = leads.filter(function (lead) { return already.indexOf(lead.id) < 0; });
                if (!fresh.length) return;
                var names = fresh.map(function (lead) { return lead.name; });
                var note = new Notification(fresh.length === 1 ? "Reminder due" : fresh.length + " reminders due", {
                  body: names.slice(0, 3).join(", ") + (names.length > 3 ? "…" : ""), tag: "prospects-reminders"
                });
                note.onclick = function () { window.focus(); window.location.href = "/reminders"; };
                var ids = already.concat(fresh.map(function (lead) { return lead.id; })).slice(-500);
                try { localStorage.setItem("prospects-notified", JSON.stringify(ids)); } catch (e) { }
              }

              function check() {
                clearTimeout(timer);
                fetch("/reminders/due", { credentials: "same-origin", headers: { Accept: "application/json" } })
                  .then(function (response) {
                    if (!response.ok) throw new Error("HTTP " + response.status);
                    return response.json();
                  })
                  .then(function (answer) {
                    document.title = answer.due > 0 ? "(" + answer.due + ") " + base : base;
                    document.body.setAttribute("data-due", String(answer.due));
                    notify(answer.leads);
                    var wait = 60;
                    if (typeof answer.nextIn === "number") wait = Math.min(wait, answer.nextIn + 0.5);
                    timer = setTimeout(check, wait * 1000);
                  })
                  .catch(function () { timer = setTimeout(check, 60000); });
              }

              if (button && canNotify && Notification.permission === "default") {
                button.hidden = false;
                button.addEventListener("click", function () {
                  button.hidden = true;
                  Notification.requestPermission().then(check);
                });
              }
              document.addEventListener("visibilitychange", function () { if (!document.hidden) check(); });
              check();
            })();
            """)
}
