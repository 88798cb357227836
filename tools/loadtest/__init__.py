"""The load harnesses: the app served and driven as the table uses it, measured.

Run each as a module from the repository's root, with the venv's Python::

    .venv/bin/python -m tools.loadtest.ui_latency     # a tile tap to the screen, against a minimal Flet app
    .venv/bin/python -m tools.loadtest.taps           # the taps a player spends on a recorded hand
    .venv/bin/python -m tools.loadtest.table_load     # a tap to the other phones of its table, 1 then 3 tables
    .venv/bin/python -m tools.loadtest.broadcast      # the server's work per entry, no browser
    .venv/bin/python -m tools.loadtest.capacity       # how many tables at a club's pace one laptop holds
    .venv/bin/python -m tools.loadtest.site           # the phone alone (the site) against the server app

``--help`` says each one's options; ``--smoke`` is its smallest run through every part
(tests/test_loadtest_smoke.py runs them, so that none rots between the runs that measure).
Running from the root is what makes ``tools`` and the browser tests' helpers (``tests.e2e``)
importable: nothing edits ``sys.path``. What the harnesses share is in ``common`` (the
server, the taps of a match, a tap timed in the page, a table of phones drawn in Chromium or
elsewhere, the server's CPU and memory, the figures, and the few insides of Flet that
``broadcast`` needs); no harness imports another.

docs/benchmarks.md has the commands of the runs behind its figures, and the figures.
"""
