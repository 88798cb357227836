"""The micro-benchmarks: the engine against its peer, the store, the events, the statistics
and the drawing, each measured against a baseline taken in the same run.

Run each as a module from the repository's root (no ``sys.path`` edits: the package is
found there, the app through the venv's editable install)::

    make bench                          # python -m benchmarks.engine
    make bench BENCH=store              # any other: store, events, stats, drawing
    .venv/bin/python -m benchmarks.stats --matches 1000

docs/benchmarks.md has each one's command and its latest figures; the browser and server
load harnesses are in ``tools/loadtest``.
"""
