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
})();
