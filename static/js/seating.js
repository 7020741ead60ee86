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
  // A page that opens with a question or a refusal is the answer to a form sent without
  // htmx (e.g. "Give Alan a seat" on the check-in page when no table has room): show it.
  if (window.location.hash === "#answer" || document.querySelector("[data-answer] [role=alert]")) {
    showAnswer();
  }
})();
