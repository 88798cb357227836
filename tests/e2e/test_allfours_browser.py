"""A Trinidad All Fours match kept in a real browser, hand by hand, to 14.

Four players in partnerships (Ann & Cy against Ben & Di).  Every fact is
entered by tapping, as at the table; after each tap the scores on the screen
must equal what the engine gives the same facts (fed here independently of
the app), the dealer moves counter-clockwise (Trinidad), a misdeal keeps the
dealer, and the match is announced won at the exact item of the counting
order -- only once the facts that count before it are in.

The tests share one server and one host page (see conftest's ``module_server`` and
``host``): the Trinidad match is made on the New match form by taps, the West Yorkshire
one before the server starts by the same form's view-model.
"""

from __future__ import annotations

import re

import pytest

from e2e import harness
from e2e.app_driver import open_in_history, ready_allfours, shown_match
from e2e.conftest import serving
from e2e.harness import go_to, read_texts, wait_text
from scorekeeper.allfours.engine import Match, Setup

pytestmark = pytest.mark.browser

tap = harness.tap
NAMES = ["Ann", "Ben", "Cy", "Di"]
US, THEM = "Ann & Cy", "Ben & Di"
RECORD = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": NAMES,
    "teams": {US: ["Ann", "Cy"], THEM: ["Ben", "Di"]},
    "rules": {"variant": "trinidad"},
}
#: Made before the module's server starts, by All Fours' New match form's view-model.
MATCHES = {"west yorkshire": {"names": NAMES, "variant": "west-yorkshire", "dealer": "Ann"}}


@pytest.fixture(scope="module")
def module_server(tmp_path_factory):
    yield from serving(tmp_path_factory, lambda db: ready_allfours(db, MATCHES))


class Table:
    """The engine beside the app: each fact is pushed to both."""

    def __init__(self, page, variant: str = "trinidad"):
        self.page = page
        self.m = Match(Setup.of({**RECORD, "rules": {"variant": variant}}))

    def deal(self, dealer: str, first: bool = False):
        if not first:
            tap(self.page, f"{dealer} deals")
        self.m.start(dealer)
        wait_text(self.page, f"Hand {len(self.m.hands)}, {dealer} deals")

    def fact(self, button: str, **facts):
        tap(self.page, button)
        self.m.enter(**facts)
        self.check()

    def check(self):
        for side, score in zip(self.m.setup.sides, self.m.scores, strict=True):
            wait_text(self.page, f"Score {side} {score}")

    def scores(self):
        return dict(zip(self.m.setup.sides, self.m.scores, strict=True))


