// The replay page (templates/replay.html): step through a finished match in place.
// The page holds the steps of one deal (each a <section data-step> of #replay-steps,
// all but one hidden); another deal's steps are fetched once, when the viewer goes
// there (/history/<id>/replay/deal/<n>). Buttons, the deals, the list of every step
// and the keys (arrows, Home/End, Page Up/Down) show a step without loading a page;
// the address follows (?step=N), so reloading or sharing it opens the same step.
// Without this file every button and link loads ?step=N.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var total = parseInt(root.dataset.total, 10);
  var current = parseInt(root.dataset.step, 10);
  var box = document.getElementById("replay-steps");
  var live = document.getElementById("replay-live");
  var count = document.getElementById("step-count");
  var deals = Array.prototype.slice.call(root.querySelectorAll(".replay-deals [data-deal]"));
  var loading = {};

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? String(values[key]) : all;
    });
  }
  function section(n) { return box.querySelector('section[data-step="' + n + '"]'); }
  // the deal link whose steps hold step n (the deals are in order of their first step)
  function dealOf(n) {
    var found = deals[0];
    deals.forEach(function (d) { if (parseInt(d.dataset.to, 10) <= n) { found = d; } });
    return found;
  }
  function load(deal) {
    var no = deal.dataset.deal;
    if (!loading[no]) {
      loading[no] = fetch(root.dataset.dealUrl + no, {credentials: "same-origin"})
        .then(function (r) {
          if (!r.ok) { throw new Error(r.status); }
          return r.text();
        })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          doc.querySelectorAll("section[data-step]").forEach(function (s) {
            if (!section(s.dataset.step)) { box.appendChild(document.importNode(s, true)); }
          });
        })
        .catch(function (err) { delete loading[no]; throw err; });
    }
    return loading[no];
  }
  function mark(n) {
    var last = total - 1;
    root.querySelectorAll("[data-go]").forEach(function (b) {
      var to = {first: 0, prev: Math.max(n - 1, 0), next: Math.min(n + 1, last), last: last}[b.dataset.go];
      b.value = String(to);
      if (to === n) { b.setAttribute("aria-disabled", "true"); } else { b.removeAttribute("aria-disabled"); }
    });
    var deal = dealOf(n);
    deals.forEach(function (d) {
      if (d === deal) { d.setAttribute("aria-current", "true"); } else { d.removeAttribute("aria-current"); }
    });
    root.querySelectorAll(".replay-log li").forEach(function (li, i) {
      if (i === n) { li.setAttribute("aria-current", "step"); } else { li.removeAttribute("aria-current"); }
    });
    var counted = fill(root.dataset.stepText, {n: n + 1, total: total});
    count.textContent = counted;
    var lines = section(n).querySelector(".step-lines");
    live.textContent = fill(root.dataset.dealText, {no: deal.dataset.deal}) + " " + counted +
      ". " + (lines ? lines.textContent.trim() : "");
  }
  function show(n) {
    box.querySelectorAll("section[data-step]").forEach(function (s) {
      s.hidden = s.dataset.step !== String(n);
    });
    current = n;
    root.dataset.step = String(n);
    mark(n);
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(n));
    window.history.replaceState({step: n}, "", url.toString());
  }
  function go(n) {
    n = Math.max(0, Math.min(total - 1, n));
    if (n === current && section(n) && !section(n).hidden) { return; }
    if (section(n)) { show(n); return; }
    load(dealOf(n)).then(function () { show(n); }, function () {
      live.textContent = root.dataset.failedText;
    });
  }
  function goDeal(step) {
    var i = deals.indexOf(dealOf(current)) + step;
    if (i >= 0 && i < deals.length) { go(parseInt(deals[i].dataset.to, 10)); }
  }

  root.addEventListener("click", function (e) {
    var button = e.target.closest("[data-go]");
    var link = e.target.closest("a[data-to]");
    if (button) {
      e.preventDefault();
      if (button.getAttribute("aria-disabled") !== "true") { go(parseInt(button.value, 10)); }
    } else if (link && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
      e.preventDefault();
      go(parseInt(link.dataset.to, 10));
    }
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) { return; }
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName))) { return; }
    var moves = {
      ArrowLeft: function () { go(current - 1); }, ArrowRight: function () { go(current + 1); },
      Home: function () { go(0); }, End: function () { go(total - 1); },
      PageUp: function () { goDeal(-1); }, PageDown: function () { goDeal(1); }
    };
    if (moves[e.key]) { e.preventDefault(); moves[e.key](); }
  });
})();
