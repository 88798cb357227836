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

// Start the Python worker now; what it says before Flet's client connects is kept for it.
globalThis.prewarm = function () {
  if (_prewarmed !== null) {
    return;
  }
  const worker = new Worker(_workerUrl(), { type: "module" });
  const queue = [];
  worker.onmessage = (event) => queue.push(event);
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
      // the worker's stages (absolute times, ms), for benchmarks/site.py
      globalThis.scorekeeperStart = {
        origin: performance.timeOrigin,
        worker: [["Flutter connects", connecting], ...event.data.startMarks],
      };
    } else if (typeof event.data === "string") {
      if (event.data != "initialized") {
        error = event.data;
      }
      app.onPythonInitialized();
    } else {
      app.dartOnMessage(event.data);
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
