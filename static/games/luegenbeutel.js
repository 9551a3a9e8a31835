// Lügenbeutel at the table (included on its table's page after static/js/table.js,
// whose tableRefused it uses).

// Stacks (data-stack): a stack of equal cards asks how many to lay.
// Its chooser (the element named by data-stack) offers 1..count; the choice sends
// the stack's own action once, and once more after each push that shows the stack
// again with a newer version, until that many are laid. An error or a stack that is
// gone ends it.
(function () {
  var pending = null;  // {action, left, version}

  function shown() {  // the version of the table the page shows
    var v = document.getElementById("version");
    return v ? v.dataset.version : null;
  }
  function send(el) {
    pending.version = shown();
    el.dataset.go = "1";
    el.click();
    delete el.dataset.go;
  }
  function close(chooser, back) {
    chooser.hidden = true;
    var stack = document.querySelector('[data-stack="' + CSS.escape(chooser.id) + '"]');
    if (stack) {
      stack.setAttribute("aria-expanded", "false");
      if (back) { stack.focus({ preventScroll: true }); }
    }
  }
  function closeAll() {
    document.querySelectorAll(".lay-pick:not([hidden])").forEach(function (c) { close(c, false); });
  }

  document.addEventListener("click", function (e) {
    var stack = e.target && e.target.closest && e.target.closest("[data-stack]");
    if (!stack || stack.dataset.go) { return; }
    e.preventDefault();
    e.stopImmediatePropagation();  // not sent yet: first ask how many
    var chooser = document.getElementById(stack.dataset.stack);
    if (!chooser) { return; }
    var wasOpen = !chooser.hidden;
    closeAll();
    if (wasOpen) { return; }
    chooser.hidden = false;
    stack.setAttribute("aria-expanded", "true");
    var first = chooser.querySelector("[data-lay-n]");
    if (first) { first.focus({ preventScroll: true }); }
  }, true);

  document.addEventListener("click", function (e) {
    var pick = e.target && e.target.closest && e.target.closest("[data-lay-n], [data-lay-cancel]");
    if (!pick) { return; }
    var chooser = pick.closest(".lay-pick");
    if (pick.hasAttribute("data-lay-cancel")) { close(chooser, true); return; }
    close(chooser, false);
    var action = "lay:" + pick.dataset.lay;
    var stack = document.querySelector('#hand [data-action="' + CSS.escape(action) + '"]');
    if (!stack) { return; }
    pending = { action: action, left: parseInt(pick.dataset.layN, 10) - 1, version: null };
    send(stack);
    if (pending.left <= 0) { pending = null; }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") { return; }
    var chooser = e.target && e.target.closest && e.target.closest(".lay-pick");
    if (chooser) { close(chooser, true); }
  });

  document.addEventListener("htmx:wsAfterMessage", function (e) {
    if (!pending) { return; }
    if (tableRefused(e.detail && e.detail.message)) {
      pending = null;  // refused: lay no more
      return;
    }
    var stack = document.querySelector('#hand [data-action="' + CSS.escape(pending.action) + '"]');
    if (!stack) { pending = null; return; }
    var v = shown();
    if (v === null || v === pending.version) { return; }  // not the table after our lay yet
    pending.left -= 1;
    send(stack);
    if (pending.left <= 0) { pending = null; }
  });
})();
