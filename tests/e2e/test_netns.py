"""Self-test of ``e2e.netns``: a Chromium in a network namespace reaches a server
on the host from a non-loopback address, cannot reach the host's loopback, and
leaves nothing behind.  Needs root and ``ip`` (it fails, never skips, without)."""

from __future__ import annotations

import html
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Error as PlaywrightError

from e2e import harness, netns

pytestmark = pytest.mark.browser


class _RecordingServer(ThreadingHTTPServer):
    """Answers every GET with a small page naming the client; records client addresses
    (``clients``) and the paths asked for (``paths``)."""

    daemon_threads = True

    def __init__(self, host: str) -> None:
        self.clients: list[str] = []
        self.paths: list[str] = []
        super().__init__((host, 0), _Handler)
        self.port = self.server_address[1]
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    def __enter__(self) -> _RecordingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join(5)


class _Handler(BaseHTTPRequestHandler):
    server: _RecordingServer

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        client = self.client_address[0]
        self.server.clients.append(client)
        self.server.paths.append(self.path)
        body = f"<!doctype html><title>netns ok</title><p id=who>{html.escape(client)}</p>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


def _gone(ns: netns.NetNS) -> None:
    assert ns.name not in netns.namespaces()
    assert ns.host_if not in netns.links()
    assert ns.client_if not in netns.links()
    res = subprocess.run(["ip", "link", "show", "dev", ns.host_if], capture_output=True, text=True)
    assert res.returncode != 0, res.stdout


@pytest.fixture(scope="module")
def remote(browser) -> Iterator[tuple[netns.NetNS, object]]:
    """A namespace with Chromium running in it (for the whole module)."""
    with netns.remote_browser(browser.playwright) as (ns, remote_browser):
        yield ns, remote_browser
    _gone(ns)


def test_server_sees_the_namespace_address(remote) -> None:
    ns, remote_browser = remote
    assert ns.client_ip != ns.host_ip
    assert not ns.client_ip.startswith("127.")
    with _RecordingServer(ns.host_ip) as srv:
        context = harness.new_context(remote_browser)
        try:
            page = context.new_page()
            page.goto(ns.url(srv.port), timeout=harness.APP_LOAD_TIMEOUT * 1000)
            assert page.title() == "netns ok"
            assert page.locator("#who").inner_text() == ns.client_ip
            assert netns.external_requests(context, ns) == []
        finally:
            context.close()
    assert srv.clients and set(srv.clients) == {ns.client_ip}


def test_host_loopback_is_unreachable_from_the_namespace(remote, browser) -> None:
    ns, remote_browser = remote
    with _RecordingServer("127.0.0.1") as srv:
        url = f"http://127.0.0.1:{srv.port}/"
        # control: the host's own browser gets the page (from loopback)
        host_context = harness.new_context(browser)
        try:
            page = host_context.new_page()
            page.goto(url)
            assert page.locator("#who").inner_text() == "127.0.0.1"
        finally:
            host_context.close()
        assert srv.clients and set(srv.clients) == {"127.0.0.1"}  # the page and /favicon.ico
        # the namespace has a loopback of its own, where nothing listens (its address is marked:
        # the host page's /favicon.ico may still come in late, from the host's loopback)
        context = harness.new_context(remote_browser)
        try:
            page = context.new_page()
            with pytest.raises(PlaywrightError, match="ERR_CONNECTION_REFUSED"):
                page.goto(url + "?from=namespace", timeout=10_000)
        finally:
            context.close()
        assert not [p for p in srv.paths if "from=namespace" in p], srv.paths


def test_the_namespace_has_no_way_out(remote) -> None:
    ns, _ = remote
    routes = ns.run("ip", "-4", "route", "show", "table", "all", check=True).stdout
    assert "default" not in routes
    assert f"{ns.subnet} dev {ns.client_if}" in routes
    assert ns.run("ip", "-6", "route", "show", "default", check=True).stdout.strip() == ""
    names = sorted(
        line.split()[0].split("@")[0] for line in ns.run("ip", "-br", "link", check=True).stdout.splitlines()
    )
    assert names == sorted(["lo", ns.client_if])


def test_leaving_the_context_deletes_everything() -> None:
    with netns.remote_namespace() as ns:
        assert ns.name in netns.namespaces()
        assert ns.host_if in netns.links()
        assert ns.host_ip and ns.client_ip
        # something still running inside is ended (ns.close kills what is in the namespace)
        proc = subprocess.Popen(ns.exec_args("sleep", "60"))
        # (once it is in: `ip netns exec` enters the namespace a moment after it starts)
        for _ in range(200):
            pids = subprocess.run(["ip", "netns", "pids", ns.name], capture_output=True, text=True).stdout.split()
            if str(proc.pid) in pids:
                break
            time.sleep(0.05)
    try:
        assert proc.wait(10) != 0
    finally:
        if proc.poll() is None:
            proc.kill()
    _gone(ns)


def test_deleted_on_error_too() -> None:
    with pytest.raises(ZeroDivisionError), netns.remote_namespace() as ns:
        assert ns.name in netns.namespaces()
        1 / 0  # noqa: B018
    _gone(ns)


def test_two_namespaces_get_different_subnets() -> None:
    with netns.remote_namespace() as a, netns.remote_namespace() as b:
        assert a.name != b.name
        assert a.subnet is not None and b.subnet is not None
        assert not a.subnet.overlaps(b.subnet)
    _gone(a)
    _gone(b)


def test_leftovers_of_dead_processes_are_cleaned_up() -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    name, veth = f"sk-{dead.pid}-7", f"sk{dead.pid}h7"
    subprocess.run(["ip", "netns", "add", name], check=True)
    subprocess.run(["ip", "link", "add", veth, "type", "veth", "peer", "name", f"sk{dead.pid}c7"], check=True)
    try:
        removed = netns.cleanup_stale()
        assert name in removed and veth in removed and f"sk{dead.pid}c7" in removed
        assert name not in netns.namespaces()
        assert veth not in netns.links()
    finally:
        subprocess.run(["ip", "link", "del", veth], capture_output=True)
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def test_missing_root_or_ip_is_an_error_not_a_skip(monkeypatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(RuntimeError, match="root"):
        netns.require_netns()
    monkeypatch.setattr(netns.shutil, "which", lambda _: None)
    monkeypatch.setattr(netns, "_IP_FALLBACKS", ())
    with pytest.raises(RuntimeError, match="iproute2"):
        netns.require_netns()
