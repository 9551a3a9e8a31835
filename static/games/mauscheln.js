// Mauscheln at the table (included on its table's page after static/js/table.js).

// The exchange: keep the confirm button's data-action equal to the engine's
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
