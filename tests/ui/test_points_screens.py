"""The app's screens for a match carried on from paper (issue 47, part 3), through their
view-models, in every game: New match's "Scores so far", a hand entered as points (a hand
already begun dropped after a confirmation), "Adjust score" on a table and on Score, and
what each refuses, in one line naming the hand."""

from __future__ import annotations

import pytest

from scorekeeper.ui.allfives.form import NewMatchForm
from scorekeeper.ui.allfives.table import TableModel
from scorekeeper.ui.allfours.form import FoursNewMatchForm
from scorekeeper.ui.allfours.table import FoursTableModel
from scorekeeper.ui.broadway.form import BroadwayNewMatchForm
from scorekeeper.ui.broadway.table import BroadwayTableModel
from scorekeeper.ui.score.entries import ScoreEntries
from scorekeeper.ui.shell.points import PointsPart
from ui.test_live import Phone, served


def hands(shared, mid) -> list:
    with shared.lock:
        return shared.store.record(mid)["hands"]


def fives(shared, **rules) -> str:
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    form.set_leader("Ann")
    for key, value in rules.items():
        form.set_rule(key, value)
    mid = form.start()
    assert mid, form.error
    return mid


def type_in(part: PointsPart, *texts: str, why: str | None = None) -> None:
    for i, t in enumerate(texts):
        part.set_text(i, t)
    if why is not None:
        part.set_why(why)


# ------------------------------------------------------------------ New match: scores so far
def test_scores_so_far_is_off_by_default_and_carries_each_side_in(shared):
    form = NewMatchForm(shared, names=["Ann", "Ben", "Cy", "Di"])
    form.set_partners(True)
    form.set_leader("Ann")
    assert not form.carry and "start" not in form.with_start(form.record())
    form.set_carry(True)
    assert form.carried_sides() == ["Ann & Cy", "Ben & Di"]
    form.set_carried(0, "85")
    form.set_carried(1, "70")
    mid = form.start()
    assert mid, form.error
    with shared.lock:
        assert shared.store.record(mid)["start"] == {"Ann & Cy": 85, "Ben & Di": 70}
    assert TableModel(shared, mid).scores == {"Ann & Cy": 85, "Ben & Di": 70}


def test_scores_so_far_refuses_what_is_not_a_score_and_a_start_at_the_target(shared):
    form = NewMatchForm(shared, names=["Ann", "Ben"])
    form.set_leader("Ann")
    form.set_carry(True)
    form.set_carried(0, "eighty")
    assert form.start() is None
    assert form.error == "start: the score of Ann must be a whole number, 0 or more, not 'eighty'"
    form.set_carried(0, "250")  # All Fives to 250: a side starts below the target
    assert form.start() is None
    assert form.error is not None and "Ann carries in 250: a side starts below the target (250)" in form.error
    assert "\n" not in form.error
    form.set_carried(0, "")  # empty: 0, and a start of nothing but 0s is no start
    assert "start" not in form.with_start(form.record())


def test_scores_so_far_in_all_fours_and_broadway_name_their_sides(shared):
    fours = FoursNewMatchForm(shared, names=["Ann", "Ben", "Cy", "Di"])
    fours.set_dealer("Ann")
    fours.set_carry(True)
    assert fours.carried_sides() == ["Ann & Cy", "Ben & Di"]
    fours.set_carried(1, "5")
    mid = fours.start()
    assert mid, fours.error
    assert FoursTableModel(shared, mid).scores == {"Ann & Cy": 0, "Ben & Di": 5}
    board = BroadwayNewMatchForm(shared, names=["Ann", "Ben", "Cy", "Di"])
    board.set_carry(True)
    assert board.carried_sides() == ["North-South", "East-West"]
    board.set_carried(0, "120")
    mid = board.start()
    assert mid, board.error
    assert BroadwayTableModel(shared, mid).scores == {"North-South": 120, "East-West": 0}


