// The little that htmx cannot do by itself: show whether the table's live
// connection is up, and mark a card as sent so a double click is not repeated.
(function () {
  // the words come from the page (data-open, data-closed, data-error on #conn), so
  // they are in the page's language
  function setConn(state, word) {
    var el = document.getElementById("conn");
    if (el) { el.dataset.state = state; el.title = el.dataset[word] || el.title; }
  }
  document.addEventListener("htmx:wsOpen", function () { setConn("open", "open"); });
  document.addEventListener("htmx:wsClose", function () { setConn("closed", "closed"); });
  document.addEventListener("htmx:wsError", function () { setConn("closed", "error"); });
  document.addEventListener("htmx:wsBeforeSend", function (e) {
    var elt = e.target;
    if (elt && elt.classList) { elt.classList.add("sent"); }
  });
})();

// Mauscheln exchange: keep the confirm button's data-action equal to the engine's
// action string for the ticked cards (hand order), and say how many are ticked.
document.addEventListener("change", function (e) {
  var form = e.target && e.target.closest && e.target.closest("form.exchange");
  if (!form) { return; }
  var picked = Array.prototype.map.call(
    form.querySelectorAll('input[name="discard"]:checked'), function (i) { return i.value; });
  var button = form.querySelector("[data-exchange]");
  button.dataset.action = "exchange:" + picked.join(",");
  var n = picked.length;
  var count = button.querySelector("[data-count]");  // its words are the page's language
  count.textContent = n === 0 ? count.dataset.none : n === 1 ? count.dataset.one
    : count.dataset.many.replace("{n}", String(n));
});

// Lügenbeutel: count the challenge window down. The server says how many
// milliseconds were left when it rendered; the count runs from when it arrived.
(function () {
  var lang = document.documentElement.lang || undefined;
  function seconds(ms) {  // 2.5 in English, 2,5 in German
    return (ms / 1000).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-countdown-ms]").forEach(function (el) {
      if (!el.dataset.startedAt) { el.dataset.startedAt = String(now); }
      var left = parseInt(el.dataset.countdownMs, 10) - (now - parseInt(el.dataset.startedAt, 10));
      var out = el.querySelector("[data-left]");
      if (left <= 0) { el.classList.add("closed"); if (out) { out.textContent = seconds(0); } return; }
      if (out) { out.textContent = seconds(left); }
    });
  }
  setInterval(tick, 100);
})();

// Every push redraws the table; a <details> the player opened (last trick, all
// deals, skip) stays open across pushes.
(function () {
  var open = {};
  document.addEventListener("toggle", function (e) {
    var key = e.target && e.target.dataset && e.target.dataset.keep;
    if (key) { open[key] = e.target.open; }
  }, true);
  document.addEventListener("htmx:wsAfterMessage", function () {
    document.querySelectorAll("details[data-keep]").forEach(function (d) {
      if (open[d.dataset.keep] === true) { d.open = true; }
    });
  });
})();

// The room link selects itself when clicked, so it can be copied at once.
document.addEventListener("click", function (e) {
  var el = e.target;
  if (el && el.matches && el.matches("[data-select-on-click]")) { el.select(); }
});
