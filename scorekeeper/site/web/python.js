// Flet's bridge between its Flutter client and the Python worker (flet-web's python.js), as the
// site uses it (with the site's own worker, python-worker.js, whose stage times it keeps in
// `scorekeeperStart`): the worker is started by `prewarm()` as soon as the page loads (site.js calls it),
// so Pyodide starts and the app's Python is imported while Flutter loads its engine, instead of
// after it. Written by `scorekeeper site` (scorekeeper/site/web/python.js): the same three
// functions Flet's client calls (jsConnect, jsSend, jsDisconnect), the same messages.
let _apps = {};
let _documentUrl = document.URL;
let _prewarmed = null; // { worker, queue } until jsConnect takes it

function _workerUrl() {
  return (flet.entrypointBaseUrl.endsWith("/") ? flet.entrypointBaseUrl.slice(0, -1) : flet.entrypointBaseUrl) +
    "/python-worker.js";
}

function _initMessage(args) {
  return {
    pyodideUrl: flet.pyodideUrl,
    args: args,
    documentUrl: _documentUrl,
    appPackageUrl: flet.appPackageUrl,
    micropipIncludePre: flet.micropipIncludePre,
    pythonModuleName: flet.pythonModuleName,
  };
}

// The phone's store: its changes copied into IndexedDB here, in the page, as the app's worker
// sends them (scorekeeper/site/browser.py). The worker runs Python, and while Python works (the
// redraw after an entry) the worker's own IndexedDB callbacks cannot run; the page is idle then,
// so the copy is in by the time the redraw arrives. What the app sends the screen waits while a
// copy is under way: the screen never shows a change IndexedDB does not hold, so a tab closed or
// a browser killed right after a tap keeps the tap. A copy IndexedDB refuses lets the screen go
// (the change is kept in the worker's memory) and the worker is told why. The counts are for the
// tests and the benchmark.
const _store = { pending: 0, held: [], databases: {} };
globalThis.scorekeeperCopies = { made: 0, refused: 0, held: 0 };

function _words(e) {
  return (e && (e.message || e.name)) || String(e);
}

function _database(copy) {
  if (!(copy.db in _store.databases)) {
    _store.databases[copy.db] = new Promise((resolve, reject) => {
      const request = indexedDB.open(copy.db, copy.version);
      request.onupgradeneeded = () => { // as IDBFS makes it (the worker opened it first, always)
        const files = request.result.objectStoreNames.contains(copy.store)
          ? request.transaction.objectStore(copy.store)
          : request.result.createObjectStore(copy.store);
        if (!files.indexNames.contains("timestamp")) {
          files.createIndex("timestamp", "timestamp", { unique: false });
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return _store.databases[copy.db];
}

function _copy(worker, copy) {
  _store.pending++;
  let answered = false;
  const done = (why) => {
    if (answered) return;
    answered = true;
    _store.pending--;
    scorekeeperCopies.made++;
    if (why !== null) { // the database is opened again for the next copy, this one closed
      scorekeeperCopies.refused++;
      const opened = _store.databases[copy.db];
      delete _store.databases[copy.db];
      if (opened) {
        opened.then((db) => db.close(), () => {});
      }
    }
    worker.postMessage({ scorekeeperCopied: copy.id, why: why });
    while (_store.pending === 0 && _store.held.length) {
      _store.held.shift()();
    }
  };
  _database(copy).then((db) => {
    let tx;
    try {
      tx = db.transaction([copy.store], "readwrite");
    } catch (e) {
      done(_words(e));
      return;
    }
    tx.oncomplete = () => done(null);
    tx.onabort = () => done(_words(tx.error || "the copy was aborted"));
    try {
      const files = tx.objectStore(copy.store);
      if (copy.whole) { // what IndexedDB holds is not known: everything else there goes
        const keep = new Set(copy.put.map((p) => p[0]));
        const keys = files.getAllKeys();
        keys.onsuccess = () => keys.result.filter((k) => !keep.has(k)).forEach((k) => files.delete(k));
      }
      for (const [path, entry] of copy.put) {
        files.put(entry, path);
      }
      for (const path of copy.gone) {
        files.delete(path);
      }
      if (!copy.whole && tx.commit) {
        tx.commit(); // sent now, not when this task ends
      }
    } catch (e) {
      try { tx.abort(); } catch (ignored) { /* aborted already */ }
      done(_words(e));
    }
  }, (e) => done(_words(e)));
}

// A message of the app for the screen: now, or after the copies under way.
function _toScreen(app, data) {
  if (_store.pending > 0 || _store.held.length) {
    scorekeeperCopies.held++;
    _store.held.push(() => app.dartOnMessage(data));
  } else {
    app.dartOnMessage(data);
  }
}

// Start the Python worker now; what it says before Flet's client connects is kept for it.
globalThis.prewarm = function () {
  if (_prewarmed !== null) {
    return;
  }
  const worker = new Worker(_workerUrl(), { type: "module" });
  const queue = [];
  worker.onmessage = (event) =>
    event.data && event.data.scorekeeperCopy ? _copy(worker, event.data.scorekeeperCopy) : queue.push(event);
  worker.postMessage(_initMessage({}));
  _prewarmed = { worker: worker, queue: queue };
};

// Called from Dart on backend.connect(); dartOnMessage receives the app's messages.
globalThis.jsConnect = async function (appId, args, dartOnMessage) {
  const connecting = performance.timeOrigin + performance.now();
  let app = { dartOnMessage: dartOnMessage };
  _apps[appId] = app;
  let queued = [];
  if (_prewarmed !== null) {
    app.worker = _prewarmed.worker;
    queued = _prewarmed.queue;
    _prewarmed = null;
  } else {
    app.worker = new Worker(_workerUrl(), { type: "module" });
    app.worker.postMessage(_initMessage(args));
  }
  let error;
  let pythonInitialized = new Promise((resolve) => (app.onPythonInitialized = resolve));
  const onMessage = (event) => {
    if (event.data && event.data.startMarks) {
      // the worker's stages (absolute times, ms), for tools/loadtest/site.py
      globalThis.scorekeeperStart = {
        origin: performance.timeOrigin,
        worker: [["Flutter connects", connecting], ...event.data.startMarks],
      };
    } else if (event.data && event.data.scorekeeperCopy) {
      _copy(app.worker, event.data.scorekeeperCopy);
    } else if (typeof event.data === "string") {
      if (event.data != "initialized") {
        error = event.data;
      }
      app.onPythonInitialized();
    } else {
      _toScreen(app, event.data);
    }
  };
  app.worker.onmessage = onMessage;
  for (const event of queued) {
    onMessage(event);
  }
  await pythonInitialized;
  if (error) {
    console.error("Python worker init error:", error);
    await jsDisconnect(appId);
    throw error;
  }
};

// Called from Dart on backend.send: a message for the app (its buffer is handed over).
globalThis.jsSend = async function (appId, data) {
  if (appId in _apps) {
    _apps[appId].worker.postMessage(data, [data.buffer]);
  }
};

// Called from Dart on channel.disconnect.
globalThis.jsDisconnect = async function (appId) {
  if (appId in _apps) {
    const app = _apps[appId];
    delete _apps[appId];
    app.worker.terminate();
    app.worker.onmessage = null;
    app.worker.onerror = null;
  }
};
