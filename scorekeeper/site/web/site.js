// Scorekeeper's site: Flet's client runs the app in this browser (Pyodide), from the files of
// this folder, found relative to this page, so the folder may be served at any path.
// Written by `scorekeeper site` (scorekeeper/site/web/site.js); loaded before Flet's scripts.
(function () {
  "use strict";
  var here = new URL(".", document.baseURI); // the folder of index.html (hash routes: no path)
  flet.pyodide = true;
  flet.pythonModuleName = "main";
  flet.micropipIncludePre = false;
  flet.appPackageUrl = new URL("app.zip?v=@ARCHIVE_HASH@", here).href;
  flet.pyodideUrl = new URL("pyodide/pyodide.mjs", here).href;
  flet.canvasKitBaseUrl = here.pathname + "canvaskit/";
  flet.fontFallbackBaseUrl = "assets/fonts/";
  flet.noCdn = true;
  flet.routeUrlStrategy = "hash"; // a reload of any screen asks the server for this folder only
  flet.entrypointBaseUrl = here.pathname;
  flet.assetBase = here.pathname;

  // Python starts now, while Flutter loads (python.js, loaded next, defines prewarm).
  document.addEventListener("DOMContentLoaded", function () { globalThis.prewarm(); });

  // The matches live in this browser's IndexedDB: ask it not to evict them under storage pressure.
  // (Browsers decide by themselves; an installed app is usually granted it.)
  if (navigator.storage && navigator.storage.persist) {
    navigator.storage.persisted().then(function (already) {
      return already || navigator.storage.persist();
    }).then(function (granted) {
      console.log("Scorekeeper: persistent storage " + (granted ? "granted" : "not granted"));
    }, function () {});
  }

  // The first visit says what it fetches and how long it will take, then that the app is kept
  // for offline use: a line at the foot of the page (Flet's own start shows only a spinner).
  // A later start (a service worker already keeps the site) shows nothing.
  var first = "serviceWorker" in navigator && !navigator.serviceWorker.controller;
  var began = Date.now();
  var line = null;
  globalThis.scorekeeperProgress = []; // every line shown, for the browser tests
  function mb(n) { return (n / 1e6).toFixed(1); }
  function say(text, done) {
    if (!line) {
      line = document.createElement("div");
      line.id = "scorekeeper-progress";
      line.setAttribute("role", "status");
      line.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:9999;padding:8px 12px;" +
        "font:15px/1.3 system-ui,sans-serif;color:#fff;background:#00796B;text-align:center;pointer-events:none";
      document.body.appendChild(line);
    }
    line.textContent = text;
    globalThis.scorekeeperProgress.push(text);
    if (done) { setTimeout(function () { line.remove(); }, 6000); }
  }
  function progress(done, total) {
    var secs = (Date.now() - began) / 1000;
    var left = done > 1e6 && secs > 1 ? Math.ceil((total - done) / (done / secs)) : null;
    say("Fetching Scorekeeper for this phone: " + mb(done) + " of " + mb(total) + " MB" +
      (left === null ? "" : left > 0 ? ", about " + left + " s left" : ", nearly done"), false);
  }
  if (first) {
    document.addEventListener("DOMContentLoaded", function () {
      if (!line) { say("Fetching Scorekeeper for this phone...", false); }
    });
    navigator.serviceWorker.addEventListener("message", function (event) {
      var m = event.data || {};
      if (m.scorekeeper === "progress") { progress(m.done, m.total); }
      if (m.scorekeeper === "ready") {
        say("Ready offline: Scorekeeper (" + mb(m.total) + " MB) is kept on this phone and starts without the network.", true);
      }
    });
    navigator.serviceWorker.startMessages(); // (the worker's first messages may come before the page's load)
  }

  // The renderer Flutter's loader will pick here (its own tests, as flutter_bootstrap.js makes
  // them): the wasm build with skwasm on a Chromium with WebAssembly GC and WebGL, else the
  // JavaScript build with Chromium's CanvasKit or the full one. The service worker keeps its
  // files alone.
  function renderer() {
    var blink = navigator.vendor === "Google Inc." || navigator.userAgent.indexOf("Edg/") >= 0;
    var gc = false;
    try { gc = WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 95, 1, 120, 0])); } catch (e) {}
    var canvas = document.createElement("canvas");
    var gl = !!(canvas.getContext("webgl2") || canvas.getContext("webgl"));
    if (blink && gc && gl) { return "skwasm"; }
    var chromium = blink && typeof ImageDecoder !== "undefined" &&
      typeof Intl.v8BreakIterator !== "undefined" && typeof Intl.Segmenter !== "undefined";
    return chromium ? "canvaskit-chromium" : "canvaskit";
  }

  // The service worker keeps the whole site for starts without the network (https or localhost only).
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("sw.js?renderer=" + renderer(), { scope: "./", updateViaCache: "none" }).catch(function (e) {
        console.warn("Scorekeeper: no offline copy of the site (" + e + ")");
      });
    });
  }
})();
