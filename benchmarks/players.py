"""How long the Players screens take to get their figures, with many stored matches.

    PYTHONPATH=. python3 benchmarks/players.py [--db DIR] [--matches N] [--rounds R]

With ``--db`` an existing database is used (it is changed: one short match is imported
and deleted again); else a throw-away one is filled with N seeded random All Fives
matches (1,000 by default: about 30 s to make; 10,000 take about 5 minutes). Timed,
in this process, through the view-model the screens use
(:class:`scorekeeper.ui.players.PlayersModel`):

* ``first``: the first look after the app started (the statistics cache, ``stats.json``,
  read; the figures added up); a first look at a database without its cache also
  replays every record, once (``build``);
* ``kept``: a look while nothing changed (the figures kept: two ``stat`` calls);
* ``changed``: a look after one match was added (its facts made, the cache saved, the
  figures added up again);
* ``screen``: the standings, a player's page and the first page of a figure's matches
  made from the figures (what a screen asks of the view-model).

The median of R rounds is printed. What the browser adds (drawing the screen) is
measured by the browser test's timings, not here.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper.allfives.simulate import random_record  # noqa: E402
from scorekeeper.ui import players_data  # noqa: E402
from scorekeeper.ui.base import Shared  # noqa: E402
from scorekeeper.ui.players import PlayersModel  # noqa: E402

NAMES = ["Ann", "Ben", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
SHORT = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "players": ["Ann", "Ben"],
    "rules": {"target": 10},
    "hands": [{"leader": "Ann", "turns": [{"play": "5-5"}]}],
}


def fill(shared: Shared, n: int) -> None:
    rng = random.Random(1)
    records = []
    for seed in range(n):
        four = seed % 3 == 0
        text = json.dumps(random_record(seed, 4 if four else 2, teams=four, max_hands=8))
        for i, name in enumerate(rng.sample(NAMES, 4 if four else 2)):
            text = text.replace(f'"P{i + 1}"', json.dumps(name))
        record = json.loads(text)
        record["started"] = f"2025-{1 + seed % 12:02d}-{1 + seed % 28:02d}T20:00:00Z"
        records.append(record)
    with shared.lock:
        shared.store.bulk_import(records)


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def screen(players: PlayersModel) -> None:
    game = players.games_of()[0]
    players.standings(game)
    players.standings(game, pairs=True)
    page = players.player(("ann",), game)
    behind = players.behind(("ann",), page.game, "played")
    players.rows(behind.ids[:20], ("ann",), "/player/ann")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="an existing database (default: a throw-away one)")
    ap.add_argument("--matches", type=int, default=1000, help="matches of a throw-away database")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-players-") as tmp:
        shared = Shared(args.db or str(Path(tmp) / "db"))
        try:
            if not args.db:
                print(f"filling {args.matches} matches ...", flush=True)
                fill(shared, args.matches)
                print(f"build: {timed(lambda: PlayersModel(shared)):.3f} s (every record replayed once)")
            players_data.SETTLED = -1e9  # the files were just written: trust the stamps at once here
            times: dict[str, list[float]] = {"first": [], "kept": [], "changed": [], "screen": []}
            for _ in range(args.rounds):
                players_data._KEPT.clear()
                times["first"].append(timed(lambda: PlayersModel(shared)))
                times["kept"].append(timed(lambda: PlayersModel(shared)))
                with shared.lock:
                    mid = shared.store.import_record(SHORT)
                times["changed"].append(timed(lambda: PlayersModel(shared)))
                times["screen"].append(timed(partial(screen, PlayersModel(shared))))
                with shared.lock:
                    shared.store.delete(mid)
            count = PlayersModel(shared).stats.counts()
            print(f"{sum(count.values())} matches: " + ", ".join(f"{k} {v}" for k, v in count.items()))
            print("median s: " + ", ".join(f"{k} {statistics.median(v):.3f}" for k, v in times.items()))
        finally:
            shared.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
