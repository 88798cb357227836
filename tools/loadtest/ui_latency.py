"""UI latency in a real browser: a tile tap on the Table -> the updated screen.

    python -m tools.loadtest.ui_latency [--taps N] [--rounds R] [--warmup W] [--motion full|reduced]
                                        [--frames N] [--smoke]

Runs ``scorekeeper web`` (temporary database) and the baseline
``tools/loadtest/ui_baseline_app.py`` (the smallest declarative Flet app: one
counter button) on free ports, opens both in Debian's Chromium (headless,
phone viewport, via ``tests/e2e/harness.py``) and times ``N`` taps on each.
With ``--rounds R`` the two are measured R times, alternating (ours first),
each round in a fresh browser context and, for ours, a new match.

Ours: a 2-player match (Ann, Ben; default rules: hands of 9, target 250) for each
round, made before the server starts by the New match form's view-model (as the
browser tests make theirs; one won during a round is followed by a new one made by
taps), opened at its table; then tiles are entered by tapping ``tile X`` in the
picker.  The engine (``scorekeeper.allfives.engine.Match``) picks each next
legal play that fits exactly one place (one tap, no "which end?" question)
and yields the note the Table shows after it ("Note: Ann set 3-2: count 5,
Ann +5").  When a player has set all 9 tiles (a domino) the hand is settled
by typing the other player's pips and tapping "Settle hand"; the next hand
starts by itself.  Only the tile taps are timed; W warm-up taps (default 5)
are not counted.  Baseline: taps on "Tap" until ``count=N`` shows.

How a tap is timed (see the e2e spike's FINDINGS, section 5): inside the
page, ``performance.now()`` at the tap's ``pointerdown`` (a capturing
listener on ``document``) and when a MutationObserver on
``flt-semantics-host`` first sees the expected text.  Flutter writes the
semantics DOM in the frame it paints, so this is what the player sees, within
a frame.  The tap is a real mouse click (``Locator.click``); before it the
tile is scrolled into view and Flutter is left to come to rest, so scrolling
and Playwright's actionability checks are not timed.  Also reported:

* ``up->text``: from ``pointerup`` (Flutter recognises a tap on pointer up;
  the down/up gap is Playwright's, a finger's is longer);
* ``python``: Python wall time of ``click()`` + waiting for the text (an
  upper bound: Playwright's checks and round trips included);
* the split of the in-page time through the Flet WebSocket (the page's
  ``WebSocket`` is wrapped by an init script): ``down->send`` (Flutter
  handles the tap and sends the event), ``send->msg`` (the server handles
  the event, runs the app's handler, re-renders and diffs the component, and
  the first reply arrives), ``msg->text`` (the client applies the patch and
  draws the frame);
* ours by kind (a play that scores, which shows "15!", or not) and by place in the
  hand: its first play (the drawing's first tile), the play that ends it (the
  hand-end panel opens), the others.

``--frames N`` (default 20): after the rounds, the browser's part of a tap with Flutter's
semantics tree on and off, for both apps (the section "frames" below says how): a phone
without a screen reader never builds the tree that ``run_ours`` reads the screen from. Its
taps with semantics off are hand 1's plays of one place in fresh matches, as many matches
as ``N`` takes.

``--table`` (on unless ``--no-table``): each round also times taps on a second floor,
``tools/loadtest/ui_table_app.py``: a table-shaped screen in plain Flet (a title, two
players' chips, a count, scores, a drawing that grows by a tile and a 28-cell picker whose lit
cells change, all at every tap; no rules behind it), tapped on a box "Tap" without ink as our
tiles are, until its ``count=N`` shows. What its taps cost on top of the minimal app's is what
Flet's web client costs a screen that changes at a play what a table's changes.

Timing is never asserted; the figures are printed, last four lines (the first only with
``--frames``, the second only with ``--table``):

    without the screen reader's tree (--frames), tile tap -> frame end, N and N taps (ms): ours median M p95 P | baseline median M p95 P (ours / baseline p95: R)
    table-shaped plain Flet app (--table), N taps (ms): median M p95 P; its p95 / the minimal app's: R; ours / its: R
    ui latency, tile tap -> updated screen, 50 taps (ms): ours median M p95 P | baseline (minimal Flet app) median M p95 P
    goal p95 < 150 ms and at most 2x the baseline's p95: met (ours / baseline p95: R)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from typing import Any

from tools.loadtest.common import (
    INIT_JS,
    PLAYERS,
    REPO,
    Sample,
    app_driver,
    check_scores,
    chromium_missing,
    fresh_match,
    harness,
    load_average,
    new_match,
    next_play,
    parse_args,
    pct,
    settle_hand,
    timed_tap,
    two_tap_play,
)

GOAL_P95_MS = 150.0
GOAL_RATIO = 2.0  # ours at most twice the minimal Flet app's p95, measured in the same run
#: ``--smoke``: each app started and opened, two taps timed in each.
SMOKE = {"taps": 2, "warmup": 0, "rounds": 1, "motion": "reduced", "frames": 1}


# ------------------------------------------------------------------ ours
def run_ours(browser, url: str, mid: str, taps: int, warmup: int) -> dict:
    """``taps`` timed taps (after ``warmup``) on the match ``mid``, in a fresh context."""
    ctx = harness.new_context(browser)
    ctx.add_init_script(INIT_JS)
    try:
        page = harness.open_app(ctx, f"{url}table/{mid}")
        m = fresh_match()
        harness.wait_text(page, f"Hand 1, {m.to_move} to play")
        samples: list[Sample] = []
        done = untimed = 0
        hands = 1
        while len(samples) < taps:
            if m.over:
                harness.tap(page, "Home")
                m = new_match(page)
                continue
            if m.hand.end is not None:
                settle_hand(page, m)
                hands += 1
                continue
            choice = next_play(m)
            if choice is None:  # every fitting tile fits two ends: two taps, not timed
                two_tap_play(page, m)
                untimed += 1
                continue
            tile, on = choice
            turn = m.play(tile, on)
            s = timed_tap(page, harness.button(page, f"tile {tile}"), app_driver.play_note(m, turn))
            s.tag = "scoring" if turn.points else "plain"
            s.place = "first" if len(m.hand.turns) == 1 else "last" if m.hand.end is not None else "other"
            done += 1
            if done > warmup:
                samples.append(s)
        harness.wait_idle(page, quiet=0.15)
        check_scores(page, m)
        return {"samples": samples, "hands": hands, "untimed": untimed, "turns": sum(len(h.turns) for h in m.hands)}
    finally:
        ctx.close()


# ------------------------------------------------------------------ baseline
def run_baseline(browser, url: str, taps: int, warmup: int) -> dict:
    """``taps`` timed taps (after ``warmup``) on "Tap" in a floor app (the minimal app, or the
    table-shaped one), each until its ``count=N`` shows, in a fresh context."""
    ctx = harness.new_context(browser)
    ctx.add_init_script(INIT_JS)
    try:
        page = harness.open_app(ctx, url)
        harness.wait_text(page, re.compile(r"^count=\d+$"))  # (a busy machine draws the count after the button)
        start = int(next(t for t in harness.read_texts(page) if t.startswith("count=")).split("=")[1])
        loc = harness.button(page, "Tap")
        samples = []
        for i in range(1, warmup + taps + 1):
            s = timed_tap(page, loc, f"count={start + i}")
            if i > warmup:
                samples.append(s)
        return {"samples": samples}
    finally:
        ctx.close()


# ------------------------------------------------------------------ frames (--frames N)
# What a tap's frame costs the browser with and without Flutter's semantics tree.
#
# ``run_ours`` sees the updated screen in Flutter's semantics tree: the DOM of labels a
# screen reader reads, which Flutter builds only once semantics are turned on (the harness
# turns them on to find and read the controls). A phone without a screen reader never builds
# it. So here each app is tapped twice over, in a page with semantics on and in one with
# them off, and the browser's part of a tap is timed the same way in both: from the first
# WebSocket message after the tap to the end of the animation frame that follows it (a
# ``requestAnimationFrame`` callback queued after Flutter's: Flutter builds, lays out, paints
# and updates the semantics DOM in its own callback of that frame). In a page without
# semantics nothing can be found by its label, so the taps land where the page with
# semantics showed each tile: the picker never moves its tiles. At the end the page's
# semantics are turned on and the last play's note is looked for: every tap landed.

#: Timestamps of one armed tap: pointerdown, the event sent, the first message back, the end
#: of Flutter's frame callback after it (``raf``) and of the frame (``after``).
FRAME_JS = r"""
(() => {
  const L = window.__frame = {armed: false};
  const now = () => performance.now();
  document.addEventListener('pointerdown', () => { if (L.armed && L.down == null) L.down = now(); }, true);
  const Base = window.WebSocket;
  class FrameWebSocket extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        if (!L.armed || L.down == null || L.msg != null) return;
        L.msg = now();
        setTimeout(() => requestAnimationFrame(() => {
          L.raf = now();
          setTimeout(() => { L.after = now(); }, 0);
        }), 0);
      });
    }
    send(data) { if (L.armed && L.down != null && L.send == null) L.send = now(); return super.send(data); }
  }
  window.WebSocket = FrameWebSocket;
  window.__frameArm = () => Object.assign(L, {armed: true, down: null, send: null, msg: null, raf: null, after: null});
  window.__frameTake = () => { const r = Object.assign({}, L); L.armed = false; return r; };
})();
"""

TILES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def _centre(loc: Any) -> tuple[float, float]:
    box = loc.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _tap(page: Any, xy: tuple[float, float]) -> tuple[float, float, float, float] | None:
    """One tap at ``xy``: (event sent -> first message, that message -> Flutter's frame
    callback's end, -> the frame's end, and the whole tap: ``pointerdown`` -> the frame's end),
    or None when no message came within 3 s."""
    time.sleep(0.35)  # the last frame drawn and the page at rest
    page.evaluate("() => window.__frameArm()")
    page.mouse.click(*xy)
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if page.evaluate("() => window.__frame.after") is not None:
            break
        time.sleep(0.02)
    d = page.evaluate("() => window.__frameTake()")
    if d["after"] is None or d["send"] is None:
        return None
    return d["msg"] - d["send"], d["raf"] - d["msg"], d["after"] - d["msg"], d["after"] - d["down"]


def _page(browser: Any, url: str, semantics: bool) -> tuple[Any, Any]:
    ctx = harness.new_context(browser)
    ctx.add_init_script(FRAME_JS)
    page = ctx.new_page()
    page.goto(url)
    if semantics:
        harness.enable_semantics(page)
    else:
        page.wait_for_function(
            "() => window.__frame !== undefined && document.querySelector('flt-semantics-placeholder')"
        )
        time.sleep(3)  # the first screen drawn (nothing to read it by without semantics)
    return ctx, page


Places = dict[str, tuple[float, float]]


def frame_ours(browser: Any, url: str, mid: str, where: Places | None, n: int) -> tuple[list, Places]:
    """Up to ``n`` one-place plays of hand 1 of ``mid`` (a fresh match), tapped where the
    tiles are, and where they are. ``where`` None: semantics on, and the tiles' places read
    from this page; else semantics off and the taps made there. The last play's note is then
    looked for with semantics on."""
    ctx, page = _page(browser, f"{url}table/{mid}", where is None)
    try:
        if where is None:
            harness.wait_text(page, f"Hand 1, {PLAYERS[0]} to play")
            where = {t: _centre(harness.button(page, f"tile {t}")) for t in TILES}
        m, out, turn = fresh_match(), [], None
        while len(out) < n and m.hand.end is None and (choice := next_play(m)) is not None:
            turn = m.play(*choice)
            sample = _tap(page, where[str(choice[0])])
            if sample is None:
                raise RuntimeError(f"no answer to the tap on {choice[0]}")
            out.append(sample)
        harness.enable_semantics(page)
        if turn is not None:
            harness.wait_text(page, app_driver.play_note(m, turn))
        return out, where
    finally:
        ctx.close()


def frame_baseline(browser: Any, url: str, xy: tuple[float, float] | None, n: int) -> tuple[list, tuple[float, float]]:
    """``n`` taps on the minimal app's button, and where it is (``xy`` None: semantics on,
    and the button found on this page; else semantics off and the taps made there)."""
    ctx, page = _page(browser, url, xy is None)
    try:
        if xy is None:
            xy = _centre(harness.button(page, "Tap"))
        return [s for _ in range(n) if (s := _tap(page, xy)) is not None], xy
    finally:
        ctx.close()


def frame_line(name: str, samples: list) -> str:
    """``name``'s figures: the server's part and the browser's frame."""

    def stat(i: int) -> str:
        xs = [s[i] for s in samples]
        return f"median {statistics.median(xs):.1f} p95 {pct(xs, 95):.1f}" if xs else "n/a"

    return (
        f"    {name} (n={len(samples)}): send->msg {stat(0)} | msg->Flutter's frame callback end {stat(1)} "
        f"| msg->frame end {stat(2)} | pointerdown->frame end {stat(3)}"
    )


