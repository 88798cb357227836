"""The phone alone: the static site (``scorekeeper site``) served by a plain static server
(``http.server`` on loopback, as any web host would serve it) and run in Chromium, with no
Scorekeeper server at all: Python runs in the page (Pyodide), the matches are kept in the
browser's IndexedDB.

* a hand played on the phone, the page reloaded with the network off (the service worker
  has the whole site) and the static server gone: the match is there; its record saved as a
  file, imported into a laptop's store: ``scorekeeper score`` gives the scores the phone
  showed; the same file imported back on the phone is recognised as already stored;
* a browser killed (SIGKILL) right after the screen showed a tap, started again on the same
  profile: Home offers the match in one tap and the tap is in it; a second tab of the same
  browser does not open the store, and says why.

The site is built once for the run (``built_site``, see ``tests/conftest.py``). A Pyodide
start costs seconds (measured: 6-25 s on this 2-core machine, with others at work), so
these tests load as few pages as they can and wait long for each.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from support import run_cli

from e2e import harness
from e2e.app_driver import new_match, play_note
from e2e.harness import read_texts, wait_text
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.events import StartHand
from scorekeeper.site.build import RENDERERS
from scorekeeper.site.disk import ANOTHER_TAB
from scorekeeper.store import Store

pytestmark = pytest.mark.browser

#: A Pyodide start on a busy 2-core machine (see the module's docstring).
START = 240.0


class StaticServer:
    """The site's folder served over HTTP on loopback by Python's ``http.server``."""

    def __init__(self, root: Path, port: int = 0) -> None:
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Quiet, directory=str(root)))
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def site(built_site: Path):
    server = StaticServer(built_site)
    yield server
    server.stop()


def open_site(context_or_page, url: str, expect: str | re.Pattern[str] = "New match"):
    """Open the site (or reload the page given), wait until Python has drawn ``expect``."""
    if hasattr(context_or_page, "new_page"):
        page = harness.open_app(context_or_page, url, timeout=START)
    else:
        page = context_or_page
        page.reload(timeout=START * 1000)
        harness.enable_semantics(page, timeout=START)
    wait_text(page, expect, timeout=START)
    return page


def play_a_hand(page) -> tuple[dict[str, int], list[dict[str, object]]]:
    """Ann and Ben, three tiles each: Ann plays one-place tiles to her domino, Ben's last tile
    is typed (8 pips), the hand is settled. The scores the screen shows, and the turns."""
    new_match(page, ["Ann", "Ben"], leader="Ann", rules={"hand_size": 3})
    m = Match(Setup.new(["Ann", "Ben"], rules={"hand_size": 3}))
    m.push(StartHand("Ann"))
    entries: list[dict[str, object]] = []
    while m.hand.end is None:
        tile, on = next((str(t), p[0]) for t in m.tiles if len(p := m.placements(t)) == 1)
        turn = m.play(tile, None if on is None else str(on))
        entries.append({"play": tile, **({"on": str(on)} if on is not None and len(m.hand.turns) > 1 else {})})
        harness.tap(page, f"tile {tile}")
        wait_text(page, play_note(m, turn))
    wait_text(page, "Hand 1, hand over")
    harness.enter(page, "Ben pips", "8")
    harness.tap(page, "Settle hand")
    wait_text(page, re.compile(r"^Hand 2, Ann to play"))
    return _scores(page), entries


def _scores(page) -> dict[str, int]:
    out = {}
    for text in read_texts(page):
        found = re.fullmatch(r"Score (\w+) (\d+)", text)
        if found:
            out[found.group(1)] = int(found.group(2))
    return out


def _service_worker_ready(page) -> int:
    """Wait until the site's service worker is active and controls the page; the files it keeps."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=200, timeout=START * 1000)
    return page.evaluate(
        """async () => {
            const names = (await caches.keys()).filter((n) => n.startsWith("scorekeeper-site-"));
            return names.length === 1 ? (await (await caches.open(names[0])).keys()).length : -names.length;
        }"""
    )


def _site_caches(page, until: list[str]) -> list[str]:
    """The names of the site's caches in the browser, once they are ``until`` (or after ``START``)."""
    end = time.monotonic() + START
    while True:
        names = page.evaluate(
            """() => caches.keys().then((names) => names.filter((n) => n.startsWith("scorekeeper-site-")))"""
        )
        if names == until or time.monotonic() > end:
            return names
        time.sleep(0.25)


