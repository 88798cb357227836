"""The phone alone against the table's server, in one run: starts, taps, size.

    python -m tools.loadtest.site [--starts N] [--taps T] [--warmup W] [--site DIR] [--snapshot-wait S]
                                  [--smoke]

Builds the phone's site (``scorekeeper site``, into ``.bench/site``; ``--site DIR``: a site
built before, e.g. by an older checkout, to compare with), serves it with a plain
static server (``http.server`` on loopback), and runs ``scorekeeper web`` (a temporary
database) beside it; both are opened in Debian's Chromium (headless, phone viewport, through
``tests/e2e/harness.py``). Measured:

* **cold start** of the site: a fresh browser context (empty cache, no service worker),
  from ``goto`` to Home drawn by Python (``New match`` in the semantics tree);
* **warm start** of the site, off the record: the same context once its service worker holds the site (and
  its Python worker has kept Python's state after its imports, which it does in the background
  a few seconds after the first visit's first screen: waited for), the network off
  (``context.set_offline``) and the static server stopped: a new tab each time, ``N`` times;
  with where its time goes: the Python worker's stages (the times it posts to the page) and
  Flutter's first frame, from the navigation's start (medians);
* **warm start, installed**: the same, in a browser profile kept on disk, as a phone's browser
  has (a Playwright context of its own is off the record, and Chromium keeps no compiled code
  for it between starts); the goal is judged on this one;
* the **server app's first screen**, for comparison: a fresh context, then ``N`` new tabs in
  it (its HTTP cache warm), each to ``New match``;
* **tap to screen**: ``T`` timed tile taps on a 2-player All Fives table in each (after ``W``
  untimed), timed in the page as ``tools/loadtest/ui_latency.py`` times them (``pointerdown`` to
  the note on screen), a tap in the site and one in the server app in turns (both pages
  open in the same browser), so that both meet the machine as it is at the same moments.
  The site answers in the page (Python in a worker); the server app over its WebSocket;
* the site's **size** (bytes, files, the archive of its Python).

Nothing is asserted; the last lines compare with the goals (warm start under 3 s; the site's
tap p95 no slower than the server app's), measured in the same run.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from scorekeeper.allfives.engine import Match
from scorekeeper.site.build import ARCHIVE, build
from tools.loadtest.common import (
    INIT_JS,
    REPO,
    app_driver,
    chromium_missing,
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

GOAL_WARM_S = 3.0
START_TIMEOUT = 300.0
SNAPSHOT_TIMEOUT = 300.0
#: ``--smoke``: a start of each, one tap in each, no waiting for the kept Python state (give
#: ``--site``, a site built before, or the run builds one first: about 20 s more).
SMOKE = {"starts": 1, "taps": 1, "warmup": 0, "snapshot_wait": 0.0}

#: Flutter's first frame, from the navigation's start (ms).
FIRST_FRAME_JS = """window.addEventListener("flutter-first-frame", () => { window.__firstFrame = performance.now(); },
    { once: true });"""


class Static:
    def __init__(self, root: Path) -> None:
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def start(context, url: str) -> tuple[float, object]:
    """Open ``url`` in a new tab: seconds until Home is drawn, and the tab."""
    page = context.new_page()
    t0 = time.perf_counter()
    page.goto(url, timeout=START_TIMEOUT * 1000)
    harness.enable_semantics(page, timeout=START_TIMEOUT)
    harness.wait_text(page, "New match", timeout=START_TIMEOUT)
    return time.perf_counter() - t0, page


def stages(page) -> dict[str, float]:
    """Where a start of the site went: the Python worker's stages (its ``startMarks``; none from a
    site whose worker posts none) and Flutter's first frame, in ms from the navigation's start."""
    got = page.evaluate(
        """() => { const s = globalThis.scorekeeperStart; const out = {};
            if (s) { for (const [name, t] of s.worker) { out[name] = t - s.origin; } }
            if (window.__firstFrame !== undefined) { out["Flutter's first frame"] = window.__firstFrame; }
            return out; }"""
    )
    return {str(k): float(v) for k, v in got.items()}


def snapshot_kept(page, timeout: float) -> float | None:
    """Seconds until the site's Python state is kept (None: not within ``timeout``, or a site
    that keeps none)."""
    t0 = time.perf_counter()
    kept = page.evaluate(
        """async (ms) => { const end = performance.now() + ms;
            while (performance.now() < end) {
              const keys = await (await caches.open("scorekeeper-python-snapshot")).keys();
              if (keys.length) { return true; }
              await new Promise((r) => setTimeout(r, 250));
            }
            return false; }""",
        timeout * 1000,
    )
    return time.perf_counter() - t0 if kept else None


def service_worker_ready(page) -> None:
    page.evaluate(
        """async () => { await navigator.serviceWorker.ready;
            while (!navigator.serviceWorker.controller) { await new Promise((r) => setTimeout(r, 100)); } }"""
    )


def installed_starts(
    playwright, root: Path, n: int, snapshot_wait: float
) -> tuple[list[float], list[dict[str, float]]]:
    """``n`` warm starts as an installed app has them: in a browser profile kept on disk, as a
    phone's browser keeps one. (A Playwright context of its own is off the record: Chromium
    keeps no compiled code for it from one start to the next, so every start compiles
    Flutter's and Pyodide's WebAssembly afresh and runs Python in its first, slow machine code;
    a phone's browser keeps that code.) First visit, a match started (three taps), Python's
    state kept, then the network off and the static server stopped, as for the other starts."""
    static = Static(root)
    with tempfile.TemporaryDirectory(prefix="bench-site-profile-") as profile:
        ctx = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=harness.CHROMIUM,
            args=harness.CHROMIUM_ARGS,
            headless=True,
            viewport=dict(harness.PHONE_VIEWPORT),
            reduced_motion="no-preference",
        )
        try:
            ctx.set_default_timeout(harness.ACTION_TIMEOUT * 1000)
            ctx.add_init_script(INIT_JS)
            ctx.add_init_script(FIRST_FRAME_JS)
            _, page = start(ctx, static.url)
            service_worker_ready(page)
            taps([page], 3, 0)
            if snapshot_wait > 0:
                snapshot_kept(page, snapshot_wait)
            page.close()
            ctx.set_offline(True)
            static.stop()
            return warm_starts(ctx, static.url, n)
        finally:
            ctx.close()


def warm_starts(context, url: str, n: int) -> tuple[list[float], list[dict[str, float]]]:
    """``n`` starts of the site in new tabs of ``context``: their seconds, and their stages."""
    seconds: list[float] = []
    where: list[dict[str, float]] = []
    for _ in range(n):
        s, page = start(context, url)
        seconds.append(s)
        where.append(stages(page))
        page.close()
        time.sleep(0.5)  # the closed tab's worker lets the store's tab lock go
    return seconds, where


def tapper(page) -> Iterator[float]:
    """Tile taps on a new 2-player match (a new one when it is won, each hand settled between
    them, a tile that fits two places tapped twice untimed): each timed one's pointerdown ->
    note (ms), one at a time."""
    m: Match = new_match(page)
    while True:
        if m.over:
            harness.tap(page, "Home")
            m = new_match(page)
            continue
        if m.hand.end is not None:
            settle_hand(page, m)
            continue
        choice = next_play(m)
        if choice is None:  # two places: two taps, not timed
            two_tap_play(page, m)
            continue
        tile, on = choice
        turn = m.play(tile, on)
        yield timed_tap(page, harness.button(page, f"tile {tile}"), app_driver.play_note(m, turn)).inpage


def taps(pages: list, n: int, warmup: int) -> list[list[float]]:
    """``n`` timed tile taps (after ``warmup``) on each page, taken in turns (a tap on the
    first page, then one on the second ...), so that every page meets the machine as it is
    at the same moments: the pages' figures are comparable on a machine whose speed moves
    within minutes."""
    tappers = [tapper(page) for page in pages]
    out: list[list[float]] = [[] for _ in pages]
    for i in range(warmup + n):
        for times, t in zip(out, tappers, strict=True):
            ms = next(t)
            if i >= warmup:
                times.append(ms)
    return out


def _s(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f} s (min {min(xs):.2f}, max {max(xs):.2f}, n={len(xs)})"


def _ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.0f} p95 {pct(xs, 95):.0f} ms (n={len(xs)})"


def _print_stages(title: str, runs: list[dict[str, float]]) -> None:
    names = sorted({n for r in runs for n in r}, key=lambda n: statistics.median(r[n] for r in runs if n in r))
    if not names:
        print(f"{title}: none posted (a site whose worker posts no times)")
        return
    parts = [f"{n} {statistics.median(r[n] for r in runs if n in r) / 1000:.2f}" for n in names]
    print(f"{title}, s from the navigation: " + "; ".join(parts))


def the_site(given: Path | None) -> tuple[Path, dict[str, bytes]]:
    """The site measured: ``given`` (built before), or one built now into ``.bench/site``;
    its folder and its files."""
    if given is None:
        t0 = time.perf_counter()
        site = build(REPO / ".bench" / "site")
        print(f"build: {time.perf_counter() - t0:.1f} s; {site.compiled}")
        return site.path, site.files
    root = given.resolve()
    print(f"site: {root} (built before)")
    return root, {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def measure(playwright, root: Path, files: dict[str, bytes], server_url: str, args: argparse.Namespace) -> dict:
    """The starts and the taps of the site (served from ``root``) and of the server app."""
    out: dict = {}
    static = Static(root)
    browser, ctx = harness.launch_browser(playwright, reduced_motion="no-preference")
    ctx.add_init_script(INIT_JS)
    ctx.add_init_script(FIRST_FRAME_JS)
    # ---------------------------------------------------------- the site
    out["cold"], page = start(ctx, static.url)
    out["cold_stages"] = stages(page)
    service_worker_ready(page)
    # ------------------------- the server app's first screen; the taps of both, in turns
    sctx = harness.new_context(browser, reduced_motion="no-preference")
    sctx.add_init_script(INIT_JS)
    out["server_cold"], spage = start(sctx, server_url)
    out["site_taps"], out["server_taps"] = taps([page, spage], args.taps, args.warmup)
    spage.close()
    keeps = b"scorekeeper-python-snapshot" in files.get("python-worker.js", b"")  # an older site: none
    out["kept"] = snapshot_kept(page, args.snapshot_wait) if keeps and args.snapshot_wait > 0 else None
    page.close()
    ctx.set_offline(True)
    static.stop()
    out["warm"], out["warm_stages"] = warm_starts(ctx, static.url, args.starts)
    ctx.close()
    # ------------------------------------------------- the server app's new tabs
    out["server_warm"] = []
    for _ in range(args.starts):
        seconds, page = start(sctx, server_url)
        out["server_warm"].append(seconds)
        page.close()
    sctx.close()
    browser.close()
    out["installed"], out["installed_stages"] = installed_starts(playwright, root, args.starts, args.snapshot_wait)
    return out


def report(r: dict) -> None:
    """The figures in words; the last lines, the goals."""
    print(f"site cold start (first visit, empty cache): {r['cold']:.2f} s")
    _print_stages("  its stages", [r["cold_stages"]])
    kept = r["kept"]
    print(
        "Python's state kept after the first visit: "
        + (f"{kept:.1f} s after the taps" if kept is not None else "no (or not waited for)")
    )
    print(f"site warm start, off the record (the benchmark's own context, network off): {_s(r['warm'])}")
    _print_stages("  its stages (medians)", r["warm_stages"])
    print(f"site warm start, installed (a browser profile kept on disk, network off): {_s(r['installed'])}")
    _print_stages("  its stages (medians)", r["installed_stages"])
    print(f"server app first screen: fresh context {r['server_cold']:.2f} s; new tabs {_s(r['server_warm'])}")
    print(f"tap -> screen, site (Python in the page): {_ms(r['site_taps'])}")
    print(f"tap -> screen, server app (WebSocket): {_ms(r['server_taps'])}")
    installed, site_taps, server_taps = r["installed"], r["site_taps"], r["server_taps"]
    warm_ok = statistics.median(installed) < GOAL_WARM_S
    tap_ok = pct(site_taps, 95) <= pct(server_taps, 95)
    print(
        f"goal warm start < {GOAL_WARM_S:.0f} s: {'met' if warm_ok else 'NOT met'} "
        f"(installed: median {statistics.median(installed):.2f} s; off the record: {statistics.median(r['warm']):.2f} s; "
        f"the server app's new tab: {statistics.median(r['server_warm']):.2f} s)"
    )
    print(
        f"goal site tap p95 <= server app's: {'met' if tap_ok else 'NOT met'} "
        f"({pct(site_taps, 95):.0f} ms vs {pct(server_taps, 95):.0f} ms)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--starts", type=int, default=3, help="warm starts of each (default 3)")
    ap.add_argument("--taps", type=int, default=20, help="timed taps in each (default 20)")
    ap.add_argument("--warmup", type=int, default=3, help="untimed taps first (default 3)")
    ap.add_argument("--site", type=Path, help="measure this site, built before, instead of building one")
    ap.add_argument(
        "--snapshot-wait",
        type=float,
        default=SNAPSHOT_TIMEOUT,
        help="seconds to wait after the first visit for the kept Python state (0: none)",
    )
    args = parse_args(ap, argv, SMOKE)
    if args.starts < 1 or args.taps < 1 or args.warmup < 0:
        ap.error("--starts and --taps must be at least 1, --warmup at least 0")
    if missing := chromium_missing():
        print(missing, file=sys.stderr)
        return 2
    print(f"machine: {os.cpu_count()} CPUs, load average {load_average()}")
    root, files = the_site(args.site)
    size = sum(len(b) for b in files.values())
    app = files.get(ARCHIVE) or files.get("app.tar.gz", b"")
    print(f"site size: {size / 1e6:.1f} MB in {len(files)} files; the app's Python {len(app) / 1e6:.1f} MB")

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="bench-site-db-") as db:
        port = harness.free_port()
        server = harness.start_server(app_driver.web_command(db, port), port, cwd=str(REPO))
        try:
            with sync_playwright() as p:
                results = measure(p, root, files, server.url, args)  # type: ignore[attr-defined]
        finally:
            harness.stop_server(server)
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
