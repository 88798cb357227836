"""The All Fours view-models (``scorekeeper.ui.allfours``: ``form``, ``table``,
``count``, ``words``), without any Flet: the new-match form, the hand screen,
the Game-point helper, penalties, the win at the exact point of the counting
order, undo / redo, chips and pegboard."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.allfours.record import score_record
from scorekeeper.allfours.variants import CARD_POINTS, RANKS, VARIANTS
from scorekeeper.ui.allfours.count import COUNTING_RANKS, CardCount, Chips
from scorekeeper.ui.allfours.form import FoursNewMatchForm
from scorekeeper.ui.allfours.table import FoursTableModel
from scorekeeper.ui.allfours.words import item_text
from scorekeeper.ui.server.shared import open_shared

#: The spec's table (``all-fours.md``): default target per variant (two players, more).
SPEC_TARGETS = {
    "trinidad": (14, 14),
    "tobago": (14, 14),
    "west-yorkshire": (9, 11),
    "lancashire": (11, 11),
    "english-1674": (11, 11),
    "running": (31, 31),
    "north-american": (10, 10),
    "seven-up": (7, 7),
    "pitch": (7, 7),
}
PITCHED = ("west-yorkshire", "lancashire", "pitch")
FINAL_ONLY = ("english-1674", "running", "north-american", "seven-up")
NAMES = ("Ann", "Ben", "Cy", "Di", "Ed", "Flo")
PHASES = ("hand", "deal", "over")


def new_table(shared, n=2, variant="trinidad", dealer="Ann", target="", seed=0) -> FoursTableModel:
    form = FoursNewMatchForm(shared, names=list(NAMES[:n]))
    form.set_variant(variant)
    form.set_target(target)
    form.set_dealer(dealer)
    mid = form.start(random.Random(seed))
    assert mid, form.error
    return FoursTableModel(shared, mid)


def stored_scores(shared, table) -> dict:
    return score_record(shared.store.record(table.mid))["scores"]


def consistent(shared, table) -> None:
    """The view-model's scores are those of the stored record scored from scratch."""
    assert table.scores == stored_scores(shared, table)
    assert table.phase in PHASES


