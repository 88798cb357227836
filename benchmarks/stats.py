"""The players' figures with 10,000 stored matches: cached facts vs a full replay.

    .venv/bin/python benchmarks/stats.py [--matches 10000] [--distinct 300]
                     [--club 24] [--rounds 5] [--seed S] [--tmp DIR]

A season of club nights is made up: ``--distinct`` different legal records
(All Fives for two and for partners, Fives and Threes, Broadway, All Fours for
two and for partners; each game's ``random_record``), each stored match one of
them with its players drawn from a club of ``--club`` people, started on a day
of the last year. They are stored with ``Store.bulk_import`` (untimed; its wall
time is printed).

Timed, in the same run, on the same database:

* ``full replay`` (the baseline: what answering needs without a cache): every
  stored record read from its file and scored by its engine
  (``registry.game_of(record).score``), and the figures added up from the
  outputs by plain code (matches, wins, points, hands per player and game).
* ``first build``: ``scorekeeper.stats.of_store`` with no ``stats.json``: every
  record replayed for its facts, the cache written, the figures computed.
* ``stats --json``: the command as a user runs it (a new process:
  ``python -m scorekeeper --db DB stats --json``, output to /dev/null), after the
  first build; the median of ``--rounds`` runs, and the same command with
  ``python -c pass``'s start-up time printed beside it.
* ``Players screen``: what the screen does when it opens on the app's open store:
  the figures (``of_store``), then the screen's rows (``scorekeeper.ui.players``'s
  view-model, when it is there); median of ``--rounds``.
* ``after one change``: one match gets one more entry (its file changes), then
  ``of_store`` again: only that match is replayed.

The last line is exactly
``stats @N: full replay X s, first build Y s, stats --json Z s, Players screen W s``.
The goal: the last two under 1 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from scorekeeper import registry  # noqa: E402
from scorekeeper import stats as stats_pkg  # noqa: E402
from scorekeeper.allfives.simulate import random_record as fives_record  # noqa: E402
from scorekeeper.allfours.simulate import random_record as fours_record  # noqa: E402
from scorekeeper.broadway.simulate import random_record as broadway_record  # noqa: E402
from scorekeeper.store import Store  # noqa: E402

FIVES_THREES = {"count": "fives-and-threes", "draw": False, "hand_end": "go", "target": 61}


def pool(distinct: int, seed: int) -> list[dict[str, Any]]:
    """``distinct`` finished records of every game, players P1.. (and sides S1..)."""
    makers = [
        lambda s: fives_record(s, 2, max_hands=60),
        lambda s: fives_record(s, 4, teams=True, max_hands=60),
        lambda s: fives_record(s, 2, max_hands=60, **FIVES_THREES),
        lambda s: fives_record(s, 4, teams=True, max_hands=60, **FIVES_THREES),
        lambda s: broadway_record(s),
        lambda s: fours_record(s, 2),
        lambda s: fours_record(s, 4, teams=True),
    ]
    return [makers[i % len(makers)](seed * 1_000_003 + i) for i in range(distinct)]


def seat(record: dict[str, Any], people: list[str], started: str) -> dict[str, Any]:
    """The record played by ``people`` (in seat order) on the day ``started``."""
    names = {f"P{i + 1}": p for i, p in enumerate(people)}
    names |= {"Ann": people[0], "Ben": people[1], "Cy": people[2 % len(people)], "Di": people[3 % len(people)]}
    text = json.dumps(record)
    for k, old in enumerate(names):
        text = text.replace(json.dumps(old), json.dumps(f"@{k}@"))
    for k, new in enumerate(names.values()):
        text = text.replace(json.dumps(f"@{k}@"), json.dumps(new))
    out = json.loads(text)
    if "teams" in out:
        members = list(out["teams"].values())
        out["teams"] = {" & ".join(m): m for m in members}
    out["started"] = started
    return out


def season(n: int, distinct: int, club: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    people = [f"Member {i + 1}" for i in range(club)]
    records = pool(distinct, seed)
    day0 = dt.datetime(2026, 1, 1, 19, tzinfo=dt.UTC)
    out = []
    for i in range(n):
        rec = records[i % len(records)]
        count = len(rec["players"])
        started = (day0 + dt.timedelta(days=rng.randrange(365), minutes=i % 240)).isoformat().replace("+00:00", "Z")
        out.append(seat(rec, rng.sample(people, count), started))
    return out


def full_replay(db: str) -> int:
    """The baseline: every record read and scored, the figures added up by plain code."""
    lines: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    with Store(db, read_only=True) as store:
        for mid in store.ids():
            record = store.peek(mid)[0]
            out = registry.game_of(record).score(record)
            if out.get("winner") is None:
                continue
            teams = out.get("teams") or record.get("teams") or {}
            side_of = {p: s for s, ms in teams.items() for p in ms}
            for p in record["players"]:
                side = side_of.get(p, p)
                line = lines[p, out["game"]]
                line[0] += 1
                line[1] += out["winner"] == side
                line[2] += out["scores"][side]
                line[3] += len(out["hands"])
    return len(lines)


def players_screen(store: Store) -> Any:
    figures = stats_pkg.of_store(store)
    try:
        from scorekeeper.ui import players  # the screen's view-model
    except ImportError:
        return figures.to_json()
    build = getattr(players, "benchmark_rows", None)
    return build(figures) if build is not None else figures.to_json()


def timed(fn: Any, *args: Any) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--distinct", type=int, default=300)
    ap.add_argument("--club", type=int, default=24)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--tmp", default=None)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="sk-stats-", dir=a.tmp)
    db = os.path.join(tmp, "db")
    try:
        t = time.perf_counter()
        records = season(a.matches, a.distinct, a.club, a.seed)
        print(f"made {len(records)} records ({a.distinct} distinct games) in {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        with Store(db) as store:
            store.bulk_import(records)
        print(f"stored them (bulk_import, untimed) in {time.perf_counter() - t:.1f} s")
        del records

        replay = timed(full_replay, db)
        print(f"full replay (read + score every record, add up): {replay:.2f} s")

        with Store(db) as store:
            first = timed(stats_pkg.of_store, store)
            size = os.path.getsize(os.path.join(db, "stats.json"))
            print(f"first build (replay for the facts, write stats.json of {size / 1e6:.1f} MB): {first:.2f} s")
            screen = [timed(players_screen, store) for _ in range(a.rounds)]
            print(
                f"Players screen (figures + rows, app's store open): median {statistics.median(screen):.3f} s, "
                f"max {max(screen):.3f} s"
            )
            mid = next(m for m in store.ids() if store.summary(m)["status"] == "won")
        env = dict(os.environ, PYTHONPATH=ROOT)
        cmd = [sys.executable, "-m", "scorekeeper", "--db", db, "stats", "--json"]
        runs = []
        for _ in range(a.rounds):
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
            runs.append(time.perf_counter() - t)
        bare = []
        for _ in range(a.rounds):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True, env=env)
            bare.append(time.perf_counter() - t)
        cli = statistics.median(runs)
        print(
            f"stats --json (a new process): median {cli:.3f} s, max {max(runs):.3f} s "
            f"(python start-up alone: {statistics.median(bare):.3f} s)"
        )

        with Store(db) as store:
            record = store.record(mid)
            store.delete(mid)
            record["title"] = "changed"
            store.import_record(record)
            again = timed(stats_pkg.of_store, store)
        print(f"after one change (one match replayed): {again:.3f} s")
        print(
            f"stats @{a.matches // 1000}k: full replay {replay:.2f} s, first build {first:.2f} s, "
            f"stats --json {cli:.2f} s, Players screen {statistics.median(screen):.2f} s"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