# ------------------------------------------------------------------ All Fives
def test_a_hand_as_points_replaces_a_hand_only_started_and_asks_for_the_next_leader(shared):
    t = TableModel(shared, fives(shared))
    part = t.entries
    assert t.phase == "play" and t.begun() == ""
    part.open_points()
    assert part.open and not part.confirming and part.title() == "Hand 1 as points"
    assert [s for s, _ in t.points_steps()] == ["+5", "+10", "+20", "\u22125"]
    part.step(0, 5)
    part.step(0, 10)
    part.step(0, 20)
    type_in(part, part.typed[0], "10")
    assert part.typed[0] == "35"
    assert part.save(), t.error
    assert not part.open
    assert t.scores == {"Ann": 35, "Ben": 10}
    assert t.note == "Hand 1 entered as points: Ann +35, Ben +10"
    assert hands(shared, t.mid) == [{"points": {"Ann": 35, "Ben": 10}}]
    assert t.phase == "leader" and t.hand_end.rule_leader() is None and t.hand_end.suggested_leader() is None
    t.hand_end.start_hand("Ben")
    assert t.error is None and t.phase == "play" and t.hand_number == 2


def test_a_hand_begun_tile_by_tile_is_dropped_only_after_a_confirmation(shared):
    t = TableModel(shared, fives(shared))
    t.play.tap("5-0")
    t.play.tap("0-0")
    assert t.begun() == "2 turns"
    part = t.entries
    part.open_points()
    assert part.confirming and part.dropped() == "what was entered of hand 1 (2 turns)"
    type_in(part, "10", "0")
    assert not part.save()
    assert t.error == "hand 1, points: first say whether what was entered of hand 1 (2 turns) is dropped"
    assert len(hands(shared, t.mid)[0]["turns"]) == 2  # nothing changed
    part.confirm()
    assert part.save(), t.error
    assert hands(shared, t.mid) == [{"points": {"Ann": 10, "Ben": 0}}]
    assert t.scores == {"Ann": 10, "Ben": 0}


def test_keep_the_hand_closes_the_form_and_drops_nothing(shared):
    t = TableModel(shared, fives(shared))
    t.play.tap("5-0")
    t.entries.open_points()
    t.entries.close()
    assert not t.entries.open and len(hands(shared, t.mid)[0]["turns"]) == 1


def test_points_the_engine_refuses_keep_the_form_and_the_begun_hand(shared):
    t = TableModel(shared, fives(shared))
    t.play.tap("5-0")
    part = t.entries
    part.open_points()
    part.confirm()
    type_in(part, "7", "0")
    assert not part.save()
    assert t.error == "hand 1, points: Ann cannot score 7: every count and settlement scores a multiple of 5"
    assert part.open  # the table fixes the typing and taps again
    assert len(hands(shared, t.mid)[0]["turns"]) == 1  # the turn dropped first is back
    assert t.scores == {"Ann": 5, "Ben": 0}


def test_what_is_typed_is_checked_before_the_engine_in_one_line(shared):
    t = TableModel(shared, fives(shared))
    part = t.entries
    part.open_points()
    assert not part.save()
    assert t.error == "hand 1, points: type each side's points in the hand (0 for a side that scored nothing)"
    type_in(part, "1O", "5")
    assert not part.save()
    assert t.error == "hand 1, points: Ann: '1O' is not a whole number"


def test_two_sides_reaching_the_target_are_asked_who_got_there_first(shared):
    mid = fives(shared, target="61")
    t = TableModel(shared, mid)
    part = t.entries
    part.open_points()
    type_in(part, "65", "70")
    assert part.reaching() == ["Ann", "Ben"]
    assert not part.save()
    assert t.error == "hand 1, points: say which side got there first"
    part.set_first("Ann")
    assert part.save(), t.error
    assert hands(shared, mid) == [{"points": {"Ann": 65, "Ben": 70}, "first": "Ann"}]
    assert t.winner == "Ann" and t.phase == "over"


def test_an_adjustment_needs_a_reason_and_undo_takes_it_back(shared):
    t = TableModel(shared, fives(shared))
    t.entries.open_points()
    type_in(t.entries, "20", "15")
    assert t.entries.save()
    part = t.entries
    part.open_adjust()
    assert part.title() == "Adjust score"
    type_in(part, "", "-10")
    assert not part.save()
    assert t.error == "adjustment after hand 1: say why, in a few words (a misdeal, a penalty agreed ...)"
    part.set_why("misdeal")
    assert part.save(), t.error
    assert t.scores == {"Ann": 20, "Ben": 5}
    assert t.note == "Adjustment: Ben -10 (misdeal)"
    assert hands(shared, t.mid)[-1] == {"adjust": {"Ben": -10}, "why": "misdeal"}
    t.undo()
    assert t.note == "Undo: the adjustment taken back"
    assert t.scores == {"Ann": 20, "Ben": 15}
    t.undo()
    assert t.note == "Undo: hand 1 entered as points taken back"


