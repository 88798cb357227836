"""The players' figures with 10,000 stored matches: cached facts vs a full replay.

    .venv/bin/python -m benchmarks.stats [--matches 10000] [--distinct 300]
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
  first build; the median of ``--rounds`` runs (the first of them keeps the table,
  ``stats-table.json``; the others print it), and ``python -c pass``'s start-up time
  beside it; at the end, once more right after a match was won (the table made
  again from the facts).
* ``Players screen``: the app's view-model (``scorekeeper.ui.players.model.PlayersModel``)
  on the app's open store, as a visit makes it: ``first`` (the first look after the
  app started: stats.json read, the figures added up), ``kept`` (nothing changed),
  ``played on`` (a match being played got an entry: its facts made again, the
  figures given back), ``won`` (a match was won: the figures added up again), and
  ``screen`` (the standings, a player's page and the matches behind a figure, made
  from the figures); median of ``--rounds``. The Players screen figure of the last
  line is the slower of ``played on`` and ``won``, plus ``screen``.

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

from scorekeeper import registry
from scorekeeper import stats as stats_pkg
from scorekeeper.allfives.simulate import random_record as fives_record
from scorekeeper.allfours.simulate import random_record as fours_record
from scorekeeper.broadway.simulate import random_record as broadway_record
from scorekeeper.store import Store

#: This checkout: the timed ``scorekeeper stats`` runs import its app, whatever the venv holds.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FIVES_THREES = {"count": "fives-and-threes", "draw": False, "hand_end": "go", "target": 61}
#: A match being played (one play so far), and a short match that is won.
UNFINISHED = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "players": ["Member 1", "Member 2"],
    "started": "2026-12-30T20:00:00Z",
    "hands": [{"leader": "Member 1", "turns": [{"play": "5-0"}]}],
}
WON = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "players": ["Member 1", "Member 2"],
    "rules": {"target": 10},
    "hands": [{"leader": "Member 1", "turns": [{"play": "5-5"}]}],
}


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
    names = dict(zip(record["players"], people, strict=True))
    for side, members in (record.get("teams") or {}).items():
        names[side] = " & ".join(names[m] for m in members)
    text = json.dumps(record)
    for k, old in enumerate(names):
        text = text.replace(json.dumps(old), json.dumps(f"@{k}@"))
    for k, new in enumerate(names.values()):
        text = text.replace(json.dumps(f"@{k}@"), json.dumps(new))
    out = json.loads(text)
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


def screen(players: Any) -> None:
    """What the Players screens ask of their view-model: the standings (players, pairs),
    the leader's page and the first page of the matches behind their wins."""
    game = players.games_of()[0]
    players.standings(game)
    players.standings(game, pairs=True)
    who = players.stats.ranked(game, False)[0].members
    page = players.player(who, game)
    behind = players.behind(who, page.game, "won")
    players.rows(behind.ids[:20], who, "/player/x")


def timed(fn: Any, *args: Any, **kwargs: Any) -> float:
    t = time.perf_counter()
    fn(*args, **kwargs)
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
            warm = [timed(stats_pkg.of_store, store) for _ in range(a.rounds)]
            print(f"of_store after it (stats.json read, figures added up): median {statistics.median(warm):.3f} s")

        env = dict(os.environ, PYTHONPATH=ROOT)
        cmd = [sys.executable, "-m", "scorekeeper", "--db", db, "stats", "--json"]
        runs = [timed(subprocess.run, cmd, check=True, stdout=subprocess.DEVNULL, env=env) for _ in range(a.rounds)]
        bare = [timed(subprocess.run, [sys.executable, "-c", "pass"], check=True, env=env) for _ in range(a.rounds)]
        cli = statistics.median(runs)
        print(
            f"stats --json (a new process): median {cli:.3f} s, max {max(runs):.3f} s "
            f"(python start-up alone: {statistics.median(bare):.3f} s)"
        )

        from scorekeeper.ui.players import data as players_data
        from scorekeeper.ui.players.model import PlayersModel
        from scorekeeper.ui.server.shared import open_shared

        players_data.SETTLED = -1e9  # the files were just written: trust their stamps at once here
        with Store(db) as store:
            playing = store.import_record(UNFINISHED)
        looks: dict[str, list[float]] = {"first": [], "kept": [], "played on": [], "won": [], "screen": []}
        for r in range(a.rounds):
            shared = open_shared(db)  # as when the app starts: nothing kept for this store yet
            try:
                looks["first"].append(timed(PlayersModel, shared))
                looks["kept"].append(timed(PlayersModel, shared))
                with shared.lock:  # an unfinished match moves on: the figures are given back
                    shared.store.append(playing, {"turn": {"play": "0-0", "on": "5-0"}})
                    shared.store.undo(playing)
                looks["played on"].append(timed(PlayersModel, shared))
                with shared.lock:  # a match is won: everything is added up again
                    won = shared.store.import_record(WON | {"started": f"2026-06-0{1 + r}T20:00:00Z"})
                looks["won"].append(timed(PlayersModel, shared))
                looks["screen"].append(timed(screen, PlayersModel(shared)))
                with shared.lock:
                    shared.store.delete(won)
            finally:
                shared.close()
        with Store(db) as store:  # a match won: the command's kept table is made again, once
            store.import_record(WON | {"started": "2026-06-30T20:00:00Z"})
        changed = timed(subprocess.run, cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        print(f"stats --json right after a match was won (the table made again): {changed:.3f} s")
        med = {k: statistics.median(v) for k, v in looks.items()}
        print("Players screen, median s: " + ", ".join(f"{k} {v:.3f}" for k, v in med.items()))
        slowest = max(med["played on"], med["won"]) + med["screen"]
        print(
            f"stats @{a.matches:,}: full replay {replay:.2f} s, first build {first:.2f} s, "
            f"stats --json {cli:.2f} s, Players screen {slowest:.2f} s"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
