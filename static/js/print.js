// The Print button: a script file, since the Content-Security-Policy allows no inline handlers.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) window.print();
});