def test_an_adjustment_during_a_hand_is_refused_naming_where(shared):
    t = TableModel(shared, fives(shared))
    t.play.tap("5-0")
    part = t.entries
    part.open_adjust()  # the engine is asked as the form opens: it does not open
    assert not part.open
    assert t.error == "adjustment after hand 1: hand 1 has not ended yet: an adjustment comes between hands"
    assert hands(shared, t.mid) == [{"leader": "Ann", "turns": [{"play": "5-0"}]}]


def test_a_watcher_neither_opens_nor_stores_them(tmp_path):
    shared = served(tmp_path)
    mid = fives(shared)
    view = shared.visit("192.168.1.30")
    assert view.visitor.join("771204")  # the watch code
    t = TableModel(view, mid)
    t.entries.open_points()
    assert not t.entries.open and t.error is not None
    t.entries.open_adjust()
    assert not t.entries.open and t.error is not None
    assert hands(shared, mid) == [{"leader": "Ann", "turns": []}]


# ------------------------------------------------------------------ All Fours
def fours(shared, variant: str = "trinidad") -> FoursTableModel:
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_variant(variant)
    form.set_dealer("Ann")
    mid = form.start()
    assert mid, form.error
    return FoursTableModel(shared, mid)


def test_all_fours_steps_are_the_variants_points_by_name(shared):
    t = fours(shared)
    names = [s for s, _ in t.points_steps()]
    assert names[-6:] == ["High", "Low", "Jack", "Hang Jack", "Game", "\u22121"]
    assert "Gift" in names and any(n.startswith("Turn-up") for n in names)
    assert [s for s, _ in fours(shared, "pitch").points_steps()] == ["High", "Low", "Jack", "Game", "\u22121"]


def test_all_fours_hand_as_points_then_a_dealer_is_asked_and_hands_list_it(shared):
    t = fours(shared)
    part = t.entries
    assert t.begun() == ""  # dealt, nothing entered yet
    part.open_points()
    steps = dict(t.points_steps())
    part.step(0, steps["High"])
    part.step(0, steps["Hang Jack"])
    part.step(1, steps["Game"])
    assert part.typed == ["4", "1"]
    assert part.save(), t.error
    assert t.scores == {"Ann": 4, "Ben": 1}
    assert t.phase == "deal" and t.dealer is None
    assert t.hand_lines() == ["Hand 1 · entered as points: Ann +4, Ben +1 -> 4 - 1"]
    part.open_adjust()
    type_in(part, "-1", "", why="revoke")
    assert part.save(), t.error
    assert t.hand_lines()[0] == "Adjustment: Ann -1 (revoke) -> 3 - 1"
    assert t.pegboard() is None  # points taken off cannot be pegged (the screen says so)
    t.start_hand("Ben")
    assert t.error is None and t.dealer == "Ben"


def test_all_fours_refuses_more_than_a_hand_gives_in_one_line(shared):
    t = fours(shared, "pitch")
    part = t.entries
    part.open_points()
    type_in(part, "5", "0")
    assert not part.save()
    assert t.error == "hand 1, points: Ann cannot score 5: one hand gives at most 4 in Pitch"


def test_all_fours_a_hand_with_facts_is_dropped_after_the_confirmation(shared):
    t = fours(shared)
    t.set_high("Ben")
    assert t.begun() == "1 fact"
    t.entries.open_points()
    assert t.entries.confirming
    t.entries.confirm()
    type_in(t.entries, "2", "1")
    assert t.entries.save(), t.error
    assert hands(shared, t.mid) == [{"points": {"Ann": 2, "Ben": 1}}]


# ------------------------------------------------------------------ Broadway
def broadway(shared, **kw) -> BroadwayTableModel:
    form = BroadwayNewMatchForm(shared, names=["Ann", "Ben", "Cy", "Di"])
    for key, value in kw.items():
        getattr(form, f"set_{key}")(value)
    mid = form.start()
    assert mid, form.error
    return BroadwayTableModel(shared, mid)


def test_broadway_hand_as_points_takes_points_off_where_unplayed_tiles_subtract(shared):
    t = broadway(shared)
    assert t.phase == "start" and t.begun() is None
    part = t.entries
    part.open_points()
    assert not part.confirming and part.title() == "Hand 1 as points"
    part.step(0, 10)
    part.step(0, 10)
    part.step(1, -1)
    assert part.typed == ["20", "-1"]
    assert part.reaching() == []  # no target: nobody is asked who was first
    assert part.save(), t.error
    assert t.scores == {"North-South": 20, "East-West": -1}
    assert t.phase == "start" and t.hand_number == 1


