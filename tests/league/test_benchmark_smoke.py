"""``benchmarks/league.py`` run end to end at its smallest, so that it does not rot unseen
between the nights that measure: a season of 12 clubs, the cut, the kill at 40 %, every
sheet accounted for (nothing lost or doubled, every table equal to a recount), its last
line printed. Once with the clubs as threads of the benchmark's one process
(``--club-processes 1``, the old measurement) and once in several processes (the default
measurement: each process a share of the clubs, their timings sent back).

The benchmark starts a throwaway PostgreSQL of its own (``DATABASE_URL`` is not passed on),
as it does when run by hand. The figures are not judged.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("processes", [1, 3])
def test_the_league_benchmark_runs_at_its_smallest(processes: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    cmd = [sys.executable, "-m", "benchmarks.league", "--clubs", "12", "--divisions", "2", "--games", "3"]
    cmd += ["--rate", "20", "--seconds", "1", "--club-processes", str(processes)]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(
        r"league: 60 sheets from 12 clubs, lost 0, doubled 0, push p95 \d+ ms, table page p95 \d+ ms at 20 requests/s",
        last,
    ), out
    where = "threads of one process" if processes == 1 else "3 processes of 4 threads"
    assert f"  the clubs: 12 in {where}" in out, out
    told = re.search(r"push: before the kill [^(]* \((\d+)\), after it [^(]* \((\d+)\),", out)
    assert told is not None, out
    assert int(told[1]) + int(told[2]) >= 60, out  # every push's timing came back
    assert re.search(r"the night's first 0.5 s, CPU in cores: the clubs \d", out), out


def test_the_clubs_are_dealt_fairly_over_processes_and_services() -> None:
    """Each club chooses its service alone (club by club in turn, as a proxy would), each
    process of clubs has clubs of both services, and the clubs whose network is cut are
    spread over the processes and the two services (not all in one process at one service)."""
    from benchmarks.league import cut_clubs, process_of, service_of

    clubs, n = 60, 6
    for k in range(n):
        mine = [i for i in range(clubs) if process_of(i, n) == k]
        assert len(mine) == 10
        assert sorted(service_of(i) for i in mine) == [0] * 5 + [1] * 5
    cut = cut_clubs(clubs, n)
    assert len(cut) == clubs // 6
    assert {process_of(i, n) for i in cut} == set(range(n))
    assert sorted(service_of(i) for i in cut) == [0] * 5 + [1] * 5
    assert cut_clubs(12, 3) and len(cut_clubs(12, 1)) == 2
