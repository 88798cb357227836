"""A phone that joined comes back (issue 27): its browser keeps a pass, so a closed tab,
a new tab or a restart of the server the same evening returns it to its table and seat
with no code; new codes on the host shut it out again.

The phone is a Chromium in a network namespace of the test's own (not the host). The test
restarts its server and makes new codes, so it has a server of its own; its match is made
before the server starts, by the New match form's own view-model (the form itself is driven by
taps in test_app_browser.py), and the host's page opens at its table.
"""

from __future__ import annotations

import re

import pytest

from e2e import harness
from e2e.app_driver import ready_matches
from e2e.conftest import LanServer
from e2e.test_table_browser import NAMES, remote, remote_page  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser

tap, wait_text, read_texts = harness.tap, harness.wait_text, harness.read_texts


@pytest.fixture
def shared_server(tmp_path):
    """The test's server (every interface, every proxy trusted), a match of Ann and Ben made
    before it starts (``.mid``)."""
    s = LanServer(str(tmp_path / "db"))
    s.env = {"FORWARDED_ALLOW_IPS": "*"}
    s.mid = ready_matches(s.db, {"tonight": {"names": list(NAMES), "leader": "Ann"}})["tonight"]  # type: ignore[attr-defined]
    s.start()
    yield s
    s.stop()


def test_a_closed_tab_returns_to_its_seat_without_a_code_until_the_host_makes_new_codes(
    browser,
    shared_server,
    remote,  # noqa: F811
):
    mid = shared_server.mid
    host = harness.open_app(harness.new_context(browser), f"{shared_server.url}table/{mid}")
    wait_text(host, re.compile(r"^Hand 1, Ann to play"))
    code = shared_server.code("table")
    phone = remote_page(remote, shared_server, f"/join/{code}")
    wait_text(phone, "Resume match")
    tap(phone, "Resume match")
    wait_text(phone, re.compile(r"^Hand 1, Ann to play"))
    tap(phone, "I'm Ben")
    wait_text(phone, re.compile(r"^Ben holds \d+ tiles, this phone$"))
    context = phone.context

    # the tab closed: the same address in a new tab of the same browser is back at the seat
    phone.close()
    ns, _ = remote
    again = harness.open_app(context, ns.url(shared_server.port, "/"))
    wait_text(again, re.compile(r"^Ben holds \d+ tiles, this phone$"))
    assert "Join the table" not in read_texts(again)
    tap(host, "tile 5-5")
    wait_text(again, re.compile(r"^Hand 1, Ben to play"))
    again.close()

    # the server restarted the same evening: the same code, and the pass still good
    host.close()  # (a page left open would spin while the server is away)
    shared_server.stop()
    shared_server.start()
    assert shared_server.code("table") == code
    back = harness.open_app(context, ns.url(shared_server.port, f"/table/{mid}"))
    wait_text(back, re.compile(r"^Ben holds \d+ tiles, to play, this phone$"))
    wait_text(back, re.compile(r"^Hand 1, Ben to play"))

    # another browser (no pass) still sees only the join screen
    stranger = remote_page(remote, shared_server, f"/table/{mid}")
    wait_text(stranger, "Join the table")
    stranger.context.close()

    # the host makes new codes: the open phone is shut out at once, and stays out
    host = harness.open_app(host.context, shared_server.url + "invite")
    tap(host, "New codes")
    wait_text(host, re.compile(r"^New codes: every phone that joined must join again"))
    tap(host, "New codes")
    wait_text(back, "Join the table")
    # the phone may be told before the host's screen is redrawn: wait for the host's new code
    wait_text(host, re.compile(rf"Players code (?!{code})\d{{6}}"))
    new_code = re.search(r"Players code (\d{6})", " ".join(read_texts(host)))
    assert new_code and new_code.group(1) != code
    back.close()
    later = harness.open_app(context, ns.url(shared_server.port, "/"))
    wait_text(later, "Join the table")
    later.close()
    joined = harness.open_app(context, ns.url(shared_server.port, f"/join/{new_code.group(1)}"))
    wait_text(joined, "Resume match")
