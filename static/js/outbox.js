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
// Without this file the page works as before (each press answered, or "press again").
(function () {
  "use strict";
  var PREFIX = "table-outbox:";
  var RETRY_MS = 5000; // until the page's JSON says (table_flow's retry_ms)
  var SEND_TIMEOUT_MS = 20000; // as the forms' hx-request: a send that hangs is tried again
  var SAVED = { saved: true, "already-saved": true };
  var sending = false;

  // --- what waits -------------------------------------------------------------------------

  function notice() {
    return document.getElementById("outbox-notice");
  }

  function matchId() {
    var box = notice();
    return box ? box.dataset.match : null;
  }

  function load() {
    var empty = { entries: [], stopped: null };
    if (!matchId()) return empty;
    try {
      var box = JSON.parse(window.localStorage.getItem(PREFIX + matchId()) || "null");
      return box && Array.isArray(box.entries) ? settled(box) : empty;
    } catch (e) {
      return empty;
    }
  }

  // Sending stops at the first entry only: once that one has left (sent, dropped, undone,
  // corrected) the queue goes on by itself.
  function settled(box) {
    if (box.stopped && (!box.entries.length || box.entries[0].key !== box.stopped.key)) {
      box.stopped = null;
      box.correcting = false;
    }
    return box;
  }

  function store(box) {
    try {
      if (box.entries.length || box.stopped) {
        window.localStorage.setItem(PREFIX + matchId(), JSON.stringify(box));
      } else {
        window.localStorage.removeItem(PREFIX + matchId());
      }
      return true;
    } catch (e) {
      return false; // private browsing or full: the press is answered as before
    }
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    // randomUUID needs https; a club's own computer on the hall's network may be plain http.
    var bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function pageFlow() {
    var script = document.getElementById("table-flow");
    if (!script) return null;
    try {
      return JSON.parse(script.textContent);
    } catch (e) {
      return null;
    }
  }

  // The server's match as this device last saw it: the page's JSON, or what the outbox
  // kept with its entries when that is newer. A page reloaded offline is the service
  // worker's copy, which may be from before hands this device saw saved since: the board
  // is then built on those, not on the copy's.
  var SEEN = "table-seen:";

  function seen() {
    try {
      return JSON.parse(window.localStorage.getItem(SEEN + matchId()) || "null");
    } catch (e) {
      return null;
    }
  }

  function flowData() {
    var page = pageFlow();
    if (!page) return null;
    var kept = seen();
    if (!kept || kept.match !== page.match || !(kept.version > page.version)) return page;
    kept.made_keys = page.made_keys;
    kept.newer = true; // than the page's own board and forms: they are drawn from it
    return kept;
  }

  // The server's words (table_flow's words: selectors.WON_BY_WORDS, KONG_WORDS and
  // games/flow.py's WIND_WORDS), from the page, else as the outbox last saw them.
  function words() {
    var data = pageFlow() || seen();
    return (data && data.words) || { won_by: {}, kong: {}, winds: {} };
  }

  // Keep the newest server's match seen (see flowData), beside the outbox's entries.
  function remember(data) {
    if (!data || !matchId()) return;
    var kept = seen();
    if (kept && kept.match === data.match && kept.version >= data.version) return;
    var copy = {};
    Object.keys(data).forEach(function (name) {
      if (name !== "made_keys" && name !== "newer") copy[name] = data[name];
    });
    try {
      window.localStorage.setItem(SEEN + matchId(), JSON.stringify(copy));
    } catch (e) {
      /* private browsing, or full: the page's own JSON is used */
    }
  }

  // The match as this device has it: the server's hands, then what waits here.
  function local(data, entries) {
    var outcomes = data.outcomes.slice();
    var texts = {};
    Object.keys(data.hands).forEach(function (n) { texts[n] = data.hands[n]; });
    entries.forEach(function (entry) {
      if (entry.outcome && entry.hand && entry.hand <= outcomes.length) {
        // The server holds that hand already (another device recorded it): this one will
        // not add a hand, whatever becomes of it (already saved, or a conflict to choose).
        return;
      }
      if (entry.outcome) {
        outcomes.push(entry.outcome);
        texts[outcomes.length] = entry.text;
      } else if (entry.kind === "undo") {
        delete texts[outcomes.length];
        outcomes.pop();
      }
    });
    // games/flow.py's constants; a match kept by an older page may lack them: the page's.
    var constants = data.flow || pageFlow().flow;
    var states = window.MatchFlow.replay(constants, data.rules, outcomes, data.players, data.options);
    return { state: states[states.length - 1], last: outcomes.length, texts: texts };
  }

  // The entries that will count once everything is sent: all, but ours of a hand another
  // device recorded differently (the server's stays unless a person corrects it).
  function counted(box) {
    var conflict = box.stopped && box.stopped.outcome === "conflict";
    return conflict ? box.entries.slice(1) : box.entries;
  }

  // A freshly loaded page names the writes the server has made (made_keys): one still
  // waiting here was made before its answer could arrive, so it leaves, not counted twice.
  function forgetMade(box, data) {
    if (!data || !data.made_keys) return;
    var made = data.made_keys;
    var left = box.entries.filter(function (entry) { return made.indexOf(entry.key) === -1; });
    if (left.length === box.entries.length) return;
    box.entries = left;
    store(settled(box));
  }

  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return "";
  }

  function chair(value) {
    return value === "" ? null : parseInt(value, 10);
  }

  // In the server's words (selectors.describe_hand, kong_words).
  function describe(kind, fields, data, form) {
    var names = data.names;
    if (kind === "win") {
      var winner = names[chair(field(fields, "winner"))];
      var discarder = chair(field(fields, "discarder"));
      var how = (words().won_by[field(fields, "won_by")] || "").replace(
        "{discarder}", discarder === null ? "a" : names[discarder] + "'s");
      var text = winner + " won " + how + ", " + field(fields, "total") + " " + data.unit;
      var liable = chair(field(fields, "liable"));
      if (liable !== null) text += "; " + names[liable] + " pays for everyone (9-piece penalty)";
      return text;
    }
    if (kind === "draw") return "Draw: the wall ran out, nobody went out";
    if (kind === "kong") {
      return "Kong chips: " + names[chair(field(fields, "chair"))] + " made " +
        (words().kong[field(fields, "kind")] || "a kong");
    }
    if (kind === "take_back") return "Take back: " + (form.dataset.what || "kong chips");
    return "Undo hand " + field(fields, "hand");
  }

  function sitsOut(state, chair) {
    return chair !== "" && state.winds[parseInt(chair, 10)] === null;
  }

  // Who won and who pays, as the server's check_win says it (the words come with the page).
  function whoRefusal(fields, checks, state) {
    var words = checks.words;
    var winner = field(fields, "winner");
    var how = field(fields, "won_by");
    var discarder = field(fields, "discarder");
    var liable = field(fields, "liable");
    if (winner === "") return words.no_winner;
    if (sitsOut(state, winner)) return words.sits_out.winner;
    if (how === "") return words.no_how;
    if (checks.discarder_pays.indexOf(how) !== -1) {
      if (discarder === "") return words.no_discarder[how];
      if (discarder === winner) return words.winner_pays;
      if (sitsOut(state, discarder)) return words.sits_out.discarder;
    }
    if (liable !== "" && liable === winner) return words.winner_liable;
    if (sitsOut(state, liable)) return words.sits_out.liable;
    return "";
  }

  // The total against the limits the server sent (a goulash hand's own minimum), in the
  // engine's words: what it refuses before any tiles.
  function totalRefusal(total, checks, state) {
    var limits = state.goulash && checks.goulash ? checks.goulash : checks.hand;
    var amount = total === 1 ? checks.one : total + " " + checks.unit;
    if (limits.minimum !== null && total < limits.minimum) return limits.below.replace("{amount}", amount);
    if (limits.maximum !== null && total > limits.maximum) return limits.above.replace("{total}", String(total));
    return "";
  }

  // What the server would refuse, said before the write is put aside: `state` is the hand
  // it is for, as this device has it.
  function missing(kind, fields, data, state) {
    if (kind === "win") {
      var checks = data.checks;
      var who = whoRefusal(fields, checks, state);
      if (who) return who;
      var total = field(fields, "total").trim();
      if (total === "") return "Type the total the table agreed.";
      if (!/^[0-9]+$/.test(total)) return "Type the total as a whole number, digits only.";
      var tooFewOrMany = totalRefusal(parseInt(total, 10), checks, state);
      if (tooFewOrMany) return tooFewOrMany;
    }
    if (kind === "kong") {
      if (field(fields, "chair") === "") return "Choose who made the kong.";
      if (field(fields, "kind") === "") return "Choose which kind of kong it was.";
    }
    return "";
  }

  function fieldsOf(form, submitter) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    return fields;
  }

  function refreshKeys(form) {
    form.querySelectorAll('input[name="sent_key"], input[name="key"]').forEach(function (input) {
      input.value = newKey();
    });
  }

  // Put the write `form` sends aside; `sent`: it went out and got no answer (so it may have
  // been made: it is sent again with its key, never dropped here).
  function putAside(form, submitter, sent) {
    var data = flowData();
    var kind = form.dataset.outbox;
    if (!data) return false;
    var box = load();
    var fields = fieldsOf(form, submitter);
    var correcting = box.correcting && kind === "win";
    var at;
    try {
      at = local(data, correcting ? [] : counted(box)).state;
    } catch (e) {
      at = data.state; // what waits cannot be replayed: the server decides
    }
    var problem = missing(kind, fields, data, at);
    if (problem) {
      sayAt(form, problem);
      return true;
    }
    if (kind === "undo" && !sent) {
      var last = box.entries[box.entries.length - 1];
      if (last && last.outcome) {
        box.entries.pop(); // never sent: it simply leaves the list
        store(box);
        refreshKeys(form);
        render("Hand " + last.hand + " is taken off the list waiting to be sent.");
        return true;
      }
    }
    var entry = {
      key: field(fields, "sent_key") || newKey(),
      kind: kind,
      url: form.getAttribute("hx-post") || form.action,
      fields: fields,
      hand: parseInt(field(fields, "hand"), 10) || null,
      text: describe(kind, fields, data, form),
      outcome: null,
    };
    if (!field(fields, "sent_key")) entry.fields.push(["sent_key", entry.key]);
    if (kind === "win") {
      var discarder = chair(field(fields, "discarder"));
      var paying = field(fields, "won_by") === "discard" || field(fields, "won_by") === "robbing_kong";
      entry.outcome = {
        winner: chair(field(fields, "winner")),
        won_by: field(fields, "won_by"),
        discarder: paying ? discarder : null,
      };
    } else if (kind === "draw") {
      entry.outcome = { draw: true };
    }
    if (correcting) return correctFirst(form, box, entry, data);
    box.entries.push(entry);
    try {
      local(data, counted(box)); // the flow refuses it (a chair sitting out): say so, keep nothing
    } catch (e) {
      sayAt(form, e.message);
      return true;
    }
    if (!store(box)) return false;
    refreshKeys(form);
    if (kind === "kong") resetTiles(form);
    render();
    if (kind === "kong" || kind === "draw") document.dispatchEvent(new CustomEvent("table:next-hand"));
    return true;
  }

  // "Correct it": the refused first entry is replaced by the form's, the hands after it
  // stay waiting behind it (refused, keeping nothing, if the change makes one of them
  // impossible), and sending goes on.
  function correctFirst(form, box, entry, data) {
    var entries = [entry].concat(box.entries.slice(1));
    try {
      local(data, entries);
    } catch (e) {
      sayAt(form, "With this change a hand waiting after it cannot be right (" + e.message + ")");
      return true;
    }
    box.entries = entries;
    box.stopped = null;
    box.correcting = false;
    if (!store(box)) return false;
    refreshKeys(form);
    resetTiles(form);
    render("Hand " + entry.hand + " is corrected and waits to be sent.");
    return true;
  }

  function sayAt(form, text) {
    var box = form.querySelector(".outbox-refusal");
    if (!box) {
      box = document.createElement("p");
      box.className = "outbox-refusal error-text";
      box.setAttribute("role", "alert");
      var row = form.querySelector(".button-row");
      if (row) row.insertAdjacentElement("beforebegin", box);
      else form.appendChild(box);
    }
    box.textContent = text;
  }

  // --- the page as this device has it ----------------------------------------------------

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

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
    renderStopped(box);
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

  // --- sending --------------------------------------------------------------------------

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function parse(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  // The server's table replaces this device's (an answer is the page's #table-play part).
  // Someone may be typing the next hand meanwhile: where the focus was is remembered, for
  // `replaced` to give back once the forms show this device's hand again.
  var focusWas = null;

  function showServers(doc) {
    var fresh = doc.getElementById("table-play");
    var old = document.getElementById("table-play");
    if (!fresh || !old) return;
    var active = document.activeElement;
    focusWas = active && active.id && old.contains(active) ? active.id : null;
    var node = document.importNode(fresh, true);
    old.replaceWith(node);
    if (window.htmx) window.htmx.process(node);
  }

  // After the swap and `render` (the forms at this device's hand): table.js puts back what
  // was half typed for that hand, and the focus returns, so a send never wipes an entry.
  function replaced() {
    document.dispatchEvent(new CustomEvent("table:replaced"));
    var target = focusWas && document.getElementById(focusWas);
    focusWas = null;
    if (!target || target.disabled || target.closest("[hidden]")) return;
    target.focus({ preventScroll: true });
    if (target.type === "text" && target.setSelectionRange) {
      target.setSelectionRange(target.value.length, target.value.length);
    }
  }

  // The evening's end answers without forms or the flow's JSON: the page keeps the JSON it
  // had, so the board still shows the hands waiting here (sent if the evening reopens).
  function keepFlow(flow) {
    var play = document.getElementById("table-play");
    if (flow && play && !document.getElementById("table-flow")) play.insertBefore(flow, play.firstChild);
  }

  function serverVersion(doc, entry, outcome) {
    if (outcome === "conflict" && entry.hand) {
      var saved = doc.querySelector(".conflict-saved");
      if (saved) return "Hand " + entry.hand + ": " + saved.textContent.trim();
      var line = doc.querySelector('#hands .hand-line[data-number="' + entry.hand + '"]:not(.voided)');
      if (line) return line.textContent.replace(/\s+/g, " ").trim();
    }
    var said = doc.querySelector(".evening-ended p, [data-answer].message-error, .error-summary, .error-text, [data-answer]");
    return said ? said.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function stop(box, entry, outcome, doc) {
    var correct = doc && doc.querySelector('.conflict a[href*="/correct"]');
    var server = doc ? serverVersion(doc, entry, outcome) : "";
    var at = outcome === "ended" && /ended the evening at (\d{1,2}:\d\d)/.exec(server);
    box.stopped = {
      outcome: outcome,
      key: entry.key,
      // The server's words are about the one write it was sent; the panel names them all.
      server: outcome === "ended" ? "" : server,
      at: at ? at[1] : "",
      correct: correct ? correct.getAttribute("href") : "",
    };
    store(box);
    var flow = document.getElementById("table-flow");
    if (doc && outcome !== "login") showServers(doc);
    if (outcome === "ended") keepFlow(flow);
    // The server's own card for a single save (its conflict, its "send again once reopened")
    // would offer a second set of choices about the same hand: the panel's are the ones.
    document.querySelectorAll("#table-play .conflict").forEach(function (card) { card.remove(); });
    document.querySelectorAll("#table-play .evening-ended").forEach(function (card) {
      card.replaceWith(el("p", "message evening-over", "The coordinator ended the evening" +
        (box.stopped.at ? " at " + box.stopped.at : "") + ": no more hands can be recorded at this table."));
    });
    render();
    var panel = document.getElementById("outbox-stopped");
    if (panel && !panel.hidden) panel.scrollIntoView({ block: "start" });
  }

  function scheduled() {
    flush();
  }

  function flush() {
    var box = load();
    if (sending || box.stopped || !box.entries.length || !navigator.onLine) return;
    sending = true;
    var entry = box.entries[0];
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort && window.setTimeout(function () { abort.abort(); }, SEND_TIMEOUT_MS);
    window.fetch(entry.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRFToken": csrfToken() },
      signal: abort ? abort.signal : undefined,
    }).then(function (response) {
      if (timer) window.clearTimeout(timer);
      var outcome = response.headers.get("X-Table-Outcome");
      var login = response.status === 403 || (response.redirected && /\/login\//.test(response.url));
      return response.text().then(function (html) {
        sending = false;
        var now = load();
        if (!now.entries.length || now.entries[0].key !== entry.key) return; // changed meanwhile
        if (login) return stop(now, entry, "login", null);
        if (!outcome && response.status >= 500) return; // the server is restarting: later
        var doc = parse(html);
        if (SAVED[outcome]) {
          now.entries.shift();
          store(now);
          showServers(doc);
          render(now.entries.length ? "" : "Everything waiting has been sent.");
          replaced();
          flush();
          return;
        }
        stop(now, entry, outcome || "refused", doc);
      });
    }).catch(function () {
      if (timer) window.clearTimeout(timer);
      sending = false; // no answer: it stays first in line and goes again with the same key
      render();
    });
  }

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

  function button(text, className, action) {
    var node = el("button", "button " + className, text);
    node.type = "button";
    node.addEventListener("click", action);
    return node;
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

  // --- the page's own requests ----------------------------------------------------------

  function waiting() {
    return load().entries.length > 0;
  }

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
    var page = pageFlow();
    var every = page && page.retry_ms > 0 ? page.retry_ms : RETRY_MS;
    window.setInterval(function () { if (waiting()) scheduled(); }, every);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