def test_broadway_refuses_points_off_where_unplayed_tiles_go_to_the_opponents(shared):
    t = broadway(shared, penalty="to-opponents")
    part = t.entries
    part.open_points()
    type_in(part, "10", "-1")
    assert not part.save()
    assert t.error is not None and t.error.startswith("hand 1, points: East-West cannot score -1")


# ------------------------------------------------------------------ Score: Adjust score
@pytest.mark.parametrize("game", ["all-fives", "all-fours", "broadway"])
def test_adjust_score_from_the_score_screen_in_every_game(shared, game):
    players = ["Ann", "Ben", "Cy", "Di"] if game == "broadway" else ["Ann", "Ben"]
    record = {"format": "scorekeeper/1", "game": game, "players": players, "hands": []}
    with shared.lock:
        mid = shared.store.create(record)
    score = ScoreEntries(shared, mid)
    side = score.sides[1]
    score.entries.open_adjust()
    score.entries.set_text(1, "+3")
    score.entries.set_why("agreed at the table")
    assert score.entries.save(), score.error
    assert score.scores[side] == 3
    assert hands(shared, mid) == [{"adjust": {side: 3}, "why": "agreed at the table"}]


def test_the_score_screen_sees_another_phones_adjustment_as_a_change(tmp_path):
    shared = served(tmp_path)
    mid = fives(shared)
    host = shared.visit("127.0.0.1")
    table = TableModel(host, mid)
    table.entries.open_points()
    type_in(table.entries, "10", "5")
    assert table.entries.save()
    score = ScoreEntries(host, mid)
    other = TableModel(host, mid)
    other.entries.open_adjust()
    type_in(other.entries, "5", why="late")
    assert other.entries.save()
    score.entries.open_adjust()
    type_in(score.entries, "5", why="late again")
    assert not score.entries.save()  # this screen had not shown the first adjustment yet
    assert score.error is not None and "came first" in score.error


def test_every_phone_is_told_what_the_entry_did(tmp_path):
    shared = served(tmp_path)
    mid = fives(shared)
    ann = Phone(shared, mid, "127.0.0.1")
    ben = Phone(shared, mid, "192.168.1.12", "482913")
    ann.table.entries.open_points()
    type_in(ann.table.entries, "35", "10")
    assert ann.table.entries.save()
    ben.receive()
    assert ben.table.note == "Hand 1 entered as points: Ann +35, Ben +10 (on the host)"
    assert ben.table.scores == {"Ann": 35, "Ben": 10}
    ann.table.entries.open_adjust()
    type_in(ann.table.entries, "", "-5", why="misdeal")
    assert ann.table.entries.save()
    ben.receive()
    assert ben.table.note == "Adjustment: Ben -5 (misdeal) (on the host)"


# ------------------------------------------------------------------ corrections (All Fives)
def test_correct_an_entry_lists_them_and_corrects_points_and_an_adjustment(shared):
    t = TableModel(shared, fives(shared))
    t.entries.open_points()
    type_in(t.entries, "10", "5")
    assert t.entries.save()
    t.entries.open_adjust()
    type_in(t.entries, "", "-5", why="misdeal")
    assert t.entries.save()
    t.hand_end.start_hand("Ann")
    t.play.tap("5-0")
    t.fixes.open()
    assert [(r.hand, r.where, r.text) for r in t.fixes.entries()] == [
        (1, "points", "entered as points: Ann +10, Ben +5"),
        (1, "adjust", "Adjustment: Ben -5 (misdeal)"),
        (2, "leader", "Ann leads"),
        (2, 1, "Ann: 5-0"),
    ]
    assert t.fixes.entries()[1].label == "Correct adjustment 1"
    # the hand entered as points: each side's points typed again
    t.fixes.pick(1, "points")
    assert t.fixes.pips == {"Ann": "10", "Ben": "5"}
    t.fixes.set_pips("Ann", "20")
    t.fixes.propose_points()
    assert t.fixes.preview == "hand 1 entered as points: Ann +20, Ben +5; scores now Ann 25, Ben 0 (were 15, 0)"
    t.fixes.save()
    assert t.error is None and t.scores == {"Ann": 25, "Ben": 0}
    # the adjustment: its change and its reason
    t.fixes.open()
    t.fixes.pick(1, "adjust")
    assert t.fixes.pips == {"Ann": "", "Ben": "-5"} and t.fixes.why == "misdeal"
    t.fixes.set_pips("Ben", "-10")
    t.fixes.set_why("misdeal twice")
    t.fixes.propose_points()
    t.fixes.save()
    assert t.error is None and t.scores == {"Ann": 25, "Ben": -5}
    assert hands(shared, t.mid)[1] == {"adjust": {"Ben": -10}, "why": "misdeal twice"}
    # a turn after an adjustment is still found by its hand's number
    t.fixes.open()
    t.fixes.correct(2, 1, "5-5")
    assert t.error is None and t.scores == {"Ann": 30, "Ben": -5}  # 5-5 counts 10, 5-0 counted 5


