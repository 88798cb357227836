"""The score screen's paper-style displays in a real browser: the X tally of
the side that scores grows (and only that side's), the pegboard's pegs
leapfrog in a scale-5 match, the chart follows, and an each-subtracts match
shows the note instead of a tally and a board.

The expected labels come from the tally and pegboard models fed with the
points the engine gives the same plays, not from the screen's code.

The tests share one server and one host page, their matches made before it starts by the
New match form's own view-model (see conftest's ``module_server`` and ``host``; the form
itself is driven by taps in test_app_browser.py).
"""

from __future__ import annotations

import re

import pytest

from e2e import harness
from e2e.app_driver import play_note
from e2e.harness import go_to, read_texts, wait_text
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.events import StartHand
from scorekeeper.allfives.timeline import EACH_SUBTRACTS_NOTE
from scorekeeper.tally import pegs, tally

pytestmark = pytest.mark.browser

tap = harness.tap
#: The matches the tests play, made before the module's server starts.
MATCHES = {
    "scale 5": {"names": ["Ann", "Ben"], "leader": "Ann", "rules": {"scale": 5, "hand_size": 5}},
    "each subtracts": {"names": ["Ann", "Ben"], "leader": "Ann", "rules": {"hand_end": "each-subtracts", "scale": 5}},
}


def open_table(page, server, name: str) -> None:
    go_to(page, f"/table/{server.mids[name]}", re.compile(r"^Hand 1, Ann to play"))


def engine(names, rules):
    m = Match(Setup.new(names, rules=rules))
    m.push(StartHand(names[0]))
    return m


def scoring_play(m: Match) -> str:
    """A tile that fits exactly one place, one that scores first (the lowest such tile)."""
    single = [t for t in m.tiles if len(m.placements(t)) == 1]
    scoring = [t for t in single if m.preview(t, m.placements(t)[0])[1] > 0]
    return str((scoring or single)[0])


def open_score(page):
    tap(page, "Score")
    wait_text(page, "Score over the turns")


def back_to_table(page):
    tap(page, "Back to the table")
    harness.wait_idle(page, quiet=0.2)


def tally_label(side, points, scale):
    return f"Tally {side}: {tally(points, scale).describe()}"


def test_a_scoring_play_changes_that_sides_tally_and_pegs(module_server, host):
    page = host
    names = ["Ann", "Ben"]
    rules = {"scale": 5, "hand_size": 5}
    open_table(page, module_server, "scale 5")
    m = engine(names, rules)
    events = {"Ann": [], "Ben": []}

    open_score(page)
    for side in names:
        wait_text(page, tally_label(side, [], 5))
    wait_text(page, "Pegboard: Ann 0 (back peg 0), Ben 0 (back peg 0)")
    back_to_table(page)

    # plays until both sides have scored: each a tile that fits one place only (one tap),
    # one that scores if there is one
    while not (events["Ann"] and events["Ben"]) and len(m.hand.turns) < 8:
        tile = scoring_play(m)
        turn = m.play(tile)
        tap(page, f"tile {tile}")
        wait_text(page, play_note(m, turn))
        who = m.setup.players[turn.player]
        if turn.points:
            events[who].append(turn.points)
        open_score(page)
        for side in names:
            wait_text(page, tally_label(side, events[side], 5))
        front_back = ", ".join(f"{s} {pegs(events[s]).front} (back peg {pegs(events[s]).back})" for s in names)
        wait_text(page, f"Pegboard: {front_back}")
        n = len(m.hand.turns)
        wait_text(page, f"Score chart: Ann {m.scores[0]}, Ben {m.scores[1]} after {n} turn{'s' if n != 1 else ''}")
        back_to_table(page)
    # the plays above score for both sides, so each tally changed at least once
    assert events["Ann"] and events["Ben"], events


def test_each_subtracts_shows_a_note_instead_of_tally_and_board(module_server, host):
    page = host
    open_table(page, module_server, "each subtracts")
    tap(page, "tile 5-5")
    wait_text(page, "Score Ann 2")
    open_score(page)
    wait_text(page, EACH_SUBTRACTS_NOTE)
    wait_text(page, "Score chart: Ann 2, Ben 0 after 1 turn")  # the screen whole before it is read
    texts = read_texts(page)
    assert not [t for t in texts if t.startswith("Tally ") or t.startswith("Pegboard")], texts
    assert "Score chart: Ann 2, Ben 0 after 1 turn" in texts
