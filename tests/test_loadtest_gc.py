"""The capacity benchmark's watch on the server's garbage collector (``tools/loadtest/common.py``:
``_GCWATCH`` in the server, ``gc_pauses`` reading it) and the collector's thresholds the server
sets (``scorekeeper/ui/server/serve.py``), whose effect the benchmark measures."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from pathlib import Path

from scorekeeper.ui.server import serve
from tools.loadtest.common import _GCWATCH, gc_pauses

ROOT = Path(__file__).resolve().parents[1]


def test_gc_pauses_counts_each_generation_in_the_window_and_skips_half_lines(tmp_path: Path):
    log = tmp_path / "gc.log"
    log.write_text(
        "100.0 0 1.0 0.9\n"  # before the window
        "101.0 0 2.0 1.5\n"
        "102.0 1 10.0 8.0\n"
        "103.0 2 250.0 200.0\n"
        "103.5 2 100.0 90.0\n"
        "104.0 0 3.0 2.5\n"
        "105.0 1 20.0\n"  # half written: no CPU yet
        "106.0 0 4.0 4.0\n",  # after the window
        encoding="utf-8",
    )
    got = gc_pauses(str(log), 101.0, 105.5)
    assert got["n"] == [2, 1, 2]
    assert got["ms"] == [5.0, 10.0, 350.0]
    assert got["cpu"] == [4.0, 8.0, 290.0]
    assert got["longest"] == [3.0, 10.0, 250.0]


def test_gc_pauses_of_a_missing_file_is_nothing(tmp_path: Path):
    assert gc_pauses(str(tmp_path / "none"), 0.0, 1e12)["n"] == [0, 0, 0]


def test_the_watch_writes_a_server_s_collections(tmp_path: Path):
    """The watch's code run in a Python of its own, as the server runs it: a full collection
    is written at once, with when it ended, its generation, its time and its CPU."""
    log = tmp_path / "gc.log"
    code = _GCWATCH + "import gc\ngc.collect()\n"
    before = time.time()
    env = {**os.environ, "LOADTEST_GC": str(log)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, timeout=60)
    got = gc_pauses(str(log), before - 1, time.time() + 1)
    assert got["n"][2] >= 1
    assert got["ms"][2] >= got["longest"][2] > 0


def test_the_server_makes_young_and_full_collections_rarer_than_python_does():
    kept = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        serve.freeze_startup_heap()
        young, middle, full = gc.get_threshold()
        assert (young, middle, full) == serve.GC_THRESHOLDS
        assert young > 700 and middle >= 10 and full > 10  # fewer young ones, and full ones rarer
    finally:
        gc.unfreeze()
        gc.set_threshold(*kept)
