"""The browser's side of :mod:`scorekeeper.site.disk`: JavaScript that only Pyodide can run.

Used by :mod:`scorekeeper.site.phone` in the browser only: Pyodide's ``pyodide_js`` and
Flet's ``flet_js`` exist there alone, so they are imported where they are used (this module
itself imports anywhere, as the doctest run over the package does). Flet's Python worker runs the app in a Web Worker, where
``pyodide_js.FS`` is Emscripten's file system and ``navigator.locks`` the Web Locks API.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

__all__ = ["league_request", "mount", "post_json", "push", "table_here", "take_tab_lock"]

#: The JavaScript half: mount the store's folder and send its changes to the page, hold the tab lock.
_GLUE = r"""
(FS) => {
  const words = (e) => (e && (e.message || e.name || (e.errno !== undefined ? "errno " + e.errno : ""))) || String(e);
  const syncfs = (populate) => new Promise((resolve) => FS.syncfs(populate, (e) => resolve(e ? words(e) : null)));
  const IDBFS = FS.filesystems.IDBFS;
  let root = null; // the mounted folder (also the name of its IndexedDB database)
  let known = null; // what IndexedDB holds of it: path -> its file's mark (below); null: not known
  // Every file and folder under the mounted folder: path -> a mark that changes whenever the
  // file does (in the page's memory, no IndexedDB): its inode number (the store writes a file
  // whole, as a new file renamed over the old one, so a new file is a new node), its
  // modification time and its size (for a file written in place).
  const listed = () => {
    const out = {};
    const check = [root];
    while (check.length) {
      const dir = check.pop();
      for (const name of FS.readdir(dir)) {
        if (name === "." || name === "..") continue;
        const path = dir + "/" + name;
        const stat = FS.lstat(path);
        out[path] = stat.ino + ":" + stat.mtime.getTime() + ":" + stat.size;
        if (FS.isDir(stat.mode)) check.push(path);
      }
    }
    return out;
  };
  // The copies are made by the page (python.js), not here: the worker runs Python, and while
  // Python works (the redraw after an entry) the worker's IndexedDB callbacks cannot run, so a
  // copy made here ended only after the redraw; the page is idle meanwhile. And the page holds
  // what the app sends the screen until every copy before it is in.
  let copies = 0;
  const answers = new Map(); // copy number -> its promise's resolve
  // The page's answer (python-worker.js hands it here): null, or why IndexedDB refused the copy.
  self.scorekeeperCopied = (id, why) => {
    if (why !== null) known = null; // the next copy is a whole one
    const resolve = answers.get(id);
    answers.delete(id);
    if (resolve) resolve(why);
  };
  // Send the page what changed since the last copy (every file and folder when what IndexedDB
  // holds is not known: after a refusal), in IDBFS's own format: this tab alone writes the
  // folder's database (it holds the tab lock), so what IndexedDB holds is known without reading
  // it. The promise is kept when the page has it in IndexedDB.
  const changes = () => {
    let now;
    try { now = listed(); } catch (e) { return Promise.resolve(words(e)); }
    const whole = known === null;
    const before = known || {};
    const put = [];
    const handed = [];
    for (const path of Object.keys(now).filter((p) => before[p] !== now[p]).sort()) {
      let entry = null;
      IDBFS.loadLocalEntry(path, (err, e) => { if (err) throw err; entry = e; });
      if (entry.contents) { // a copy of exactly the file's bytes, handed over to the page
        entry.contents = entry.contents.slice();
        handed.push(entry.contents.buffer);
      }
      put.push([path, entry]);
    }
    const gone = whole ? [] : Object.keys(before).filter((p) => !(p in now)).sort().reverse();
    if (!whole && !put.length && !gone.length) return Promise.resolve(null);
    const id = ++copies;
    known = now; // as the page will have it (a refusal makes it unknown again)
    const copy = { id, db: root, version: IDBFS.DB_VERSION, store: IDBFS.DB_STORE_NAME, put, gone, whole };
    self.postMessage({ scorekeeperCopy: copy }, handed);
    return new Promise((resolve) => answers.set(id, resolve));
  };
  return {
    // The folder on IDBFS, filled from IndexedDB: null, or why IndexedDB cannot be used.
    mount: async (path) => {
      if (typeof indexedDB === "undefined" || indexedDB === null) {
        return "this browser gives the page no IndexedDB";
      }
      try {
        FS.mkdirTree(path);
        FS.mount(IDBFS, {}, path);
      } catch (e) {
        return words(e);
      }
      const why = await syncfs(true);
      if (why !== null) {
        try { FS.unmount(path); } catch (e) { /* left as it is: in memory only */ }
        return why;
      }
      root = path;
      try { known = listed(); } catch (e) { known = null; }
      return null;
    },
    // Copy the folder's changes into IndexedDB (the page has them when this returns): the
    // promise gives null once they are in, or why not. After a refusal, the next copy is whole.
    push: () => {
      try { return changes(); } catch (e) { known = null; return Promise.resolve(words(e)); }
    },
    // Hold the lock named `name` for as long as this page lives: "held", or "busy" (another tab
    // has it). Without Web Locks (a page not served over https or from localhost) the other tabs
    // are asked on a BroadcastChannel, which a tab holding the store answers.
    lock: async (name) => {
      if (self.navigator && self.navigator.locks) {
        return await new Promise((resolve) => {
          self.navigator.locks.request(name, { ifAvailable: true }, (lock) => {
            if (!lock) { resolve("busy"); return; }
            resolve("held");
            return new Promise(() => {}); // never let go: the page's end lets it go
          });
        });
      }
      if (typeof BroadcastChannel === "undefined") {
        return "held";
      }
      const channel = new BroadcastChannel(name);
      let other = false;
      channel.onmessage = (event) => { if (event.data === "here") { other = true; } };
      channel.postMessage("who");
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (other) { channel.close(); return "busy"; }
      channel.onmessage = (event) => { if (event.data === "who") { channel.postMessage("here"); } };
      self.scorekeeperTabChannel = channel; // kept: it answers the next tabs
      return "held";
    },
  };
}
"""

_glue: Any = None


def _js() -> Any:
    global _glue
    if _glue is None:
        import pyodide_js  # type: ignore[import-not-found]
        from pyodide.code import run_js  # type: ignore[import-not-found]

        _glue = run_js(_GLUE)(pyodide_js.FS)
    return _glue


def _text(value: Any) -> str | None:
    """A JavaScript answer: its words, or None for ``null`` (Pyodide's ``jsnull``)."""
    return value if isinstance(value, str) else None


async def mount(path: str) -> str | None:
    """Mount the store's folder ``path`` on IDBFS and fill it from IndexedDB: None, or why not
    (the folder then lives in the page's memory only)."""
    return _text(await _js().mount(path))


def push() -> Awaitable[str | None]:
    """Start copying the folder's changes into IndexedDB (the transaction is under way when
    this returns, while Python goes on): awaited, None once they are there, or why not."""
    promise = _js().push()

    async def done() -> str | None:
        return _text(await promise)

    return done()


async def take_tab_lock(name: str) -> bool:
    """Hold the tab lock ``name`` for this page's life: False when another tab holds it."""
    return str(await _js().lock(name)) == "held"


async def post_json(path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
    """POST ``body`` as JSON to ``path`` of the server the site came from, with ``headers``
    (who sends: the same origin, so the browser asks the server nothing first): (status, its
    JSON answer, or None). A server that does not answer (the phone off the table's Wi-Fi, a
    site served by a plain web server) raises :class:`OSError` with the browser's words."""
    import json

    from pyodide.http import pyfetch  # type: ignore[import-not-found]

    try:
        response = await pyfetch(
            path, method="POST", headers={**headers, "content-type": "application/json"}, body=json.dumps(body)
        )
    except Exception as e:  # the browser's fetch failed: no server there
        raise OSError(str(e) or "no answer") from None
    try:
        answer = await response.json()
    except Exception:  # not this app's server (a static host answers 404/405 pages)
        answer = None
    return int(response.status), answer


async def table_here(path: str) -> bool:
    """Whether the server the site came from is a table's laptop: its ``path`` (the inbox of
    finished matches) answers a GET with its own JSON refusal (a static web host answers a
    page of its own, or 404; offline nothing answers). Only then has History anything to send
    a match to."""
    from pyodide.http import pyfetch

    try:
        response = await pyfetch(path, method="GET", cache="no-store")
        answer = await response.json()
    except Exception:  # no answer, or not JSON: no table there
        return False
    return 400 <= int(response.status) < 500 and isinstance(answer, dict) and "error" in answer


async def league_request(link: Any, method: str, path: str, body: bytes | None) -> tuple[int, Any]:
    """One request of the phone alone to the league (:data:`scorekeeper.league.club.Send`):
    the browser's fetch across origins (the league answers the site's origin:
    ``--site-origin``), with the club's code; (status, its JSON answer, or None). A league
    that does not answer, or does not answer this site (no CORS for it: the browser hides
    its answer), raises :class:`~scorekeeper.league.club.LinkError` in one line."""
    from pyodide.http import pyfetch

    from scorekeeper.errors import one_line
    from scorekeeper.league.club import LinkError

    options: dict[str, Any] = {"method": method, "cache": "no-store"}
    options["headers"] = {"Authorization": f"Bearer {link.code}"}
    if body is not None:
        options["headers"]["Content-Type"] = "application/json"
        options["body"] = body.decode("utf-8")
    try:
        response = await pyfetch(f"{link.url}{path}", **options)
    except Exception as e:  # no answer, or one the browser keeps from the page (not this site's league)
        raise LinkError(
            f"the league at {link.url} cannot be reached from this phone ({one_line(str(e) or 'no answer', 120)}); "
            "if it is online, its secretary gives this site's address to the league (--site-origin)"
        ) from None
    try:
        answer = await response.json()
    except Exception:  # not the league's JSON
        answer = None
    return int(response.status), answer
