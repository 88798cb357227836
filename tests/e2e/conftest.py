"""Fixtures for the browser tests: a real ``scorekeeper web`` server on a free
port with its own database, and Debian's Chromium driven by Playwright.

These tests never skip in CI: ``.ci/run`` installs chromium. On a developer
machine without /usr/bin/chromium they fail with a message saying so.
"""

from __future__ import annotations

import os
import re

import pytest

from e2e import harness, profiles
from e2e.app_driver import ready_matches, web_command


def _need_chromium():
    # never skipped: a missing browser is a failure (CI installs it in .ci/run)
    if not os.path.exists(harness.CHROMIUM):
        pytest.fail(f"{harness.CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)")


class Server:
    """A running ``scorekeeper web`` with its database directory."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.port = profiles.stable_port()  # the same few ports again: see e2e/profiles.py
        self.proc = None
        self.env: dict[str, str] | None = None  # added to the server's environment

    @property
    def cmd(self) -> list[str]:
        return web_command(self.db, self.port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> Server:
        profiles.reserve_port(self.port)
        self.proc = harness.start_server(
            self.cmd, self.port, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))), env=self.env
        )
        return self

    def stop(self) -> None:
        if self.proc is not None:
            harness.stop_server(self.proc)
            self.proc = None
        profiles.release_port(self.port)

    def kill(self) -> None:
        """SIGKILL: the process dies mid-whatever, as a phone killing the app would."""
        import signal

        if hasattr(os, "killpg"):
            os.killpg(self.proc.pid, signal.SIGKILL)
        else:  # Windows: TerminateProcess, as abrupt
            self.proc.kill()
        self.proc.wait(10)
        self.proc = None
        profiles.release_port(self.port)


class LanServer(Server):
    """``scorekeeper web --host 0.0.0.0``: reachable from a network namespace (a phone that is
    not the host); its codes read from what it prints."""

    @property
    def cmd(self) -> list[str]:
        cmd = web_command(self.db, self.port)
        cmd[cmd.index("--host") + 1] = "0.0.0.0"
        return cmd

    def code(self, kind: str) -> str:
        """The code it printed: ``table`` or ``watch``."""
        found = re.search(rf"\({kind} code (\d{{3}}) (\d{{3}})", harness.server_log(self.proc))
        assert found, harness.server_log(self.proc)
        return found.group(1) + found.group(2)

    def secret(self, kind: str) -> str:
        """The secret of the join link it printed (the QR code's): ``table`` or ``watch``."""
        who = {"table": "Phones", "watch": "Watchers"}[kind]
        found = re.search(rf"{who} join at http://\S+/join/([A-Za-z0-9_-]+)\s", harness.server_log(self.proc))
        assert found, harness.server_log(self.proc)
        return found.group(1)


@pytest.fixture(scope="session")
def browser():
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b, ctx = harness.launch_browser(p)
        ctx.close()
        b.playwright = p
        # the loopback pages' contexts: profiles kept across the tests (e2e/profiles.py)
        b.profiles = profiles.Profiles(p, harness.CHROMIUM, harness.CHROMIUM_ARGS, harness.ACTION_TIMEOUT * 1000)
        yield b
        b.profiles.close()
        b.close()


@pytest.fixture(autouse=True)
def _pages_closed_after_the_test(request):
    """Close every browser context a test opened. A page left open after its server stopped
    tries to reconnect with a spinner turning at 60 frames a second (301 frames in 5 s), and
    would spend the machine's CPU for the rest of the run."""
    if "browser" not in request.fixturenames:
        yield
        return
    b = request.getfixturevalue("browser")
    before = list(b.contexts) + list(b.profiles.lent)
    yield
    for ctx in list(b.contexts) + list(b.profiles.lent):
        if ctx not in before:
            ctx.close()


@pytest.fixture
def server(tmp_path):
    s = Server(str(tmp_path / "db")).start()
    yield s
    s.stop()


@pytest.fixture
def context(browser):
    ctx = harness.new_context(browser)
    yield ctx
    ctx.close()


@pytest.fixture
def app(server, context):
    page = harness.open_app(context, server.url)
    yield page


@pytest.fixture(scope="module")
def module_server(request, tmp_path_factory):
    """One server for a whole test module, its database holding the module's ``MATCHES``
    (name -> :func:`~e2e.app_driver.new_match`'s arguments) made before it starts:
    ``module_server.mids[name]``. Each test plays its own match, so they share the server."""
    yield from serving(tmp_path_factory, lambda db: ready_matches(db, getattr(request.module, "MATCHES", {})))


@pytest.fixture(scope="module")
def host(browser, module_server):
    """The host's page (loopback, the phone's size) on :func:`module_server`, loaded once for
    the module: each test goes to its own match with :func:`~e2e.harness.go_to`."""
    ctx = harness.new_context(browser)
    page = harness.open_app(ctx, module_server.url)
    yield page
    ctx.close()


def serving(tmp_path_factory, make):
    """A module's own :func:`module_server` (override it in the module with this), for
    matches ``ready_matches`` does not make (another game's, stored records): a server on
    a new database that ``make(db)`` fills first (it returns name -> match id, kept as
    ``.mids``)::

        @pytest.fixture(scope="module")
        def module_server(tmp_path_factory):
            yield from serving(tmp_path_factory, lambda db: ready_broadway(db, MATCHES))
    """
    db = str(tmp_path_factory.mktemp("module") / "db")
    s = Server(db)
    s.mids = make(db)  # type: ignore[attr-defined]
    s.start()
    try:
        yield s
    finally:
        s.stop()
