// Print buttons (`data-print`): the browser's own print dialog. The print stylesheet hides
// the navigation and the buttons. A file of its own because a strict CSP allows no inline
// `onclick`.
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("[data-print]"), function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
