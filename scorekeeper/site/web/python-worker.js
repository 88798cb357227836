// Scorekeeper's Python worker: runs the app's Python (Pyodide) in a Web Worker and carries Flet's
// messages between it and the page (python.js). Written by `scorekeeper site`
// (scorekeeper/site/web/python-worker.js), in place of flet-web's worker, whose messages it
// keeps (the first one starts it; the others are Flet's, for the app, or the page's answers to the
// store's copies into IndexedDB, see python.js; it posts "initialized", or
// an error's words, then the app's messages) but which does at every start what the site never
// needs: unpacking a .tar.gz in Python, asking micropip, loading pyodide.http.
//
// Starting: the app's zip (app.zip: main.py and every package, imported from as it is) is
// fetched while Pyodide loads, written into Pyodide's file system by JavaScript, and the app run.
//
// Python's state after its imports is kept (Pyodide's memory snapshot): starting Python and
// importing the app's ~600 modules is most of a start. The first start of a version of the
// app runs as above, then, a few seconds after its first screen, a second worker (this file,
// its first message `{ snapshotOf }`) starts a Python of its own, imports the modules the app
// has loaded by then (what needs the page's bridge is left to the app), and keeps that Python's
// memory in the browser's Cache Storage. The next starts restore it instead of starting Python
// and importing. The snapshot is named after the app's zip (its URL holds its hash), this
// file's SNAPSHOT_FORMAT and the time zone (see snapshotKey); Pyodide itself refuses one made by
// another build of Pyodide; one that cannot be read or restored is dropped and Python started
// afresh (and a new one kept). It holds no match: the store
// is opened (from IndexedDB) by the app after the restore, never before the snapshot.
//
// The times of the stages (and of the first messages each way) are posted to the page
// ({ startMarks: [...] }; python.js keeps them in `scorekeeperStart`): tools/loadtest/site.py reads them.
"use strict";

const marks = [];
const mark = (name) => marks.push([name, performance.timeOrigin + performance.now()]);
mark("worker");

self.flet_js = {}; // Python's `flet_js` module: Flet's side of the bridge

// The app's zip in Pyodide's file system: the name its bytecode was compiled with.
const APP = "/home/pyodide/__pypackages__";

// Where the snapshot is kept, and the version of what this file puts in it.
const SNAPSHOT_CACHE = "scorekeeper-python-snapshot";
const SNAPSHOT_FORMAT = "1";
const SNAPSHOT_DELAY_MS = 5000; // after the first screen: what the app imported for it is in too
const MARKED_MESSAGES = 3; // the app's first messages to the page are marked too (its first screen)

// Named after the app's zip (its URL holds its hash) and this file's format, and the time zone:
// Python reads it once, as it starts, and a restored Python keeps the one it was kept with.
function snapshotKey(appPackageUrl) {
  const app = new URL(appPackageUrl);
  const key = new URL(`python-snapshot-${SNAPSHOT_FORMAT}.bin${app.search}`, app);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  key.searchParams.set("tz", `${zone} ${new Date().getTimezoneOffset()}`);
  return key.href;
}

async function readSnapshot(key) {
  try {
    const hit = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch (e) {
    return null; // no Cache Storage here (a page not served over https or from localhost)
  }
}

async function dropSnapshots(keep) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const request of await cache.keys()) {
      if (request.url !== keep) {
        await cache.delete(request);
      }
    }
  } catch (e) {
    /* nothing kept: nothing to drop */
  }
}

// Pyodide's WebAssembly memory starts at the size its build says, and its snapshot restore
// copies the kept memory into it as it is: a snapshot of a Python that grew it (the app's
// imports do) needs it grown first, as the instance is made (before Pyodide looks at it).
async function withMemoryFor(snapshot, load) {
  const header = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4);
  const needed = snapshot.byteLength - header[1]; // the kept memory, after the snapshot's header
  const grow = (made) => {
    const memory = made.instance.exports.memory;
    const pages = Math.ceil(needed / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) {
      memory.grow(pages);
    }
    return made;
  };
  const streaming = WebAssembly.instantiateStreaming;
  const plain = WebAssembly.instantiate;
  WebAssembly.instantiateStreaming = async (...args) => grow(await streaming(...args));
  WebAssembly.instantiate = async (...args) => {
    const made = await plain(...args);
    return made.instance ? grow(made) : made;
  };
  try {
    return await load();
  } finally {
    WebAssembly.instantiateStreaming = streaming;
    WebAssembly.instantiate = plain;
  }
}

function fetchApp(url) {
  return fetch(url).then(async (response) => {
    if (!response.ok) {
      throw new Error(`the app's files could not be read (HTTP ${response.status} ${url})`);
    }
    return new Uint8Array(await response.arrayBuffer());
  });
}

const quiet = { stdout: (text) => console.log(text), stderr: (text) => console.error(text) };

