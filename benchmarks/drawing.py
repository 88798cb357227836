"""The All Fives layout drawing: clear drawings, time per drawing, and digit sizes per screen.

    python -m benchmarks.drawing [--games N] [--part search|screens|all]

**search** -- for seeded random legal games (``scorekeeper.allfives.simulate``) of several
rule sets, every hand's final layout is drawn twice in one run:

* **tile by tile** (the baseline): each tile in the order set takes the first
  of its ways (straight on, or turning at the edge of the box) that is clear,
  else the first way -- what ``draw_layout`` does with a budget of 0 tries;
* **search** (``draw_layout`` as the app calls it): the same, going back to
  redraw a tile in the way when a tile finds no clear way.

It prints, per rule set, the layouts drawn, how many have a tile over another
tile ("overlap") or over an open end's mark ("mark covered"), and the median,
99th percentile and maximum milliseconds per drawing.

**screens** -- per screen (a 360 and a 412 px phone, the 360 px phone under the
Fives and Threes pegboard, a laptop's column) and for 2 and 4 players, every
turn's layout of random hands is drawn in that screen's pixel box two ways in
one run:

* **fixed** (before issue 27): laid out in the fixed reach of 14 x 18 units
  whatever the box, then scaled to fit it (the digits 0.55 of a half, at least 9 px);
* **box** (now): laid out for the box (``fit.drawing_box``: arms turn at its
  edges), at ``fit.MIN_UNIT`` or more, digits ``tiles.digit_size``.

It prints the smallest digits (px, as they fit their half: at most 0.8 of it), the
share of turns and of hands drawn with digits under ``tiles.MIN_DIGITS`` (14 px since issue
48; 11 px before), the share of turns where a
tile already drawn moved (relative to the lead), and, for the box, the share of turns
whose drawing could not be laid out in its box (drawn smaller); then the CPU
milliseconds per drawing, where the end buttons went (for every tile not down that
fits several ends, on every turn), and how often the drawing moved in its box, or was
drawn smaller, while such a tile waits (no clear place in the box for a button).
No figure is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from scorekeeper.allfives.layout import SNIFF_INLINE, Layout
from scorekeeper.allfives.record import load
from scorekeeper.allfives.simulate import random_record
from scorekeeper.ui.allfives import drawing, fit
from scorekeeper.ui.allfives.layout_view import drawing_height
from scorekeeper.ui.allfives.tiles import MIN_DIGITS, digit_size
from scorekeeper.ui.shell.widgets import PAD

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


def search(games: int) -> None:
    print(
        f"{'rule set':42} {'way':13} {'layouts':>7} {'overlap':>8} {'mark covered':>12} "
        f"{'median ms':>9} {'p99 ms':>7} {'max ms':>7}"
    )
    totals = {"tile by tile": [0, 0, 0], "search": [0, 0, 0]}
    for name, rules in RULE_SETS:
        layouts = [h.layout for seed in range(games) for h in load(random_record(seed, **rules)).hands]
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


def _box_px(width: float, pegboard: bool = False) -> tuple[float, float]:
    """The drawing's box (px) on a screen ``width`` wide, as ``screens.Table`` makes it (the
    pegboard, 390 x 106 px at most, takes the room it needs over the chips' 40 px)."""
    content = max(240.0, width - 2 * PAD)
    board = 105.8 * min(1.0, content / 390) if pegboard else 40.0
    return content, max(170.0, drawing_height(content) - (board - 40.0))


PLAYERS = [
    ("2 players", dict(players=2)),
    ("2 players, no spinner", dict(players=2, spinner="none")),
    ("4 players in partnerships", dict(players=4, teams=True)),
    ("4 players, Five Up", dict(players=4, spinner="all-doubles")),
]
#: The Fives and Threes pub rules (``ui/allfives/form.py``), whose screen shows the pegboard.
PUB = dict(count="fives-and-threes", spinner="none", draw=False, hand_end="go", domino="side", target=61)
PUB_PLAYERS = [
    ("2 players, Fives and Threes", dict(players=2, **PUB)),
    ("4 players, Fives and Threes", dict(players=4, teams=True, **PUB)),
]

