"""The All Fives layout drawing: clear drawings and time per drawing, search vs tile by tile.

    python benchmarks/drawing.py [--games N]

For seeded random legal games (``scorekeeper.allfives.simulate``) of several
rule sets, every hand's final layout is drawn twice in one run:

* **tile by tile** (the baseline): each tile in the order set takes the first
  of its ways (straight on, or turning at the edge of the box) that is clear,
  else the first way -- what ``draw_layout`` does with a budget of 0 tries;
* **search** (``draw_layout`` as the app calls it): the same, going back to
  redraw a tile in the way when a tile finds no clear way.

It prints, per rule set, the layouts drawn, how many have a tile over another
tile ("overlap") or over an open end's mark ("mark covered"), and the median,
99th percentile and maximum milliseconds per drawing.  No figure is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from scorekeeper.allfives.record import load
from scorekeeper.allfives.simulate import random_record
from scorekeeper.ui.allfives import drawing

RULE_SETS = [
    ("2 players, first double spins", dict(players=2)),
    ("2 players, Five Up (every double spins)", dict(players=2, spinner="all-doubles")),
    ("2 players, Muggins (no spinner)", dict(players=2, spinner="none")),
    ("4 players in partnerships", dict(players=4, teams=True)),
    ("4 players, Five Up", dict(players=4, spinner="all-doubles")),
]


def faults(d) -> tuple[bool, bool]:
    """(a tile over another, a mark over a tile) in drawing ``d``."""
    cells: set = set()
    overlap = False
    for g in d.tiles:
        mine = {(i, j) for i in range(g.x, g.x + g.w) for j in range(g.y, g.y + g.h)}
        overlap |= bool(mine & cells)
        cells |= mine
    covered = any((int(e.x) - 1 + a, int(e.y) - 1 + b) in cells for e in d.ends for a in (0, 1) for b in (0, 1))
    return overlap, covered


def measure(layouts, budget: int) -> dict:
    saved = drawing.BUDGET
    drawing.BUDGET = budget
    try:
        times, overlaps, covered = [], 0, 0
        for lay in layouts:
            t0 = time.perf_counter()
            d = drawing.draw_layout(lay)
            times.append((time.perf_counter() - t0) * 1000)
            o, c = faults(d)
            overlaps += o
            covered += c
    finally:
        drawing.BUDGET = saved
    times.sort()
    return {
        "overlap": overlaps,
        "covered": covered,
        "median": statistics.median(times),
        "p99": times[int(len(times) * 0.99)],
        "max": times[-1],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="random games per rule set (default 200)")
    args = ap.parse_args()
    print(
        f"{'rule set':42} {'way':13} {'layouts':>7} {'overlap':>8} {'mark covered':>12} "
        f"{'median ms':>9} {'p99 ms':>7} {'max ms':>7}"
    )
    totals = {"tile by tile": [0, 0, 0], "search": [0, 0, 0]}
    for name, rules in RULE_SETS:
        layouts = [h.layout for seed in range(args.games) for h in load(random_record(seed, **rules)).hands]
        for lay in layouts:  # warm up both ways before timing either
            drawing.draw_layout(lay)
        for way, budget in (("tile by tile", 0), ("search", drawing.BUDGET)):
            r = measure(layouts, budget)
            t = totals[way]
            t[0] += len(layouts)
            t[1] += r["overlap"]
            t[2] += r["covered"]
            print(
                f"{name:42} {way:13} {len(layouts):7} {r['overlap']:8} {r['covered']:12} "
                f"{r['median']:9.2f} {r['p99']:7.2f} {r['max']:7.2f}"
            )
    for way, (n, o, c) in totals.items():
        print(
            f"{way}: {n} layouts, {o} with an overlap ({100 * o / n:.2f}%), "
            f"{c} with a mark covered ({100 * c / n:.2f}%)"
        )


if __name__ == "__main__":
    main()
