extension StaticFile {
    /// The phone's queue of scans, on every page: each scan kept in IndexedDB under a UUID made here until the
    /// server answered it (`POST /scans/sync`, with a fresh form token from `GET /scans/token`), sent on `online`,
    /// on page load, every 5 seconds and when a scan is added; a scan stored (or stored before) leaves the queue, a
    /// rejected one stays with the parser's reason until dismissed. The header says "N waiting to sync"; the list
    /// and scan pages show the waiting scans, and a lead row whose address one of them holds is marked. It also
    /// registers the offline service worker, and on the sign-in page drops the pages it kept. The collector stamp
    /// that `GET /scans/token` hands a signed-in account is kept (localStorage) and stored with each scan queued, so
    /// the server records who was signed in on the phone when the scan was made; the sign-in page drops it.
    /// `window.prospectsQueue` is the API the scan page (and tests) use.
    static let scanQueue = StaticFile(
        path: "/static/queue.js", contentType: "text/javascript; charset=utf-8",
        content: #"""
            "use strict";
            (function () {
              var NAME = "prospects-queue", STORE = "scans", EDITS = "edits", BATCH = 500, FRAMES = 20, EVERY = 5000;
              var STAMP = "prospects-collector", STAMP_FRESH = 3600 * 1000, stampAsked = 0;
              var opening = null, syncing = null, again = false;
              var state = { signIn: false, problem: "" };

              if ("serviceWorker" in navigator && window.isSecureContext) {
                navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
              }
              // Signed out (or the session ended): the pages kept for offline use showed someone's leads, so they
              // go; the shell and the queue stay.
              if (location.pathname === "/signin") keepStamp(null);
              if (location.pathname === "/signin" && window.caches) {
                caches.keys().then(function (names) {
                  names.forEach(function (name) {
                    caches.open(name).then(function (cache) { cache.delete("/"); cache.delete("/scan"); });
                  });
                }).catch(function () {});
              }

              /// The collector stamp kept on this phone (who was signed in when it was last fetched), or null.
              function stamp() {
                try { return localStorage.getItem(STAMP); } catch (error) { return null; }
              }
              function keepStamp(value) {
                try {
                  if (value) localStorage.setItem(STAMP, value); else localStorage.removeItem(STAMP);
                } catch (error) {}
              }
              /// True when no stamp is kept, or the one kept was issued more than an hour ago, and this page has
              /// not asked for one within the hour (a server without sign-in hands none).
              function stampStale() {
                var kept = stamp(), issued = kept ? Number(kept.split(".")[2]) * 1000 : 0;
                if (issued > Date.now() - STAMP_FRESH || stampAsked > Date.now() - STAMP_FRESH) return false;
                stampAsked = Date.now();
                return true;
              }

              function database() {
                if (!opening) {
                  opening = new Promise(function (resolve, reject) {
                    if (!window.indexedDB) { reject(new Error("IndexedDB is not available")); return; }
                    var request = indexedDB.open(NAME, 2);
                    request.onupgradeneeded = function () {
                      var names = request.result.objectStoreNames;
                      if (!names.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: "id" });
                      if (!names.contains(EDITS)) request.result.createObjectStore(EDITS, { keyPath: "id" });
                    };
                    request.onsuccess = function () { resolve(request.result); };
                    request.onerror = function () { reject(request.error); };
                  });
                }
                return opening;
              }

              function run(mode, body, name) {
                return database().then(function (db) {
                  return new Promise(function (resolve, reject) {
                    var transaction = db.transaction(name || STORE, mode), result;
                    var request = body(transaction.objectStore(name || STORE));
                    if (request) request.onsuccess = function () { result = request.result; };
                    transaction.oncomplete = function () { resolve(result); };
                    transaction.onerror = transaction.onabort = function () { reject(transaction.error); };
                  });
                });
              }

              function all() {
                return run("readonly", function (store) { return store.getAll(); }).then(function (scans) {
                  return (scans || []).sort(function (a, b) { return a.scannedAt < b.scannedAt ? -1 : 1; });
                });
              }
              function get(id) { return run("readonly", function (store) { return store.get(id); }); }
              function put(scan) { return run("readwrite", function (store) { return store.put(scan); }); }
              function drop(id) { return run("readwrite", function (store) { return store.delete(id); }); }

              /// The changes to stored leads made while the server could not be reached, oldest first.
              function edits() {
                return run("readonly", function (store) { return store.getAll(); }, EDITS).then(function (all) {
                  return (all || []).sort(function (a, b) { return a.madeAt < b.madeAt ? -1 : 1; });
                });
              }
              function putEdit(edit) { return run("readwrite", function (store) { return store.put(edit); }, EDITS); }
              function dropEdit(id) { return run("readwrite", function (store) { return store.delete(id); }, EDITS); }

              /// Keeps a change to stored lead `lead` (its page's form `path`: /rate, /tags or /note, with `fields`)
              /// that could not be sent, to send it when the server answers; `name` is who it is, for the list.
              function addEdit(lead, path, fields, name) {
                var edit = {
                  id: uuid(), lead: lead, path: path, fields: fields, name: name || "", madeAt: new Date().toISOString(),
                  state: "waiting", reason: ""
                };
                return putEdit(edit).then(function () { announce({ kind: "edit-added", edit: edit }); return edit; });
              }

              /// Sends the waiting edits in the order made; one the server refuses stays with its reason.
              function sendEdits(waiting, csrf) {
                return waiting.reduce(function (chain, edit) {
                  return chain.then(function () {
                    return post("/leads/" + edit.lead + edit.path, edit.fields, csrf).then(function () {
                      return dropEdit(edit.id).then(function () { announce({ kind: "edit-sent", edit: edit }); });
                    }, function (error) {
                      if (error.network) throw error;
                      edit.state = "rejected";
                      edit.reason = "the server refused it (" + error.message + ")";
                      return putEdit(edit).then(function () { announce({ kind: "edit-rejected", edit: edit }); });
                    });
                  });
                }, Promise.resolve());
              }

              function uuid() {
                if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
                var bytes = crypto.getRandomValues(new Uint8Array(16));
                bytes[6] = (bytes[6] & 15) | 64;
                bytes[8] = (bytes[8] & 63) | 128;
                var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); });
                return hex.slice(0, 4).join("") + "-" + hex.slice(4, 6).join("") + "-" + hex.slice(6, 8).join("") +
                  "-" + hex.slice(8, 10).join("") + "-" + hex.slice(10).join("");
              }

              /// Who a payload names, read here for the card while the server has not answered (it decides).
              function preview(payload) {
                var text = String(payload).replace(/\r/g, "").trim(), found = { name: "", organization: "", email: "" };
                var mecard = /^MECARD:/i.test(text);
                if (mecard || /BEGIN:VCARD/i.test(text)) {
                  var parts = mecard ? text.slice(7).split(";") : text.split("\n");
                  parts.forEach(function (part) {
                    var colon = part.indexOf(":");
                    if (colon < 0) return;
                    var key = part.slice(0, colon).split(";")[0].toUpperCase(), value = part.slice(colon + 1).trim();
                    if (key === "FN" || (key === "N" && !found.name)) {
                      found.name = key === "N" ? value.split(/[,;]/).filter(Boolean).reverse().join(" ") : value;
                    }
                    if (key === "ORG" && !found.organization) found.organization = value.split(";")[0];
                    if (key.indexOf("EMAIL") === 0 && !found.email) found.email = value;
                  });
                } else if (/^mailto:/i.test(text)) {
                  found.email = text.slice(7).split("?")[0];
                } else {
                  var lines = text.split("\n");
                  found.name = (lines[0] || "").trim();
                  found.email = (lines[1] || "").trim();
                }
                if (!found.name) found.name = found.email || text.slice(0, 40);
                return found;
              }

              function announce(detail) {
                window.dispatchEvent(new CustomEvent("prospects-queue", { detail: detail }));
                show();
              }

              /// Queues one scan: `fields` holds payload, and optionally rating, tags, note, event and frame (a Blob).
              function add(fields) {
                var scan = {
                  id: uuid(), payload: String(fields.payload), scannedAt: new Date().toISOString(),
                  rating: fields.rating || null, tags: fields.tags || [], note: fields.note || "",
                  event: fields.event || "", frame: fields.frame || null, state: "waiting", reason: "", edits: 0,
                  collector: stamp(),
                  preview: preview(fields.payload)
                };
                return put(scan).then(function () {
                  announce({ kind: "added", scan: scan });
                  if (fields.send !== false) sync();
                  return scan;
                });
              }

              /// Changes a queued scan's rating, tags or note; nil when it has left the queue (stored).
              function update(id, change) {
                return get(id).then(function (scan) {
                  if (!scan) return null;
                  Object.keys(change).forEach(function (key) { scan[key] = change[key]; });
                  scan.edits = (scan.edits || 0) + 1;
                  return put(scan).then(function () { announce({ kind: "updated", scan: scan }); return scan; });
                });
              }

              function token() {
                return fetch("/scans/token", { credentials: "same-origin", cache: "no-store" })
                  .then(function (response) {
                    var type = response.headers.get("Content-Type") || "";
                    if (!response.ok || type.indexOf("application/json") !== 0) {
                      var error = new Error("Sign in to send them.");
                      error.signIn = true;
                      throw error;
                    }
                    return response.json();
                  })
                  .then(function (answer) { keepStamp(answer.collector); return answer.csrf; });
              }

              /// A change to a lead through its page's form (rate, tags, note), as the card makes it once stored.
              function post(path, fields, csrf) {
                var body = new URLSearchParams();
                body.set("csrf", csrf);
                Object.keys(fields).forEach(function (key) { body.set(key, fields[key]); });
                return fetch(path, { method: "POST", body: body, credentials: "same-origin", redirect: "manual" })
                  .then(function (response) {
                    if (response.type !== "opaqueredirect" && !response.ok) throw new Error("HTTP " + response.status);
                  }, function (error) {
                    // No answer at all (offline, the server down): the change may be kept and sent later.
                    var failed = new Error("no answer from the server");
                    failed.network = true;
                    throw failed;
                  });
              }

              /// What changed on a card while its scan was on its way: sent to the lead it made.
              function followUp(lead, scan, sent, csrf) {
                var steps = [];
                if (scan.rating && scan.rating !== sent.rating) {
                  steps.push(function () { return post("/leads/" + lead + "/rate", { rating: scan.rating }, csrf); });
                }
                var tags = (scan.tags || []).filter(function (tag) { return (sent.tags || []).indexOf(tag) < 0; });
                if (tags.length) {
                  steps.push(function () { return post("/leads/" + lead + "/tags", { add: tags.join(",") }, csrf); });
                }
                if (scan.note && scan.note !== sent.note) {
                  steps.push(function () { return post("/leads/" + lead + "/note", { text: scan.note }, csrf); });
                }
                return steps.reduce(function (chain, step) { return chain.then(step); }, Promise.resolve());
              }

              function settle(results, sent, csrf) {
                return results.reduce(function (chain, result) {
                  return chain.then(function () {
                    return get(result.id).then(function (scan) {
                      if (!scan) return;
                      var before = sent[result.id];
                      if (result.status === "stored" || result.status === "alreadyStored") {
                        var lead = result.card ? result.card.id : result.lead;
                        var later = before && (scan.edits || 0) !== before.edits && lead
                          ? followUp(lead, scan, before, csrf).catch(function () {}) : Promise.resolve();
                        return later.then(function () { return drop(scan.id); }).then(function () {
                          announce({ kind: "synced", scan: scan, result: result });
                        });
                      }
                      scan.state = "rejected";
                      scan.reason = result.reason || result.status;
                      return put(scan).then(function () { announce({ kind: "rejected", scan: scan, result: result }); });
                    });
                  });
                }, Promise.resolve());
              }

              /// Sends what waits, at most 500 at a time; one sending at once (a call meanwhile sends again after).
              function sync() {
                if (syncing) { again = true; return syncing; }
                syncing = Promise.all([all(), edits()]).then(function (found) {
                  // A request carries at most 20 files: scans with their frames go 20 at a time.
                  var waiting = found[0].filter(function (scan) { return scan.state === "waiting"; });
                  var changes = found[1].filter(function (edit) { return edit.state === "waiting"; });
                  var limit = waiting.some(function (scan) { return scan.frame; }) ? FRAMES : BATCH;
                  waiting = waiting.slice(0, limit);
                  if (!waiting.length && changes.length) {
                    return token().then(function (csrf) { return sendEdits(changes, csrf); }).then(function () { return 0; });
                  }
                  if (!waiting.length) {
                    // Nothing to send: the stamp is fetched now and then, so a scan made offline later holds one.
                    if (location.pathname !== "/signin" && stampStale()) return token().then(function () { return 0; });
                    return 0;
                  }
                  return token().then(function (csrf) {
                    var sent = {};
                    var batch = waiting.map(function (scan) {
                      sent[scan.id] = { edits: scan.edits || 0, rating: scan.rating, tags: scan.tags, note: scan.note };
                      var item = { id: scan.id, payload: scan.payload, scannedAt: scan.scannedAt, tags: scan.tags };
                      if (scan.rating) item.rating = scan.rating;
                      if (scan.note) item.note = scan.note;
                      if (scan.event) item.event = scan.event;
                      if (scan.collector) item.collector = scan.collector;
                      return item;
                    });
                    var body = new FormData();
                    body.append("csrf", csrf);
                    body.append("scans", JSON.stringify(batch));
                    waiting.forEach(function (scan) {
                      if (scan.frame) body.append("frame-" + scan.id, scan.frame, "phone-scan.jpg");
                    });
                    return fetch("/scans/sync", { method: "POST", body: body, credentials: "same-origin" })
                      .then(function (response) {
                        if (!response.ok) throw new Error("the server answered " + response.status);
                        return response.json();
                      })
                      .then(function (answer) { return settle(answer.results || [], sent, csrf); })
                      .then(function () { return sendEdits(changes, csrf); })
                      .then(function () { if (waiting.length === limit) again = true; return waiting.length; });
                  });
                }).then(function (count) {
                  state.signIn = false;
                  state.problem = "";
                  return count;
                }, function (error) {
                  state.signIn = !!error.signIn;
                  state.problem = error.signIn ? error.message : "";
                  return 0;
                }).then(function (count) {
                  syncing = null;
                  show();
                  if (again) { again = false; sync(); }
                  return count;
                });
                return syncing;
              }

              function remove(id) { return drop(id).then(function () { announce({ kind: "removed", id: id }); }); }
              function removeEdit(id) {
                return dropEdit(id).then(function () { announce({ kind: "edit-removed", id: id }); });
              }

              function element(tag, className, text) {
                var made = document.createElement(tag);
                if (className) made.className = className;
                if (text) made.textContent = text;
                return made;
              }

              /// The header's count, the waiting scans on the list and scan pages, and the lead rows they name.
              function show() {
                return Promise.all([all(), edits().catch(function () { return []; })]).then(function (found) {
                  var scans = found[0], changes = found[1];
                  var waiting = scans.filter(function (scan) { return scan.state === "waiting"; });
                  var rejected = scans.filter(function (scan) { return scan.state === "rejected"; });
                  var waitingEdits = changes.filter(function (edit) { return edit.state === "waiting"; });
                  var status = document.getElementById("sync-status");
                  if (status) {
                    var words = [], pending = waiting.length + waitingEdits.length;
                    if (waiting.length) words.push(waiting.length + " waiting to sync");
                    if (waitingEdits.length) {
                      words.push(waitingEdits.length + (waitingEdits.length === 1 ? " change" : " changes") + " to send");
                    }
                    if (rejected.length) words.push(rejected.length + " rejected");
                    status.textContent = words.join(" · ") + (pending && state.problem ? " · " + state.problem : "");
                    status.hidden = !words.length;
                    status.setAttribute("data-waiting", String(waiting.length));
                    status.setAttribute("data-rejected", String(rejected.length));
                    status.setAttribute("data-edits", String(waitingEdits.length));
                    if (state.signIn && pending) {
                      var link = element("a", "", "sign in");
                      link.href = "/signin?next=" + encodeURIComponent(location.pathname);
                      status.appendChild(document.createTextNode(" ("));
                      status.appendChild(link);
                      status.appendChild(document.createTextNode(")"));
                    }
                  }
                  var main = document.querySelector("main");
                  var onPage = location.pathname === "/" || location.pathname === "/scan";
                  var section = document.getElementById("waiting-scans");
                  if (!main || !onPage) return;
                  if (!scans.length && !changes.length) { if (section) section.remove(); return; }
                  if (!section) {
                    section = element("section", "waiting-scans");
                    section.id = "waiting-scans";
                    var heading = document.querySelector("main h1");
                    main.insertBefore(section, heading ? heading.nextSibling : main.firstChild);
                  }
                  section.textContent = "";
                  section.appendChild(element("h2", "", "On this phone, not yet in the list"));
                  var list = element("ul", "outcomes");
                  scans.forEach(function (scan) {
                    var item = element("li", scan.state);
                    item.setAttribute("data-scan", scan.id);
                    item.appendChild(element("strong", "", scan.preview ? scan.preview.name : scan.payload));
                    item.appendChild(document.createTextNode(" "));
                    var mark = scan.state === "waiting" ? "waiting to sync" : "rejected: " + scan.reason;
                    item.appendChild(element("span", "mark", mark));
                    if (scan.state === "rejected") {
                      var dismiss = element("button", "", "Dismiss");
                      dismiss.type = "button";
                      dismiss.addEventListener("click", function () { remove(scan.id); });
                      item.appendChild(document.createTextNode(" "));
                      item.appendChild(dismiss);
                    }
                    list.appendChild(item);
                  });
                  changes.forEach(function (edit) {
                    var item = element("li", edit.state + " edit");
                    item.setAttribute("data-edit", edit.id);
                    item.appendChild(element("strong", "", edit.name || "Lead " + edit.lead));
                    item.appendChild(document.createTextNode(" "));
                    var what = { "/rate": "rating", "/tags": "tags", "/note": "note" }[edit.path] || "change";
                    var mark = edit.state === "waiting" ? what + " waiting to sync" : what + " not saved: " + edit.reason;
                    item.appendChild(element("span", "mark", mark));
                    if (edit.state === "rejected") {
                      var dismiss = element("button", "", "Dismiss");
                      dismiss.type = "button";
                      dismiss.addEventListener("click", function () { removeEdit(edit.id); });
                      item.appendChild(document.createTextNode(" "));
                      item.appendChild(dismiss);
                    }
                    list.appendChild(item);
                  });
                  section.appendChild(list);
                  var addresses = {};
                  waiting.forEach(function (scan) {
                    if (scan.preview && scan.preview.email) addresses[scan.preview.email.toLowerCase()] = true;
                  });
                  document.querySelectorAll("table.leads tr").forEach(function (row) {
                    var cell = row.querySelector("td.email");
                    var waits = !!cell && addresses[cell.textContent.trim().toLowerCase()] === true;
                    row.classList.toggle("waiting", waits);
                  });
                }).catch(function () {});
              }

              window.prospectsQueue = {
                add: add, update: update, all: all, sync: sync, remove: remove, show: show, preview: preview,
                post: post, token: token, stamp: stamp, addEdit: addEdit, edits: edits
              };
              window.addEventListener("online", sync);
              setInterval(sync, EVERY);
              show();
              sync();
            })();
            """#)
}