def test_a_hand_on_the_phone_alone_survives_a_reload_offline_and_scores_the_same_on_a_laptop(
    site, browser, tmp_path, built_site
):
    context = harness.new_context(browser, accept_downloads=True)
    context.add_init_script(
        """window.__refused = []; document.addEventListener("securitypolicyviolation",
            (e) => window.__refused.push(e.blockedURI));"""
    )
    elsewhere: list[str] = []  # what the page asked of any other origin
    context.on("request", lambda r: None if r.url.startswith((site.url, "data:", "blob:")) else elsewhere.append(r.url))
    page = open_site(context, site.url)
    shown, entries = play_a_hand(page)
    assert shown["Ann"] >= 10

    # the first visit installed the service worker, which keeps every file of the site
    files = json.loads(
        re.search(r"const FILES = (\[.*?\]);", (built_site / "sw.js").read_text(encoding="utf-8"), re.S).group(1)
    )
    # (Chromium draws with skwasm: the other renderers' files are not fetched, issue 48)
    others = {f for r, fs in RENDERERS.items() if r != "skwasm" for f in fs} - set(RENDERERS["skwasm"])
    assert _service_worker_ready(page) == len([f for f in files if f not in others])
    # the first visit said what it fetched, how long it would take, and when it was kept (issue 48)
    page.wait_for_function(
        "() => (globalThis.scorekeeperProgress || []).some((t) => t.startsWith('Ready offline'))",
        polling=200,
        timeout=START * 1000,
    )
    lines = page.evaluate("() => globalThis.scorekeeperProgress")
    fetching = re.compile(
        r"Fetching Scorekeeper for this phone: \d+\.\d of (\d+\.\d) MB(, about \d+ s left|, nearly done)?"
    )
    sizes = {m.group(1) for t in lines if (m := fetching.fullmatch(t))}
    assert sizes and len(lines) >= 3, lines  # the start's line, the files kept, then ready
    # after the first screen the site keeps Python's started state (imports done) for the next start
    assert page.evaluate(
        """async () => { const end = performance.now() + 120000;
            while (performance.now() < end) {
              const keys = await (await caches.open("scorekeeper-python-snapshot")).keys();
              if (keys.length === 1) { return true; }
              await new Promise((r) => setTimeout(r, 250));
            }
            return false; }"""
    ), "Python's state was not kept after the first visit"
    # nothing is fetched from anywhere else (Flutter's client asks a CDN for an animation
    # runtime): the site's policy refuses it in the page, even on a web host that sets none
    refused = {urlsplit(u).netloc for u in page.evaluate("() => window.__refused")}
    assert {urlsplit(u).netloc for u in elsewhere} <= refused, (elsewhere, refused)
    # no network, no server: the page starts from the service worker's copy, Python from the
    # state kept, the match from IndexedDB
    context.set_offline(True)
    site.stop()
    open_site(page, site.url, re.compile(r"^Hand 2, Ann to play"))
    assert _scores(page) == shown
    stages = [name for name, _ in page.evaluate("() => globalThis.scorekeeperStart.worker")]
    assert "python restored" in stages and "python started" not in stages, stages
    # the service worker's page is cross-origin isolated: Flutter draws on a thread of its own
    assert page.evaluate("() => window.crossOriginIsolated") is True
    harness.tap(page, "Home")
    wait_text(page, "Resume match")  # Home offers the unfinished match in one tap

    # the record saved as a file on the phone ...
    harness.tap(page, "History")
    wait_text(page, "Import a record")
    assert "Send to the table" not in read_texts(page)  # no table here: nothing of one (issue 48)
    harness.tap(page, "Open")
    wait_text(page, "Match")
    with page.expect_download() as download:
        harness.tap(page, "Save the record as a file")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["hands"][0]["turns"] == entries and record["hands"][0]["remaining"] == {"Ben": 8}

    # ... imported into a laptop's store: the laptop scores it as the phone did
    db = tmp_path / "laptop-db"
    ran = run_cli("--db", db, "import", saved)
    assert ran.returncode == 0, ran.stderr
    with Store(db) as store:
        (mid,) = store.ids()
        exported = tmp_path / "from-laptop.json"
        exported.write_text(store.export(mid), encoding="utf-8")
    scored = run_cli("score", exported)
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["scores"] == shown

    # the same file imported back on the phone (its file picker): already stored, it asks
    harness.tap(page, "Back")
    wait_text(page, "Import a record")
    with page.expect_file_chooser() as chooser:
        harness.tap(page, "Import a file")
    chooser.value.set_files(str(saved))
    wait_text(page, re.compile(r"^This match is already stored "))
    harness.tap(page, "Cancel")
    wait_text(page, "nothing imported: the match was already stored")
    assert all("rive" in u for u in harness.external_requests(context)), harness.external_requests(context)

    # a new version of the site at the same address: the next start takes it, the match is kept
    new = tmp_path / "site-v2"
    shutil.copytree(built_site, new)
    sw = (new / "sw.js").read_text(encoding="utf-8")
    version = re.search(r'const VERSION = "([^"]+)";', sw).group(1)
    (new / "sw.js").write_text(sw.replace(version, version + "-2"), encoding="utf-8")
    with (new / "site.js").open("a", encoding="utf-8") as f:
        f.write('globalThis.scorekeeperSite = "v2";\n')
    context.set_offline(False)
    site2 = StaticServer(new, port=urlsplit(site.url).port or 0)
    try:
        page.goto(site.url, timeout=START * 1000)  # a start on Home: it still runs the old version ...
        harness.enable_semantics(page, timeout=START)
        wait_text(page, "Resume match", timeout=START)
        # ... while the new one is installed beside it (the old one dropped once it is)
        assert _site_caches(page, until=[f"scorekeeper-site-{version}-2"]) == [f"scorekeeper-site-{version}-2"]
        assert page.evaluate("() => globalThis.scorekeeperSite") is None
        open_site(page, site.url, "Resume match")  # ... and the next start runs it, the match still there
        assert page.evaluate("() => globalThis.scorekeeperSite") == "v2"
        harness.tap(page, "Resume match")
        wait_text(page, re.compile(r"^Hand 2, Ann to play"))
        assert _scores(page) == shown
    finally:
        site2.stop()


