// The table page's outbox, the board while hands wait (see outbox-shared.js): how many
// wait, the list of them, and the board and forms moved on by flow.js from the server's
// match and what waits, all redrawn by render().
(function (O) {
  "use strict";
  var notice = O.notice, el = O.el, plural = O.plural;
  var load = O.load, flowData = O.flowData, words = O.words, remember = O.remember;
  var local = O.local, counted = O.counted, forgetMade = O.forgetMade, field = O.field;
  var refreshKeys = O.refreshKeys, sayAt = O.sayAt;

  // --- the page as this device has it ----------------------------------------------------

  function waitingWords(entries) {
    var hands = entries.filter(function (e) { return e.outcome; }).length;
    if (hands === entries.length) return plural(hands, "hand", "hands") + " waiting to be sent";
    return plural(entries.length, "entry", "entries") + " waiting to be sent";
  }

  function renderNotice(box, said) {
    var box_ = notice();
    if (!box_) return;
    box_.textContent = "";
    if (!box.entries.length) {
      box_.hidden = !said;
      if (said) box_.appendChild(el("p", "outbox-said", said));
      return;
    }
    box_.hidden = false;
    box_.appendChild(el("p", "outbox-count", waitingWords(box.entries)));
    var why = box.stopped ? "Sending has stopped: see below." :
      navigator.onLine ? "Sending them to the club\u2019s computer\u2026" :
      "No connection: kept on this device, sent when it is back.";
    box_.appendChild(el("p", "outbox-why", why));
    if (said) box_.appendChild(el("p", "outbox-said", said));
  }

  function renderWaitingList(box) {
    var hands = document.getElementById("hands");
    if (!hands) return;
    var old = hands.querySelector(".outbox-waiting");
    if (old) old.remove();
    if (!box.entries.length) return;
    var part = el("div", "outbox-waiting");
    part.appendChild(el("h3", "round-heading", "Waiting to be sent"));
    var list = el("ol", "hand-list waiting-list");
    box.entries.slice().reverse().forEach(function (entry) {
      var line = el("li", "hand-line to-be-checked");
      line.dataset.key = entry.key;
      if (entry.kind === "win" || entry.kind === "draw") {
        line.appendChild(el("span", "hand-no", "Hand " + entry.hand));
        line.appendChild(document.createTextNode(" "));
      }
      line.appendChild(el("span", "", entry.text));
      line.appendChild(document.createTextNode(" "));
      line.appendChild(el("strong", "badge badge-check", "to be checked"));
      list.appendChild(line);
    });
    part.appendChild(list);
    var heading = hands.querySelector("h2");
    heading.insertAdjacentElement("afterend", part);
  }

  function windLabel(wind, dealer) {
    var span = el("span", "seat-wind");
    span.appendChild(el("span", "wind-letter", wind)).setAttribute("aria-hidden", "true");
    span.appendChild(document.createTextNode(" " + words().winds[wind] + (dealer ? ", deals" : "")));
    return span;
  }

  function renderBoard(data, now) {
    var state = now.state;
    var heading = document.querySelector(".board-hand");
    if (heading) heading.textContent = state.over ? "Match over" : "Hand " + state.hand;
    var line = document.querySelector(".board-line");
    if (line) {
      line.textContent = "";
      if (state.over) {
        line.textContent = "Played to the end, after hand " + now.last + " (to be checked).";
      } else {
        line.appendChild(el("span", "", words().winds[state.round] + " round"));
        line.appendChild(document.createTextNode(" "));
        line.appendChild(el("span", "", "\u00b7")).setAttribute("aria-hidden", "true");
        line.appendChild(document.createTextNode(" "));
        line.appendChild(el("span", "", data.names[state.dealer] + " deals"));
      }
    }
    var flag = document.querySelector(".goulash-flag");
    if (state.goulash && !flag && line) {
      line.insertAdjacentElement("afterend", el("p", "goulash-flag", "Goulash hand"));
    } else if (!state.goulash && flag) {
      flag.remove();
    }
    document.querySelectorAll(".seat-cards .seat-card").forEach(function (card, seat) {
      var wind = state.over ? null : state.winds[seat];
      var dealer = !state.over && state.dealer === seat;
      var out = !state.over && wind === null;
      card.classList.toggle("is-dealer", dealer);
      card.classList.toggle("sits-out", out);
      var old = card.querySelector(".seat-wind");
      var fresh = out ? el("span", "seat-wind", "sits out this hand") : wind ? windLabel(wind, dealer) : null;
      if (old && fresh) old.replaceWith(fresh);
      else if (old) old.remove();
      else if (fresh) card.querySelector(".seat-name").insertAdjacentElement("afterend", fresh);
    });
  }

  // The player tiles of a form, one per chair playing this hand, with its wind now.
  function renderPlayerTiles(form, data, state) {
    form.querySelectorAll(".tiles-players .tile-row").forEach(function (row) {
      var model = row.querySelector("label.tile");
      if (!model) return;
      var input = model.querySelector("input");
      var name = input.name;
      var checked = row.querySelector("input:checked");
      var keep = checked ? checked.value : null;
      var tiles = [];
      state.winds.forEach(function (wind, seat) {
        if (wind === null) return;
        var tile = model.cloneNode(true);
        var radio = tile.querySelector("input");
        var id = (form.id || "form") + "-" + name + "-" + seat;
        radio.value = String(seat);
        radio.id = id;
        radio.checked = keep === String(seat);
        radio.removeAttribute("autofocus");
        tile.setAttribute("for", id);
        var label = tile.querySelector(":scope > span");
        label.textContent = "";
        label.appendChild(el("span", "player-name", data.names[seat]));
        label.appendChild(document.createTextNode(" "));
        var windSpan = el("span", "player-wind");
        windSpan.appendChild(el("span", "wind-mark", wind)).setAttribute("aria-hidden", "true");
        windSpan.appendChild(document.createTextNode(" "));
        var dealer = state.dealer === seat;
        windSpan.appendChild(el("span", "wind-word", words().winds[wind] + (dealer ? "," : "")));
        if (dealer) windSpan.appendChild(document.createTextNode(" deals"));
        label.appendChild(windSpan);
        tiles.push(tile);
      });
      row.textContent = "";
      tiles.forEach(function (tile) { row.appendChild(tile); });
    });
  }

  function resetTiles(form) {
    form.querySelectorAll("input[type=radio]").forEach(function (radio) { radio.checked = false; });
    form.querySelectorAll('input[type=text]').forEach(function (input) { input.value = ""; });
    form.querySelectorAll(".error-summary, .error-text, .outbox-refusal, .connection-lost").forEach(function (node) {
      if (!node.closest("#preview")) node.remove();
    });
    form.querySelectorAll(".field-error").forEach(function (node) { node.classList.remove("field-error"); });
    form.querySelectorAll("[data-label]").forEach(function (button) {
      button.textContent = button.dataset.label;
      delete button.dataset.label;
    });
  }

  function setText(node, text) {
    if (!node) return;
    node.textContent = text;
    delete node.dataset.label;
  }

  function renderForms(data, now, box) {
    var state = now.state;
    var record = document.getElementById("record");
    if (record) record.hidden = state.over || eveningEnded(box);
    var win = document.getElementById("win-form");
    if (win && !state.over) {
      var hand = win.querySelector('input[name="hand"]');
      if (hand.value !== String(state.hand)) {
        hand.value = String(state.hand);
        resetTiles(win);
        refreshKeys(win);
        win.dataset.keep = data.match + ":" + state.hand;
        var preview = document.getElementById("preview");
        if (preview) {
          preview.textContent = "";
          preview.appendChild(el("p", "help", "The payments are worked out when the hands waiting are sent."));
        }
      }
      setText(win.querySelector(".form-heading"), "Record hand " + state.hand);
      setText(win.querySelector(".save-button"), "Save hand " + state.hand);
      renderPlayerTiles(win, data, state);
    }
    document.querySelectorAll('form[data-outbox="draw"], form[data-outbox="kong"]').forEach(function (form) {
      var hand = form.querySelector('input[name="hand"]');
      if (hand.value !== String(state.hand)) {
        hand.value = String(state.hand);
        resetTiles(form);
        refreshKeys(form);
        if (form.dataset.keep !== undefined) form.dataset.keep = data.match + ":" + state.hand;
      }
      if (form.dataset.outbox === "draw") {
        setText(form.querySelector("button"), "Record a draw for hand " + state.hand);
      } else if (!state.over) {
        renderPlayerTiles(form, data, state);
      }
    });
    var taken = box.entries.filter(function (e) { return e.kind === "take_back"; }).map(function (e) {
      return field(e.fields, "kong");
    });
    document.querySelectorAll('form[data-outbox="take_back"]').forEach(function (form) {
      var item = form.closest("li");
      if (item) item.hidden = taken.indexOf(form.querySelector('input[name="kong"]').value) !== -1;
    });
    var undo = document.querySelector(".undo-box");
    if (undo) {
      // Not the stopped entry itself (the panel's choices are for it), nor while correcting.
      var onlyStopped = box.stopped && box.entries.length < 2;
      undo.hidden = now.last === 0 || eveningEnded(box) || onlyStopped || Boolean(box.correcting);
      if (now.last) {
        var form = undo.querySelector("form");
        form.querySelector('input[name="hand"]').value = String(now.last);
        setText(form.querySelector("button"), "Undo hand " + now.last);
        var what = undo.querySelector(".undo-what");
        if (what) {
          what.textContent = "Hand " + now.last + ": " + (now.texts[now.last] || "") +
            ". It stays in the list, struck through, and the deal and tallies go back.";
        }
      }
    }
  }

  // Whether the board and forms show this device's version (drawn from what waits): once
  // nothing waits (sent, dropped, undone) they are drawn once more, from the server's.
  var showingOurs = false;

  // The board, the forms and the list always agree: the server's hands and every entry
  // that will count once sent, also while sending has stopped (the next hand can always
  // be recorded, except after the evening was ended, which the panel says).
  function render(said) {
    var box = load();
    var data = flowData();
    forgetMade(box, data);
    remember(data);
    renderNotice(box, said);
    O.renderStopped(box);
    renderWaitingList(box);
    if (!data || (!box.entries.length && !showingOurs && !data.newer)) return; // the server's, as it came
    var now;
    try {
      // Correcting the first entry: the board and form are at its hand.
      now = local(data, box.correcting ? [] : counted(box));
    } catch (e) {
      return; // cannot happen for what was checked when put aside; the server decides
    }
    showingOurs = box.entries.length > 0 || Boolean(data.newer);
    renderBoard(data, now);
    renderForms(data, now, box);
    renderCorrection(box);
  }

  function eveningEnded(box) {
    return Boolean(box.stopped && box.stopped.outcome === "ended");
  }

  // The form at the refused hand with what was entered for it, to correct and save again.
  function renderCorrection(box) {
    var win = document.getElementById("win-form");
    if (!win) return;
    var first = box.entries[0];
    var correcting = Boolean(box.correcting && first);
    document.querySelectorAll("#record .kong-box, #record .draw-box").forEach(function (part) {
      part.hidden = correcting;
    });
    if (!correcting) {
      delete win.dataset.correcting;
      return;
    }
    setText(win.querySelector(".form-heading"), "Correct hand " + first.hand);
    if (win.dataset.correcting === first.key) return; // filled once: keep what is changed
    win.dataset.correcting = first.key;
    resetTiles(win);
    first.fields.forEach(function (pair) {
      if (pair[0] === "hand" || pair[0] === "sent_key" || pair[0] === "action") return;
      var radio = win.querySelector('input[type=radio][name="' + pair[0] + '"][value="' + pair[1] + '"]');
      var text = win.querySelector('input[type=text][name="' + pair[0] + '"]');
      if (radio) radio.checked = true;
      else if (text) text.value = pair[1];
    });
    var liable = win.querySelector(".liable-box");
    if (liable && win.querySelector('input[name="liable"]:checked')) liable.open = true;
    if (box.stopped && box.stopped.server) sayAt(win, box.stopped.server);
  }


  O.render = render;
  O.resetTiles = resetTiles;
  O.eveningEnded = eveningEnded;
})(window.TableOutbox);