def test_a_trinidad_match_to_14(host):
    page = host
    go_to(page, "/", "New match")
    tap(page, "New match")
    wait_text(page, "Start match")
    tap(page, "Game: All Fours")
    wait_text(page, "Variant")
    tap(page, "Players: 4")
    for i, name in enumerate(NAMES, 1):
        harness.enter(page, f"Player {i}", name)
    wait_text(page, f"Sides: {US} against {THEM}  (partners sit opposite)")
    wait_text(
        page,
        "Trinidad: turn-up A 1, 6 2, J 3 (every card turned counts); hang jack 3; "
        "a Game tie scores nobody; deals counter-clockwise; plays to 14",
    )
    assert "Variant: Trinidad" in read_texts(page)  # the default variant
    tap(page, "Variant: West Yorkshire")  # another variant says what it plays like; and back
    wait_text(
        page,
        "West Yorkshire: trump is pitched; Jack 1 to who wins it; a Game tie scores nobody; "
        "deals clockwise; plays to 11",
    )
    tap(page, "Variant: Trinidad")
    wait_text(page, re.compile(r"^Trinidad: turn-up A 1"))
    tap(page, "First dealer: Ann")
    tap(page, "Start match")

    t = Table(page)
    t.deal("Ann", first=True)
    mid = shown_match(page)
    wait_text(page, "Pegboard: Ann & Cy 0 (back peg 0), Ben & Di 0 (back peg 0)")
    # hand 1: the turn-up credits the dealer's side at once
    t.fact("turn up J", turn_up=["J"])
    wait_text(page, f"Credited {US} +3 turn-up (J)")
    t.fact("Di begs?: stands", beg="stand")  # the player after the dealer: play goes counter-clockwise too
    t.fact("High: Ben", high="Ben")
    t.fact("Low: Cy", low="Cy")
    tap(page, "Jack held by: Ann")
    t.fact(f"Jack won by: Ben ({THEM} +3 hang jack)", jack={"held": "Ann", "won": "Ben"})
    wait_text(page, f"Credited {THEM} +3 hang-jack")
    # Game by counting the cards: Ann & Cy took A, 10 (14); Ben & Di K, Q (5)
    tap(page, "Count the cards for Game")
    for side, ranks in ((US, ["A", "10"]), (THEM, ["K", "Q"])):
        for r in ranks:
            tap(page, f"{side} took {r}")
    wait_text(page, f"Counted {US}: 14")
    wait_text(page, f"Counted {THEM}: 5")
    t.fact(f"Enter Game ({US} 14, {THEM} 5)", game_cards={US: ["A", "10"], THEM: ["K", "Q"]})
    assert t.scores() == {US: 5, THEM: 4}
    wait_text(page, "Pegboard: Ann & Cy 5 (back peg 4), Ben & Di 4 (back peg 1)")

    # hand 2: Trinidad deals counter-clockwise: Di (the player before Ann in seat order)
    wait_text(page, "Hand 2: who deals? (Di deals next, counter-clockwise)")
    t.deal("Di")
    t.fact("turn up 6", turn_up=["6"])
    t.fact("Cy begs?: dealer gives 1", beg="give")
    t.fact("High: Ann", high="Ann")
    t.fact("Low: Di", low="Di")
    t.fact("Jack held by: not in play", jack=None)
    t.fact(f"Game: {THEM}", game={US: 0, THEM: 1})
    assert t.scores() == {US: 7, THEM: 8}

    # hand 3: Cy misdeals -> the other side 1, and Cy deals again
    t.deal("Cy")
    t.fact("penalty misdeal", penalties=[{"type": "misdeal"}])
    wait_text(page, "Hand 4: who deals? (Cy deals again (misdeal))")
    assert t.scores() == {US: 7, THEM: 9}

    # hand 4: a revoke: the other side 1, and the revoker's side cannot score Game
    t.deal("Cy")
    t.fact("turn up A", turn_up=["A"])
    t.fact("Ben begs?: stands", beg="stand")
    tap(page, "penalty revoke")
    t.fact("Who revoked?: Ben", penalties=[{"type": "revoke", "by": "Ben"}])
    t.fact("High: Di", high="Di")
    t.fact("Low: Ann", low="Ann")
    tap(page, "Jack held by: Cy")
    t.fact(f"Jack won by: Cy ({US} +1 jack)", jack={"held": "Cy", "won": "Cy"})
    t.fact(f"Game: {THEM}", game={US: 0, THEM: 1})  # barred by the revoke: nobody
    assert t.scores() == {US: 11, THEM: 10}

    # hand 5: the Jack is entered first and would take Ann & Cy to 14 -- but High and Low
    # count before Jack, so the app waits for them before it names a winner
    t.deal("Ben")
    t.fact("turn up 5", turn_up=["5"])
    t.fact("Ann begs?: stands", beg="stand")
    tap(page, "Jack held by: Di")
    t.fact(f"Jack won by: Ann ({US} +3 hang jack)", jack={"held": "Di", "won": "Ann"})
    wait_text(page, f"Pending {US} reach 14 at Hang Jack - but enter High, Low first: it counts before Hang Jack")
    t.fact("High: Ann", high="Ann")
    wait_text(page, f"Pending {US} reach 14 at Hang Jack - but enter Low first: it counts before Hang Jack")
    t.fact("Low: Ben", low="Ben")
    assert t.m.winner == 0 and t.scores() == {US: 15, THEM: 11}
    wait_text(page, f"Winner {US} win the match at Hang Jack in hand 5 (15 points, target 14)")
    wait_text(page, "Hand 5, Ann & Cy won")
    # the stored record scores the same
    texts = read_texts(page)
    assert not any(x.startswith("High: ") for x in texts), "no more facts once the match is won"
    # History shows the match hand by hand, as `scorekeeper score --text` does
    tap(page, "History")
    open_in_history(page, mid)
    wait_text(page, f"{US} 15, {THEM} 11 - {US} won")
    text = next(x for x in read_texts(page) if x.startswith(f"All Fours (trinidad): {US} vs {THEM}; target 14"))
    assert "Hand 5 (dealer Ben)" in text and f"Winner: {US}" in text


def test_a_west_yorkshire_match_to_11(module_server, host):
    """Trump is pitched (no turn-up, no begging), the Jack won by an opponent is 1,
    the dealer moves clockwise, a peek gives 4 to the other side, an award.
    (Its match made by the form's view-model; the first test shows the form's words for it.)"""
    page = host
    t = Table(page, "west-yorkshire")
    go_to(page, f"/table/{module_server.mids['west yorkshire']}", "Hand 1, Ann deals")
    t.deal("Ann", first=True)
    texts = read_texts(page)
    assert not [x for x in texts if x.startswith("turn up ") or "begs?" in x], (
        "nothing is turned up when trump is pitched"
    )
    t.fact("High: Ann", high="Ann")
    t.fact("Low: Ben", low="Ben")
    tap(page, "Jack held by: Cy")
    t.fact(f"Jack won by: Ben ({THEM} +1 jack)", jack={"held": "Cy", "won": "Ben"})
    t.fact(f"Game: {US}", game={US: 1, THEM: 0})
    assert t.scores() == {US: 2, THEM: 2}

    wait_text(page, "Hand 2: who deals? (Ben deals next, clockwise)")
    t.deal("Ben")
    tap(page, "penalty peek")
    t.fact("Who looked at their cards before the pitch?: Cy", penalties=[{"type": "peek", "by": "Cy"}])
    wait_text(page, f"Credited {THEM} +4 peek by Cy")
    t.fact("High: Di", high="Di")
    t.fact("Low: Di", low="Di")
    t.fact("Jack held by: not in play", jack=None)
    t.fact("Game: tie", game={US: 0, THEM: 0})
    assert t.scores() == {US: 2, THEM: 8}

    t.deal("Cy")
    tap(page, "penalty award")
    harness.enter(page, "Award points", "2")
    t.fact(f"Award to: {US}", penalties=[{"type": "award", "side": US, "points": 2}])
    t.fact("High: Ben", high="Ben")
    t.fact("Low: Ben", low="Ben")
    tap(page, "Jack held by: Di")
    t.fact(f"Jack won by: Di ({THEM} +1 jack)", jack={"held": "Di", "won": "Di"})
    assert t.m.winner == 1 and t.scores() == {US: 4, THEM: 11}
    wait_text(page, f"Winner {THEM} win the match at Jack in hand 3 (11 points, target 11)")
