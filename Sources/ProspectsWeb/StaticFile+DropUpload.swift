extension StaticFile {
    /// Drag-and-drop on the Scan page: files dropped on the upload form are put in its file input and the form is
    /// sent, so a drop takes the plain form's path (and the form works as before without scripts).
    static let dropUpload = StaticFile(
        path: "/static/drop.js", contentType: "text/javascript; charset=utf-8",
        content: """
            "use strict";
            (function () {
              var form = document.getElementById("upload-form");
              if (!form || !window.DataTransfer) return;
              var input = form.querySelector("input[type=file]");
              var depth = 0;
              function hasFiles(event) {
                return event.dataTransfer && Array.prototype.indexOf.call(event.dataTransfer.types, "Files") >= 0;
              }
              form.addEventListener("dragenter", function (event) {
                if (!hasFiles(event)) return;
                event.preventDefault();
                depth += 1;
                form.classList.add("dropping");
              });
              form.addEventListener("dragover", function (event) {
                if (!hasFiles(event)) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = "copy";
              });
              form.addEventListener("dragleave", function () {
                depth = Math.max(0, depth - 1);
                if (depth === 0) form.classList.remove("dropping");
              });
              form.addEventListener("drop", function (event) {
                if (!hasFiles(event) || !event.dataTransfer.files.length) return;
                event.preventDefault();
                depth = 0;
                form.classList.remove("dropping");
                input.files = event.dataTransfer.files;
                if (form.requestSubmit) form.requestSubmit(); else form.submit();
              });
            })();
            """)
}
