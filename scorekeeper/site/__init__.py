"""Scorekeeper on a phone alone: a static site that runs the whole app in the browser.

``scorekeeper site DIR`` (:mod:`scorekeeper.site.build`) writes a folder any web server can
serve: Flet's web client and the Pyodide runtime, both copied from the installed
``flet-web`` package, and ``app.zip``, the ``scorekeeper`` package with every pure-Python
package it needs in the browser. Nothing is downloaded, neither at build time nor when the
page runs.

In the browser, Pyodide runs :mod:`scorekeeper.site.phone`: the same shell and screens as
``scorekeeper web``, on a store kept in the browser's IndexedDB (:mod:`scorekeeper.site.disk`).
Nothing here imports Flet at module level but :mod:`scorekeeper.site.phone`, which only
the browser loads.
"""
