"""Plays per second: our All Fives engine vs the PyPI peer ``all-fives-domino``.

    python -m benchmarks.engine [--games N] [--seed S] [--repeat R] [--players 2,3,4]
                                [--hands H]
                                [--expected auto|engine|oracle] [--gc-off]

Both replay the same seeded random legal games (``scorekeeper/1`` records,
``spinner: first-double``, double-six, ``hand_end: winner-takes``), generated
once, in one run.  A *play* is a tile placement (a turn entry with ``play``).

Timing: each side is run ``--repeat`` times over all games with
``time.perf_counter``, the runs of the two sides alternating (so both see the
same background load); garbage is collected before each run and the
collector stays on during it (the peer's pieces link parent <-> child, so its
boards are reference cycles that only the collector frees: that is part of its
cost; ``--gc-off`` disables it while timing, as ``timeit`` does); the figure
reported is the MEDIAN run (the best run and every run are printed too).

* ours: ``setup, events = parse_record(record)`` outside the timing; timed:
  ``m = Match(setup); for ev in events: m.push(ev)`` (every turn, passes and
  draws included, all checked and scored).
* peer: ``peer_adapter.prepare`` outside the timing; timed:
  ``peer_adapter.replay`` -- per play the peer's legality test, ``Board.play``
  and ``AllFivesScorer.board_score`` (the peer has no model of draws, passes,
  players or hand ends outside its 2-player self-dealing ``DominoRound``).
  Plays the peer refuses or scores differently from our rules are counted
  and explained (see PEER.md).

The last line is exactly
``engine plays/s: X; peer plays/s: Y; ratio: Z`` with ratio = X / Y
(``n/a`` where a side could not be measured).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time

from benchmarks import peer_adapter


# The games: the engine's own seeded generator of legal matches
# (scorekeeper.allfives.simulate.random_record), which deals real hands.
def random_game(seed: int, players: int, hands: int) -> dict:
    from scorekeeper.allfives import random_record

    return random_record(
        seed, players=players, teams=players == 4, max_hands=hands, spinner="first-double", hand_end="winner-takes"
    )


def make_records(n: int, seed: int, players: list[int], hands: int) -> list[dict]:
    return [random_game(seed * 1_000_000_007 + i, players[i % len(players)], hands) for i in range(n)]


def count_plays(records) -> int:
    return sum(1 for r in records for h in r["hands"] for t in h["turns"] if "play" in t)


GC_OFF = False  # --gc-off


def _timed(fn):
    """One timed run of fn(): GC collected before (and disabled during, with --gc-off)."""
    gc.collect()
    was = gc.isenabled()
    if GC_OFF:
        gc.disable()
    try:
        t0 = time.perf_counter()
        result = fn()
        return time.perf_counter() - t0, result
    finally:
        if was:
            gc.enable()


# --------------------------------------------------------------------------
# Our engine
# --------------------------------------------------------------------------
def ours_runner(records: list[dict]):
    """(run, plays) for our engine -- run() replays every accepted record --
    or None while the engine is not available."""
    try:
        from scorekeeper.allfives import Match, parse_record
    except ImportError as e:
        print(f"our engine: not available yet ({e})")
        return None

    parsed, plays, errors = [], 0, []
    for i, rec in enumerate(records):
        try:
            setup, events = parse_record(rec)  # not timed
            events = list(events)
            m = Match(setup)  # one untimed pass: the engine
            for ev in events:  # must accept every record
                m.push(ev)
        except Exception as e:  # noqa: BLE001 - reported, record left out
            errors.append((i, e))
            continue
        parsed.append((setup, events))
        plays += count_plays([rec])
    if errors:
        print(
            f"our engine REFUSED {len(errors)} of {len(records)} records; they are left out "
            f"of our timing. First: record {errors[0][0]}: {type(errors[0][1]).__name__}: {errors[0][1]}"
        )
    if not parsed:
        return None

    def run():  # timed
        for setup, events in parsed:
            m = Match(setup)
            for ev in events:
                m.push(ev)

    return run, plays


def time_ours(records: list[dict], repeat: int = 5):
    """(times, plays) for our engine alone, or None while it is not available."""
    r = ours_runner(records)
    if r is None:
        return None
    run, plays = r
    return [_timed(run)[0] for _ in range(repeat)], plays


# --------------------------------------------------------------------------
# The peer
# --------------------------------------------------------------------------
def peer_runner(records: list[dict], expected: str):
    """(run, prepared): run() replays every record through the peer and
    returns the summed replay() counts."""
    peer_adapter.load_peer(peer_adapter.ensure_peer())
    prepared = [peer_adapter.prepare(r, expected=expected) for r in records]  # not timed
    replay = peer_adapter.replay

    def run():  # timed
        tot = {"plays": 0, "refused": 0, "differing": 0}
        for p in prepared:
            r = replay(p)
            tot["plays"] += r["plays"]
            tot["refused"] += r["refused"]
            tot["differing"] += r["differing"]
        return tot

    return run, prepared


def _fmt_rate(x) -> str:
    return "n/a" if x is None else f"{x:.0f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000, help="games (records) to replay (default 2000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the game generator (default 1)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per side; the median is reported (default 5)")
    ap.add_argument("--players", default="2,3,4", help="player counts, used in turn (default 2,3,4)")
    ap.add_argument("--hands", type=int, default=1, help="hands per game at most (default 1)")
    ap.add_argument(
        "--expected",
        choices=("auto", "engine", "oracle"),
        default="auto",
        help="source of our points per play for the peer comparison (default auto: "
        "the engine's score_record when importable, else the test oracle)",
    )
    ap.add_argument(
        "--gc-off", action="store_true", help="disable the garbage collector during timed runs (timeit style)"
    )
    args = ap.parse_args(argv)
    global GC_OFF
    GC_OFF = args.gc_off
    players = [int(x) for x in args.players.split(",")]
    if args.games < 1 or args.repeat < 1 or any(p not in (2, 3, 4) for p in players):
        ap.error("need --games >= 1, --repeat >= 1 and player counts among 2, 3, 4")

    t0 = time.perf_counter()
    records = make_records(args.games, args.seed, players, args.hands)
    plays = count_plays(records)
    n_hands = sum(len(r["hands"]) for r in records)
    turns = sum(len(h["turns"]) for r in records for h in r["hands"])
    by_p = {p: sum(1 for r in records if len(r["players"]) == p) for p in players}
    print(
        f"games: {args.games} (by players: {', '.join(f'{p}p {c}' for p, c in by_p.items())}), "
        f"hands: {n_hands}, turns: {turns}, plays: {plays}; generator: scorekeeper.allfives.random_record, "
        f"seed {args.seed} ({time.perf_counter() - t0:.1f} s)"
    )
    print(
        f"timing: {args.repeat} runs per side, alternating; figure = median run (best in brackets); "
        f"GC {'off' if GC_OFF else 'on'} while timed"
    )

    # ours is set up first: its imports must not see the peer's top-level 'src'
    ours = ours_runner(records)
    peer_run, prepared = peer_runner(records, args.expected)
    # runs alternate (ours, peer, ours, peer, ...) so that both sides see the
    # same background load on this 2-core machine
    our_times, peer_times, totals = [], [], None
    for _ in range(args.repeat):
        if ours is not None:
            our_times.append(_timed(ours[0])[0])
        t, res = _timed(peer_run)
        peer_times.append(t)
        assert totals is None or res == totals, (res, totals)
        totals = res

    engine_rate = None
    if ours is not None:
        our_plays = ours[1]
        med = statistics.median(our_times)
        engine_rate = our_plays / med
        print(
            f"our engine: median {med:.3f} s (best {min(our_times):.3f} s) for {our_plays} plays "
            f"-> {engine_rate:.0f} plays/s (best {our_plays / min(our_times):.0f}); "
            f"runs: {' '.join(f'{x:.3f}' for x in our_times)}"
        )

    med = statistics.median(peer_times)
    peer_rate = totals["plays"] / med
    assert totals["plays"] == plays, (totals, plays)
    print(
        f"peer {peer_adapter.PEER_DIST} {peer_adapter.PEER_VERSION}: median {med:.3f} s "
        f"(best {min(peer_times):.3f} s) for {totals['plays']} plays -> {peer_rate:.0f} plays/s "
        f"(best {totals['plays'] / min(peer_times):.0f}); "
        f"runs: {' '.join(f'{x:.3f}' for x in peer_times)}"
    )

    # untimed: why the peer refused or scored differently
    sources = sorted({p.source for p in prepared})
    mism = sum(p.oracle_mismatch for p in prepared)
    refused, differing, count_diff = {}, {}, 0
    for p in prepared:
        d = peer_adapter.diagnose(p)
        count_diff += d["count_differs"]
        for k, v in d["refused"].items():
            refused[k] = refused.get(k, 0) + v
        for k, v in d["differing"].items():
            differing[k] = differing.get(k, 0) + v
    assert sum(refused.values()) == totals["refused"], (refused, totals)
    assert sum(differing.values()) == totals["differing"], (differing, totals)

    def pct(n):
        return f"{100.0 * n / plays:.2f}%"

    print(
        f"peer refused {totals['refused']} of {plays} plays ({pct(totals['refused'])}) "
        f"[its own legality test; the tile is placed anyway to keep both layouts equal]:"
    )
    for k, v in sorted(refused.items(), key=lambda kv: -kv[1]):
        print(f"  {v:7d}  {k}")
    print(
        f"peer points differ from ours on {totals['differing']} of {plays} plays "
        f"({pct(totals['differing'])}); its count differs on {count_diff} "
        f"({pct(count_diff)}); our points from: {', '.join(sources)}"
        + (" (TEST ORACLE in peer_adapter.py, not the engine)" if sources == ["oracle"] else "")
    )
    for k, v in sorted(differing.items(), key=lambda kv: -kv[1]):
        print(f"  {v:7d}  {k}")
    if "engine" in sources:
        print(f"test oracle vs our engine: {mism} plays with different points")

    ratio = None if engine_rate is None else engine_rate / peer_rate
    print(
        f"engine plays/s: {_fmt_rate(engine_rate)}; peer plays/s: {_fmt_rate(peer_rate)}; "
        f"ratio: {'n/a' if ratio is None else f'{ratio:.2f}'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
