// Check-in page: filter the names as the coordinator types (no server round trip).
(function () {
  "use strict";
  var input = document.getElementById("checkin-filter");
  var list = document.getElementById("checkin-list");
  if (!input || !list) return;
  var none = document.getElementById("checkin-none");
  var clear = document.getElementById("checkin-filter-clear");

  function apply() {
    var words = input.value.toLowerCase().trim().split(/\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(list.children, function (item) {
      var name = item.getAttribute("data-name") || "";
      var match = words.every(function (word) { return name.indexOf(word) !== -1; });
      item.hidden = !match;
      if (match) shown += 1;
    });
    if (none) none.hidden = shown > 0;
  }

  input.addEventListener("input", apply);
  if (clear) {
    clear.addEventListener("click", function () {
      input.value = "";
      apply();
      input.focus();
    });
  }
  document.body.addEventListener("htmx:afterSwap", apply);
  apply();

  // Tapping a name or a Paid tick replaces its row, and its button is disabled while the
  // request runs, so the focus would drop to the top of the page. Give it back to the
  // same button (found by id) so someone using the keyboard keeps their place: as soon as
  // the row is swapped, and again once it has settled. The id travels with its own
  // request (htmx's requestConfig), so a quick second tap never loses or borrows it.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var active = document.activeElement;
    if (active && active.id && list.contains(active) && event.detail.requestConfig) {
      event.detail.requestConfig.checkinFocus = active.id;
    }
  });
  function giveBack(event) {
    var config = event.detail && event.detail.requestConfig;
    var again = config && config.checkinFocus && document.getElementById(config.checkinFocus);
    var lost = !document.activeElement || document.activeElement === document.body;
    if (again && lost) again.focus(); // never take it from where they have moved on to
  }
  document.body.addEventListener("htmx:afterSwap", giveBack);
  document.body.addEventListener("htmx:afterSettle", giveBack);
})();