def test_a_correction_of_points_the_engine_refuses_changes_nothing(shared):
    t = TableModel(shared, fives(shared))
    t.entries.open_points()
    type_in(t.entries, "10", "5")
    assert t.entries.save()
    t.fixes.open()
    t.fixes.pick(1, "points")
    t.fixes.set_pips("Ann", "12")
    t.fixes.propose_points()
    assert t.fixes.draft is None
    assert t.error == "hand 1, points: Ann cannot score 12: every count and settlement scores a multiple of 5"
    assert t.scores == {"Ann": 10, "Ben": 5}


@pytest.mark.parametrize("how", ["points", "adjust"])
def test_all_fours_won_by_a_hand_as_points_or_an_adjustment_says_so(shared, how):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_dealer("Ann")
    form.set_carry(True)
    form.set_carried(0, "12")
    mid = form.start()
    assert mid, form.error
    t = FoursTableModel(shared, mid)
    part = t.entries
    part.open_points()
    type_in(part, "3" if how == "points" else "0", "0")
    assert part.save(), t.error
    if how == "adjust":
        part.open_adjust()
        type_in(part, "2", why="award")
        assert part.save(), t.error
    assert t.phase == "over"
    assert t.winner_line() == (
        "Ann wins the match in hand 1, entered as points (15 points, target 14)"
        if how == "points"
        else "Ann wins the match at the adjustment after hand 1 (14 points, target 14)"
    )


def test_a_hand_begun_on_another_phone_meanwhile_is_asked_about_again(tmp_path):
    shared = served(tmp_path)
    mid = fives(shared)
    ann = Phone(shared, mid, "127.0.0.1")
    ben = Phone(shared, mid, "192.168.1.12", "482913")
    ben.table.take_seat("Ben")
    ann.table.play.tap("5-0")
    ben.receive()
    ben.ack()
    part = ben.table.entries
    part.open_points()
    part.confirm()  # agreed to drop one turn
    type_in(part, "10", "0")
    ann.table.play.tap("0-0")  # meanwhile: a second turn on Ann's phone
    ben.receive()
    ben.ack()
    assert not part.save()
    assert part.confirming
    assert ben.table.error == "hand 1, points: first say whether what was entered of hand 1 (2 turns) is dropped"
    assert len(hands(shared, mid)[0]["turns"]) == 2
    part.confirm()
    assert part.save(), ben.table.error
    assert hands(shared, mid) == [{"points": {"Ann": 10, "Ben": 0}}]


def test_with_an_exact_target_points_past_it_reach_nothing_and_nobody_is_asked(shared):
    mid = fives(shared, target="61", exact_target=True)
    t = TableModel(shared, mid)
    assert t.rules.exact_target
    part = t.entries
    part.open_points()
    type_in(part, "65", "60")  # Ann would pass 61: voided; Ben stops one short
    assert part.reaching() == []
    assert part.save(), t.error
    assert t.scores == {"Ann": 0, "Ben": 60} and t.winner is None


def test_a_deduction_is_said_in_words_where_the_tally_would_be():
    """Score: a side an adjustment took points off has no X tally, said in a player's words
    (not the tally module's "event 3")."""
    from scorekeeper import registry
    from scorekeeper.allfives.engine import Match, Setup
    from scorekeeper.ui.score.model import score_displays

    m = Match(Setup.new(["Ann", "Ben"], start={"Ann": 30, "Ben": 20}))
    m.points_hand({"Ann": 15, "Ben": 5})
    m.adjust({"Ben": -10}, "misdeal")
    shown = score_displays(registry.get("all-fives"), m)
    ann, ben = shown.sides
    assert ann.tally is not None and ben.tally is None
    assert ben.note == (
        "No X tally: an adjustment took points off Ben, and a tally cannot show a deduction. The chart shows the dip."
    )
