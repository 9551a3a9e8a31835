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
