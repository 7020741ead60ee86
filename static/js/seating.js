// Seating pages: bring the answer to an action into view.
(function () {
  "use strict";

  // After a change the panel is swapped in again; its answer (a message, a refusal or a
  // choice) stands beside the control that asked. Move the focus there, so a screen reader
  // reads it, and scroll only when it is not already in view.
  function showAnswer() {
    var answer = document.querySelector("[data-answer]");
    if (!answer) return;
    answer.focus({ preventScroll: true });
    var box = answer.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      answer.scrollIntoView({ block: "center" });
    }
  }

  document.body.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "seating-panel") showAnswer();
  });
  if (window.location.hash === "#answer") showAnswer();
})();
