// Tile picker: taps made while the previous tap is still on its way are kept and sent, in
// order, once its answer is in. htmx alone would lose them: each answer replaces the
// buttons, and a queued request no longer knows which button was tapped. Without this file
// (or without JavaScript) every tap still works, one page load at a time.
// A tap whose press lands before an answer and whose release lands after it (the answer
// replaced the button under the finger) makes no click at all in the browser: it is
// counted here as a tap on the same tile, which is now in the same place.
(function () {
  "use strict";
  var busy = false;
  var pending = []; // [{kind: "click", name, value} | {kind: "change", id, checked}]
  var pressed = null; // the picker button a press began on
  var replayed = null; // {name, value}: a tap counted on release, not to be counted twice

  function picker() { return document.getElementById("picker"); }

  function pickerButton(target) {
    return target && target.closest ? target.closest("#picker button[type=submit]") : null;
  }

  function tap(action) {
    if (busy) { pending.push(action); return; }
    pending.unshift(action);
    next();
  }

  document.addEventListener("pointerdown", function (event) {
    replayed = null; // a new press: whatever clicks now is this press
    pressed = pickerButton(event.target);
  }, true);

  document.addEventListener("pointerup", function (event) {
    var was = pressed;
    pressed = null;
    if (!was || was.isConnected) return; // an ordinary tap: the browser clicks
    var button = pickerButton(event.target);
    if (!button || button.name !== was.name || button.value !== was.value) return;
    replayed = { name: button.name, value: button.value };
    tap({ kind: "click", name: button.name, value: button.value });
  }, true);

  document.addEventListener("click", function (event) {
    var button = pickerButton(event.target);
    if (!button) return;
    if (replayed && replayed.name === button.name && replayed.value === button.value &&
        event.isTrusted) {
      replayed = null; // a browser that clicks after all: the tap is already counted
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (!busy) return;
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