async function start(init) {
  let restored = false;
  try {
    const key = snapshotKey(init.appPackageUrl);
    const app = fetchApp(init.appPackageUrl);
    const saved = readSnapshot(key);
    const { loadPyodide } = await import(init.pyodideUrl);
    mark("pyodide.mjs");
    let pyodide = null;
    const snapshot = await saved;
    if (snapshot !== null) {
      try {
        pyodide = await withMemoryFor(snapshot, () => loadPyodide({ ...quiet, _loadSnapshot: snapshot }));
        mark("python restored");
        restored = true;
      } catch (e) {
        console.warn(`Scorekeeper: the kept Python state could not be restored (${e}): Python starts afresh`);
        await dropSnapshots(null);
        pyodide = null;
      }
    }
    if (pyodide === null) {
      pyodide = await loadPyodide(quiet);
      mark("python started");
    }
    pyodide.FS.writeFile(APP, await app);
    mark("app written");
    self.flet_js.args = init.args;
    self.flet_js.documentUrl = init.documentUrl;
    pyodide.registerJsModule("flet_js", self.flet_js);
    pyodide.globals.set("app_zip", APP);
    pyodide.globals.set("app_module", init.pythonModuleName || "main");
    // run as Flet's worker runs it: in the event loop (Flet's connection takes the running loop);
    // a restored Python draws new random numbers, not the snapshot's
    await pyodide.runPythonAsync(`
import random, runpy, sys
random.seed()
if "tempfile" in sys.modules:
    sys.modules["tempfile"]._name_sequence = None
if app_zip not in sys.path:
    sys.path.insert(0, app_zip)
del app_zip
try:
    runpy.run_module(app_module, run_name="__main__")
except SystemExit as e:
    if e.code not in (None, 0):
        raise
`);
    mark("app imported");
    if (typeof self.flet_js.start_connection !== "function") {
      self.postMessage("The app did not start Flet's connection.");
      return;
    }
    let sent = 0;
    await self.flet_js.start_connection((message) => {
      const bytes = message.toJs(); // a copy of Python's bytes, handed over to the page
      self.postMessage(bytes, [bytes.buffer]);
      if (++sent <= MARKED_MESSAGES) {
        mark(`app's message ${sent}`);
        self.postMessage({ startMarks: marks });
      }
    });
    mark("connected");
    self.postMessage("initialized");
    self.postMessage({ startMarks: marks });
    if (!restored && self.caches) {
      setTimeout(() => askForSnapshot(pyodide, init, key), SNAPSHOT_DELAY_MS);
    }
  } catch (error) {
    if (restored) {
      await dropSnapshots(null); // the next start does not restore what failed here
    }
    self.postMessage(String(error));
  }
}

// The modules the app has loaded, for a second worker to import and keep.
function askForSnapshot(pyodide, init, key) {
  try {
    const modules = pyodide.runPython(`import sys; "\\n".join(sorted(n for n, m in list(sys.modules.items()) if m))`);
    const worker = new Worker(self.location.href, { type: "module" });
    worker.onmessage = (event) => {
      console.log(`Scorekeeper: ${event.data}`);
      worker.terminate();
    };
    worker.postMessage({ snapshotOf: { modules, key, appPackageUrl: init.appPackageUrl, pyodideUrl: init.pyodideUrl } });
  } catch (e) {
    console.warn(`Scorekeeper: no Python state kept (${e})`);
  }
}

async function makeSnapshot(job) {
  try {
    const app = fetchApp(job.appPackageUrl);
    const { loadPyodide } = await import(job.pyodideUrl);
    const pyodide = await loadPyodide({ stdout: () => {}, stderr: () => {}, _makeSnapshot: true });
    pyodide.FS.writeFile(APP, await app);
    pyodide.globals.set("app_zip", APP);
    pyodide.globals.set("wanted", job.modules);
    // the app's main module runs the app: left out, as is whatever needs the page's bridge
    const count = pyodide.runPython(`
import importlib, sys
sys.path.insert(0, app_zip)
imported = 0
for name in wanted.split("\\n"):
    if name in sys.modules or name in ("__main__", "main") or name.split(".")[0] in ("flet_js", "js", "pyodide_js"):
        continue
    try:
        importlib.import_module(name)
        imported += 1
    except BaseException:
        pass
del app_zip, wanted, name
imported
`);
    pyodide.runPython("del imported; import gc; gc.collect()");
    const bytes = pyodide.makeMemorySnapshot();
    const cache = await caches.open(SNAPSHOT_CACHE);
    await cache.put(job.key, new Response(bytes, { headers: { "content-type": "application/octet-stream" } }));
    await dropSnapshots(job.key);
    self.postMessage(`Python's state kept for the next starts (${count} modules, ${(bytes.length / 1e6).toFixed(0)} MB)`);
  } catch (e) {
    self.postMessage(`no Python state kept (${e})`);
  }
}

let started = false;
let received = 0;
self.onmessage = async (event) => {
  if (!started) {
    started = true;
    if (event.data && event.data.snapshotOf) {
      await makeSnapshot(event.data.snapshotOf);
    } else {
      await start(event.data);
    }
  } else if (event.data && event.data.scorekeeperCopied !== undefined) {
    // the page's answer to a copy of the store into IndexedDB (scorekeeper/site/browser.py)
    if (typeof self.scorekeeperCopied === "function") {
      self.scorekeeperCopied(event.data.scorekeeperCopied, event.data.why);
    }
  } else if (typeof self.flet_js.send === "function") {
    if (++received <= MARKED_MESSAGES) {
      mark(`page's message ${received}`);
    }
    self.flet_js.send(event.data);
  } else {
    console.error("Scorekeeper: a message for a Python app that never started was dropped.");
  }
};
