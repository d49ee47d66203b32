extension StaticFile {
    /// The Scan page's live camera, where the page is a secure context: about three frames a second drawn to a
    /// canvas at most 1280 pixels long, sent as JPEG with the form token to `POST /scan/frame`, which decodes them
    /// with zbar; a new lead is shown with a beep (WebAudio) and a vibration. The server counts a code held in view
    /// once (`CodeRepeatFilter`); one frame is in flight at a time.
    static let camera = StaticFile(
        path: "/static/camera.js", contentType: "text/javascript; charset=utf-8",
        content: """
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
              var button = document.getElementById("camera-start");
              var video = document.getElementById("camera-video");
              var status = document.getElementById("camera-status");
              var results = document.getElementById("camera-results");
              var token = section.querySelector("input[name=csrf]").value;
              var canvas = document.createElement("canvas");
              var longSide = 1280, every = 300;
              var audio = null, stream = null, timer = 0, busy = false, frames = 0;

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

              function show(lines) {
                lines.forEach(function (line) {
                  var item = document.createElement("li");
                  item.className = line.kind;
                  item.textContent = line.text;
                  results.insertBefore(item, results.firstChild);
                });
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
                    frames += 1;
                    section.setAttribute("data-frames", String(frames));
                    if (answer.status === "scanned") {
                      show(answer.lines);
                      beep();
                    }
                    status.textContent = "Point the camera at a QR code.";
                  });
              }

              function grab() {
                if (!stream || busy || video.readyState < 2 || !video.videoWidth) return;
                var scale = Math.min(1, longSide / Math.max(video.videoWidth, video.videoHeight));
                canvas.width = Math.round(video.videoWidth * scale);
                canvas.height = Math.round(video.videoHeight * scale);
                canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
                busy = true;
                canvas.toBlob(function (blob) {
                  if (!blob) { busy = false; return; }
                  send(blob)
                    .catch(function () { status.textContent = "The server did not answer; still trying."; })
                    .then(function () { busy = false; });
                }, "image/jpeg", 0.85);
              }

              function stop() {
                clearInterval(timer);
                stream.getTracks().forEach(function (track) { track.stop(); });
                stream = null;
                video.srcObject = null;
                button.textContent = "Start camera";
                status.textContent = "";
              }

              button.addEventListener("click", function () {
                if (stream) { stop(); return; }
                // Made on the click: browsers let only a user's gesture start sound.
                var Context = window.AudioContext || window.webkitAudioContext;
                if (!audio && Context) audio = new Context();
                media.getUserMedia({ video: { facingMode: "environment" }, audio: false })
                  .then(function (camera) {
                    stream = camera;
                    video.srcObject = camera;
                    video.play();
                    button.textContent = "Stop camera";
                    status.textContent = "Point the camera at a QR code.";
                    timer = setInterval(grab, every);
                  })
                  .catch(function (error) {
                    status.textContent = "The camera cannot be used here (" + error.name + "). Upload pictures instead.";
                  });
              });
            })();
            """)
}
