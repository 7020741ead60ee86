// "Copy the address" buttons (the calendar page): a button with data-copy="<id of a field>"
// copies that field's text and says so in the element named by data-copied. The buttons
// start hidden: without JavaScript the field itself can be selected and copied.
(function () {
  "use strict";
  function say(status, words) {
    if (!status) { return; }
    status.textContent = words;
    status.hidden = false;
  }
  function copy(field) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(field.value);
    }
    // Plain-http hall networks have no clipboard API: the older way still works there.
    field.focus();
    field.select();
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject();
  }
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.dataset.copy);
    var status = document.getElementById(button.dataset.copied);
    if (!field) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(field).then(function () {
        say(status, "Copied. Now paste it into your calendar app.");
      }, function () {
        field.focus();
        field.select();
        say(status, "Could not copy by itself: the address is selected, copy it with your " +
          "device's Copy.");
      });
    });
  });
})();
