// The little that htmx cannot do by itself: show whether the table's live
// connection is up, and mark a card as sent so a double click is not repeated.
(function () {
  function setConn(state, title) {
    var el = document.getElementById("conn");
    if (el) { el.dataset.state = state; el.title = title; }
  }
  document.addEventListener("htmx:wsOpen", function () { setConn("open", "connected"); });
  document.addEventListener("htmx:wsClose", function () { setConn("closed", "reconnecting…"); });
  document.addEventListener("htmx:wsError", function () { setConn("closed", "connection problem"); });
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
  button.querySelector("[data-count]").textContent =
    n === 0 ? "no cards" : n === 1 ? "1 card" : n + " cards";
});