#: name, the drawing's box (px), the rule sets played there
SCREENS = [
    ("phone 360x800", _box_px(360), PLAYERS),
    ("phone 360x800, pegboard", _box_px(360, pegboard=True), PUB_PLAYERS),
    ("phone 412x915", _box_px(412), PLAYERS),
    ("phone 412x915, pegboard", _box_px(412, pegboard=True), PUB_PLAYERS),
    ("laptop 1280x800, a column", (780.0, 330.0), PLAYERS),
]


def _upto(lay: Layout, k: int) -> Layout:
    """The layout as it was after its first ``k`` tiles."""
    out = Layout(lay.spinner)
    for n in list(lay)[:k]:
        way = "inline" if n.kind == SNIFF_INLINE else "across"
        if n.parent is None:
            out.lead(n.tile, sniff=way)
        else:
            out.place(n.tile, n.parent.tile, sniff=way)
    return out


def _digits(d, unit: float, old: bool) -> float:
    """The smallest digits (px) of drawing ``d`` at ``unit``, as they fit their half."""
    half = fit.half_px(unit, any(g.spinner for g in d.tiles))
    return min(max(9.0, half * 0.55), half * 0.8) if old else digit_size(half)


def _where(d) -> dict:
    """Each tile's place relative to the lead."""
    lead = d.tiles[0]
    return {g.tile: (g.x - lead.x, g.y - lead.y, g.w) for g in d.tiles}


def _buttons(lay: Layout, d, unit: float, w: float, h: float) -> list[int]:
    """For the tiles not down that fit several ends of ``lay``: [end buttons, just beyond
    their end, within a button's width of there, tiles waiting while the drawing moved in its
    box, while it was drawn smaller, buttons on a tile, tiles waiting]."""
    from scorekeeper.dominoes.tiles import tiles_of_set

    marks = {m.tile: m for m in reversed(d.ends)}
    at = fit.origin(d, unit, w, h)
    out = [0] * 7
    for t in tiles_of_set(6):
        ons = [on for on in lay.fits(t) if on in marks] if t not in lay else []
        if len(ons) < 2:
            continue
        sizes = [fit.button_size([f"on {on}", "+20"]) for on in ons]
        b = fit.end_buttons(d, unit, w, h, [(marks[on], size) for on, size in zip(ons, sizes, strict=True)])
        tiles = [(b.origin[0] + g.x * b.unit, b.origin[1] + g.y * b.unit, g.w * b.unit, g.h * b.unit) for g in d.tiles]
        out[6] += 1
        out[3] += b.unit == unit and b.origin != at
        out[4] += b.unit < unit
        for on, size, s in zip(ons, sizes, b.spots, strict=True):
            x, y, _, _ = fit.just_beyond(marks[on], size, b.unit, b.origin)
            off = ((s.left - x) ** 2 + (s.top - y) ** 2) ** 0.5
            out[0] += 1
            out[1] += off < 1
            out[2] += off <= fit.END_BUTTON
            out[5] += overlaps((s.left, s.top, s.width, s.height), tiles)
    return out


def overlaps(r: tuple[float, float, float, float], others: list[tuple[float, float, float, float]]) -> bool:
    """Whether the rectangle ``r`` (left, top, width, height) overlaps any of ``others``."""
    x, y, w, h = r
    return any(x < ox + ow and ox < x + w and y < oy + oh and oy < y + h for ox, oy, ow, oh in others)


def _turns(games: int, hands: int, rules: dict):
    """(hand number, every turn's layout) of seeded random hands."""
    for seed in range(games):
        for i, hand in enumerate(load(random_record(seed, max_hands=hands, **rules)).hands):
            yield (seed, i), [_upto(hand.layout, k) for k in range(1, len(hand.layout) + 1)]


