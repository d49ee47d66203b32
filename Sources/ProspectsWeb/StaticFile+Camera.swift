extension StaticFile {
    /// The quick scan, where the page is a secure context: the camera keeps running (the rear one first, a switch to
    /// the front, the torch where the track has one) and each newly read code takes the card (who, new or seen before,
    /// Hot / Warm / Cold, tags, note) and heads the session's last 20 scans. Frames are decoded on the phone by
    /// `/static/zbar-worker.js` when it loads (`{id, width, height, data}` in, `{id, codes, ms}` or `{id, error}` out),
    /// the codes going through the offline queue (`queue.js`); otherwise about three frames a second go as JPEG to
    /// `POST /scan/frame`, which decodes and stores them (online only). A code held in view counts once either way.
    static let camera = StaticFile(
        path: "/static/camera.js", contentType: "text/javascript; charset=utf-8",
        content: #"""
            "use strict";
            (function () {
              var section = document.getElementById("camera");
              if (!section) return;
              var media = navigator.mediaDevices;
              if (!window.isSecureContext || !media || !media.getUserMedia) {
                document.getElementById("camera-insecure").hidden = false;
                return;
              }
              section.hidden = false;
              document.getElementById("camera-video").hidden = true;
              var button = document.getElementById("camera-start");
              var flip = document.getElementById("camera-flip");
              var torch = document.getElementById("camera-torch");
              var video = document.getElementById("camera-video");
              var status = document.getElementById("camera-status");
              var results = document.getElementById("camera-results");
              var eventField = document.getElementById("scan-event");
              var card = document.getElementById("scan-card");
              var token = section.querySelector("input[name=csrf]").value;
              var canvas = document.createElement("canvas");
              var longSide = 1280, workerSide = 960, every = 300, forgetAfter = 3000, kept = 20;
              var audio = null, stream = null, timer = 0, busy = false, frames = 0, facing = "environment";
              var decoder = null, mode = "server", frameID = 0, lastSeen = {};
              var current = null;
              var queue = window.prospectsQueue;

              eventField.value = localStorage.getItem("prospects-event") || "";
              eventField.addEventListener("change", function () {
                localStorage.setItem("prospects-event", eventField.value.trim());
              });

              // The session's scans, newest first, kept across a reload of this tab.
              var scans = [];
              try { scans = JSON.parse(sessionStorage.getItem("prospects-scans") || "[]"); } catch (error) { scans = []; }

              function stateText(entry) {
                var words = entry.state;
                if (entry.rating) words += " · " + entry.rating.charAt(0).toUpperCase() + entry.rating.slice(1);
                return words;
              }

              function render() {
                sessionStorage.setItem("prospects-scans", JSON.stringify(scans));
                results.textContent = "";
                scans.forEach(function (entry) {
                  var item = document.createElement("li");
                  item.className = entry.kind;
                  item.setAttribute("data-key", entry.key);
                  var who = document.createElement("strong");
                  who.textContent = entry.name;
                  var state = document.createElement("span");
                  state.className = "mark";
                  state.textContent = stateText(entry);
                  item.appendChild(who);
                  item.appendChild(document.createTextNode(" "));
                  item.appendChild(state);
                  results.appendChild(item);
                });
              }

              function entryFor(key) {
                for (var i = 0; i < scans.length; i += 1) if (scans[i].key === key) return scans[i];
                return null;
              }

              function remember(entry) {
                scans = [entry].concat(scans.filter(function (other) { return other.key !== entry.key; }))
                  .slice(0, kept);
                render();
              }

              function fromLead(lead) {
                return {
                  kind: lead.new ? "added" : "duplicate", name: lead.name, organization: lead.organization,
                  state: lead.new ? "new" : "seen before (scan " + lead.scans + ")", lead: lead.id,
                  rating: lead.rating === "none" ? "" : lead.rating, tags: lead.tags || []
                };
              }

              /// The card shows `entry` (the one whose key it holds), and its buttons change that entry.
              function showCard(entry) {
                current = entry;
                card.hidden = false;
                if (card.getAttribute("data-key") !== entry.key) {
                  // Another scan's card: its own note, and nothing half-typed from the one before.
                  document.querySelector("#card-note-form textarea").value = entry.note || "";
                  document.querySelector("#card-tag-form input").value = "";
                }
                card.setAttribute("data-key", entry.key);
                card.setAttribute("data-kind", entry.kind);
                if (entry.lead) card.setAttribute("data-lead", String(entry.lead)); else card.removeAttribute("data-lead");
                document.getElementById("card-state").textContent = entry.state;
                document.getElementById("card-name").textContent = entry.name;
                document.getElementById("card-organization").textContent = entry.organization || "";
                card.querySelectorAll("[data-rating]").forEach(function (choice) {
                  choice.setAttribute("aria-pressed", String(choice.getAttribute("data-rating") === entry.rating));
                  choice.disabled = entry.kind === "rejected";
                });
                var tags = document.getElementById("card-tags");
                tags.textContent = "";
                (entry.tags || []).forEach(function (tag) {
                  var item = document.createElement("li");
                  item.className = "tag";
                  item.textContent = tag;
                  tags.appendChild(item);
                });
                card.querySelectorAll("form input, form textarea, form button").forEach(function (control) {
                  control.disabled = entry.kind === "rejected";
                });
              }

              function said(text) { document.getElementById("card-saved").textContent = text; }

              /// Saves one change of the card: to the queued scan while it waits, else to the lead.
              function save(change, fields, path) {
                var entry = current;
                if (!entry) return;
                Object.keys(change).forEach(function (key) { entry[key] = change[key]; });
                remember(entry);
                showCard(entry);
                var queued = entry.scan && !entry.lead ? queue.update(entry.scan, change) : Promise.resolve(null);
                var saving = queued.then(function (scan) {
                  if (scan) return "Saved on this phone; sent with the scan.";
                  if (!entry.lead) throw new Error("the scan is no longer queued");
                  return queue.post("/leads/" + entry.lead + path, fields, token).then(function () { return "Saved."; },
                    function (error) {
                      // The server cannot be reached: kept on this phone and sent when it answers.
                      if (!error.network) throw error;
                      return queue.addEdit(entry.lead, path, fields, entry.name).then(function () {
                        return "Saved on this phone; sent when the server answers.";
                      });
                    });
                });
                saving.then(function (text) {
                  if (current === entry) said(text);
                  card.setAttribute("data-saved", String(Number(card.getAttribute("data-saved") || "0") + 1));
                }, function (error) {
                  if (current === entry) said("Not saved: " + error.message + ".");
                });
              }

              card.querySelectorAll("[data-rating]").forEach(function (choice) {
                choice.addEventListener("click", function () {
                  var rating = choice.getAttribute("data-rating");
                  save({ rating: rating }, { rating: rating }, "/rate");
                });
              });
              document.getElementById("card-tag-form").addEventListener("submit", function (event) {
                event.preventDefault();
                var field = event.target.elements.tag;
                var added = field.value.split(",").map(function (tag) { return tag.trim(); }).filter(Boolean);
                if (!current || !added.length) return;
                var tags = (current.tags || []).slice();
                added.forEach(function (tag) { if (tags.indexOf(tag) < 0) tags.push(tag); });
                field.value = "";
                save({ tags: tags }, { add: added.join(",") }, "/tags");
              });
              document.getElementById("card-note-form").addEventListener("submit", function (event) {
                event.preventDefault();
                var field = event.target.elements.note;
                var text = field.value.trim();
                if (!current || !text) return;
                save({ note: text }, { text: text }, "/note");
              });

              function beep() {
                if (navigator.vibrate) navigator.vibrate(120);
                if (!audio) return;
                var tone = audio.createOscillator(), gain = audio.createGain();
                tone.frequency.value = 880;
                gain.gain.value = 0.1;
                tone.connect(gain);
                gain.connect(audio.destination);
                tone.start();
                tone.stop(audio.currentTime + 0.12);
              }

              /// The codes a frame showed that are new: not in view within the last three seconds.
              function newCodes(codes) {
                var now = Date.now(), fresh = [];
                Object.keys(lastSeen).forEach(function (code) {
                  if (codes.indexOf(code) < 0 && now - lastSeen[code] >= forgetAfter) delete lastSeen[code];
                });
                codes.forEach(function (code) {
                  if (!(code in lastSeen) && fresh.indexOf(code) < 0) fresh.push(code);
                  lastSeen[code] = now;
                });
                return fresh;
              }

              /// Codes read on the phone: each new one queued (with the frame, when there is one) and on the card.
              function codesRead(codes, frame) {
                var fresh = newCodes(codes);
                fresh.forEach(function (payload) {
                  queue.add({ payload: payload, event: eventField.value.trim(), frame: frame || null })
                    .then(function (scan) {
                      var entry = {
                        key: scan.id, scan: scan.id, kind: "waiting", name: scan.preview.name,
                        organization: scan.preview.organization, state: "waiting to sync", rating: "", tags: []
                      };
                      remember(entry);
                      showCard(entry);
                      said("");
                      beep();
                    });
                });
                return fresh;
              }

              window.addEventListener("prospects-queue", function (event) {
                var detail = event.detail;
                if (detail.kind !== "synced" && detail.kind !== "rejected") return;
                var entry = entryFor(detail.scan.id);
                if (!entry) return;
                if (detail.kind === "synced" && detail.result.card) {
                  var lead = fromLead(detail.result.card);
                  lead.rating = detail.scan.rating || lead.rating;
                  Object.keys(lead).forEach(function (key) { entry[key] = lead[key]; });
                } else if (detail.kind === "rejected") {
                  entry.kind = "rejected";
                  entry.state = "rejected: " + detail.scan.reason;
                }
                remember(entry);
                if (current === entry) showCard(entry);
              });

              function answered(answer) {
                frames += 1;
                section.setAttribute("data-frames", String(frames));
                if (answer.status !== "scanned") return;
                var shown = null;
                (answer.leads || []).forEach(function (lead) {
                  var entry = fromLead(lead);
                  entry.key = "lead-" + lead.id + "-" + Date.now();
                  remember(entry);
                  shown = shown || entry;
                });
                (answer.lines || []).forEach(function (line) {
                  if (line.kind !== "rejected") return;
                  var entry = { key: "rejected-" + Date.now(), kind: "rejected", name: "Not a contact", state: line.text };
                  remember(entry);
                  shown = shown || entry;
                });
                if (shown) {
                  showCard(shown);
                  said("");
                  beep();
                }
              }

              function send(blob) {
                var form = new FormData();
                form.append("csrf", token);
                form.append("frame", blob, "camera.jpg");
                return fetch("/scan/frame", { method: "POST", body: form, credentials: "same-origin" })
                  .then(function (response) {
                    if (!response.ok) throw new Error("HTTP " + response.status);
                    return response.json();
                  })
                  .then(function (answer) {
                    answered(answer);
                    status.textContent = "Point the camera at a QR code.";
                  });
              }

              function draw(side) {
                var scale = Math.min(1, side / Math.max(video.videoWidth, video.videoHeight));
                canvas.width = Math.round(video.videoWidth * scale);
                canvas.height = Math.round(video.videoHeight * scale);
                var context = canvas.getContext("2d", { willReadFrequently: mode === "worker" });
                context.drawImage(video, 0, 0, canvas.width, canvas.height);
                return context;
              }

              function grab() {
                if (!stream || busy || video.readyState < 2 || !video.videoWidth) return;
                busy = true;
                if (mode === "worker") {
                  var context = draw(workerSide);
                  var image = context.getImageData(0, 0, canvas.width, canvas.height);
                  frameID += 1;
                  decoder.postMessage({ id: frameID, width: image.width, height: image.height, data: image.data },
                    [image.data.buffer]);
                  return;
                }
                draw(longSide);
                canvas.toBlob(function (blob) {
                  if (!blob) { busy = false; return; }
                  send(blob)
                    .catch(function () {
                      status.textContent = navigator.onLine === false
                        ? "Offline: this browser has no decoder of its own, so codes are read only with the server."
                        : "The server did not answer; still trying.";
                    })
                    .then(function () { busy = false; });
                }, "image/jpeg", 0.85);
              }

              /// The phone's own decoder, when its worker loads; the server's otherwise.
              function startDecoder() {
                if (decoder || !window.Worker) return;
                try { decoder = new Worker("/static/zbar-worker.js"); } catch (error) { decoder = null; return; }
                decoder.addEventListener("error", function (event) {
                  event.preventDefault();
                  if (mode === "worker") busy = false;
                  mode = "server";
                  section.setAttribute("data-decoder", "server");
                });
                var probes = 0, failures = 0;
                function probe() {
                  probes += 1;
                  decoder.postMessage({ id: 0, width: 2, height: 2, data: new Uint8ClampedArray(16) });
                }
                decoder.addEventListener("message", function (event) {
                  var answer = event.data || {};
                  if (answer.id === 0) {
                    // Not ready yet (its module still loading): asked again, five times at most.
                    if (answer.error) { if (probes < 5) setTimeout(probe, 1000); return; }
                    mode = "worker";
                    section.setAttribute("data-decoder", "phone");
                    return;
                  }
                  if (answer.id !== frameID) return;
                  busy = false;
                  if (answer.error) {
                    // A decoder that keeps failing hands the frames back to the server.
                    failures += 1;
                    if (failures >= 5) { mode = "server"; section.setAttribute("data-decoder", "server"); }
                    return;
                  }
                  failures = 0;
                  frames += 1;
                  section.setAttribute("data-frames", String(frames));
                  var codes = answer.codes || [];
                  if (!codes.length) { newCodes([]); return; }
                  canvas.toBlob(function (blob) { codesRead(codes, blob); }, "image/jpeg", 0.85);
                });
                // Asked with a blank frame: an answer says it works; until then the server decodes.
                probe();
              }

              function stop() {
                clearInterval(timer);
                stream.getTracks().forEach(function (track) { track.stop(); });
                stream = null;
                video.srcObject = null;
                video.hidden = true;
                button.textContent = "Start camera";
                flip.hidden = true;
                torch.hidden = true;
                status.textContent = "";
              }

              function start() {
                return media.getUserMedia({ video: { facingMode: facing }, audio: false })
                  .then(function (camera) {
                    stream = camera;
                    video.srcObject = camera;
                    video.hidden = false;
                    video.play();
                    button.textContent = "Stop camera";
                    flip.hidden = false;
                    flip.textContent = facing === "environment" ? "Front camera" : "Rear camera";
                    var track = camera.getVideoTracks()[0];
                    var can = track && track.getCapabilities ? track.getCapabilities() : {};
                    torch.hidden = !can.torch;
                    torch.setAttribute("aria-pressed", "false");
                    status.textContent = "Point the camera at a QR code.";
                    section.setAttribute("data-facing", facing);
                    timer = setInterval(grab, every);
                  })
                  .catch(function (error) {
                    status.textContent = "The camera cannot be used here (" + error.name + "). Upload pictures instead.";
                  });
              }

              button.addEventListener("click", function () {
                if (stream) { stop(); return; }
                // Made on the click: browsers let only a user's gesture start sound.
                var Context = window.AudioContext || window.webkitAudioContext;
                if (!audio && Context) audio = new Context();
                startDecoder();
                start();
              });
              flip.addEventListener("click", function () {
                facing = facing === "environment" ? "user" : "environment";
                if (stream) stop();
                start();
              });
              torch.addEventListener("click", function () {
                var track = stream && stream.getVideoTracks()[0];
                if (!track) return;
                var on = torch.getAttribute("aria-pressed") !== "true";
                track.applyConstraints({ advanced: [{ torch: on }] }).then(function () {
                  torch.setAttribute("aria-pressed", String(on));
                }, function () { torch.hidden = true; });
              });

              render();
              window.prospectsQuickScan = { codesRead: codesRead, showCard: showCard };
            })();
            """#)
}
