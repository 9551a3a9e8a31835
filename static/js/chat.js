// The table chat: empty the field after sending, keep the log scrolled to the
// newest message, show times in the reader's own time zone, and on a phone fold
// the panel behind a button that counts unread messages.
(function () {
  "use strict";
  var KEEP = 100;
  var narrow = window.matchMedia("(max-width: 899px)");
  var lastSeen = 0;

  function log() { return document.getElementById("chat-log"); }
  function panel() { return document.getElementById("chat"); }
  function toggle() { return document.querySelector(".chat-toggle"); }
  function isOpen() { return !narrow.matches || panel().classList.contains("open"); }

  function maxId(list) {
    var top = 0;
    list.forEach(function (li) { top = Math.max(top, parseInt(li.dataset.id, 10) || 0); });
    return top;
  }
  function localTimes(root) {
    root.querySelectorAll("time[datetime]:not([data-local])").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) {
        t.textContent = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
        t.title = d.toLocaleString();
      }
      t.dataset.local = "1";
    });
  }
  function trim(el) {
    while (el.children.length > KEEP) { el.removeChild(el.firstElementChild); }
  }
  function countUnread() {
    var el = log(), badge = toggle() && toggle().querySelector(".unread");
    if (!el || !badge) { return; }
    if (isOpen()) {
      lastSeen = Math.max(lastSeen, maxId(el.querySelectorAll("li[data-id]")));
      badge.hidden = true;
      return;
    }
    var unread = Array.prototype.filter.call(el.querySelectorAll("li[data-id]:not(.mine)"),
      function (li) { return (parseInt(li.dataset.id, 10) || 0) > lastSeen; }).length;
    badge.textContent = unread > 99 ? "99+" : String(unread);
    badge.hidden = unread === 0;
  }
  function refresh(stick) {
    var el = log();
    if (!el) { return; }
    trim(el);
    localTimes(el);
    if (stick) { el.scrollTop = el.scrollHeight; }
    countUnread();
  }
  function setOpen(open) {
    var p = panel(), t = toggle();
    if (!p || !t) { return; }
    p.classList.toggle("open", open);
    t.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      refresh(true);
      // the sheet lies over the top of the screen (social.css): the focus goes into it
      var close = p.querySelector(".chat-close");
      if (close) { close.focus(); }
    } else {
      countUnread();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var el = log();
    if (!el) { return; }
    lastSeen = maxId(el.querySelectorAll("li[data-id]"));  // what the page showed is read
    refresh(true);
    var close = document.querySelector(".chat-close");
    if (close) { close.hidden = false; }
  });
  document.addEventListener("click", function (e) {
    if (e.target.closest(".chat-toggle")) { setOpen(!panel().classList.contains("open")); }
    else if (e.target.closest(".chat-close")) { setOpen(false); toggle().focus(); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && narrow.matches && panel() && panel().classList.contains("open")) {
      setOpen(false);
      toggle().focus();
    }
  });
  if (narrow.addEventListener) { narrow.addEventListener("change", function () { countUnread(); }); }

  // Before an oob swap of the log, note whether the reader was at the bottom.
  var atBottom = true;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var el = log();
    atBottom = !el || el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  });
  document.addEventListener("htmx:wsAfterMessage", function () { refresh(atBottom); });

  // The message went out: empty the field for the next one (the name stays).
  document.addEventListener("htmx:wsAfterSend", function (e) {
    var form = e.target && e.target.closest && e.target.closest("form.chat-form");
    if (!form) { return; }
    var text = form.querySelector('input[name="chat"]');
    if (text) { text.value = ""; text.focus(); }
    atBottom = true;
  });
})();