class KillableChromium:
    """Debian's Chromium as a process of our own (so it can be SIGKILLed, as a phone kills a
    browser), on a profile folder that outlives it, driven over the DevTools protocol."""

    def __init__(self, playwright, profile: Path) -> None:
        self.proc = subprocess.Popen(
            [
                harness.CHROMIUM,
                "--headless=new",
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                *harness.CHROMIUM_ARGS,
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            text=True,
        )
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            found = re.search(r"DevTools listening on (ws://\S+)", line)
            if found:
                break
        else:
            raise RuntimeError("Chromium did not start its DevTools endpoint")
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()  # drained, never blocking it
        self.browser = playwright.chromium.connect_over_cdp(found.group(1))
        self.context = self.browser.contexts[0]
        self.context.set_default_timeout(harness.ACTION_TIMEOUT * 1000)

    def page(self, url: str, expect: str | re.Pattern[str]):
        """A tab brought to the front (Chromium draws no frame for a tab behind another)."""
        blank = [p for p in self.context.pages if p.url == "about:blank"]
        page = blank[0] if blank else self.context.new_page()
        page.bring_to_front()
        page.set_viewport_size(harness.PHONE_VIEWPORT)
        page.emulate_media(reduced_motion="reduce")
        page.goto(url, timeout=START * 1000)
        harness.enable_semantics(page, timeout=START)
        wait_text(page, expect, timeout=START)
        return page

    def kill(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)


def test_a_tap_is_kept_when_the_browser_is_killed_right_after_it_shows(site, browser):
    """The screen shows a change only once IndexedDB holds it (the page makes the copy and holds
    the screen meanwhile), also after a copy IndexedDB refused; a second tab leaves the store."""
    playwright = browser.playwright
    with tempfile.TemporaryDirectory(prefix="phone-profile-") as profile:
        chromium = KillableChromium(playwright, Path(profile))
        try:
            page = chromium.page(site.url, "New match")
            new_match(page, ["Ann", "Ben"], leader="Ann", rules={"hand_size": 3})
            harness.tap(page, "tile 6-6")
            wait_text(page, "Count 12")
            # IndexedDB refuses the next copy (the page makes them): a line says so, the tap is
            # on the screen all the same, and the next change copies everything again
            page.evaluate(
                """() => { const put = IDBObjectStore.prototype.put;
                    IDBObjectStore.prototype.put = function () {
                      IDBObjectStore.prototype.put = put;
                      throw new DOMException("the quota is used up", "QuotaExceededError"); }; }"""
            )
            harness.tap(page, "tile 6-5")
            wait_text(page, re.compile(r"^This phone's storage refused the last change \(the quota is used up\)"))
            wait_text(page, "Count 17")
            harness.tap(page, "tile 5-5")
            wait_text(page, re.compile(r"^Note: Ann set 5-5"))
            deadline = time.monotonic() + harness.ACTION_TIMEOUT  # the line goes once the worker hears
            while any(t.startswith("This phone's storage refused") for t in read_texts(page)):
                assert time.monotonic() < deadline, "the line stayed after a copy got in"
                time.sleep(0.1)
            assert page.evaluate("() => scorekeeperCopies.refused") == 1
        finally:
            chromium.kill()  # the moment the screen showed it
        chromium = KillableChromium(playwright, Path(profile))
        try:
            page = chromium.page(site.url, "Resume match")
            harness.tap(page, "Resume match")
            wait_text(page, "Hand 1, Ben to play")
            wait_text(page, "Count 22")  # 6-6, 6-5 (refused, then copied with the next) and 5-5
            # a second tab of the same browser leaves the store to the first, and says so
            second = chromium.page(site.url, ANOTHER_TAB)
            assert "New match" not in read_texts(second)
        finally:
            chromium.kill()
