extension StaticFile {
    /// The Web Worker that reads QR codes on the phone with zbar.wasm (`ZBarModule`), so a scan shows who it was at
    /// once, online or not; the server still parses and checks every payload it is sent.
    ///
    /// Protocol: post `{id, width, height, data}`, `data` a frame's RGBA pixels (`getImageData(…).data`, or the
    /// ImageData itself) or its gray pixels (`width × height` bytes); the answer is `{id, codes: [string], ms}` or
    /// `{id, error}`. Each code's text is read as the server's PayloadText reads it: a leading byte order mark
    /// dropped, then UTF-8, else Shift_JIS, else Latin-1. The few WASI functions the module imports are provided
    /// here (docs/phone-decoding.md).
    static let zbarWorker = StaticFile(
        path: "/static/zbar-worker.js", contentType: "text/javascript; charset=utf-8",
        content: """
            "use strict";
            var zbar = null, memory = null, frame = 0, frameSize = 0, consoleBytes = [];
            function view() { return new DataView(memory.buffer); }
            var wasi = {
              fd_write: function (fd, iovs, count, written) {
                var data = view(), total = 0;
                for (var i = 0; i < count; i++) {
                  var start = data.getUint32(iovs + 8 * i, true), length = data.getUint32(iovs + 8 * i + 4, true);
                  var bytes = new Uint8Array(memory.buffer, start, length);
                  for (var j = 0; j < length; j++) {
                    if (bytes[j] === 10) {
                      console.warn("zbar: " + new TextDecoder().decode(new Uint8Array(consoleBytes)));
                      consoleBytes = [];
                    } else if (consoleBytes.length < 4096) consoleBytes.push(bytes[j]);
                  }
                  total += length;
                }
                data.setUint32(written, total, true);
                return 0;
              },
              fd_close: function () { return 0; },
              fd_seek: function () { return 70; },
              proc_exit: function (code) { throw new Error("zbar exited with status " + code); },
              clock_time_get: function (clock, precision, time) {
                var ns = BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
                view().setBigUint64(time, ns, true);
                return 0;
              }
            };
            var env = { emscripten_notify_memory_growth: function () {} };
            var ready = WebAssembly.instantiateStreaming(
              fetch("\(ZBarModule.path)"), { wasi_snapshot_preview1: wasi, env: env }
            ).then(function (result) {
              zbar = result.instance.exports;
              memory = zbar.memory;
              zbar._initialize();
            });

            var utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
            var shiftJIS = null;
            try { shiftJIS = new TextDecoder("shift_jis", { fatal: true }); } catch (error) { shiftJIS = null; }
            function text(bytes) {
              if (bytes.length >= 3 && bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF) {
                bytes = bytes.subarray(3);
              }
              try { return utf8.decode(bytes); } catch (error) { /* not UTF-8 */ }
              if (shiftJIS) { try { return shiftJIS.decode(bytes); } catch (error) { /* not Shift_JIS */ } }
              var latin1 = "";
              for (var i = 0; i < bytes.length; i++) latin1 += String.fromCharCode(bytes[i]);
              return latin1;
            }

            function scan(message) {
              var started = performance.now();
              var width = message.width, height = message.height, data = message.data;
              if (data && data.data && !(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data)) data = data.data;
              if (data instanceof ArrayBuffer) data = new Uint8Array(data);
              if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0 ||
                  width * height > 50000000) {
                return { id: message.id, error: "width and height must be positive whole numbers, not " +
                  width + " × " + height };
              }
              if (!ArrayBuffer.isView(data)) return { id: message.id, error: "data must be a Uint8Array of pixels" };
              var pixels = width * height, channels = data.byteLength === pixels ? 1 :
                data.byteLength === 4 * pixels ? 4 : 0;
              if (!channels) {
                return { id: message.id, error: "data holds " + data.byteLength + " bytes; a " + width + " × " +
                  height + " frame takes " + pixels + " (gray) or " + 4 * pixels + " (RGBA)" };
              }
              if (frameSize < data.byteLength) {
                if (frame) zbar.prospects_free(frame);
                frame = zbar.prospects_alloc(data.byteLength);
                frameSize = frame ? data.byteLength : 0;
                if (!frame) return { id: message.id, error: "no memory for a " + width + " × " + height + " frame" };
              }
              new Uint8Array(memory.buffer, frame, data.byteLength)
                .set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
              var used = zbar.prospects_scan(frame, width, height, channels);
              if (used < 0) return { id: message.id, error: "zbar could not scan the frame" };
              var results = new Uint8Array(memory.buffer, zbar.prospects_results(), used).slice();
              var lengths = new DataView(results.buffer), codes = [];
              for (var at = 0; at + 4 <= used;) {
                var length = lengths.getUint32(at, true);
                codes.push(text(results.subarray(at + 4, at + 4 + length)));
                at += 4 + length;
              }
              return { id: message.id, codes: codes, ms: performance.now() - started };
            }

            self.onmessage = function (event) {
              var message = event.data || {};
              ready.then(function () {
                var answer;
                try { answer = scan(message); } catch (error) { answer = { id: message.id, error: String(error) }; }
                self.postMessage(answer);
              }, function (error) {
                self.postMessage({ id: message.id, error: "zbar.wasm did not load: " + error });
              });
            };
            """,
        contentSecurityPolicy: SecurityHeaders.webAssemblyWorkerPolicy)
}
