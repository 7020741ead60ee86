// The table page's outbox, the page's own requests (see outbox-shared.js, loaded first,
// and the files it lists): a quick-entry write with no connection, or no answer, is held
// for the queue; logging out with writes waiting is held back; and the start.
(function (O) {
  "use strict";
  var notice = O.notice, el = O.el, plural = O.plural, button = O.button;
  var load = O.load, store = O.store, putAside = O.putAside;
  var flush = O.flush, waiting = O.waiting, keepTrying = O.keepTrying;
  var render = O.render, resetTiles = O.resetTiles;

  // --- the page's own requests ----------------------------------------------------------

  function submitterOf(detail) {
    var trigger = detail.triggeringEvent || (detail.requestConfig && detail.requestConfig.triggeringEvent);
    return trigger && trigger.submitter ? trigger.submitter : null;
  }

  function needsConnection(text) {
    var preview = document.getElementById("preview");
    if (!preview) return;
    preview.textContent = "";
    preview.appendChild(el("p", "help", text));
  }

  // Before anything is sent: a write goes in the outbox while offline or while others wait
  // (they go in order); the scoreboard's poll and the payments preview wait for the server.
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    var offline = !navigator.onLine;
    if (elt.id === "poll") {
      if (offline || waiting()) event.preventDefault(); // this device's board until sent
      return;
    }
    if (elt.classList && elt.classList.contains("win-fields")) {
      if (offline || waiting()) {
        event.preventDefault();
        needsConnection("The payments are worked out when this hand is sent.");
      }
      return;
    }
    var form = elt.tagName === "FORM" && elt.dataset.outbox ? elt : null;
    if (!form || !(offline || waiting())) return;
    var submitter = submitterOf(event.detail);
    if (submitter && submitter.value === "check") {
      event.preventDefault();
      needsConnection("Checking the payments needs the connection to the club\u2019s computer.");
      return;
    }
    if (putAside(form, submitter, false)) {
      event.preventDefault();
      if (navigator.onLine) flush(); // waiting behind others: goes as soon as they have
    }
  });

  // Sent, and no answer: put aside with its key, to go again.
  function unanswered(event) {
    var elt = event.detail.elt;
    var form = elt && elt.tagName === "FORM" && elt.dataset.outbox ? elt : null;
    if (!form) return;
    var submitter = submitterOf(event.detail);
    if (submitter && submitter.value === "check") return; // connection.js says so
    putAside(form, submitter, true);
    resetTiles(form);
  }
  document.addEventListener("htmx:sendError", unanswered);
  document.addEventListener("htmx:timeout", unanswered);

  // Working a hand out from its tiles is a page of its own: it needs the server.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest(".tiles-link a");
    if (!link || navigator.onLine) return;
    event.preventDefault();
    needsConnection("Working out the score from the tiles needs the connection to the club\u2019s computer. Enter the total the table agreed instead.");
  });

  // Logging out clears this device's storage: not while writes wait, unless a person says so.
  document.addEventListener("club:before-clear", function (event) {
    var box = load();
    if (!box.entries.length) return;
    event.preventDefault();
    var panel = document.getElementById("outbox-stopped");
    if (!panel) return;
    panel.hidden = false;
    panel.textContent = "";
    var section = el("section", "card outbox-stopped outbox-logout");
    section.setAttribute("role", "alert");
    var all = box.entries.every(function (e) { return e.outcome; });
    var count = all ? plural(box.entries.length, "hand is", "hands are") :
      plural(box.entries.length, "entry is", "entries are");
    section.appendChild(el("h2", "", count + " waiting to be sent; connect to the club\u2019s Wi-Fi first"));
    section.appendChild(el("p", "", "Logging out now clears this device, and what waits here is lost."));
    var row = el("div", "button-row");
    var form = (event.detail && event.detail.form) || document.querySelector('form[action*="logout"]');
    var proceed = event.detail && event.detail.proceed;
    row.appendChild(button("Log out anyway (they will be lost)", "danger", function () {
      render();
      // The logout clears the device once the server has answered; without a connection
      // it says so and nothing (these hands included) is lost yet.
      if (proceed) { proceed(); return; }
      var now = load();
      now.entries = [];
      now.stopped = null;
      store(now);
      if (form && form.requestSubmit) form.requestSubmit();
      else if (form) form.submit();
    }));
    row.appendChild(button("Stay logged in", "secondary", function () { render(); }));
    section.appendChild(row);
    panel.appendChild(section);
    panel.scrollIntoView({ block: "start" });
  });

  function start() {
    if (!notice()) return;
    document.documentElement.setAttribute("data-outbox", "on");
    var box = load();
    if (box.stopped && box.stopped.outcome === "login") {
      box.stopped = null; // the page loaded, so the login is back: send (it stops again if not)
      store(box);
    }
    render();
    flush();
    window.addEventListener("online", function () { render(); flush(); });
    window.addEventListener("offline", function () { render(); });
    keepTrying();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(window.TableOutbox);
