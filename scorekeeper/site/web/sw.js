// Scorekeeper's service worker: keeps every file of the site in one cache per version, so the
// app starts with no network after the first visit. Written by `scorekeeper site`
// (scorekeeper/site/web/sw.js): VERSION is a hash of every other file of the site, so a new
// site is a new sw.js; the browser fetches it at each start (never from its HTTP cache),
// installs the new version in the background and the next start runs it. The matches are not
// here (they are in IndexedDB): a new version never touches them.
"use strict";

const VERSION = "@VERSION@";
const FILES = "@FILES@";
const SIZES = "@SIZES@"; // the bytes of each file, for the first visit's progress
// Flutter's renderers: the files of each. The page says which one this browser draws with
// (sw.js?renderer=...), and only that one's are kept: a Chromium phone fetches no CanvasKit.
const RENDERERS = "@RENDERERS@";
const RENDERER = new URL(self.location.href).searchParams.get("renderer");

// The files kept: every file of the site but the other renderers' (all of them, when the page
// did not say which renderer, or named none of these).
function kept() {
  const mine = new Set(RENDERERS[RENDERER] || []);
  if (!mine.size) {
    return FILES;
  }
  const others = new Set(Object.values(RENDERERS).flat());
  return FILES.filter((f) => mine.has(f) || !others.has(f));
}
const PREFIX = "scorekeeper-site-";
const CACHE = PREFIX + VERSION;

// Tell every page of the site (site.js shows it on the first visit): {scorekeeper: "progress",
// done, total} as the files are kept, {scorekeeper: "ready", total} once every one is.
async function tell(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    client.postMessage(message);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const files = kept();
      const total = files.reduce((sum, f) => sum + (SIZES[f] || 0), 0);
      const queue = files.slice();
      let done = 0;
      async function keep() {
        while (queue.length) {
          const f = queue.shift();
          // "no-cache": asked again of the server (a 304 when unchanged), never an old copy
          await cache.add(new Request(f, { cache: "no-cache" }));
          done += SIZES[f] || 0;
          await tell({ scorekeeper: "progress", done, total });
        }
      }
      await Promise.all([keep(), keep(), keep(), keep()]); // (any file failing fails the install)
      await tell({ scorekeeper: "ready", total });
      await self.skipWaiting(); // a page already running keeps what it loaded; the next start is new
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) {
          await caches.delete(name);
        }
      }
      await self.clients.claim();
    })()
  );
});

const scope = new URL(self.registration.scope);

function key(request) {
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) {
    return null;
  }
  if (request.mode === "navigate") {
    return "./"; // any page of the app (its routes are after the #) is the app's page
  }
  const rel = url.pathname.slice(scope.pathname.length);
  return rel === "" || rel === "index.html" ? "./" : rel;
}

// The page is made cross-origin isolated (as the table's server makes the server app's page):
// Flutter then draws on a thread of its own instead of the page's, which the Python worker
// and the page share with it. The headers go on the page and on the Python worker's script
// (a worker of an isolated page must say so too); every other file is the site's own.
function isolating(request) {
  return request.mode === "navigate" || request.destination === "worker";
}

async function isolated(response) {
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  return new Response(await response.arrayBuffer(), { status: response.status, headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  const rel = key(request);
  if (rel === null) {
    return;
  }
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(rel, { ignoreSearch: true });
      const response = hit || (await fetch(request));
      if (!hit && response.ok && FILES.includes(rel)) {
        // a file of the site not kept yet (another renderer than the page said): kept now
        await cache.put(rel, response.clone());
      }
      return isolating(request) && response.ok ? isolated(response) : response;
    })()
  );
});
