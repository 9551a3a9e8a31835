// The lobby shows the options of the chosen game only (without JavaScript every
// game's options stay visible, and the server reads those of the chosen game).
(function () {
  function show() {
    var form = document.querySelector("form.create");
    if (!form) { return; }
    var picked = form.querySelector('input[name="game"]:checked');
    form.querySelectorAll(".game-options[data-game]").forEach(function (fs) {
      fs.hidden = !picked || fs.dataset.game !== picked.value;
    });
  }
  document.addEventListener("change", function (e) {
    if (e.target && e.target.name === "game") { show(); }
  });
  // a refused form comes back with the field to change marked: start there
  function focusInvalid() {
    var field = document.querySelector('form.create [aria-invalid="true"]');
    if (field) { field.focus(); }
  }
  document.addEventListener("DOMContentLoaded", function () { show(); focusInvalid(); });
})();
