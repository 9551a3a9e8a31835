// The little that htmx cannot do by itself: show whether the table's live
// connection is up, mark a card as sent, and send one move per table version.

// Whether a pushed frame carries an error notice with its message: the server
// refused what this page sent (stale, illegal, too fast...).
function tableRefused(message) {
  return /id="flash"[^>]*class="flash error"[^>]*><span>/.test(message || "");
}
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
    // a card that cannot be played (.blocked) asks why: nothing is sent to the table
    if (elt && elt.classList && !elt.classList.contains("blocked")) { elt.classList.add("sent"); }
  });
  // An action names the version of the table it was made from: the one the page
  // shows (#version comes with every push), so the buttons themselves need not
  // carry it and stay the same HTML from one push to the next.
  // One move per version: a second tap before the table moved on (a double tap, an
  // impatient tap while a move waits out the challenge window) would only come back
  // refused as stale, so it is not sent. A refusal (an error notice), a reconnect or
  // five seconds without an answer let another move be tried at the same version.
  var sent = null;  // {version, at} of the last action sent
  document.addEventListener("htmx:wsConfigSend", function (e) {
    var p = e.detail && e.detail.parameters;
    var v = document.getElementById("version");
    // a practice table's Hint button asks about the version the page shows
    if (p && p.hint !== undefined && p.action === undefined) {
      if (v) { p.hint = parseInt(v.dataset.version, 10); }
      return;
    }
    if (!p || p.action === undefined) { return; }
    if (p.version === undefined && v) { p.version = parseInt(v.dataset.version, 10); }
    var now = Date.now();
    if (sent && sent.version === p.version && now - sent.at < 5000) {
      e.preventDefault();
      return;
    }
    sent = { version: p.version, at: now };
  });
  document.addEventListener("htmx:wsAfterMessage", function (e) {
    if (tableRefused(e.detail && e.detail.message)) { sent = null; }
  });
  document.addEventListener("htmx:wsOpen", function () { sent = null; });
})();

// The plates round the table and the trick's cards are placed in CSS from their
// seat and the viewer's seat (--me on the felt), so their HTML is the same for every
// seat. The viewer's seat comes with the viewer's own hand (data-seat on #hand,
// empty for a spectator, who sees the table from seat 0): the page sets --me when it
// is drawn; after a push (a seat swap, a seat released) it follows #hand. Here the
// viewer's plate is marked (.me: bold, its "(you)" shown), and the plates at the
// side of the felt (.side, narrower: x < .25 or x > .75, as the CSS places them).
(function () {
  function mark() {
    var felt = document.querySelector(".felt-wrap");
    var seats = document.getElementById("seats");
    if (!felt || !seats) { return; }
    var hand = document.getElementById("hand");
    var mine = hand && hand.dataset.seat ? Number(hand.dataset.seat) : null;
    var me = mine === null ? 0 : mine;
    felt.style.setProperty("--me", String(me));
    var plates = seats.querySelectorAll(".plate[data-seat]");
    var n = plates.length;
    plates.forEach(function (plate) {
      var s = Number(plate.dataset.seat);
      var x = 0.5 + 0.5 * Math.cos(Math.PI / 2 + 2 * Math.PI * (s - me) / n);
      x = Math.round(x * 1000) / 1000;
      plate.classList.toggle("me", s === mine);
      plate.classList.toggle("side", x < 0.25 || x > 0.75);
    });
  }
  document.addEventListener("htmx:wsAfterMessage", mark);
  document.addEventListener("DOMContentLoaded", mark);
  mark();  // deferred: the page is parsed already
})();

// Count a window down (data-countdown-ms: a challenge window, the pause of a held
// trick). The server says how many milliseconds were left when it rendered; the
// count runs from when it arrived.
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

// The turn clock on the plate of the seat whose move is awaited. The server renders
// the time left (data-left-ms), the clock's full time (data-total-ms) and the
// deadline (data-deadline, ms since the epoch);
// the count runs from when the fragment arrived, so a wrong clock on this computer
// does not matter.
(function () {
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clock[data-left-ms]").forEach(function (el) {
      if (!el.dataset.startedAt) { el.dataset.startedAt = String(now); }
      var left = parseInt(el.dataset.leftMs, 10) - (now - parseInt(el.dataset.startedAt, 10));
      // after a finished trick the clock waits for the pause: it shows the full time
      left = Math.min(left, parseInt(el.dataset.totalMs || el.dataset.leftMs, 10));
      var secs = Math.max(0, Math.ceil(left / 1000));
      var out = el.querySelector("[data-clock]");
      if (out) { out.textContent = Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0"); }
      el.classList.toggle("low", secs <= 10);
    });
  }
  setInterval(tick, 250);
  document.addEventListener("htmx:wsAfterMessage", tick);
})();

