// Every htmx form on the site: when a save gets no answer (the connection dropped) or an
// error page (503 while the club's computer restarts, or cannot save), say so beside the
// form, in words; a button with data-saving / data-unsaved says "Saving…", then "Not saved
// – press again" itself, with the message beside it.
// htmx swaps nothing on such an answer, so the entries stay as they were typed and a
// button keeps showing the state the server last confirmed. Forms carry what they change
// (a hand number, here/not here), so pressing again never records anything twice.
(function () {
  "use strict";
  var BOX = "connection-lost";

  function form(elt) {
    if (!elt || !elt.closest) return null;
    return elt.tagName === "FORM" ? elt : null;
  }

  // "press “Save hand 4” again", or what the form asks for (data-again), or "the button".
  function again(event, formEl) {
    if (formEl.dataset.again) return formEl.dataset.again;
    var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var button = trigger && trigger.submitter;
    var label = button ? button.textContent.replace(/\s+/g, " ").trim() : "";
    if (label && label.length <= 40) return "press \u201c" + label + "\u201d again";
    return "press the button again";
  }

  function words(event, formEl) {
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var retry = again(event, formEl);
    if (event.type === "htmx:timeout") {
      return "Not saved yet: the club\u2019s computer did not answer in time. " +
        "Your entries are kept \u2014 " + retry + " (what was saved already is not saved twice).";
    }
    if (event.type === "htmx:sendError" || !status) {
      return "Not saved: the connection to the club\u2019s computer was lost. " +
        "Your entries are kept \u2014 " + retry + ".";
    }
    if (status === 503 && event.detail.xhr.getResponseHeader("Club-Database") === "read-only") {
      // The database refuses writes (club/read_only.py): not a restart, and no set time.
      return "Not saved: the club\u2019s computer cannot save anything just now. " +
        "What was saved before is safe. Your entries are kept \u2014 " + retry +
        " in a little while. If it still fails after a few minutes, tell the coordinator.";
    }
    if (status === 503) {
      return "Not saved yet. The scores are safe; the club\u2019s computer is restarting. " +
        "Your entries are kept \u2014 " + retry.replace(/ again$/, "") + " again in a minute.";
    }
    if (status === 400) {
      return "Not saved: this was more than the club\u2019s computer accepts at once. " +
        "Your entries are kept \u2014 make them shorter, then " + retry + ".";
    }
    return "Not saved: something went wrong on the club\u2019s computer. " +
      "Your entries are kept \u2014 " + retry + ". If it happens again, tell the coordinator.";
  }

  // The button pressed, when it says what it is doing (data-saving="Saving…") and what
  // to do when that failed (data-unsaved="Not saved – press again"): the answer is then
  // given at the button itself, with the message just beside it.
  function speaking(event) {
    var trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    var button = trigger && trigger.submitter;
    return button && button.dataset.unsaved ? button : null;
  }

  // Where the message goes: beside the button that speaks (after its row), else before
  // the form.
  function anchorFor(formEl, button) {
    return button ? button.closest(".button-row") || button : formEl;
  }

  function boxFor(formEl) {
    var box = formEl.previousElementSibling;
    if (box && box.classList.contains(BOX)) return box;
    return formEl.querySelector("." + BOX);
  }

  function say(button, text) {
    if (!button.dataset.label) button.dataset.label = button.textContent;
    button.textContent = text;
  }

  function sending(event) {
    var formEl = form(event.detail.elt);
    var button = formEl && speaking(event);
    if (button && button.dataset.saving) say(button, button.dataset.saving);
  }

  // A table write without an answer, on the table page with its outbox (outbox.js): it
  // waits there and is sent again by itself, so "press again" is not said.
  function waitsInOutbox(event, formEl) {
    if (event.type === "htmx:responseError" || !formEl.dataset.outbox) return false;
    if (document.documentElement.getAttribute("data-outbox") !== "on") return false;
    var button = speaking(event);
    if (button && button.value === "check") return false; // nothing to keep: said here
    formEl.querySelectorAll("[data-label]").forEach(function (labelled) {
      labelled.textContent = labelled.dataset.label;
      delete labelled.dataset.label;
    });
    return true;
  }

  function show(event) {
    var formEl = form(event.detail.elt);
    if (!formEl) return; // a poll or a live preview: the next one will try again
    if (waitsInOutbox(event, formEl)) return;
    var button = speaking(event);
    var box = boxFor(formEl);
    if (box && button && box.previousElementSibling !== anchorFor(formEl, button)) {
      box.remove(); // said beside another button of this form
      box = null;
    }
    if (!box) {
      box = document.createElement("p");
      box.className = BOX + " message message-error lead";
      box.setAttribute("role", "alert");
      if (button) anchorFor(formEl, button).insertAdjacentElement("afterend", box);
      else formEl.insertAdjacentElement("beforebegin", box);
    }
    box.textContent = words(event, formEl);
    if (button) {
      say(button, button.dataset.unsaved);
      var edge = box.getBoundingClientRect();
      if (edge.bottom > window.innerHeight || edge.top < 0) box.scrollIntoView({ block: "nearest" });
    }
  }

  function clear(event) {
    var formEl = form(event.detail.elt);
    if (!formEl || !event.detail.successful) return;
    var box = boxFor(formEl);
    if (box) box.remove();
    // Answered, and the form is still here (not swapped for the next hand's): as it was.
    formEl.querySelectorAll("[data-label]").forEach(function (button) {
      button.textContent = button.dataset.label;
      delete button.dataset.label;
    });
  }

  document.addEventListener("htmx:beforeRequest", sending);
  document.addEventListener("htmx:sendError", show);
  document.addEventListener("htmx:timeout", show); // a form's hx-request timeout
  document.addEventListener("htmx:responseError", show);
  document.addEventListener("htmx:afterRequest", clear);
})();
