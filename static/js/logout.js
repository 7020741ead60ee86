// Logging out clears what this device kept of the site: the service worker's copies of
// table pages, localStorage, sessionStorage and IndexedDB (a half-typed hand, an outbox).
// The server's answer says the same (Clear-Site-Data), but browsers act on it only over
// https or on localhost, not on a plain-http hall network: so this does it too.
//
// The logout is sent first and the device cleared once the server has answered: without a
// connection nothing is cleared and the page says that logging out needs the connection
// (clearing first would leave the tablet logged in, with its outbox gone).
//
// Before anything, a cancelable "club:before-clear" event is sent on document, with
// detail { form, proceed }. A listener that must stop the logout (hands still waiting to be
// sent) calls event.preventDefault() and asks; if the person then chooses to log out
// anyway, the listener calls detail.proceed(), which logs out and clears without asking again.
(function () {
  "use strict";
  // Clearing normally takes a few milliseconds; a browser that never finishes must not
  // keep anyone on a logged-in page.
  var GIVE_UP_MS = 3000;
  var NO_CONNECTION = "Logging out needs the connection. Nothing has been cleared: " +
    "press \u201cLog out\u201d again when the Wi-Fi is back.";

  function deleteDatabase(name) {
    return new Promise(function (resolve) {
      var request = window.indexedDB.deleteDatabase(name);
      // "blocked": a page still holds it open; it goes once that page has gone (this one
      // is about to), so the logout does not wait for it.
      request.onsuccess = request.onerror = request.onblocked = function () { resolve(); };
    });
  }

  function clearDevice() {
    var jobs = [];
    try { window.localStorage.clear(); } catch (error) { /* storage switched off */ }
    try { window.sessionStorage.clear(); } catch (error) { /* storage switched off */ }
    if (window.caches) {  // only in secure contexts
      jobs.push(window.caches.keys().then(function (names) {
        return Promise.all(names.map(function (name) { return window.caches.delete(name); }));
      }));
    }
    if (window.indexedDB && window.indexedDB.databases) {
      jobs.push(window.indexedDB.databases().then(function (databases) {
        return Promise.all(databases.map(function (db) { return deleteDatabase(db.name); }));
      }));
    }
    var cleared = Promise.all(jobs.map(function (job) { return job.catch(function () {}); }));
    var timeout = new Promise(function (resolve) { setTimeout(resolve, GIVE_UP_MS); });
    return Promise.race([cleared, timeout]);
  }

  function say(text) {
    var main = document.getElementById("main") || document.body;
    var box = document.getElementById("logout-problem");
    if (!box) {
      box = document.createElement("div");
      box.id = "logout-problem";
      box.className = "messages";
      box.innerHTML = '<p class="message message-error" role="alert" tabindex="-1"></p>';
      main.insertBefore(box, main.firstChild);
    }
    var message = box.firstChild;
    message.textContent = text;
    message.focus();
  }

  function logOut(form) {
    if (form.dataset.sending) return;
    form.dataset.sending = "true";
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (answer) {
        if (!answer.ok) {
          // Refused (an expired form, say): the server's own page says why.
          form.submit();
          return;
        }
        return clearDevice().then(function () { window.location.replace(answer.url); });
      })
      .catch(function () {
        delete form.dataset.sending;
        say(NO_CONNECTION);
      });
  }

  // Hands a table page's outbox keeps (static/js/outbox-queue.js, "table-outbox:<match>"), for
  // a logout from any other page, where the outbox is not there to hold it back.
  function waiting() {
    var count = 0;
    try {
      for (var i = 0; i < window.localStorage.length; i += 1) {
        var name = window.localStorage.key(i);
        if (name.indexOf("table-outbox:") !== 0) continue;
        var box = JSON.parse(window.localStorage.getItem(name) || "null");
        count += box && Array.isArray(box.entries) ? box.entries.length : 0;
      }
    } catch (error) { /* storage switched off, or not ours: nothing to keep */ }
    return count;
  }

  function waitingWords(count) {
    return (count === 1 ? "1 hand is" : count + " hands are") + " waiting on this tablet to " +
      "be sent. Open the table\u2019s page with the Wi-Fi on to send " +
      (count === 1 ? "it" : "them") + ". To log out anyway (" + (count === 1 ? "it" : "they") +
      " will be lost), press \u201cLog out\u201d again.";
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-clear-device]")) return;
    event.preventDefault();
    var asked = new CustomEvent("club:before-clear", {
      cancelable: true,
      detail: { form: form, proceed: function () { logOut(form); } },
    });
    if (!document.dispatchEvent(asked)) return; // the table page's outbox asks itself
    var count = waiting();
    if (count && !form.dataset.warned) {
      form.dataset.warned = "true"; // said once: the next press logs out
      say(waitingWords(count));
      return;
    }
    logOut(form);
  });
})();
