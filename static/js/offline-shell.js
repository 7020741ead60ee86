// Installs the service worker (/sw.js, templates/front/sw.js) that keeps the table page,
// its styles and scripts on this device for a Wi-Fi drop. Loaded on pages for a login.
// Browsers offer service workers only on https and on localhost: on a plain-http hall
// network there is none, and the pages work as they always have while connected.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var script = document.currentScript;
  var worker = script.dataset.worker;
  var scope = script.dataset.scope;
  // After the page's own loading, which matters more on a slow hall connection.
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker, { scope: scope }).catch(function (error) {
      // A self-signed certificate, a private window: the page works without it.
      console.warn("The page cannot be kept for offline use:", error);
    });
  });
})();
