// The paper-sheet grid: Enter moves to the next box, as Tab does, so a coordinator types
// a whole sheet without the mouse. A script file: the Content-Security-Policy allows no
// inline script. Without it Enter submits the form, which checks the sheet.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.shiftKey || event.ctrlKey || event.altKey) return;
  const grid = event.target.closest(".paper-grid");
  if (!grid || event.target.tagName !== "INPUT") return;
  event.preventDefault();
  const boxes = Array.from(grid.querySelectorAll("input[type=text]"));
  const next = boxes[boxes.indexOf(event.target) + 1];
  if (next) next.focus();
});
