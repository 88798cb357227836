"""Fives and Threes in a real browser (issue 18): the pub game kept on the app by taps.

* a pub match played to exactly 61: the last hand is tapped in, with a bust on the way
  (points that would pass 61 score nothing, and the strip says "Bust!"), the go and the
  cribbage board as the score display;
* a partnership hand where one partner goes out first: shown out, passed over, and the
  hand goes on until the other is out; the go goes to the side; the lead passes left.

The expected notes are written here from the engine's turns, not from the view-models.
The tests share one server and one host page (see conftest's ``module_server`` and
``host``): the pub match's first three hands are stored before it starts, the sniff table
is made by the New match form's view-model, and the partnership match on the form by taps.
"""

from __future__ import annotations

import re

import pytest

from e2e import harness
from e2e.app_driver import new_match, read_record, ready_matches, ready_records
from e2e.conftest import serving
from e2e.fives_threes import LAST_HAND, PUB, pub_record, set_tile
from e2e.harness import go_to, read_texts, wait_text
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.events import StartHand
from scorekeeper.allfives.record import load, score_record

pytestmark = pytest.mark.browser

click = harness.tap


def pegboard_label(page) -> str:
    (label,) = [t for t in read_texts(page) if t.startswith("Pegboard to 61")]
    return label


#: Made before the module's server starts: the sniff table by the New match form's view-model.
MATCHES = {"sniff": {"names": ["Ann", "Ben"], "leader": "Ann", "preset": "Sniff"}}


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    """The module's server; its database holds two copies of the pub match of three hands
    (Ann 50, Ben 46), one for each test that plays its last hand, and the sniff table."""
    record = pub_record()
    assert load(record).scores == [50, 46]
    yield from serving(
        tmp_path_factory,
        lambda db: {**ready_records(db, {"pub": record, "pub flash": record}), **ready_matches(db, MATCHES)},
    )


def resume_pub(page, mid: str) -> None:
    go_to(page, f"/table/{mid}", "Hand 3 is over")


def test_a_pub_match_to_exactly_61_with_a_bust(module_server, host):
    page, record, mid = host, pub_record(), module_server.mids["pub"]
    resume_pub(page, mid)
    assert pegboard_label(page) == "Pegboard to 61 exactly: Ann 50 (back peg 46), Ben 46 (back peg 44)"
    click(page, "Ben leads hand 4")  # the lead passes to the left: nothing else is offered
    wait_text(page, re.compile(r"^Hand 4, Ben to play"))
    m = load(record)
    m.push(StartHand(None))
    turns = [set_tile(page, m, tile, on) for tile, on in LAST_HAND]
    bust = turns[3]
    assert bust.voided and bust.points == 0
    # the bust was shown as such, then the exact 61 wins
    assert m.winner == 0 and m.scores == [61, 52]
    wait_text(page, "Winner Ann")
    assert pegboard_label(page) == "Pegboard to 61 exactly: Ann 61 (back peg 58), Ben 52 (back peg 50)"
    stored = read_record(module_server.db, mid)
    assert score_record(stored)["scores"] == {"Ann": 61, "Ben": 52}
    assert stored["hands"][3]["turns"][3] == {"play": "6-2", "on": "3-2"}


def test_the_bust_flash(module_server, host):
    """The bust is the big word on the strip, where a point total would be."""
    page, record = host, pub_record()
    resume_pub(page, module_server.mids["pub flash"])
    click(page, "Ben leads hand 4")
    m = load(record)
    m.push(StartHand(None))
    for tile, on in LAST_HAND[:4]:
        set_tile(page, m, tile, on)
    wait_text(page, "Scored Bust!")


def test_a_partnership_hand_where_one_partner_goes_out_first(host):
    page = host
    names = ["Ann", "Ben", "Cy", "Di"]
    go_to(page, "/", "New match")
    new_match(page, names, leader="Ann", partners=True, preset="Fives and Threes (pub)", rules={"hand_size": 2})
    teams = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
    m = Match(Setup.new(names, teams=teams, rules=PUB | {"hand_size": 2}))
    m.push(StartHand("Ann"))
    for tile, on in (("6-6", None), ("6-5", "6-6"), ("6-4", "6-6"), ("5-5", "6-5"), ("4-4", "6-4")):
        set_tile(page, m, tile, on)
    wait_text(page, "Ann is out")  # the players' row
    wait_text(page, "Ben holds 1 tile, to play")
    for who in ("Ben", "Cy"):
        click(page, "Knock")
        m.pass_()
        wait_text(page, f"Note: {who} knocked")
    set_tile(page, m, "5-3", "5-5")  # Di is out; Ben still holds a tile
    wait_text(page, "Ben holds 1 tile, to play")  # Ann is passed over
    last = set_tile(page, m, "4-1", "4-4")
    assert last.go == 1 and m.hand.end == "domino"
    wait_text(page, "Ben leads hand 2")  # left of Ann, who led hand 1
    label = pegboard_label(page)
    assert label.startswith(f"Pegboard to 61 exactly: Ann & Cy {m.scores[0]} ") and f"Ben & Di {m.scores[1]} " in label
    texts = read_texts(page)
    assert not [t for t in texts if t.endswith(" leads") or t == "Draw lots"], texts  # nothing to choose


def test_a_sniff_table_sets_its_sniff_in_line(module_server, host):
    page, mid = host, module_server.mids["sniff"]
    go_to(page, f"/table/{mid}", re.compile(r"^Hand 1, Ann to play"))
    click(page, "tile 4-1")
    wait_text(page, "Note: Ann set 4-1: count 5, Ann +5")
    click(page, "tile 4-4")
    wait_text(page, "4-4 on 4-1 is the sniff: set it across or in line?")
    texts = read_texts(page)
    assert {"Across: count 9", "In line: count 5, +5"} <= set(texts), texts
    click(page, "In line: count 5, +5")
    wait_text(page, "Note: Ben set 4-4: count 5, Ben +5")
    wait_text(page, "Count 5")
    # on the in-line end first, then (both ends covered) a flank: 1 + 5 + 0 = 6
    click(page, "tile 5-4")
    wait_text(page, "Note: Ann set 5-4: count 6")
    click(page, "tile 4-0")
    wait_text(page, "Note: Ben set 4-0: count 6")
    stored = read_record(module_server.db, mid)
    assert stored["hands"][0]["turns"][1] == {"play": "4-4", "on": "4-1", "sniff": "inline"}
    assert [t["count"] for t in score_record(stored)["hands"][0]["turns"]] == [5, 5, 6, 6]
