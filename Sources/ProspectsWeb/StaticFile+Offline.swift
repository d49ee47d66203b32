extension StaticFile {
    /// The files every page or the scan page loads, which the service worker keeps for offline use.
    static let shell = [
        stylesheet, liveUpdates, camera, reminders, dropUpload, localTime, options, scanQueue, zbarWorker,
    ]

    /// What makes the app installable: its name, icons, `display: standalone`, and Scan as a shortcut.
    static let manifest = StaticFile(
        path: "/manifest.webmanifest", contentType: "application/manifest+json",
        content: """
            {
              "name": "Prospects",
              "short_name": "Prospects",
              "description": "Scan contact QR codes into one deduplicated list of leads.",
              "id": "/",
              "start_url": "/",
              "scope": "/",
              "display": "standalone",
              "background_color": "#fafbfc",
              "theme_color": "#1d2330",
              "icons": [
            \(AppIcon.all.map { icon in
                "    {\"src\": \"\(icon.path)\", \"sizes\": \"\(icon.size)x\(icon.size)\", \"type\": \"image/png\", "
                    + "\"purpose\": \"any maskable\"}"
            }.joined(separator: ",\n"))
              ],
              "shortcuts": [{"name": "Scan", "url": "/scan"}]
            }
            """)

    /// The service worker (scope `/`, so only where the page is a secure context: loopback or HTTPS). It keeps the
    /// app shell (the scripts, the stylesheet, the manifest and icons, and any other `/static/` file once loaded,
    /// such as a decoder), and the last list (`/`, whatever its query) and scan page loaded. Every request goes to the
    /// network first; only when the server cannot be reached does the cached copy answer. Nothing else is touched:
    /// forms, the sync, the event stream and the lead pages always go to the server.
    static let serviceWorker = StaticFile(
        path: "/sw.js", contentType: "text/javascript; charset=utf-8",
        content: #"""
            "use strict";
            var CACHE = "prospects-offline-1";
            var SHELL = \#(shellPaths);
            var PAGES = ["/", "/scan"];

            self.addEventListener("install", function (event) {
              event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
                .then(function () { return self.skipWaiting(); }));
            });

            self.addEventListener("activate", function (event) {
              event.waitUntil(caches.keys().then(function (names) {
                return Promise.all(names.filter(function (name) { return name !== CACHE; })
                  .map(function (name) { return caches.delete(name); }));
              }).then(function () { return self.clients.claim(); }));
            });

            /// The cache key of a request this worker keeps, or null: pages by path alone (the last list loaded
            /// answers for "/" whatever its query), static files by path.
            function keyOf(request) {
              if (request.method !== "GET") return null;
              var url = new URL(request.url);
              if (url.origin !== self.location.origin) return null;
              if (request.mode === "navigate") return PAGES.indexOf(url.pathname) >= 0 ? url.pathname : null;
              if (url.pathname.indexOf("/static/") === 0 || SHELL.indexOf(url.pathname) >= 0) return url.pathname;
              return null;
            }

            self.addEventListener("fetch", function (event) {
              var key = keyOf(event.request);
              if (!key) return;
              event.respondWith(fetch(event.request).then(function (response) {
                // A sign-in page the request was sent on to is no copy of the page asked for.
                if (response.ok && !response.redirected) {
                  var copy = response.clone();
                  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(key, copy); }));
                }
                return response;
              }, function (error) {
                return caches.match(key).then(function (cached) {
                  if (cached) return cached;
                  throw error;
                });
              }));
            });
            """#)

    /// The shell's paths as a JavaScript array.
    private static var shellPaths: String {
        let paths = shell.map(\.path) + [manifest.path, ZBarModule.path] + AppIcon.all.map(\.path)
        return "[" + paths.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }
}