def _way(layouts: list[Layout], w: float, h: float, fixed: bool, tally: dict) -> None:
    """Draw every turn of a hand the ``fixed`` way or for the box; add to ``tally``."""
    box = fit.drawing_box(w, h)
    before = None
    small = False
    for lay in layouts:
        t0 = time.process_time()  # (this process's CPU time: other work on the machine does not count)
        d = drawing.draw_layout(lay) if fixed else drawing.draw_layout(lay, box)
        tally["ms"].append((time.process_time() - t0) * 1000)
        if fixed:  # (the room kept for the end buttons then: 22 px)
            unit = max(4.0, min((w - 44) / d.width, (h - 44) / d.height, fit.max_unit(w)))
        else:
            unit = fit.unit_for(d, w, h)
            tally["smaller"] += not d.fits
            tally["buttons"] = [a + b for a, b in zip(tally["buttons"], _buttons(lay, d, unit, w, h), strict=True)]
        px = _digits(d, unit, fixed)
        tally["min"] = min(tally["min"], px)
        tally["small"] += px < MIN_DIGITS - 1e-9
        small |= px < MIN_DIGITS - 1e-9
        where = _where(d)
        if before is not None:
            tally["moved"] += any(where[t] != p for t, p in before.items())
        before = where
        tally["turns"] += 1
    tally["hands"] += 1
    tally["small hands"] += small


def screens(games: int, hands: int) -> None:
    print(f"{games} games x {hands} hands per line; every turn's layout drawn both ways")
    print(
        f"{'screen':27} {'box px':>8} {'units':>7} {'players':26} {'turns':>5} | {'fixed':>5} {f'<{MIN_DIGITS:g} px':>7} "
        f"{'hands':>6} {'moved':>6} | {'box':>5} {f'<{MIN_DIGITS:g} px':>7} {'hands':>6} {'moved':>6} {'smaller':>7}"
    )
    timing = []
    for screen, (w, h), rule_sets in SCREENS:
        for name, rules in rule_sets:
            t = {
                way: {"ms": [], "min": 99.0, "small": 0, "small hands": 0, "moved": 0, "turns": 0, "hands": 0}
                for way in ("fixed", "box")
            }
            t["box"].update(smaller=0, buttons=[0] * 7)
            for _, layouts in _turns(games, hands, rules):
                _way(layouts, w, h, True, t["fixed"])
                _way(layouts, w, h, False, t["box"])
            f, b = t["fixed"], t["box"]
            n, nh = f["turns"], f["hands"]

            def pc(k: int, of: int) -> str:
                return f"{100 * k / of:5.1f}%"

            box = fit.drawing_box(w, h)
            print(
                f"{screen:27} {f'{w:.0f}x{h:.0f}':>8} {f'{box[0]}x{box[1]}':>7} {name:26} {n:5} | "
                f"{f['min']:5.1f} {pc(f['small'], n):>7} {pc(f['small hands'], nh):>6} {pc(f['moved'], n):>6} | "
                f"{b['min']:5.1f} {pc(b['small'], n):>7} {pc(b['small hands'], nh):>6} {pc(b['moved'], n):>6} "
                f"{pc(b['smaller'], n):>7}",
                flush=True,
            )
            timing.append((screen, name, f, b))
    print("\nms per drawing (fixed: median p99 max | box: median p99 max); end buttons (box)")
    for screen, name, f, b in timing:
        ms = []
        for x in (f, b):
            x["ms"].sort()
            ms.append(f"{statistics.median(x['ms']):6.2f} {x['ms'][int(0.99 * len(x['ms']))]:6.1f} {x['ms'][-1]:6.0f}")
        asked, beyond, near, moved, smaller, on_tile, waits = b["buttons"]
        print(
            f"{screen:27} {name:26} {ms[0]} | {ms[1]} | buttons {asked}: just beyond their end {beyond}, "
            f"within 44 px of there {near}, on a tile {on_tile}; tiles waiting {waits}: the drawing moved "
            f"{moved}, smaller {smaller}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=0, help="random games per rule set (default 200, screens 25)")
    ap.add_argument("--hands", type=int, default=3, help="hands per game for the screens (default 3)")
    ap.add_argument("--part", choices=("search", "screens", "all"), default="all")
    args = ap.parse_args()
    if args.part in ("search", "all"):
        search(args.games or 200)
    if args.part in ("screens", "all"):
        screens(args.games or 25, args.hands)


if __name__ == "__main__":
    main()
