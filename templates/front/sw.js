// The service worker: keeps the table page usable through a Wi-Fi drop, and nothing else.
// Served at /sw.js (front/views.py service_worker), so its scope is the whole site and every
// club's table pages; SHELL is filled in by the server (front/offline.py shell):
//   version   - from the kept files' contents: a deploy makes a new cache, the old is deleted
//   files     - the static files (their hashed addresses) and the offline page, kept on install
//   offline   - the page shown for a page that may not be kept, asked for without a connection
//   tablePage - the only pages kept: a table's page (the same expression the server's tests check)
// Everything else, above all the pages with members' contact details, goes to the network
// and is never stored; so does every POST.
"use strict";

const SHELL = {{ shell|safe }};
const SHELL_CACHE = "shell-" + SHELL.version;
const PAGES_CACHE = "table-pages";
const TABLE_PAGE = new RegExp(SHELL.tablePage);
const SHELL_FILES = new Set(SHELL.files);
// A coordinator's phone may look at every table of an evening; older copies are dropped.
const KEEP_PAGES = 12;

async function keepShell() {
  const cache = await caches.open(SHELL_CACHE);
  // "reload": the files as they are now, not a copy from the browser's HTTP cache.
  await cache.addAll(SHELL.files.map((url) => new Request(url, { cache: "reload" })));
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== SHELL_CACHE && name !== PAGES_CACHE) await caches.delete(name);
    }
    // The kept table pages name the old version's files, which are gone: fetch them again.
    await refreshTablePages();
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
    await keepOpenTablePages();
  })());
});

// The table page that installed this worker was loaded before the worker could see it: keep
// it now, or the first drop after a tablet opens its table (a card scanned, say) would find
// no copy.
async function keepOpenTablePages() {
  const cache = await caches.open(PAGES_CACHE);
  for (const client of await self.clients.matchAll({ type: "window" })) {
    const url = new URL(client.url);
    if (url.origin !== self.location.origin || !TABLE_PAGE.test(url.pathname) || url.search) continue;
    if (await cache.match(url.href, { ignoreVary: true })) continue;
    try {
      const response = await fetch(url.href, { credentials: "same-origin" });
      if (isGoodPage(response)) await keepPage(cache, url.href, response);
    } catch (error) {
      // Offline already: nothing to keep.
    }
  }
}

async function refreshTablePages() {
  const cache = await caches.open(PAGES_CACHE);
  for (const request of await cache.keys()) {
    try {
      const response = await fetch(request.url, { credentials: "same-origin" });
      if (isGoodPage(response)) await cache.put(request.url, response);
      else await cache.delete(request);
    } catch (error) {
      await cache.delete(request);  // offline now: a copy without its files is no use
    }
  }
}

function isGoodPage(response) {
  return response.status === 200 && !response.redirected
    && (response.headers.get("Content-Type") || "").startsWith("text/html");
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;  // writes: the network's, never stored
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (TABLE_PAGE.test(url.pathname) && !url.search) event.respondWith(tablePage(event));
    else event.respondWith(networkOnly(event));
  } else if (SHELL_FILES.has(url.pathname)) {
    event.respondWith(shellFile(request));
  }
  // Anything else (htmx's requests, the poll, other files) is not touched.
});

async function fromNetwork(event) {
  return (await event.preloadResponse) || fetch(event.request);
}

async function networkOnly(event) {
  try {
    return await fromNetwork(event);
  } catch (error) {
    return offlinePage();
  }
}

// Network first; the last good copy when there is no network (or the server cannot answer).
async function tablePage(event) {
  const cache = await caches.open(PAGES_CACHE);
  let response;
  try {
    response = await fromNetwork(event);
  } catch (error) {
    return (await cache.match(event.request.url, { ignoreVary: true })) || offlinePage();
  }
  if (isGoodPage(response)) {
    event.waitUntil(keepPage(cache, event.request.url, response.clone()));
  } else if (response.status >= 500) {
    const kept = await cache.match(event.request.url, { ignoreVary: true });
    if (kept) return kept;
  } else {
    // Sent to the login page, refused, or no such table now: this device no longer keeps it.
    event.waitUntil(cache.delete(event.request.url, { ignoreVary: true }));
  }
  // A table page means the shell is wanted: put it back if something cleared it.
  event.waitUntil(caches.has(SHELL_CACHE).then((kept) => kept || keepShell()).catch(() => {}));
  return response;
}

async function keepPage(cache, url, response) {
  await cache.put(url, response);
  const kept = await cache.keys();  // oldest first
  for (const old of kept.slice(0, Math.max(0, kept.length - KEEP_PAGES))) await cache.delete(old);
}

async function shellFile(request) {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE, ignoreVary: true });
  return kept || fetch(request);
}

async function offlinePage() {
  const kept = await caches.match(SHELL.offline, { cacheName: SHELL_CACHE, ignoreVary: true });
  return kept || new Response("No connection. This page needs the connection.", {
    status: 503,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}
