"""A match carried on from paper, in a real browser (issue 47): New match with "Scores so
far" switched on, a hand entered as points with the +5 steps and a typed field, an
adjustment with its reason on the table, and another from the Score screen, which lists
them in their place. The scores expected are the engine's for the same entries."""

from __future__ import annotations

import pytest

from e2e import harness
from e2e.harness import wait_text
from scorekeeper.allfives.engine import Match, Setup

pytestmark = pytest.mark.browser

tap = harness.tap


def test_a_match_carried_on_from_paper_with_a_hand_as_points_and_adjustments(app):
    page = app
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
