// The service worker: the page's static files come from a cache named after this release (the server fills
// in __VERSION__, a hash of the static files), so the page opens at once on a slow connection; a new release
// installs a new cache and deletes the old.  Pages try the network first (a table's page needs it) and fall
// back to the cached shell, else to the offline page.  The API and the websocket are never cached.
const CACHE = "fiftysix-__VERSION__";
const PRECACHE = "__PRECACHE__";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("fiftysix-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

async function page(request) {
  try {
    return await fetch(request);
  } catch (_) {
    const cache = await caches.open(CACHE);
    const path = new URL(request.url).pathname;
    const shell = path.startsWith("/t/") ? "/static/table.html" : path;
    return (await cache.match(shell)) || (await cache.match("/offline"));
  }
}

async function asset(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) cache.put(request, res.clone());
  return res;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(asset(request));
});