def _frames_ours(browser: Any, url: str, mids: list[str], where: Places | None, n: int) -> tuple[list, Places]:
    """:func:`frame_ours` on hand 1 of each match of ``mids`` in turn until ``n`` taps are
    timed (or the matches run out), and where the tiles are (``where`` None: semantics on in
    every page, else off in every page)."""
    out: list = []
    seen: Places = where or {}
    for mid in mids:
        got, seen = frame_ours(browser, url, mid, None if where is None else seen, n - len(out))
        out += got
        if len(out) >= n:
            break
    return out, seen


def frame_matches(n: int) -> int:
    """How many fresh matches ``--frames n`` may use: hand 1 of a match gives up to 17 plays
    of one place, and ends its run at the first tile that fits two (``frame_ours``)."""
    return 2 * (n // 6 + 1)


def frames(browser: Any, ours_url: str, mids: list[str], base_url: str, n: int) -> tuple[list, list]:
    """Print the frames section: each app tapped ``n`` times with semantics on, then off
    (``mids``: fresh matches, :func:`frame_matches` of them, half for each: hand 1 of as
    many as it takes), and give the taps with semantics off (ours, the baseline's)."""
    print(
        f"frames: the browser's part of a tap with Flutter's semantics tree on (as measured above) and off "
        f"(a phone without a screen reader), {n} taps each (ms)"
    )
    half = len(mids) // 2
    ours_on, where = _frames_ours(browser, ours_url, mids[:half], None, n)
    base_on, xy = frame_baseline(browser, base_url, None, n)
    print(frame_line("ours, semantics on      ", ours_on))
    print(frame_line("baseline, semantics on  ", base_on), flush=True)
    ours_off = _frames_ours(browser, ours_url, mids[half:], where, n)[0]
    base_off = frame_baseline(browser, base_url, xy, n)[0]
    print(frame_line("ours, semantics off     ", ours_off))
    print(frame_line("baseline, semantics off ", base_off), flush=True)
    return ours_off, base_off


# ------------------------------------------------------------------ figures
def _stats(xs) -> str:
    xs = [x for x in xs if x is not None]
    if not xs:
        return "n/a"
    return f"median {statistics.median(xs):.1f} p95 {pct(xs, 95):.1f} (min {min(xs):.1f} max {max(xs):.1f})"


#: A timed tap's place in its hand (:attr:`Sample.place`), as ``describe`` names it.
PLACES = {"first": "its first play", "other": "the others", "last": "the play that ends it"}


def _grouped(title: str, samples: list[Sample], key: Any, names: dict[str, str]) -> list[str]:
    """One line of ``pointerdown->text`` for each group of ``samples`` by ``key`` (in the order
    of ``names``, each shown by its name there), or none where no sample has one."""
    groups = [(names[k], [s.inpage for s in samples if key(s) == k]) for k in names]
    shown = [f"{name} (n={len(xs)}) {_stats(xs)}" for name, xs in groups if xs]
    return [f"    pointerdown->text {title}: " + " | ".join(shown)] if shown else []


def describe(name: str, samples: list[Sample]) -> str:
    lines = [
        f"  {name}: {len(samples)} taps (ms)",
        f"    pointerdown->text  {_stats([s.inpage for s in samples])}",
        f"    pointerup->text    {_stats([s.from_up for s in samples])}",
        f"    python click->text {_stats([s.python for s in samples])}",
        f"    split: down->send {_stats([s.down_send for s in samples])}",
        f"           send->msg  {_stats([s.send_msg for s in samples])}",
        f"           msg->text  {_stats([s.msg_text for s in samples])}",
        f"    WebSocket messages per tap: median {statistics.median([s.nmsg for s in samples]):g}, "
        f"max {max(s.nmsg for s in samples)}",
    ]
    tags = sorted({s.tag for s in samples if s.tag})
    lines += _grouped("by kind", samples, lambda s: s.tag, {t: t for t in tags})
    # where in the hand: its first play, the play that ends it (a domino), the others
    lines += _grouped("by place in the hand", samples, lambda s: s.place, PLACES)
    slow = sorted(samples, key=lambda s: s.inpage)[-3:]
    lines.append(
        "    slowest: "
        + "; ".join(
            f"{s.inpage:.0f} = {s.down_send or 0:.0f}+{s.send_msg or 0:.0f}+{s.msg_text or 0:.0f}"
            for s in reversed(slow)
        )
        + "  (down->send + send->msg + msg->text)"
    )
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--taps", type=int, default=50, help="timed taps per app and round (default 50)")
    ap.add_argument("--rounds", type=int, default=1, help="rounds, ours and the baseline alternating (default 1)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed taps first in each round (default 5)")
    ap.add_argument(
        "--motion",
        choices=("full", "reduced"),
        default="full",
        help="the pages' animations: full (default, as most phones have it and as the figures in "
        "docs/benchmarks.md were taken) or reduced (fewer frames for this machine to draw)",
    )
    ap.add_argument(
        "--table",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="each round, also time taps on the table-shaped plain Flet app (ui_table_app.py; default: on)",
    )
    ap.add_argument(
        "--frames",
        type=int,
        default=20,
        metavar="N",
        help="after the rounds, N taps on each app with Flutter's semantics tree on and off, the "
        "browser's frame timed (default 20; 0: none)",
    )
    args = parse_args(ap, argv, SMOKE)
    harness.MOTION = "reduce" if args.motion == "reduced" else "no-preference"
    if args.taps < 1 or args.rounds < 1 or args.warmup < 0 or args.frames < 0:
        ap.error("--taps and --rounds must be at least 1, --warmup and --frames at least 0")
    if missing := chromium_missing():
        print(missing, file=sys.stderr)
        return 2

    from playwright.sync_api import sync_playwright

    began = time.perf_counter()
    ours_all: list[Sample] = []
    base_all: list[Sample] = []
    table_all: list[Sample] = []
    servers = []
    off: tuple[list, list] = ([], [])  # the taps with semantics off (--frames): ours, the baseline's
    with tempfile.TemporaryDirectory(prefix="scorekeeper-ui-latency-") as tmp:
        try:
            db = os.path.join(tmp, "db")
            match = {"names": list(PLAYERS), "leader": PLAYERS[0]}
            mids = list(
                app_driver.ready_matches(
                    db, {str(r): match for r in range(args.rounds + frame_matches(args.frames))}
                ).values()
            )
            port = harness.free_port()
            ours = harness.start_server(app_driver.web_command(db, port), port, cwd=str(REPO))
            servers.append(ours)
            port = harness.free_port()
            base = harness.start_server(
                [sys.executable, "-m", "tools.loadtest.ui_baseline_app", str(port)], port, cwd=str(REPO)
            )
            servers.append(base)
            table = None
            if args.table:
                port = harness.free_port()
                table = harness.start_server(
                    [sys.executable, "-m", "tools.loadtest.ui_table_app", str(port)], port, cwd=str(REPO)
                )
                servers.append(table)
            print(
                f"servers: ours {ours.url} baseline {base.url}"
                + (f" table-shaped {table.url}" if table else "")
                + f"; chromium {harness.CHROMIUM} headless, "
                f"{os.cpu_count()} CPUs, load average {load_average()}",
                flush=True,
            )
            with sync_playwright() as pw:
                browser, ctx = harness.launch_browser(pw)
                ctx.close()
                try:
                    for r in range(1, args.rounds + 1):
                        t = time.perf_counter()
                        res = run_ours(browser, ours.url, mids[r - 1], args.taps, args.warmup)
                        ours_all += res["samples"]
                        print(
                            f"round {r}: ours ({time.perf_counter() - t:.0f} s; {res['turns']} turns in "
                            f"{res['hands']} hands, {args.warmup} warm-up, {res['untimed']} two-tap plays untimed)"
                        )
                        print(describe("ours", res["samples"]), flush=True)
                        t = time.perf_counter()
                        res = run_baseline(browser, base.url, args.taps, args.warmup)
                        base_all += res["samples"]
                        print(f"round {r}: baseline ({time.perf_counter() - t:.0f} s)")
                        print(describe("baseline", res["samples"]), flush=True)
                        if table:
                            t = time.perf_counter()
                            res = run_baseline(browser, table.url, args.taps, args.warmup)
                            table_all += res["samples"]
                            print(f"round {r}: table-shaped ({time.perf_counter() - t:.0f} s)")
                            print(describe("table-shaped", res["samples"]), flush=True)
                    if args.frames:
                        off = frames(browser, ours.url, mids[args.rounds :], base.url, args.frames)
                finally:
                    browser.close()
        finally:
            for proc in servers:
                harness.stop_server(proc)

    o = [s.inpage for s in ours_all]
    b = [s.inpage for s in base_all]
    if args.rounds > 1:
        print("all rounds:")
        print(describe("ours", ours_all))
        print(describe("baseline", base_all))
        if table_all:
            print(describe("table-shaped", table_all))
    print(
        f"total time {time.perf_counter() - began:.0f} s; load average now {load_average()} "
        "(anything else busy on the machine inflates both figures, ours most)"
    )
    if off[0] and off[1]:  # a player's phone: no screen reader, no semantics tree to write
        oo, bo = [x[3] for x in off[0]], [x[3] for x in off[1]]
        print(
            f"without the screen reader's tree (--frames), tile tap -> frame end, {len(oo)} and {len(bo)} taps "
            f"(ms): ours median {statistics.median(oo):.1f} p95 {pct(oo, 95):.1f} | baseline median "
            f"{statistics.median(bo):.1f} p95 {pct(bo, 95):.1f} (ours / baseline p95: {pct(oo, 95) / pct(bo, 95):.2f})"
        )
    if table_all:  # Flet's cost of a screen that changes at a play what a table's changes
        tb = [s.inpage for s in table_all]
        print(
            f"table-shaped plain Flet app (--table), {len(tb)} taps (ms): median {statistics.median(tb):.1f} "
            f"p95 {pct(tb, 95):.1f}; its p95 / the minimal app's: {pct(tb, 95) / pct(b, 95):.2f}; "
            f"ours / its: {pct(o, 95) / pct(tb, 95):.2f}"
        )
    print(
        f"ui latency, tile tap -> updated screen, {len(o)} taps (ms): "
        f"ours median {statistics.median(o):.1f} p95 {pct(o, 95):.1f} | "
        f"baseline (minimal Flet app) median {statistics.median(b):.1f} p95 {pct(b, 95):.1f}"
    )
    p95, base95 = pct(o, 95), pct(b, 95)
    ratio = p95 / base95 if base95 else float("inf")
    met = p95 < GOAL_P95_MS and ratio <= GOAL_RATIO
    print(
        f"goal p95 < {GOAL_P95_MS:.0f} ms and at most {GOAL_RATIO:.0f}x the baseline's p95: "
        f"{'met' if met else 'NOT met'} (ours / baseline p95: {ratio:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
