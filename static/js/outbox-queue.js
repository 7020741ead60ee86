// The table page's outbox, its queue (see outbox-shared.js): what waits on this device in
// localStorage, the server's match as last seen, the device's checks before a hand is put
// aside, sending one at a time in order, and trying again.
(function (O) {
  "use strict";
  var notice = O.notice, el = O.el;

  var PREFIX = "table-outbox:";
  var RETRY_MS = 5000; // until the page's JSON says (table_flow's retry_ms)
  var SEND_TIMEOUT_MS = 20000; // as the forms' hx-request: a send that hangs is tried again
  var SAVED = { saved: true, "already-saved": true };
  var sending = false;

  // --- what waits -------------------------------------------------------------------------

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
        O.render("Hand " + last.hand + " is taken off the list waiting to be sent.");
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
    if (kind === "kong") O.resetTiles(form);
    O.render();
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
    O.resetTiles(form);
    O.render("Hand " + entry.hand + " is corrected and waits to be sent.");
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
    O.render();
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
          O.render(now.entries.length ? "" : "Everything waiting has been sent.");
          replaced();
          flush();
          return;
        }
        stop(now, entry, outcome || "refused", doc);
      });
    }).catch(function () {
      if (timer) window.clearTimeout(timer);
      sending = false; // no answer: it stays first in line and goes again with the same key
      O.render();
    });
  }


  // --- trying again -----------------------------------------------------------------------

  function waiting() {
    return load().entries.length > 0;
  }

  // Every few seconds while anything waits (the page's retry_ms: tests make it short).
  function keepTrying() {
    var page = pageFlow();
    var every = page && page.retry_ms > 0 ? page.retry_ms : RETRY_MS;
    window.setInterval(function () { if (waiting()) scheduled(); }, every);
  }

  O.load = load;
  O.store = store;
  O.pageFlow = pageFlow;
  O.flowData = flowData;
  O.words = words;
  O.remember = remember;
  O.local = local;
  O.counted = counted;
  O.forgetMade = forgetMade;
  O.field = field;
  O.refreshKeys = refreshKeys;
  O.putAside = putAside;
  O.sayAt = sayAt;
  O.flush = flush;
  O.waiting = waiting;
  O.keepTrying = keepTrying;
})(window.TableOutbox);
