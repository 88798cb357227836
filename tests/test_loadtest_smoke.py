"""Each load harness of ``tools/loadtest`` run end to end at its smallest (``--smoke``), so that
none rots unseen between the runs that measure (issue 46): the server started, the pages
opened, taps made and timed, the figures printed.

The harnesses run as the documentation says, ``python -m tools.loadtest.NAME --smoke`` from
the repository's root, all at once (the first test starts every one selected; each test
waits for its own): together they take about as long as the longest alone. The figures
are not judged, only that each run went through and printed its last line.

``site`` has no smoke run here: even at its smallest (``--smoke --site DIR``) it starts
Python in the browser three times (cold, warm, installed) and makes a match by taps in
each app, about 45 s; its modules are imported by tests/test_tools_imports.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 180  # seconds for one run, on a machine busy with the rest of the suite

#: What each smoke run prints, last, when it went through.
LAST_WORDS = {
    "broadcast": "broadcast, 2 sessions: CPU per entry",
    "ui_latency": "goal p95 < 150 ms and at most 2x the baseline's p95:",
    "taps": "taps per turn (2 players, seed 4): mean",
    "table_load": "goal p95 < 250 ms to the other phones with 12 sessions: not measured (only 2 sessions",
    "capacity": "capacity: ",
}
#: What else a smoke run must print (the server's garbage collections over a step: read from
#: the server, so this says the watch reached it and came back; the tap on a phone without a
#: screen reader's tree, timed to the frame's end in pages with semantics off; the taps by their
#: place in the hand; the table-shaped plain Flet app's taps).
ALSO = {
    "capacity": ("server's garbage collector: ",),
    "ui_latency": (
        "without the screen reader's tree (--frames), tile tap -> frame end, 1 and 1 taps",
        "by place in the hand: its first play (n=1) median ",  # (the smoke's two taps: hand 1's first two)
        "table-shaped plain Flet app (--table), 2 taps (ms): median ",
    ),
}
HARNESSES = [
    pytest.param("broadcast", marks=pytest.mark.slow),
    pytest.param("ui_latency", marks=[pytest.mark.slow, pytest.mark.browser]),
    pytest.param("taps", marks=[pytest.mark.slow, pytest.mark.browser]),
    pytest.param("table_load", marks=[pytest.mark.slow, pytest.mark.browser]),
    pytest.param("capacity", marks=[pytest.mark.slow, pytest.mark.browser]),
]


class Runs:
    """The smoke runs of the harnesses this test run selected, started together."""

    def __init__(self, names: list[str]) -> None:
        self.started = time.monotonic()
        self.procs = {
            name: subprocess.Popen(
                [sys.executable, "-m", f"tools.loadtest.{name}", "--smoke"],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                encoding="utf-8",
            )
            for name in names
        }

    def result(self, name: str) -> tuple[int, str, float]:
        """Its exit status, what it printed, and the seconds since the runs started."""
        proc = self.procs[name]
        try:
            out, _ = proc.communicate(timeout=max(1.0, TIMEOUT - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            out = _stop(proc)
            return -1, out + f"\n(killed after {TIMEOUT} s)", time.monotonic() - self.started
        return proc.returncode, out, time.monotonic() - self.started

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                _stop(proc)


def _stop(proc: subprocess.Popen[str]) -> str:
    """Stop a harness that is still running, and what it printed: on POSIX an interrupt first
    (Ctrl+C: the harness stops the servers and the browser it started, as its ``finally``
    says), then a kill. A harness killed outright leaves its servers running (each in a
    session of its own), with nobody to stop them."""
    if os.name == "posix":
        proc.send_signal(signal.SIGINT)
        try:
            return proc.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            pass
    proc.kill()
    return proc.communicate()[0]


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest):
    selected = [
        item.callspec.params["name"]
        for item in request.session.items
        if getattr(item, "module", None) is request.module and hasattr(item, "callspec")  # (a doctest has none)
    ]
    started = Runs(selected)
    yield started
    started.stop()


@pytest.mark.parametrize("name", HARNESSES)
def test_the_harness_runs_end_to_end(runs: Runs, name: str):
    status, out, seconds = runs.result(name)
    tail = "\n".join(out.splitlines()[-25:])
    assert status == 0, f"python -m tools.loadtest.{name} --smoke exited {status} after {seconds:.0f} s:\n{tail}"
    assert LAST_WORDS[name] in out, f"{name} --smoke did not print its figures:\n{tail}"
    for also in ALSO.get(name, ()):
        assert also in out, f"{name} --smoke did not print {also!r}:\n{tail}"
    assert "Traceback" not in out, tail
