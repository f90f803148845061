/* The offline shell: the companion's pages and files, network first (nothing stale while
   the companion answers), the last copy kept when it cannot be reached, and the offline page
   for a page never opened. Live data (/api, the camera) is never answered from here. */
"use strict";
const CACHE = "tc-shell-v1";
const SHELL = ["/", "/offline", "/static/app.css", "/static/app.js", "/static/chart.js",
  "/static/icon.svg", "/static/icons/icon-192.png"];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).catch(() => null).then(() => self.skipWaiting()));
});
self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/") ||
      url.pathname.startsWith("/camera/") || url.pathname === "/sw.js") return;
  const page = req.mode === "navigate";
  const kept = page || url.pathname.startsWith("/static/");
  ev.respondWith(fetch(req).then((res) => {
    if (kept && res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(req, copy)).catch(() => null);
    }
    return res;
  }).catch(() => caches.match(req, { ignoreSearch: !page })
    .then((hit) => hit || (page ? caches.match("/offline") : Response.error()))));
});
