// Tile picker: taps made while the previous tap is still on its way are kept and sent, in
// order, once its answer is in. htmx alone would lose them: each answer replaces the
// buttons, and a queued request no longer knows which button was tapped. Without this file
// (or without JavaScript) every tap still works, one page load at a time.
(function () {
  "use strict";
  var busy = false;
  var pending = []; // [{kind: "click", name, value} | {kind: "change", id, checked}]

  function picker() { return document.getElementById("picker"); }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#picker button[type=submit]");
    if (!button || !busy) return;
    event.preventDefault();
    event.stopPropagation();
    pending.push({ kind: "click", name: button.name, value: button.value });
  }, true);

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!busy || !input.id || !input.closest || !input.closest("#picker")) return;
    event.stopPropagation();
    pending.push({ kind: "change", id: input.id, checked: input.checked });
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target === picker()) busy = true;
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target !== picker()) return;
    busy = false;
    next();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    // A failed request settles nothing: send what waits anyway.
    if (event.target === picker() && !event.detail.successful) { busy = false; next(); }
  });

  function next() {
    var form = picker();
    var action = pending.shift();
    if (!form || !action) return;
    if (action.kind === "click") {
      var buttons = form.querySelectorAll("button[type=submit]");
      for (var i = 0; i < buttons.length; i += 1) {
        if (buttons[i].name === action.name && buttons[i].value === action.value && !buttons[i].disabled) {
          buttons[i].click();
          return;
        }
      }
    } else {
      var input = document.getElementById(action.id);
      if (input) {
        input.checked = action.checked;
        input.dispatchEvent(new Event("change", { bubbles: true }));
        return;
      }
    }
    next(); // the tapped button is gone (e.g. the tile is used up): try the next tap
  }
})();