def test_view_models_import_no_flet():
    code = (
        "import sys\n"
        "import scorekeeper.ui.allfours\n"
        "from scorekeeper.ui.allfours import count, form, table, words\n"
        "print(sorted(m for m in sys.modules if m == 'flet' or m.startswith('flet.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ------------------------------------------------------------------ new match
def test_form_two_players_record(shared):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_dealer("Ben")
    mid = form.start()
    assert mid and form.error is None
    rec = shared.store.record(mid)
    assert rec["game"] == "all-fours"
    assert rec["players"] == ["Ann", "Ben"]
    assert "teams" not in rec
    assert rec["rules"] == {"variant": "trinidad"}
    assert rec["hands"] == [{"dealer": "Ben"}]
    table = FoursTableModel(shared, mid)
    assert table.sides == ["Ann", "Ben"] and table.target == 14 and table.dealer == "Ben"


def test_form_three_players_are_three_sides(shared):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben", "Cy"])
    assert form.teams() is None and form.sides() == ["Ann", "Ben", "Cy"]
    form.set_dealer("Cy")
    mid = form.start()
    rec = shared.store.record(mid)
    assert "teams" not in rec and rec["hands"] == [{"dealer": "Cy"}]
    table = FoursTableModel(shared, mid)
    assert table.sides == ["Ann", "Ben", "Cy"]
    assert {p: table.side_of(p) for p in table.players} == {"Ann": "Ann", "Ben": "Ben", "Cy": "Cy"}


def test_form_four_players_partners_opposite(shared):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben", "Cy", "Di"])
    want = {"Ann & Cy": ["Ann", "Cy"], "Ben & Di": ["Ben", "Di"]}
    assert form.teams() == want
    form.set_dealer("Ann")
    mid = form.start()
    assert mid, form.error
    rec = shared.store.record(mid)
    assert rec["teams"] == want
    table = FoursTableModel(shared, mid)
    assert table.sides == ["Ann & Cy", "Ben & Di"]
    assert table.side_of("Cy") == "Ann & Cy" and table.side_of("Di") == "Ben & Di"


def test_form_six_players_three_partnerships(shared):
    form = FoursNewMatchForm(shared, names=list(NAMES))
    want = {"Ann & Di": ["Ann", "Di"], "Ben & Ed": ["Ben", "Ed"], "Cy & Flo": ["Cy", "Flo"]}
    form.set_dealer("Ann")
    mid = form.start()
    assert mid, form.error
    assert shared.store.record(mid)["teams"] == want
    assert form.teams() == want


def test_six_player_table_has_three_sides(shared):
    table = new_table(shared, n=6)
    assert table.sides == ["Ann & Di", "Ben & Ed", "Cy & Flo"]
    table.beg("give")
    assert table.scores == {"Ann & Di": 0, "Ben & Ed": 1, "Cy & Flo": 1}
    consistent(shared, table)


def test_form_set_count(shared):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_dealer("Ben")
    for n in (3, 4, 6, 2):
        form.set_count(n)
        assert len(form.names) == n and form.names[:2] == ["Ann", "Ben"]
    form.set_count(5)  # not a player count of All Fours: ignored
    assert len(form.names) == 2
    form.set_count(3)
    form.set_dealer(form.names[2])
    form.set_count(2)
    assert form.dealer is None  # the dealer left the table: cut again


@pytest.mark.parametrize("variant", list(SPEC_TARGETS))
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_form_default_target(shared, variant, n):
    form = FoursNewMatchForm(shared, names=list(NAMES[:n]))
    form.set_variant(variant)
    want = SPEC_TARGETS[variant][0 if n == 2 else 1]
    assert form.default_target() == want
    table = new_table(shared, n=n, variant=variant)
    assert table.target == want
    rec = shared.store.record(table.mid)
    assert rec["rules"] == {"variant": variant}


def test_form_typed_target_override(shared):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_variant("west-yorkshire")
    form.set_dealer("Ann")
    form.set_target(" 21 ")
    assert form.target_error() is None
    mid = form.start()
    assert shared.store.record(mid)["rules"] == {"variant": "west-yorkshire", "target": 21}
    assert FoursTableModel(shared, mid).target == 21
    form.set_target("")  # back to the variant's
    mid2 = form.start()
    assert shared.store.record(mid2)["rules"] == {"variant": "west-yorkshire"}
    assert FoursTableModel(shared, mid2).target == 9


@pytest.mark.parametrize("text", ["abc", "0", "-3", "1.5", "1e3", "7 points"])
def test_form_target_not_a_number_refused(shared, text):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_target(text)
    assert form.target_error()
    before = shared.store.count()
    assert form.start() is None
    assert form.error and text.strip() in form.error
    assert shared.store.count() == before


def test_form_target_superscript_digit_refused(shared):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_target("\u00b2")
    before = shared.store.count()
    assert form.start() is None and form.error
    assert shared.store.count() == before


@pytest.mark.parametrize("n", [2, 3, 4])
def test_form_random_first_dealer(shared, n):
    names = list(NAMES[:n])
    dealers = set()
    for seed in range(12):
        form = FoursNewMatchForm(shared, names=names)
        assert form.dealer is None
        mid = form.start(rng=random.Random(seed))
        dealer = shared.store.record(mid)["hands"][0]["dealer"]
        assert dealer == random.Random(seed).choice(names)
        dealers.add(dealer)
    assert len(dealers) > 1


def test_form_chosen_dealer_and_rename(shared):
    form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
    form.set_dealer("Ben")
    form.set_name(1, " Bob ")
    assert form.dealer == "Bob"
    mid = form.start(rng=random.Random(3))
    rec = shared.store.record(mid)
    assert rec["players"] == ["Ann", "Bob"] and rec["hands"] == [{"dealer": "Bob"}]


@pytest.mark.parametrize(
    "names, words",
    [
        (["Ann", "Ann "], "same name"),
        (["Ann", "Ben", "Cy", "Ben"], "same name"),
        (["", "Player 1"], "same name"),  # the first field left empty is "Player 1" too
    ],
)
def test_form_bad_names_refused(shared, names, words):
    form = FoursNewMatchForm(shared, names=names)
    before = shared.store.count()
    assert form.start() is None
    assert words in form.error
    assert shared.store.count() == before


@pytest.mark.parametrize(
    "names, players", [(["Ann", " "], ["Ann", "Player 2"]), (["", "Ben", "Cy"], ["Player 1", "Ben", "Cy"])]
)
def test_a_name_left_empty_is_its_placeholder(shared, names, players):
    """Name fields start empty and show "Player k" (typing gives "Ann", not "Player 1Ann")."""
    form = FoursNewMatchForm(shared, names=names)
    assert form.typed == names
    mid = form.start()
    assert mid and shared.store.record(mid)["players"] == players


def test_form_offers_known_names(shared):
    new_table(shared, n=3)
    form = FoursNewMatchForm(shared)
    assert set(form.names) <= {"Ann", "Ben", "Cy"} and len(form.names) == 2


# ---------------------------------------------------------------- the hand
def test_phase_hand_after_start(shared):
    table = new_table(shared, n=2)
    assert table.phase == "hand" and table.hand_number == 1
    assert table.dealer == "Ann" and table.beggar == "Ben"
    assert table.scores == {"Ann": 0, "Ben": 0}
    assert table.winner is None and table.winner_line() is None and table.pending_note() is None


def test_beggar_follows_dealing_direction(shared):
    trin = new_table(shared, n=3, variant="trinidad", dealer="Ann")
    assert trin.beggar == "Cy"  # counter-clockwise
    other = new_table(shared, n=3, variant="seven-up", dealer="Ann")
    assert other.beggar == "Ben"


@pytest.mark.parametrize(
    "variant, rank, points",
    [
        ("trinidad", "J", 3),
        ("trinidad", "6", 2),
        ("trinidad", "A", 1),
        ("trinidad", "5", 0),
        ("tobago", "2", 2),
        ("tobago", "6", 0),
        ("tobago", "J", 3),
        ("running", "A", 4),
        ("running", "K", 3),
        ("running", "Q", 2),
        ("running", "J", 1),
        ("running", "10", 0),
        ("seven-up", "J", 1),
        ("english-1674", "J", 1),
        ("north-american", "A", 0),
    ],
)
def test_turn_up_credits_dealer_at_once(shared, variant, rank, points):
    table = new_table(shared, n=2, variant=variant, dealer="Ben")
    assert table.turns_up
    table.turn_up(rank)
    assert table.error is None
    assert table.scores == {"Ann": 0, "Ben": points}
    assert table.turned == [rank]
    if points:
        assert table.note == f"Ben +{points} turn-up ({rank})"
        assert table.items() == [table.note]
        assert item_text(table.match, table.hand.items[0]) == table.note
    else:
        assert table.note is None and table.items() == []
    assert table.phase == "hand"
    consistent(shared, table)


def test_turn_up_credits_the_dealers_partnership(shared):
    table = new_table(shared, n=4, dealer="Di")
    table.turn_up("J")
    assert table.scores == {"Ann & Cy": 0, "Ben & Di": 3}
    assert table.note == "Ben & Di +3 turn-up (J)"
    consistent(shared, table)


def test_turn_up_tap_corrects_the_card(shared):
    table = new_table(shared, n=2)
    table.turn_up("J")
    table.turn_up("6")
    assert table.turned == ["6"] and table.scores["Ann"] == 2
    assert table.note == "Ann +2 turn-up (6)"
    table.turn_up("5")
    assert table.turned == ["5"] and table.scores["Ann"] == 0
    consistent(shared, table)


def test_run_the_pack_every_card_counts_in_trinidad(shared):
    table = new_table(shared, n=2)
    table.turn_up("J")
    table.beg("run")
    table.turn_up("6")
    assert table.note == "Ann +2 turn-up (6)"
    table.turn_up("A")
    assert table.turned == ["J", "6", "A"]
    assert table.scores == {"Ann": 6, "Ben": 0}
    assert table.note == "Ann +1 turn-up (A)"
    assert shared.store.record(table.mid)["hands"][-1]["turn_up"] == ["J", "6", "A"]
    consistent(shared, table)


@pytest.mark.parametrize("variant", FINAL_ONLY)
def test_run_the_pack_final_card_only(shared, variant):
    table = new_table(shared, n=2, variant=variant)
    table.turn_up("J")
    assert table.scores["Ann"] == VARIANTS[variant].turn_up_points("J") > 0
    table.beg("run")
    table.turn_up("5")
    assert table.turned == ["J", "5"]
    assert table.scores == {"Ann": 0, "Ben": 0}  # only the last card counts
    table.turn_up("J")
    assert table.turned == ["J", "5", "J"]
    assert table.scores["Ann"] == VARIANTS[variant].turn_up_points("J")
    consistent(shared, table)


@pytest.mark.parametrize(
    "n, want",
    [
        (2, {"Ann": 0, "Ben": 1}),
        (3, {"Ann": 0, "Ben": 1, "Cy": 1}),
        (4, {"Ann & Cy": 0, "Ben & Di": 1}),
    ],
)
def test_beg_give_one_to_each_other_side(shared, n, want):
    table = new_table(shared, n=n)
    table.beg("give")
    assert table.error is None
    assert table.scores == want
    assert table.entered()["beg"] == "give"
    consistent(shared, table)


def test_beg_stand_scores_nothing(shared):
    table = new_table(shared, n=2)
    table.beg("stand")
    assert table.scores == {"Ann": 0, "Ben": 0} and table.note is None
    assert table.facts["beg"] == "stand"


@pytest.mark.parametrize("variant", PITCHED)
def test_pitched_variants_turn_nothing_up(shared, variant):
    table = new_table(shared, n=2, variant=variant)
    assert table.turns_up is False
    before = shared.store.record(table.mid)
    table.turn_up("J")
    assert table.error and "pitched" in table.error
    assert shared.store.record(table.mid) == before
    assert table.scores == {"Ann": 0, "Ben": 0}


def test_high_and_low_one_tap_each(shared):
    table = new_table(shared, n=4)
    table.set_high("Cy")
    assert table.scores == {"Ann & Cy": 1, "Ben & Di": 0}
    assert table.note == "Ann & Cy +1 high"
    table.set_low("Di")
    assert table.scores == {"Ann & Cy": 1, "Ben & Di": 1}
    table.set_low(None)  # corrected: no trump for Low
    assert table.scores == {"Ann & Cy": 1, "Ben & Di": 0}
    assert table.entered()["high"] == "Cy" and table.entered()["low"] == "nobody"
    consistent(shared, table)


def test_high_none_means_no_trump(shared):
    table = new_table(shared, n=2)
    table.set_high(None)
    assert table.facts["high"] is None and table.scores == {"Ann": 0, "Ben": 0}
    assert table.error is None


@pytest.mark.parametrize(
    "variant, opp", [("trinidad", 3), ("tobago", 3), ("seven-up", 1), ("west-yorkshire", 1), ("running", 1)]
)
def test_jack_choices_and_won(shared, variant, opp):
    table = new_table(shared, n=4, variant=variant)
    assert table.jack_choices() == []
    table.hold_jack("Ann")
    choices = dict(table.jack_choices())
    assert set(choices) == {"Ann", "Ben", "Cy", "Di"}
    assert choices["Ann"] == choices["Cy"] == "Ann & Cy +1 jack"
    word = "hang jack" if opp == 3 else "jack"
    assert choices["Ben"] == choices["Di"] == f"Ben & Di +{opp} {word}"
    assert [p for p, _ in table.jack_choices()][:2] == ["Ann", "Cy"]  # the holder's side first
    assert "jack" not in table.facts  # nothing stored before who won it
    table.jack_won("Di")
    assert table.jack_held is None and table.error is None
    assert table.facts["jack"] == {"held": "Ann", "won": "Di"}
    assert table.scores == {"Ann & Cy": 0, "Ben & Di": opp}
    consistent(shared, table)


def test_jack_won_by_holders_side(shared):
    table = new_table(shared, n=4)
    table.hold_jack("Ben")
    table.jack_won("Di")
    assert table.scores == {"Ann & Cy": 0, "Ben & Di": 1}
    assert table.entered()["jack"] == "Ben held, Di won"


def test_jack_not_in_play(shared):
    table = new_table(shared, n=2)
    table.hold_jack(None)
    assert "jack" in table.facts and table.facts["jack"] is None
    assert table.scores == {"Ann": 0, "Ben": 0}
    assert table.entered()["jack"] == "not in play"


def test_jack_won_before_hold_jack_is_an_error(shared):
    table = new_table(shared, n=2)
    before = shared.store.record(table.mid)
    table.jack_won("Ben")
    assert table.error
    assert shared.store.record(table.mid) == before
    assert table.scores == {"Ann": 0, "Ben": 0}


def test_game_to_side_ends_the_hand(shared):
    table = new_table(shared, n=2)
    table.game_to("Ben")
    assert table.scores == {"Ann": 0, "Ben": 1}
    assert table.note == "Ben +1 game"
    assert table.phase == "deal"
    consistent(shared, table)


def test_game_tie_nobody_in_trinidad(shared):
    table = new_table(shared, n=2)
    table.game_to(None)
    assert table.scores == {"Ann": 0, "Ben": 0} and table.phase == "deal"


@pytest.mark.parametrize("dealer, other", [("Ann", "Ben"), ("Ben", "Ann")])
def test_game_tie_seven_up_goes_to_non_dealer(shared, dealer, other):
    table = new_table(shared, n=2, variant="seven-up", dealer=dealer)
    table.game_to(None)
    assert table.scores[other] == 1 and table.scores[dealer] == 0
    assert table.phase == "deal"


def test_game_tie_seven_up_partnerships(shared):
    table = new_table(shared, n=4, variant="seven-up", dealer="Cy")
    table.game_to(None)
    assert table.scores == {"Ann & Cy": 0, "Ben & Di": 1}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_suggested_dealer_follows_direction(shared, variant, n):
    table = new_table(shared, n=n, variant=variant, dealer="Ben")
    table.game_to(None)
    assert table.phase == "deal"
    players = list(NAMES[:n])
    step = -1 if variant == "trinidad" else 1
    want = players[(1 + step) % n]
    assert table.suggested_dealer() == want
    table.start_hand(want)
    assert table.error is None
    assert table.phase == "hand" and table.hand_number == 2 and table.dealer == want
    assert table.note == f"hand 2: {want} deals"
    assert table.scores == stored_scores(shared, table)


def test_trinidad_dealer_passes_to_the_previous_seat(shared):
    table = new_table(shared, n=3, dealer="Ann")
    dealers = ["Ann"]
    for _ in range(3):
        table.game_to(None)
        nxt = table.suggested_dealer()
        table.start_hand(nxt)
        dealers.append(table.dealer)
    assert dealers == ["Ann", "Cy", "Ben", "Ann"]


def test_hand_lines_newest_first(shared):
    table = new_table(shared, n=2)
    table.turn_up("J")
    table.game_to("Ben")
    table.start_hand(table.suggested_dealer())
    lines = table.hand_lines()
    assert len(lines) == 2
    assert lines[0].startswith("Hand 2, Ben dealt")
    assert lines[1].startswith("Hand 1, Ann dealt") and "Ann +3 turn-up (J)" in lines[1] and lines[1].endswith("3 - 1")


def test_hand_line_marks_all_four_on_the_hand_that_wins_the_match(shared):
    table = new_table(shared, n=2)
    table.award("Ann", 10)
    table.game_to(None)
    table.start_hand(table.suggested_dealer())
    table.set_high("Ann")
    table.set_low("Ann")
    table.hold_jack("Ann")
    table.jack_won("Ann")
    table.game_to("Ann")  # Ann 14: the match is won on Game, the last of all four
    assert table.phase == "over" and table.winner == "Ann"
    line = table.hand_lines()[0]
    assert line.startswith("Hand 2, Ben dealt - all four: Ann:") and line.endswith("14 - 0")
    consistent(shared, table)


# ------------------------------------------------------- Game-point helper
def test_counting_helper_decides_game(shared):
    table = new_table(shared, n=2)
    table.open_counting()
    assert isinstance(table.counting, CardCount)
    for r in ("A", "K", "Q", "J"):
        table.count_card("Ann", r)
    table.count_card("Ben", "10")
    table.count_card("Ben", "10")
    table.count_card("Ben", "A")
    table.uncount("Ben")  # the A was a mistake
    assert table.counting.points() == {"Ann": 10, "Ben": 20}
    assert table.counting.summary("Ben") == "2x10 = 20"
    assert table.phase == "hand"
    table.enter_counted()
    assert table.error is None and table.counting is None
    assert shared.store.record(table.mid)["hands"][-1]["game_cards"] == {
        "Ann": ["A", "K", "Q", "J"],
        "Ben": ["10", "10"],
    }
    assert table.hand.card_points == (10, 20)
    assert table.scores == {"Ann": 0, "Ben": 1}
    assert table.entered()["game"] == "Ann 10, Ben 20"
    assert table.phase == "deal"
    consistent(shared, table)


def test_counting_helper_tie_and_partnerships(shared):
    table = new_table(shared, n=4)
    table.open_counting()
    table.count_card("Ann & Cy", "A")
    table.count_card("Ben & Di", "A")
    table.enter_counted()
    assert table.scores == {"Ann & Cy": 0, "Ben & Di": 0}  # a tie: nobody in Trinidad
    assert table.phase == "deal"


def test_counting_helper_fifth_card_refused(shared):
    table = new_table(shared, n=2)
    table.open_counting()
    for side in ("Ann", "Ben", "Ann", "Ben"):
        table.count_card(side, "A")
    assert table.counting.error is None and table.counting.left("A") == 0
    table.count_card("Ann", "A")
    assert table.counting.error and "A" in table.counting.error
    assert table.counting.taken == {"Ann": ["A", "A"], "Ben": ["A", "A"]}
    assert table.counting.points() == {"Ann": 8, "Ben": 8}
    table.count_card("Ann", "7")  # not a counting card
    assert table.counting.error and table.counting.taken["Ann"] == ["A", "A"]
    assert "game_cards" not in table.facts  # nothing stored while counting


def test_counting_helper_close_stores_nothing(shared):
    table = new_table(shared, n=2)
    table.open_counting()
    table.count_card("Ann", "10")
    before = shared.store.record(table.mid)
    table.close_counting()
    assert table.counting is None and shared.store.record(table.mid) == before


def test_counting_helper_after_quick_game_tap(shared):
    table = new_table(shared, n=2)
    table.game_to("Ann")
    table.open_counting()
    table.count_card("Ben", "10")
    table.enter_counted()
    assert table.error is None
    assert table.scores == {"Ann": 0, "Ben": 1}


COUNT_OPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("add"), st.sampled_from(["Us", "Them", "Else"]), st.sampled_from(list(COUNTING_RANKS) + ["7", "K"])
        ),
        st.tuples(st.just("remove"), st.sampled_from(["Us", "Them"]), st.just("")),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(ops=COUNT_OPS)
