// The table page's outbox, the stopped panel (see outbox-shared.js): a write the server
// did not take (another device first, the evening ended, the login gone) stops the queue,
// and the panel shows both versions and lets a person choose.
(function (O) {
  "use strict";
  var notice = O.notice, el = O.el, button = O.button;
  var load = O.load, store = O.store, flush = O.flush;
  var render = O.render, eveningEnded = O.eveningEnded;

  // --- when the queue stops -------------------------------------------------------------

  var STOPPED = {
    conflict: function (entry) {
      return entry.hand ? "Hand " + entry.hand + " was recorded differently on another device" :
        "Another device changed the table first";
    },
    ended: function (entry, box) {
      var at = box.stopped.at ? " at " + box.stopped.at : "";
      return "The coordinator ended the evening" + at + " before " + waitingNames(box.entries) +
        " could be sent.";
    },
    login: function () {
      // A tablet that came in with the table's card has no login: its card was stopped.
      return byCard() ? "The table\u2019s card no longer opens this table on this device" :
        "This device must log in again before these can be sent";
    },
    refused: function (entry) {
      return "The club\u2019s computer did not take " + (entry.hand ? "hand " + entry.hand : "this");
    },
  };

  function byCard() {
    var box = notice();
    return Boolean(box && box.hasAttribute("data-card"));
  }

  // "hand 7", "hands 7 and 8", "hands 7, 8 and 9", or "these entries" (not all hands).
  function waitingNames(entries) {
    var hands = entries.filter(function (e) { return e.outcome; }).map(function (e) { return e.hand; });
    if (hands.length !== entries.length) {
      return entries.length === 1 ? "this entry" : "these " + entries.length + " entries";
    }
    if (hands.length === 1) return "hand " + hands[0];
    return "hands " + hands.slice(0, -1).join(", ") + " and " + hands[hands.length - 1];
  }

  // Whether the next hand can be recorded while sending has stopped, said plainly.
  function nextHandWords(box) {
    if (eveningEnded(box)) {
      return "They stay on this device, and no more hands can be recorded here: ask the " +
        "coordinator to reopen the evening, then press Try sending again.";
    }
    if (box.correcting) {
      return "Correct hand " + box.entries[0].hand + " in the form below and save it: then " +
        "it and the hands after it are sent.";
    }
    return "You can go on recording the next hand below: it waits behind these.";
  }

  // The first entry leaves unsent. A hand dropped: the hands after it move up a number, and
  // are sent as the hands they now are (else each would be refused in turn). A hand that
  // another device holds (`keepsPlace`: ours of a conflict) leaves its number to that one.
  function dropFirst(box, keepsPlace) {
    var gone = box.entries.shift();
    box.stopped = null;
    box.correcting = false;
    if (!gone || !gone.outcome || keepsPlace) return;
    box.entries.forEach(function (entry) {
      if (!entry.hand || entry.hand <= gone.hand) return;
      entry.hand -= 1;
      entry.fields.forEach(function (pair) {
        if (pair[0] === "hand") pair[1] = String(entry.hand);
      });
    });
  }

  function startCorrecting() {
    var now = load();
    if (!now.stopped) return;
    now.correcting = true;
    store(now);
    render();
    document.dispatchEvent(new CustomEvent("table:next-hand")); // table.js: the form in view
  }

  function renderStopped(box) {
    var panel = document.getElementById("outbox-stopped");
    if (!panel) return;
    panel.textContent = "";
    panel.hidden = !box.stopped || !box.entries.length;
    if (panel.hidden) return;
    var stopped = box.stopped;
    var first = box.entries[0];
    var section = el("section", "card outbox-stopped");
    section.setAttribute("role", "alert");
    section.setAttribute("aria-labelledby", "outbox-stopped-heading");
    var heading = el("h2", "", (STOPPED[stopped.outcome] || STOPPED.refused)(first, box));
    heading.id = "outbox-stopped-heading";
    section.appendChild(heading);
    section.appendChild(el("p", "", "Sending has stopped. Nothing from this device was saved over what the club\u2019s computer has."));
    section.appendChild(el("p", "outbox-next", nextHandWords(box)));
    section.appendChild(el("h3", "", "Waiting on this device"));
    var list = el("ol", "plain-list outbox-ours");
    box.entries.forEach(function (entry) {
      list.appendChild(el("li", "", (entry.outcome ? "Hand " + entry.hand + ": " : "") + entry.text));
    });
    section.appendChild(list);
    if (stopped.server) {
      section.appendChild(el("h3", "", "On the club\u2019s computer"));
      section.appendChild(el("p", "outbox-theirs", stopped.server));
    }
    var row = el("div", "button-row");
    if (stopped.outcome === "login" && byCard()) {
      section.appendChild(el("p", "", "Ask the coordinator for the table\u2019s new card, " +
        "scan it (or type its code), and what waits here is sent."));
    } else if (stopped.outcome === "login") {
      var login = el("a", "button", "Log in again, then come back to this table");
      login.href = notice().dataset.login + "?next=" + encodeURIComponent(window.location.pathname);
      row.appendChild(login);
    } else if (stopped.outcome === "conflict" && stopped.correct) {
      row.appendChild(button("Ours is right: correct hand " + first.hand, "", function () {
        var now = load();
        now.entries.shift(); // the correction records ours; the rest wait for the page
        now.stopped = null;
        store(now);
        window.location.href = stopped.correct;
      }));
    } else if (stopped.outcome === "refused" && first.kind === "win" && !box.correcting) {
      row.appendChild(button("Correct hand " + first.hand, "", startCorrecting));
    }
    if (stopped.outcome !== "conflict" && stopped.outcome !== "login" && !box.correcting) {
      row.appendChild(button("Try sending again", stopped.outcome === "refused" ? "secondary" : "", function () {
        var now = load();
        now.stopped = null;
        store(now);
        render();
        flush();
      }));
    }
    row.appendChild(button(
      stopped.outcome === "conflict" ? "Drop ours: keep the other device\u2019s" : "Drop " + (first.outcome ? "hand " + first.hand : "it") + " (it will be lost)",
      "secondary",
      function () {
        var now = load();
        dropFirst(now, stopped.outcome === "conflict");
        store(now);
        render(now.entries.length ? "" : "Nothing waits to be sent.");
        flush();
      }
    ));
    section.appendChild(row);
    if (stopped.outcome === "conflict" && !stopped.correct && first.hand) {
      section.appendChild(el("p", "", "If ours is right, ask the coordinator to correct hand " + first.hand + "."));
    }
    panel.appendChild(section);
  }


  O.renderStopped = renderStopped;
})(window.TableOutbox);
