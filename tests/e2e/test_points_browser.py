"""A match carried on from paper, in a real browser (issue 47), in every game: New match
with "Scores so far" switched on, a hand entered as points with the game's steps (+5, the
All Fours point names, +10) and a typed field, an adjustment with its reason on the table,
and (All Fives) another from the Score screen, which lists them in their place. The scores
expected are the engine's for the same entries.

The three share one server and one host page (conftest's ``module_server`` and ``host``: a
server start and a page load each cost seconds of CPU); each starts from Home with
:func:`home`, and makes its own match there by the form, as a player does."""

from __future__ import annotations

import pytest

from e2e import harness
from e2e.harness import wait_text
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfours.engine import Match as FoursMatch
from scorekeeper.allfours.engine import Setup as FoursSetup
from scorekeeper.broadway.engine import Match as BroadwayMatch
from scorekeeper.broadway.engine import Setup as BroadwaySetup

pytestmark = pytest.mark.browser

tap = harness.tap


def home(host):
    """The host page on Home (the app's route ``/``), with no page load."""
    harness.go_to(host, "/", "New match")
    return host


def test_a_match_carried_on_from_paper_with_a_hand_as_points_and_adjustments(host):
    page = home(host)
    m = Match(Setup.new(["Ann", "Ben"], start={"Ann": 100, "Ben": 50}))
    tap(page, "New match")
    wait_text(page, "Start match")
    harness.enter(page, "Player 1", "Ann")
    harness.enter(page, "Player 2", "Ben")
    switch = page.get_by_role("switch", name="Scores so far (a match carried on from paper)")
    harness.settle(page, switch)
    switch.click()
    harness.enter(page, "Ann so far", "100")
    harness.enter(page, "Ben so far", "50")
    tap(page, "First leader: Ann")
    tap(page, "Start match")
    wait_text(page, "Score Ann 100")
    wait_text(page, "Score Ben 50")

    # the hand only started (Ann to lead): entered as points at once, no question
    tap(page, "Enter this hand as points")
    wait_text(page, "Hand 1 as points")
    tap(page, "Ann +5")
    tap(page, "Ann +10")
    harness.enter(page, "Ben", "5")
    tap(page, "Save")
    m.points_hand({"Ann": 15, "Ben": 5})
    wait_text(page, f"Score Ann {m.scores[0]}")
    wait_text(page, f"Score Ben {m.scores[1]}")
    wait_text(page, "Hand 2: who leads?")
    wait_text(page, "Hand 1 was entered as points: no tiles to show.")

    # between hands: an adjustment with its reason
    tap(page, "Adjust score")
    harness.enter(page, "Ben", "-10")
    tap(page, "Save")  # no reason yet: refused in one line, nothing stored
    wait_text(page, "adjustment after hand 1: say why, in a few words (a misdeal, a penalty agreed ...)")
    harness.enter(page, "Why (a misdeal, a penalty agreed ...)", "misdeal")
    tap(page, "Save")
    m.adjust({"Ben": -10}, "misdeal")
    wait_text(page, f"Score Ben {m.scores[1]}")

    # the Score screen lists both in their place, and adjusts too
    tap(page, "Score")
    wait_text(page, "Hand 1 · entered as points")
    wait_text(page, "Adjustment: Ben -10 (misdeal)")
    tap(page, "Adjust score")
    harness.enter(page, "Ann", "5")
    harness.enter(page, "Why (a misdeal, a penalty agreed ...)", "late count")
    tap(page, "Save")
    m.adjust({"Ann": 5}, "late count")
    wait_text(page, f"Total Ann {m.scores[0]}")
    wait_text(page, "Adjustment: Ann +5 (late count)")


def test_all_fours_a_hand_as_points_by_the_point_names_and_an_adjustment(host):
    page = home(host)
    m = FoursMatch(FoursSetup.new(["Ann", "Ben"], rules={"variant": "trinidad"}, start={"Ann": 0, "Ben": 6}))
    tap(page, "New match")
    wait_text(page, "Start match")
    tap(page, "Game: All Fours")
    wait_text(page, "Variant")
    harness.enter(page, "Player 1", "Ann")
    harness.enter(page, "Player 2", "Ben")
    switch = page.get_by_role("switch", name="Scores so far (a match carried on from paper)")
    harness.settle(page, switch)
    switch.click()
    harness.enter(page, "Ben so far", "6")
    tap(page, "First dealer: Ann")
    tap(page, "Start match")
    wait_text(page, "Score Ben 6")
    tap(page, "Hand 1 as points")  # dealt, nothing entered: no question
    wait_text(page, "Hand 1 as points")
    tap(page, "Ann High")
    tap(page, "Ann Hang Jack")
    tap(page, "Ben Game")
    tap(page, "Save")
    m.points_hand({"Ann": 4, "Ben": 1})
    wait_text(page, f"Score Ann {m.scores[0]}")
    wait_text(page, f"Score Ben {m.scores[1]}")
    wait_text(page, "Hand 2: who deals?")
    tap(page, "Adjust score")
    harness.enter(page, "Ann", "-1")
    harness.enter(page, "Why (a misdeal, a penalty agreed ...)", "revoke")
    tap(page, "Save")
    m.adjust({"Ann": -1}, "revoke")
    wait_text(page, f"Score Ann {m.scores[0]}")
    wait_text(page, "Adjustment: Ann -1 (revoke) -> 3 - 7")
    # points taken off cannot be pegged: the board gives way to a line, the screen stays whole
    wait_text(page, "Points were taken off: no pegboard (the scores above; Score says why).")


def test_broadway_scores_so_far_and_a_hand_as_points(host):
    page = home(host)
    m = BroadwayMatch(BroadwaySetup.new(["Ann", "Ben", "Cy", "Di"], start={"North-South": 120, "East-West": 0}))
    tap(page, "New match")
    tap(page, "Game: Broadway")
    wait_text(page, "Who holds 6-6?")
    for seat, name in zip(("North", "East", "South", "West"), ("Ann", "Ben", "Cy", "Di"), strict=True):
        harness.enter(page, seat, name)
    switch = page.get_by_role("switch", name="Scores so far (a match carried on from paper)")
    harness.settle(page, switch)
    switch.click()
    harness.enter(page, "North-South so far", "120")
    tap(page, "Start match")
    wait_text(page, "Score North-South 120")
    tap(page, "Hand 1 as points")
    tap(page, "North-South +10")
    tap(page, "East-West +10")
    tap(page, "East-West +10")
    tap(page, "North-South \u22121")
    tap(page, "Save")
    m.points_hand({"North-South": 9, "East-West": 20})
    wait_text(page, f"Score North-South {m.scores[0]}")
    wait_text(page, f"Score East-West {m.scores[1]}")