def test_card_count_properties(ops):
    c = CardCount(["Us", "Them", "Else"])
    for op, side, rank in ops:
        before = {s: list(v) for s, v in c.taken.items()}
        if op == "add":
            c.add(side, rank)
            if c.error is None:
                assert c.taken[side] == before[side] + [rank]
                c.remove_last(side)  # undoes the add exactly
                assert c.taken == before and c.error is None
                c.add(side, rank)
            else:
                assert c.taken == before  # refused: nothing counted
                assert rank not in CARD_POINTS or sum(v.count(rank) for v in before.values()) == 4
        else:
            c.remove_last(side)
            assert c.taken[side] == before[side][:-1]
        for r in COUNTING_RANKS:
            assert sum(v.count(r) for v in c.taken.values()) <= 4
            assert c.left(r) == 4 - sum(v.count(r) for v in c.taken.values())
        assert c.points() == {s: sum(CARD_POINTS[r] for r in v) for s, v in c.taken.items()}
        assert sum(c.points().values()) <= 80
        assert c.game_cards() == c.taken and c.game_cards() is not c.taken


# ---------------------------------------------------------------- penalties
@pytest.mark.parametrize("variant", ["trinidad", "seven-up", "west-yorkshire"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_misdeal(shared, variant, n):
    table = new_table(shared, n=n, variant=variant, dealer="Ben")
    table.misdeal()
    assert table.error is None
    dealer_side = table.side_of("Ben")
    assert table.scores == {s: (0 if s == dealer_side else 1) for s in table.sides}
    assert table.hand.void and table.phase == "deal"
    assert table.suggested_dealer() == "Ben"
    assert "misdeal" in table.note
    consistent(shared, table)
    table.start_hand(table.suggested_dealer())
    assert table.phase == "hand" and table.dealer == "Ben" and table.hand_number == 2


def test_misdeal_refused_once_facts_are_in(shared):
    table = new_table(shared, n=2)
    table.turn_up("J")
    before = shared.store.record(table.mid)
    table.misdeal()
    assert table.error and "misdeal" in table.error
    assert shared.store.record(table.mid) == before and table.scores == {"Ann": 3, "Ben": 0}


def test_revoke_bars_game(shared):
    table = new_table(shared, n=3)
    table.ask_penalty("revoke")
    assert table.penalty == "revoke"
    table.revoke("Ben")
    assert table.penalty is None and table.error is None
    assert table.scores == {"Ann": 1, "Ben": 0, "Cy": 1}
    assert table.note == "Ann +1 revoke by Ben, Cy +1 revoke by Ben"
    table.game_to("Ben")  # Ben took the most card points but revoked
    assert table.scores == {"Ann": 1, "Ben": 0, "Cy": 1}
    assert table.phase == "deal"
    consistent(shared, table)


def test_revoke_other_side_still_scores_game(shared):
    table = new_table(shared, n=4)
    table.revoke("Di")
    assert table.scores == {"Ann & Cy": 1, "Ben & Di": 0}
    table.game_to("Ann & Cy")
    assert table.scores == {"Ann & Cy": 2, "Ben & Di": 0}


@pytest.mark.parametrize("variant", ["trinidad", "tobago"])
def test_honour_revoke_loses_at_once(shared, variant):
    table = new_table(shared, n=4, variant=variant)
    assert table.honours
    table.turn_up("J")
    table.revoke("Ann", honour=True)
    assert table.phase == "over"
    assert table.winner == "Ben & Di"
    line = table.winner_line()
    assert line.startswith("Ben & Di win the match") and "Ann & Cy" in line and "revoked" in line
    assert table.pending_note() is None
    assert score_record(shared.store.record(table.mid))["winner"] == "Ben & Di"
    consistent(shared, table)


def test_honours_only_in_trinidad_and_tobago(shared):
    assert not new_table(shared, variant="seven-up").honours
    assert not new_table(shared, variant="west-yorkshire").honours


def test_peek_west_yorkshire(shared):
    table = new_table(shared, n=4, variant="west-yorkshire")
    assert table.peeks
    table.ask_penalty("peek")
    table.peek("Cy")
    assert table.penalty is None
    assert table.scores == {"Ann & Cy": 0, "Ben & Di": 4}
    assert table.note == "Ben & Di +4 peek by Cy"
    consistent(shared, table)
    assert not new_table(shared, variant="trinidad").peeks


def test_award(shared):
    table = new_table(shared, n=3)
    table.award("Cy", 2, "house rule")
    assert table.scores == {"Ann": 0, "Ben": 0, "Cy": 2}
    assert table.note == "Cy +2 award (house rule)"
    table.award("Ann", 1)
    assert table.scores == {"Ann": 1, "Ben": 0, "Cy": 2}
    assert [p["type"] for p in table.facts["penalties"]] == ["award", "award"]
    consistent(shared, table)


def test_award_bad_side_is_an_error(shared):
    table = new_table(shared, n=2)
    table.award("Nobody", 2)
    assert table.error and "Nobody" in table.error
    assert "penalties" not in table.facts


# -------------------------------------------- the win at the exact point
def at_13_13(shared, n=2) -> FoursTableModel:
    """A Trinidad match at 13-13, the second hand dealt (Ben deals)."""
    table = new_table(shared, n=n)
    a, b = table.sides
    table.award(a, 13)
    table.award(b, 13)
    table.game_to(None)
    table.start_hand(table.suggested_dealer())
    assert table.scores == {a: 13, b: 13} and table.phase == "hand" and table.error is None
    return table


def test_win_waits_for_earlier_facts(shared):
    table = at_13_13(shared)
    table.game_to("Ben")
    assert table.scores["Ben"] == 14
    assert table.phase == "hand" and table.winner_line() is None
    note = table.pending_note()
    assert note and "High" in note and "Low" in note and "Jack" in note and "Game" in note
    table.hold_jack("Ann")
    table.jack_won("Ann")
    assert table.phase == "hand"
    note = table.pending_note()
    assert "High" in note and "Low" in note and "Jack, " not in note and "at Jack" in note
    assert table.winner == "Ann"
    table.set_low(None)
    assert table.phase == "hand" and "High" in table.pending_note() and "Low" not in table.pending_note()
    table.set_high("Ben")
    assert table.phase == "over" and table.pending_note() is None
    assert table.winner == "Ben"
    line = table.winner_line()
    assert line.startswith("Ben wins the match") and "at High" in line
    assert table.scores == {"Ann": 13, "Ben": 14}
    consistent(shared, table)


def test_win_at_turn_up_is_immediate(shared):
    table = at_13_13(shared)
    assert table.dealer == "Ben"
    table.turn_up("A")
    assert table.phase == "over" and table.pending_note() is None
    assert table.winner == "Ben"
    assert "at the turn-up" in table.winner_line()
    table.start_hand("Ann")  # the match is over
    assert table.error and table.hand_number == 2


def test_win_at_high_with_nothing_before(shared):
    table = at_13_13(shared, n=4)
    table.set_high("Di")
    assert table.phase == "over" and table.winner == "Ben & Di"
    assert "at High" in table.winner_line()


JACKS = [None, ("Ann", "Ann"), ("Ann", "Ben"), ("Ben", "Ben"), ("Ben", "Ann")]
AT = {"high": "High", "low": "Low", "game": "Game"}


@settings(max_examples=40, deadline=None)
@given(
    high=st.sampled_from([None, "Ann", "Ben"]),
    low=st.sampled_from([None, "Ann", "Ben"]),
    jack=st.sampled_from(JACKS),
    game=st.sampled_from([None, "Ann", "Ben"]),
    order=st.permutations(["high", "low", "jack", "game"]),
)
def test_winner_at_exact_point_any_order(high, low, jack, game, order):
    path = tempfile.mkdtemp()
    shared = open_shared(path)
    try:
        table = at_13_13(shared)
        scorer = {"high": high, "low": low, "jack": jack[1] if jack else None, "game": game}
        entered: list[str] = []
        for fact in order:
            if fact == "high":
                table.set_high(high)
            elif fact == "low":
                table.set_low(low)
            elif fact == "jack":
                table.hold_jack(jack[0] if jack else None)
                if jack:
                    table.jack_won(jack[1])
            else:
                table.game_to(game)
            assert table.error is None
            entered.append(fact)
            consistent(shared, table)
            counted = [k for k in ("high", "low", "jack", "game") if k in entered and scorer[k]]
            if counted:
                first = counted[0]
                assert table.winner == scorer[first]
                before = ("high", "low", "jack", "game")[: ("high", "low", "jack", "game").index(first)]
                missing = [k for k in before if k not in entered]
                if missing:
                    assert table.phase == "hand" and table.winner_line() is None
                    note = table.pending_note()
                    assert all(m.title() in note for m in missing)
                else:
                    assert table.phase == "over" and table.pending_note() is None
                    at = AT.get(first) or ("Jack" if jack[0] == jack[1] else "Hang Jack")
                    line = table.winner_line()
                    assert line.startswith(f"{scorer[first]} wins the match") and f"at {at}" in line
            else:
                assert table.winner is None and table.pending_note() is None
                assert table.phase == ("deal" if "game" in entered else "hand")
        # everything in: the first item of the counting order wins
        want = next((scorer[k] for k in ("high", "low", "jack", "game") if scorer[k]), None)
        assert table.winner == want
        assert table.phase == ("over" if want else "deal")
        assert score_record(shared.store.record(table.mid))["winner"] == want
    finally:
        shared.close()
        shutil.rmtree(path, ignore_errors=True)


# ---------------------------------------------------------------- undo / redo
def test_undo_redo_a_fact(shared):
    table = new_table(shared, n=2)
    table.turn_up("J")
    table.set_high("Ben")
    assert table.scores == {"Ann": 3, "Ben": 1}
    table.undo()
    assert table.error is None and table.note == "last entry taken back"
    assert table.scores == {"Ann": 3, "Ben": 0} and "high" not in table.facts
    consistent(shared, table)
    table.redo()
    assert table.error is None and table.note == "entry put back"
    assert table.scores == {"Ann": 3, "Ben": 1} and table.facts["high"] == "Ben"
    consistent(shared, table)
    table.redo()  # nothing more to redo
    assert table.error and table.scores == {"Ann": 3, "Ben": 1}


def test_undo_game_goes_back_to_the_hand(shared):
    table = new_table(shared, n=2)
    table.game_to("Ann")
    assert table.phase == "deal"
    table.undo()
    assert table.phase == "hand" and table.scores == {"Ann": 0, "Ben": 0}
    consistent(shared, table)


def test_undo_cancels_pending_jack_holder_first(shared):
    table = new_table(shared, n=2)
    table.set_high("Ben")
    table.hold_jack("Ann")
    before = shared.store.record(table.mid)
    table.undo()
    assert table.jack_held is None and table.jack_choices() == []
    assert shared.store.record(table.mid) == before and table.scores == {"Ann": 0, "Ben": 1}
    table.undo()  # now the fact
    assert table.scores == {"Ann": 0, "Ben": 0}


def test_undo_cancels_open_counting_first(shared):
    table = new_table(shared, n=2)
    table.set_low("Ann")
    table.open_counting()
    table.count_card("Ann", "10")
    before = shared.store.record(table.mid)
    table.undo()
    assert table.counting is None
    assert shared.store.record(table.mid) == before and table.scores == {"Ann": 1, "Ben": 0}


def test_undo_cancels_penalty_question_first(shared):
    table = new_table(shared, n=2)
    table.set_low("Ann")
    table.ask_penalty("revoke")
    before = shared.store.record(table.mid)
    table.undo()
    assert table.penalty is None
    assert shared.store.record(table.mid) == before and table.scores == {"Ann": 1, "Ben": 0}


def test_undo_redo_the_deal_of_a_hand(shared):
    table = new_table(shared, n=2)
    table.turn_up("J")
    table.game_to("Ben")
    table.start_hand("Ben")
    assert table.hand_number == 2 and table.phase == "hand"
    table.undo()
    assert table.error is None
    assert table.hand_number == 1 and table.phase == "deal" and table.suggested_dealer() == "Ben"
    assert len(shared.store.record(table.mid)["hands"]) == 1
    assert table.scores == {"Ann": 3, "Ben": 1}
    consistent(shared, table)
    table.redo()
    assert table.hand_number == 2 and table.dealer == "Ben" and table.phase == "hand"
    consistent(shared, table)


def test_undo_a_win(shared):
    table = at_13_13(shared)
    table.set_high("Ann")
    assert table.phase == "over"
    table.undo()
    assert table.phase == "hand" and table.winner is None and table.scores == {"Ann": 13, "Ben": 13}
    table.redo()
    assert table.phase == "over" and table.winner == "Ann"
    consistent(shared, table)


def test_undo_everything_then_nothing_left(shared):
    table = new_table(shared, n=2)
    table.turn_up("6")
    table.undo()
    table.undo()  # the deal of hand 1
    assert table.error is None and table.hand is None and table.phase == "deal"
    table.undo()
    assert table.error  # nothing to undo: an error, not an exception
    table.redo()
    table.redo()
    assert table.scores == {"Ann": 2, "Ben": 0} and table.dealer == "Ann"
    consistent(shared, table)


def test_every_action_replays(shared):
    table = new_table(shared, n=3, variant="seven-up")
    steps = [
        lambda: table.turn_up("J"),
        lambda: table.beg("run"),
        lambda: table.turn_up("3"),
        lambda: table.revoke("Cy"),
        lambda: table.set_high("Ben"),
        lambda: table.set_low("Cy"),
        lambda: table.hold_jack("Ann"),
        lambda: table.jack_won("Ben"),
        lambda: table.undo(),
        lambda: table.redo(),
        lambda: table.game_to(None),
        lambda: table.start_hand(table.suggested_dealer()),
        lambda: table.misdeal(),
        lambda: table.undo(),
        lambda: table.undo(),
        lambda: table.redo(),
    ]
    for step in steps:
        step()
        assert table.error is None
        consistent(shared, table)
    assert table.hand_number == 2 and table.phase == "hand"


def test_undo_of_a_corrected_fact_takes_it_back_whole(shared):
    """The documented choice (docs/app.md): a fact entered again is taken back whole."""
    table = new_table(shared, n=2)
    table.turn_up("J")
    table.turn_up("6")
    assert table.turned == ["6"] and table.scores == {"Ann": 2, "Ben": 0}
    table.undo()
    assert table.turned == [] and table.scores == {"Ann": 0, "Ben": 0}
    assert "turn_up" not in shared.store.record(table.mid)["hands"][-1]


def test_game_tapped_after_counting_replaces_the_counted_cards(shared):
    table = new_table(shared, n=2)
    table.open_counting()
    table.count_card("Ben", "10")
    table.enter_counted()
    assert table.scores == {"Ann": 0, "Ben": 1}
    table.game_to("Ann")
    assert table.error is None and table.scores == {"Ann": 1, "Ben": 0}
    hand = shared.store.record(table.mid)["hands"][-1]
    assert "game_cards" not in hand and hand["game"] == {"Ann": 1, "Ben": 0}


@pytest.mark.parametrize("case", ["run the pack", "second penalty"])
def test_undo_takes_back_only_the_last_entry(shared, case):
    table = new_table(shared, n=2)
    if case == "run the pack":
        table.turn_up("J")
        table.beg("run")
        table.turn_up("6")
        want = (table.scores, table.turned)
        table.turn_up("A")
    else:
        table.revoke("Ann")
        want = (table.scores, table.turned)
        table.award("Ann", 2)
    table.undo()
    assert (table.scores, table.turned) == want


# --------------------------------------------------- chips and pegboard
def test_chips_only_in_seven_up(shared):
    table = new_table(shared, n=2)
    assert table.chips() is None
    table.turn_up("J")
    assert table.chips() is None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seven_up_chips(shared, n):
    table = new_table(shared, n=n, variant="seven-up")
    steps = [
        lambda: table.turn_up("J"),
        lambda: table.beg("give"),
        lambda: table.set_high(table.players[-1]),
        lambda: table.set_low(table.players[0]),
        lambda: table.award(table.sides[0], 3),
        lambda: table.award(table.sides[0], 5),
    ]
    for step in steps:
        step()
        assert table.error is None
        chips = table.chips()
        assert [c.side for c in chips] == table.sides and all(isinstance(c, Chips) for c in chips)
        for c in chips:
            assert c.left + c.pool == table.target == 7
            assert c.pool == min(table.scores[c.side], 7) and c.left >= 0
    assert table.phase == "over"
    assert table.chips()[0] == Chips(table.sides[0], 0, 7)


@pytest.mark.parametrize("variant", ["trinidad", "seven-up", "running"])
def test_pegboard_and_events(shared, variant):
    table = new_table(shared, n=4, variant=variant)
    table.turn_up("J")
    table.set_high("Ben")
    table.hold_jack("Ann")
    table.jack_won("Ben")
    table.game_to("Ann & Cy")
    table.start_hand(table.suggested_dealer())
    table.award("Ben & Di", 40)
    board = table.pegboard()
    assert board.target == table.target
    fronts = {name: pegs.front for name, pegs in board.sides}
    assert fronts == table.scores
    for name, pegs in board.sides:
        assert board.place(pegs.front)[1] == min(table.scores[name], table.target)
    ev = table.events()
    assert {s: sum(v) for s, v in ev.items()} == table.scores
    assert all(p > 0 for v in ev.values() for p in v)
    assert table.phase == "over"


# ------------------------------------------------------ random actions
PLAYER = st.integers(-1, 5)  # -1: None (nobody / no trump), else a seat (mod the player count)
ACTION = st.one_of(
    st.tuples(st.just("turn_up"), st.sampled_from(RANKS)),
    st.tuples(st.just("beg"), st.sampled_from([None, "stand", "give", "run"])),
    st.tuples(st.just("high"), PLAYER),
    st.tuples(st.just("low"), PLAYER),
    st.tuples(st.just("jack"), PLAYER, st.integers(0, 5)),
    st.tuples(st.just("game"), PLAYER),
    st.tuples(st.just("misdeal")),
    st.tuples(st.just("revoke"), st.integers(0, 5), st.booleans()),
    st.tuples(st.just("start_hand"), PLAYER),
    st.tuples(st.just("undo")),
    st.tuples(st.just("redo")),
)


@settings(max_examples=35, deadline=None)
@given(
    variant=st.sampled_from(list(VARIANTS)),
    n=st.sampled_from([2, 3, 4, 6]),
    dealer=st.integers(0, 5),
    actions=st.lists(ACTION, max_size=30),
)
def test_random_actions_never_raise_and_match_the_store(variant, n, dealer, actions):
    path = tempfile.mkdtemp()
    shared = open_shared(path)
    try:
        table = new_table(shared, n=n, variant=variant, dealer=NAMES[dealer % n])
        players = table.players

        def who(i):
            return None if i < 0 else players[i % n]

        for a in actions:
            kind = a[0]
            if kind == "turn_up":
                table.turn_up(a[1])
            elif kind == "beg":
                table.beg(a[1])
            elif kind == "high":
                table.set_high(who(a[1]))
            elif kind == "low":
                table.set_low(who(a[1]))
            elif kind == "jack":
                table.hold_jack(who(a[1]))
                if a[1] >= 0:
                    assert len(table.jack_choices()) == n
                    table.jack_won(players[a[2] % n])
            elif kind == "game":
                table.game_to(None if a[1] < 0 else table.sides[a[1] % len(table.sides)])
            elif kind == "misdeal":
                table.misdeal()
            elif kind == "revoke":
                table.revoke(players[a[1] % n], honour=a[2])
            elif kind == "start_hand":
                if table.phase != "deal":
                    continue
                table.start_hand(table.suggested_dealer() if a[1] < 0 else players[a[1] % n])
            elif kind == "undo":
                table.undo()
            else:
                table.redo()
            assert table.phase in PHASES
            out = score_record(shared.store.record(table.mid))
            assert table.scores == out["scores"]
            assert table.winner == out["winner"]
            if table.phase == "over":
                assert table.winner is not None and table.winner_line()
            else:
                assert table.winner_line() is None
            if table.pending_note():
                assert table.phase == "hand" and table.winner is not None
            assert {s: sum(v) for s, v in table.events().items()} == table.scores
            if variant == "seven-up":
                assert all(c.left + c.pool == table.target for c in table.chips())
            else:
                assert table.chips() is None
    finally:
        shared.close()
        shutil.rmtree(path, ignore_errors=True)
