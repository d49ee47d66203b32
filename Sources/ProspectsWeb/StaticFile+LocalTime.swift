extension StaticFile {
    /// On every page: fills each form's time-zone field with the browser's zone, and writes each time
    /// (`time[data-utc]`, a `datetime-local` field with `data-utc`) in that zone, as the server would in its own
    /// (`2026-12-01 09:00 CET`). See `BrowserTime`.
    static let localTime = StaticFile(
        path: "/static/local-time.js", contentType: "text/javascript; charset=utf-8",
        content: """
            "use strict";
            (function () {
              var zone = "";
              try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
              if (!zone) return;
              document.querySelectorAll("input[name=tz]").forEach(function (field) { field.value = zone; });
              function formatter(locale, name) {
                return new Intl.DateTimeFormat(locale, {
                  timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit",
                  minute: "2-digit", hourCycle: "h23", timeZoneName: name
                });
              }
              // The zone's abbreviation as tzdata writes it (CET in en-GB, EST in en-US), else its offset (UTC+05:45).
              var formats = [formatter("en-GB", "short"), formatter("en-US", "short"), formatter("en-GB", "longOffset")];
              function parts(text) {
                var date = new Date(text);
                if (isNaN(date.getTime())) return null;
                var found = null;
                formats.forEach(function (format) {
                  if (found && !/^(GMT|UTC)[+-]/.test(found.timeZoneName)) return;
                  found = {};
                  format.formatToParts(date).forEach(function (part) { found[part.type] = part.value; });
                });
                found.timeZoneName = found.timeZoneName.replace(/^GMT(?=[+-])/, "UTC");
                return found;
              }
              document.querySelectorAll("time[data-utc]").forEach(function (time) {
                var p = parts(time.getAttribute("data-utc"));
                if (!p) return;
                time.textContent = p.year + "-" + p.month + "-" + p.day + " " + p.hour + ":" + p.minute + " " +
                  p.timeZoneName;
                time.title = zone;
              });
              document.querySelectorAll("input[type=datetime-local][data-utc]").forEach(function (input) {
                var p = parts(input.getAttribute("data-utc"));
                if (p) input.value = p.year + "-" + p.month + "-" + p.day + "T" + p.hour + ":" + p.minute;
              });
            })();
            """)
}
