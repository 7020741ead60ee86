// The table page. Without this file everything still works (plain posts and redirects).
//  - What is typed into the win form, and chosen in the kong chips form, survives a reload
//    and the outbox sending the hands that waited: kept in sessionStorage for this match
//    and hand, put back into a fresh form for the same hand, dropped once the form moves on
//    to another hand (saved, here or on another device) or, for kong chips, which stay on
//    the same hand, once they are saved.
//  - The answer to a save ("Hand 16 saved: …") is brought into view if it is not, and
//    Save when the question of who discarded pushes it down.
(function () {
  "use strict";
  var STORE = "table-entries:"; // and the form's id
  // The forms whose entries are kept, by id, and their fields.
  var KEPT_FORMS = {
    "win-form": ["winner", "won_by", "discarder", "liable", "total"],
    "kong-form": ["chair", "kind"],
  };

  function stored(id) {
    try {
      return JSON.parse(window.sessionStorage.getItem(STORE + id) || "null");
    } catch (e) {
      return null;
    }
  }

  function store(id, value) {
    try {
      if (value) window.sessionStorage.setItem(STORE + id, JSON.stringify(value));
      else window.sessionStorage.removeItem(STORE + id);
    } catch (e) {
      /* private browsing, or storage full: the entries are simply not kept */
    }
  }

  function entries(formEl) {
    var kept = {};
    KEPT_FORMS[formEl.id].forEach(function (name) {
      var input = formEl.querySelector('[name="' + name + '"]:checked') ||
        formEl.querySelector('input[type=text][name="' + name + '"]');
      if (input && input.value) kept[name] = input.value;
    });
    return kept;
  }

  function keep(event) {
    var formEl = event.target.form;
    if (!formEl || !KEPT_FORMS.hasOwnProperty(formEl.id)) return;
    store(formEl.id, { key: formEl.dataset.keep, entries: entries(formEl) });
  }

  function restore(formEl) {
    var saved = stored(formEl.id);
    if (!saved || saved.key !== formEl.dataset.keep) {
      store(formEl.id, null); // another match or hand: saved, or out of date
      return;
    }
    if (!formEl.hasAttribute("data-fresh")) return; // the server sent the entries back
    var changed = null;
    Object.keys(saved.entries || {}).forEach(function (name) {
      var value = saved.entries[name];
      var radio = formEl.querySelector(
        'input[type=radio][name="' + name + '"][value="' + CSS.escape(value) + '"]'
      );
      var text = formEl.querySelector('input[type=text][name="' + name + '"]');
      if (radio) {
        radio.checked = true;
        changed = radio;
      } else if (text) {
        text.value = value;
        changed = text;
      }
    });
    if (!changed) return;
    // The payments preview, as if they had just been typed.
    changed.dispatchEvent(new Event("input", { bubbles: true }));
    var folded = formEl.closest("details"); // kong chips: open, as they were left
    if (folded) folded.open = true;
  }

  // `focus`: after an answer replaced the form, the focus (on the button pressed) would be
  // lost; on the answer it is read out, and Tab goes on from there.
  function showAnswer(root, focus) {
    var answer = root.querySelector("[data-answer]");
    if (!answer) return;
    if (focus) answer.focus({ preventScroll: true });
    var box = answer.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      answer.scrollIntoView({ block: "nearest" });
    }
  }

  function start(root) {
    Object.keys(KEPT_FORMS).forEach(function (id) {
      var formEl = root.querySelector("#" + id);
      if (!formEl || formEl.dataset.started) return;
      formEl.dataset.started = "1";
      restore(formEl);
      if (id === "win-form") watchSize(formEl);
    });
  }

  // "On a discard" asks who discarded, below, and the payments appear above Save: while
  // a hand is being entered, keep Save in view (on a phone the page moves up by about
  // the height of the question).
  function keepSaveInView(formEl) {
    var save = formEl.querySelector(".save-button");
    if (!save || !formEl.querySelector("input[type=radio]:checked")) return;
    if (save.getBoundingClientRect().bottom > window.innerHeight) {
      save.scrollIntoView({ block: "nearest" });
    }
  }

  function watchSize(formEl) {
    if (!window.ResizeObserver) return;
    new ResizeObserver(function () {
      keepSaveInView(formEl);
    }).observe(formEl);
  }

  // After a draw or kong chips (saved, or put aside by the outbox) the next thing the table
  // does is record a win: the win form comes back into view, its heading at the top (the
  // draw and kong boxes are below it, so the page was left scrolled past it).
  function bringFormBack() {
    var form = document.getElementById("win-form");
    if (!form || form.closest("[hidden]")) return;
    var notice = document.getElementById("outbox-notice"); // sticky at the top while hands wait
    var covered = notice && !notice.hidden ? notice.getBoundingClientRect().height + 8 : 0;
    var top = form.getBoundingClientRect().top;
    if (top >= covered && top < window.innerHeight * 0.6) return; // in view already
    // The scoreboard ("Hand 8", who deals) just above it, when both fit; else the form.
    var board = document.getElementById("poll");
    var target = board && top - board.getBoundingClientRect().top < window.innerHeight / 2 ? board : form;
    window.scrollBy(0, target.getBoundingClientRect().top - covered);
  }
  var sentFrom = "";
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    sentFrom = elt && elt.dataset ? elt.dataset.outbox || "" : "";
  });
  document.addEventListener("table:next-hand", bringFormBack);

  document.addEventListener("input", keep);

  document.addEventListener("change", keep);
  // Kong chips saved (sent, or put aside to be sent) stay on the same hand: what was chosen
  // goes with them, and the next kong starts empty. Before htmx or the outbox see it.
  document.addEventListener("submit", function (event) {
    if (event.target.id === "kong-form") store("kong-form", null);
  }, true);
  // After an answer replaced the table's part of the page (a save, a draw, an undo …).
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    var root = document.getElementById("table-play");
    if (!root || !target || target.id !== "table-play") return;
    start(root);
    showAnswer(root, true);
    if (sentFrom === "draw" || sentFrom === "kong") bringFormBack();
    sentFrom = "";
  });
  // The outbox sent a waiting hand and put the server's table in (outbox.js): what was
  // being typed for the hand this device is at comes back, as after a reload.
  document.addEventListener("table:replaced", function () {
    var root = document.getElementById("table-play");
    if (root) start(root);
  });
  // The page itself: once htmx has set up its forms (htmx:load on the body; this file may
  // run before htmx's), so that the restored entries' preview is asked for.
  function boot() {
    start(document);
    showAnswer(document, false);
  }
  document.addEventListener("htmx:load", function (event) {
    if (event.target === document.body) boot();
  });
  window.addEventListener("load", function () {
    if (!window.htmx) boot();
  });
})();
