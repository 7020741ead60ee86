// The table page's outbox: a Wi-Fi drop stops no one.
//  - A quick-entry write (a win, a draw, kong chips, taking them back, an undo) made while
//    the device is offline, or whose save got no answer, waits in localStorage, per match,
//    in order, with its form's fields and its one-time key (sent_key). The page says how
//    many wait, lists each as "to be checked" (the payments need the server), and moves the
//    board on by itself with flow.js (games/flow.py's twin): hand number, dealer, winds,
//    round, goulash, who sits out, the end.
//  - The page sends them itself, one at a time, in order, when the connection returns, every
//    few seconds while any wait, and when the page loads (no Background Sync: Safari has
//    none). The key makes a resend safe: the server answers "already saved" to a write it
//    made before. The server says what became of each write in X-Table-Outcome.
//  - A write the server does not take (another device recorded a different hand, the
//    evening was ended, the login is gone) stops the queue and asks a person, showing both
//    versions. Nothing is overwritten or dropped without a person choosing it.
//  - Logging out with writes waiting (the shell's `club:before-clear` event) is held back.
// Without these files the page works as before (each press answered, or "press again").
// Its files, each one closure, loaded in this order (defer keeps it) with no build step,
// share only window.TableOutbox:
//   outbox-shared.js   this namespace and the small page helpers all the others use
//   outbox-queue.js    the queue: what waits (localStorage), the device's checks, sending, retry
//   outbox-board.js    the board while hands wait: the notice, the list, the board, the forms
//   outbox-stopped.js  the stopped panel: a write the server did not take, a person chooses
//   outbox.js          the page's own requests held for the queue, logging out, the start
// A file calls one loaded before it by a name taken at the top, one loaded after by O.name.
(function () {
  "use strict";
  var O = (window.TableOutbox = {});

  function notice() {
    return document.getElementById("outbox-notice");
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function button(text, className, action) {
    var node = el("button", "button " + className, text);
    node.type = "button";
    node.addEventListener("click", action);
    return node;
  }

  O.notice = notice;
  O.el = el;
  O.plural = plural;
  O.button = button;
})();
