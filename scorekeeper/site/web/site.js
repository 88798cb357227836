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

  // The service worker keeps the whole site for starts without the network (https or localhost only).
  if ("serviceWorker" in navigator) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register("sw.js", { scope: "./", updateViaCache: "none" }).catch(function (e) {
        console.warn("Scorekeeper: no offline copy of the site (" + e + ")");
      });
    });
  }
})();
