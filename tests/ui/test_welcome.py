"""What ``scorekeeper web`` says and does as it starts, on any laptop (issue 45, part 3): the join
address is the default route's, the machine's other addresses below it; on Windows a line about
its firewall; the browser opened on Windows and macOS; the signals that stop it."""

from __future__ import annotations

import signal

import pytest

from scorekeeper import system
from scorekeeper.ui.access.gate import Codes, Gate, Invite
from scorekeeper.ui.server import serve
from scorekeeper.ui.server.serve import FIREWALL, lan_addresses, opens_browser, reachable, stop_signals, welcome

CODES = Codes("482913", "170356", scorer_secret="S" * 22, watcher_secret="W" * 22)


def lines(text: str) -> list[str]:
    """The lines of a welcome without the QR code's."""
    return [line for line in text.splitlines() if line and not set(line) <= set(" █▀▄")]


def served(platform: str, monkeypatch: pytest.MonkeyPatch, host: str = "0.0.0.0", **kw: object) -> list[str]:
    monkeypatch.setattr(system, "PLATFORM", platform)
    gate = Gate(CODES)
    return lines(welcome(Invite("http://192.168.1.20:8550", gate), gate, host, 8550, **kw))  # type: ignore[arg-type]


def test_on_windows_the_join_address_comes_first_the_others_below_it_and_the_firewall_last(monkeypatch):
    got = served("win32", monkeypatch, others=["10.8.0.2", "172.17.0.1"])
    assert got[0] == "Scorekeeper is served at http://192.168.1.20:8550/  (Ctrl+C stops it)"
    join = next(i for i, line in enumerate(got) if line.startswith("Phones join at "))
    assert got[join].startswith(f"Phones join at http://192.168.1.20:8550/join/{'S' * 22}  (table code 482 913")
    assert got[join + 1] == (
        "This machine's other addresses, for a phone on another of its networks: "
        "http://10.8.0.2:8550/  http://172.17.0.1:8550/ (the table code is typed there)"
    )
    assert got[-1] == FIREWALL
    assert FIREWALL.startswith("Windows asks once whether Python may accept connections: allow it on private networks")


def test_on_linux_and_macos_there_is_no_firewall_line_and_one_address_lists_no_others(monkeypatch):
    for platform in ("linux", "darwin"):
        got = served(platform, monkeypatch)
        assert FIREWALL not in got and not any("other addresses" in line for line in got)
        assert got[-1].startswith("Watchers join at http://192.168.1.20:8550/join/")


def test_served_on_this_machine_only_windows_says_nothing_of_its_firewall(monkeypatch):
    got = served("win32", monkeypatch, host="127.0.0.1")
    assert FIREWALL not in got and "It listens on this machine only" in got[2]


def test_the_join_address_is_the_default_routes_and_the_others_are_those_a_phone_can_reach():
    found = ["127.0.1.1", "169.254.7.1", "10.8.0.2", "192.168.1.20", "0.0.0.0", "fe80::1", "10.8.0.2", "224.0.0.1"]
    assert lan_addresses("192.168.1.20", found) == ["192.168.1.20", "10.8.0.2"]
    assert lan_addresses(None, found) == ["10.8.0.2", "192.168.1.20"]  # no default route: the first one found
    assert lan_addresses(None, ["127.0.0.1"]) == []
    assert [a for a in ("192.168.1.20", "10.0.0.5", "172.16.4.4", "127.0.0.1", "169.254.1.1") if reachable(a)] == [
        "192.168.1.20",
        "10.0.0.5",
        "172.16.4.4",
    ]


def test_the_machine_addresses_are_looked_for_at_most_a_moment(monkeypatch):
    """A host name the resolver does not answer for: the welcome does not wait on it."""
    import threading

    answered = threading.Event()
    monkeypatch.setattr(serve, "ADDRESSES_WAIT", 0.01)
    monkeypatch.setattr(serve.socket, "getaddrinfo", lambda *a, **k: answered.wait(5) and [])
    try:
        assert serve._host_addresses() == []
    finally:
        answered.set()


def test_the_browser_opens_unasked_on_windows_and_macos_and_when_asked_where_there_is_a_screen(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    for platform, unasked in (("win32", True), ("darwin", True), ("linux", False)):
        monkeypatch.setattr(system, "PLATFORM", platform)
        assert opens_browser(None) is unasked, platform
        assert opens_browser(False) is False, platform
        assert opens_browser(True) is (platform != "linux"), platform  # Linux: no display here
    monkeypatch.setenv("DISPLAY", ":0")
    assert opens_browser(True) is True and opens_browser(None) is False


def test_web_takes_browser_and_no_browser(cli, monkeypatch):
    got: dict = {}
    monkeypatch.setattr(serve, "run", lambda db, **kw: got.update(kw) or 0)
    for args, asked in (((), None), (("--browser",), True), (("--no-browser",), False)):
        assert cli("web", *args).returncode == 0
        assert got["open_browser"] is asked


def test_ctrl_c_and_sigterm_stop_the_server_and_ctrl_break_where_there_is_one():
    got = stop_signals()
    assert got[:2] == [signal.SIGINT, signal.SIGTERM]
    assert (len(got) == 3) is hasattr(signal, "SIGBREAK")
