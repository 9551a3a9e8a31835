// Sharing the room link, and following the table to a rematch.
(function () {
  "use strict";

  // A click in the link field selects all of it.
  document.addEventListener("focusin", function (e) {
    var el = e.target;
    if (el && el.matches && el.matches("input[data-select-all]")) { el.select(); }
  });
  document.addEventListener("click", function (e) {
    var el = e.target;
    if (el && el.matches && el.matches("input[data-select-all]")) { el.select(); }
  });

  // The copy button: the Clipboard API where the page may use it (HTTPS or
  // localhost), else the old execCommand way, else select the text for the user.
  function say(button, text) {
    var note = button.parentNode.querySelector(".copy-note");
    if (!note) { return; }
    note.textContent = text;
    clearTimeout(note._timer);
    note._timer = setTimeout(function () { note.textContent = ""; }, 2500);
  }
  function fallback(input) {
    input.focus();
    input.select();
    try { return document.execCommand("copy"); } catch (err) { return false; }
  }
  document.addEventListener("click", function (e) {
    var button = e.target && e.target.closest && e.target.closest("[data-copy]");
    if (!button) { return; }
    var input = document.getElementById(button.dataset.copy);
    if (!input) { return; }
    var done = function () { say(button, button.dataset.copied || "Copied!"); };
    var failed = function () {
      if (fallback(input)) { done(); } else { say(button, button.dataset.copyFailed || ""); }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, failed);
    } else {
      failed();
    }
  });

  // The QR code opens by itself on the waiting table; once the match runs it folds
  // away (still one click away), unless the reader opened or closed it by hand.
  document.addEventListener("click", function (e) {
    var summary = e.target && e.target.closest && e.target.closest("details.qr > summary");
    if (summary) { delete summary.parentNode.dataset.auto; }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    var qr = document.querySelector("details.qr[data-auto]");
    var version = document.getElementById("version");
    if (qr && version && version.dataset.status && version.dataset.status !== "waiting") {
      delete qr.dataset.auto;
      qr.open = false;
    }
  });

  // A rematch started: the server pushes an element with data-goto; go there.
  var going = false;
  function follow() {
    var el = document.querySelector("[data-goto]");
    if (el && !going) {
      going = true;
      window.location.assign(el.dataset.goto);
    }
  }
  document.addEventListener("htmx:wsAfterMessage", follow);
  document.addEventListener("DOMContentLoaded", follow);
})();