// Your turn: the server renders, per seat, the tab title and whether it is this
// seat's turn (#turn-signal). After every push the title follows it; when a turn
// begins, an optional sound, a desktop notification while the tab is hidden (if
// allowed) and a polite announcement for screen readers.
(function () {
  var SOUND_KEY = "stammtisch.sound";
  var lastKey = null;
  var wasMyTurn = false;
  var audio = null;

  function asset(key, plain) {  // the content-hashed URL the page names, if it does
    var room = document.getElementById("room");
    return (room && room.dataset[key]) || plain;
  }

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function showSound() {
    var b = document.getElementById("sound-toggle");
    if (!b) { return; }
    var on = soundOn();
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.textContent = on ? b.dataset.on : b.dataset.off;
  }

  function playSound() {
    if (!soundOn()) { return; }
    if (!audio) { audio = new Audio(asset("sound", "/static/sound/turn.wav")); }
    audio.currentTime = 0;
    var p = audio.play();
    if (p && p.catch) { p.catch(function () {}); }
  }

  function showNotify() {
    var b = document.getElementById("notify-allow");
    if (!b) { return; }
    if (!("Notification" in window)) { b.hidden = true; return; }
    b.hidden = false;
    if (Notification.permission === "granted") {
      b.textContent = b.dataset.granted; b.disabled = true;
    } else if (Notification.permission === "denied") {
      b.textContent = b.dataset.denied; b.disabled = true;
    }
  }

  function notify(signal) {
    if (!document.hidden || !("Notification" in window)) { return; }
    if (Notification.permission !== "granted") { return; }
    try {
      var n = new Notification(signal.dataset.notifyTitle, {
        body: signal.dataset.notifyBody, tag: "stammtisch-turn", icon: asset("icon", "/static/img/favicon.svg")
      });
      n.onclick = function () { window.focus(); n.close(); };
    } catch (e) { /* some browsers allow notifications from a service worker only */ }
  }

  function apply() {
    var signal = document.getElementById("turn-signal");
    if (!signal) { return; }
    if (signal.dataset.title) { document.title = signal.dataset.title; }
    var mine = signal.dataset.myTurn === "1";
    var key = signal.dataset.turnKey;
    if (mine && !(wasMyTurn && key === lastKey)) {
      if (!wasMyTurn) {
        playSound();
        notify(signal);
        var live = document.getElementById("turn-live");
        if (live) { live.textContent = ""; live.textContent = signal.dataset.announce; }
      }
    }
    wasMyTurn = mine;
    lastKey = key;
  }

  document.addEventListener("htmx:wsAfterMessage", apply);
  document.addEventListener("DOMContentLoaded", function () {
    showSound();
    showNotify();
    var s = document.getElementById("sound-toggle");
    if (s) {
      s.addEventListener("click", function () {
        try { window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
        showSound();
        if (soundOn()) { playSound(); }
      });
    }
    var b = document.getElementById("notify-allow");
    if (b) {
      b.addEventListener("click", function () {
        if ("Notification" in window && Notification.requestPermission) {
          var p = Notification.requestPermission(showNotify);
          if (p && p.then) { p.then(showNotify); }
        }
      });
    }
    var signal = document.getElementById("turn-signal");
    wasMyTurn = !!signal && signal.dataset.myTurn === "1";  // the page itself shows the turn
    lastKey = signal ? signal.dataset.turnKey : null;
    if (signal && signal.dataset.title) { document.title = signal.dataset.title; }
  });
})();

// Buttons that need a second thought (the host releasing a seat) ask first; the
// WebSocket extension does not read hx-confirm, so the click stops here if not.
document.addEventListener("click", function (e) {
  var el = e.target && e.target.closest && e.target.closest("[data-confirm]");
  if (el && !window.confirm(el.dataset.confirm)) {
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}, true);

// The hand keeps the keyboard's focus. A push replaces the fragments whose HTML
// changed; when that took away the element that had the focus (a card just played,
// a redrawn hand), the focus goes back to the hand: the next playable card (the one
// now where the focused card was, else the nearest), else the same action button if
// it is still there, else the hand itself. Focus somewhere else (the chat, the link)
// is never moved.
(function () {
  var inTable = false;  // the focus was last on the table (hand, actions, board)
  var lastIndex = 0;  // which card of the hand had it
  var lastKey = null;  // or which button (its data-action / data-cmd)
  var TABLE = "#hand, #actions, #board, #status, #seats, #result";

  document.addEventListener("focusin", function (e) {
    var t = e.target;
    inTable = !!(t && t.closest && t.closest(TABLE));
    if (!inTable) { return; }
    var card = t.closest(".hand .card");
    if (card) {
      lastIndex = Array.prototype.indexOf.call(card.parentNode.querySelectorAll(".card"), card);
    }
    lastKey = t.getAttribute("data-action") || t.getAttribute("data-cmd");
  });

  function lost() {
    var a = document.activeElement;
    return !a || a === document.body || !document.documentElement.contains(a);
  }

  function restore() {
    if (!inTable || !lost()) { return; }
    var hand = document.querySelector("#hand .hand");
    var target = null;
    if (hand) {
      var cards = Array.prototype.slice.call(hand.querySelectorAll(".card"));
      var playable = cards.filter(function (c) { return c.matches("button.playable, label.pick"); });
      if (playable.length) {
        target = playable.filter(function (c) { return cards.indexOf(c) >= lastIndex; })[0]
          || playable[playable.length - 1];
      }
    }
    if (!target && lastKey) {
      var key = window.CSS && CSS.escape ? CSS.escape(lastKey) : lastKey;
      target = document.querySelector('#actions [data-action="' + key + '"], #actions [data-cmd="' + key + '"]');
    }
    if (!target) { target = hand || document.querySelector("#actions button"); }
    if (target) {
      if (target.matches("label.pick")) { target = target.querySelector("input") || target; }
      target.focus({ preventScroll: true });
    }
  }

  var queued = false;
  function soon() {
    if (queued) { return; }
    queued = true;
    setTimeout(function () { queued = false; restore(); }, 0);
  }
  document.addEventListener("htmx:wsAfterMessage", soon);
  document.addEventListener("htmx:oobAfterSwap", soon);
})();

// What happened is read out: every element marked data-announce (who took the trick,
// the deal's result, the match's winner) is said once by the polite live region
// #table-live when its words first appear on the page.
(function () {
  var present = {};
  function texts() {
    var now = {};
    document.querySelectorAll("[data-announce]").forEach(function (el) {
      var t = el.textContent.replace(/\s+/g, " ").trim();
      if (t) { now[t] = true; }
    });
    return now;
  }
  function announce() {
    var now = texts();
    var fresh = Object.keys(now).filter(function (t) { return !present[t]; });
    present = now;
    var live = document.getElementById("table-live");
    if (live && fresh.length) { live.textContent = fresh.join(" "); }
  }
  document.addEventListener("DOMContentLoaded", function () { present = texts(); });
  document.addEventListener("htmx:wsAfterMessage", function () { setTimeout(announce, 0); });
})();

// A practice table's hint (templates/table/hint.html): the panel belongs to the
// version of the table it was worked out for and is emptied once the page shows
// another one; its Close button empties it too. While it is shown, the card or
// button of the bot's choice is marked (.hinted).
(function () {
  function mark(panel) {
    document.querySelectorAll(".hinted").forEach(function (el) { el.classList.remove("hinted"); });
    var action = panel && panel.classList.contains("open") ? panel.dataset.hinted : "";
    if (!action) { return; }
    document.querySelectorAll('[data-action="' + CSS.escape(action) + '"]').forEach(function (el) {
      el.classList.add("hinted");
    });
  }
  function clear(panel) {
    panel.replaceChildren();
    panel.classList.remove("open");
    delete panel.dataset.version;
    delete panel.dataset.hinted;
    mark(null);
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    var panel = document.getElementById("hint");
    var v = document.getElementById("version");
    if (panel && panel.dataset.version && v && panel.dataset.version !== v.dataset.version) {
      clear(panel);
    } else {
      mark(panel);
    }
  });
  document.addEventListener("click", function (e) {
    var el = e.target && e.target.closest ? e.target.closest("[data-hint-close]") : null;
    var panel = document.getElementById("hint");
    if (el && panel) {
      clear(panel);
      var ask = document.querySelector("[data-hint]");
      if (ask) { ask.focus(); }
    }
  });
})();
