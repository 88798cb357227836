"""The paper-style displays (docs/rules/tally.md): the Holsey-Tidwell X
tally and the cribbage pegboard as data, the score timeline they are built
from, the score screen's displays, and the ``tally`` / ``pegboard`` commands."""

import json
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import registry
from scorekeeper.allfives.record import load
from scorekeeper.allfives.simulate import random_record
from scorekeeper.allfives.timeline import EACH_SUBTRACTS_NOTE, timeline
from scorekeeper.tally import Pegs, Symbol, Tally, TallyError, board_holes, pegboard, pegs, tally
from scorekeeper.ui.score.model import score_displays

# One side's scoring events: positive multiples of five (scale 1), as a turn or a settlement scores them.
events_1 = st.lists(st.integers(1, 40).map(lambda k: 5 * k), max_size=40)
events_5 = st.lists(st.integers(1, 40), max_size=40)


# ------------------------------------------------------------------ the spec
def test_spec_example():
    t = tally([10, 10, 5, 15, 35])
    assert t.to_json() == {
        "total": 75,
        "symbols": [
            {"x": 2, "spaces": ["o", "x", "o", "o"]},
            {"x": 2, "spaces": ["o", "/", "", ""]},
        ],
    }


def test_spec_example_step_by_step():
    """The spec's commentary: 10 -> the large X; 10 -> o; 5 -> /; 15 -> completes that x, then o;
    35 -> o fills the last space (50), then a new large X, o, /."""
    steps = [str(tally([10, 10, 5, 15, 35][:k])) for k in range(1, 6)]
    assert steps == [
        "[X . . . .]",
        "[X o . . .]",
        "[X o / . .]",
        "[X o x o .]",
        "[X o x o o] [X o / . .]",
    ]


def test_strokes_fill_in_order_x_then_top_right_bottom_left():
    fives = [str(tally([5] * k)) for k in range(1, 11)]
    assert fives == [
        "[\\ . . . .]",
        "[X . . . .]",
        "[X / . . .]",
        "[X x . . .]",
        "[X x / . .]",
        "[X x x . .]",
        "[X x x / .]",
        "[X x x x .]",
        "[X x x x /]",
        "[X x x x x]",
    ]
    assert str(tally([5] * 11)) == "[X x x x x] [\\ . . . .]"


def test_the_large_x_is_always_strokes():
    # A ten begun on the large X (or half of it) is never an o.
    assert str(tally([10])) == "[X . . . .]"
    assert str(tally([5, 10])) == "[X / . . .]"
    assert str(tally([50, 10])) == "[X o o o o] [X . . . .]"


def test_a_ten_made_in_one_turn_is_an_o_only_from_an_empty_space():
    assert str(tally([10, 10])) == "[X o . . .]"
    assert str(tally([10, 5, 5])) == "[X x . . .]"  # two fives are an x, not an o
    assert str(tally([10, 5, 10])) == "[X x / . .]"  # the ten begins on a half-made x
    assert str(tally([10, 30])) == "[X o o o .]"


def test_scale_5_one_point_is_one_stroke():
    assert tally([2, 2, 1, 3, 7], scale=5).to_json() == tally([10, 10, 5, 15, 35]).to_json() | {"total": 15}


def test_negative_points_are_refused():
    with pytest.raises(TallyError, match="event 2: -5 points: the tally cannot show a deduction"):
        tally([10, -5])
    with pytest.raises(TallyError, match="a pegboard cannot show a deduction"):
        pegs([3, -1])


def test_points_that_are_not_whole_strokes_are_refused():
    with pytest.raises(TallyError, match="event 1: 7 points is not a multiple of 5"):
        tally([7])
    with pytest.raises(TallyError, match="scale must be 1 or 5"):
        tally([5], scale=2)
    with pytest.raises(TallyError):
        Symbol(3, ("", "", "", ""))


def test_pegboard_spec_example():
    assert pegs([3, 2, 4]) == Pegs(front=9, back=5)
    assert pegs([3, 2, 4]).to_json() == {"front": 9, "back": 5}


def test_pegs_start_at_zero_and_a_zero_moves_nothing():
    assert pegs([]) == Pegs(0, 0)
    assert pegs([4]) == Pegs(4, 0)
    assert pegs([3, 0, 4, 0]) == Pegs(7, 3)


def test_board_size_follows_the_target():
    assert board_holes(61) == 61 and board_holes(32) == 61
    # All Fours targets: a short board whose game hole is the target
    assert [board_holes(t) for t in (7, 9, 10, 11, 14, 31)] == [7, 9, 10, 11, 14, 31]
    assert board_holes(62) == 121 and board_holes(121) == 121
    b = pegboard({"Us": [60, 3], "Them": [2]}, target=61)
    assert b.holes == 61 and b.track == 60
    assert b.place(63) == (0, 61)  # past the game hole: the peg is in the game hole
    assert pegboard({"Us": []}, target=121).place(100) == (0, 100)
    assert pegboard({"Us": []}, target=200).place(130) == (1, 10)  # round again


# -------------------------------------------------------------- properties
@given(events_1)
def test_tally_total_is_the_sum_of_the_events(ev):
    t = tally(ev)
    assert t.total == sum(ev)
    assert t.strokes * 5 == sum(ev)


@given(events_5)
def test_tally_total_is_the_sum_of_the_events_scale_5(ev):
    t = tally(ev, scale=5)
    assert t.total == sum(ev) == t.strokes


@given(events_1)
def test_every_symbol_but_the_last_is_complete(ev):
    t = tally(ev)
    assert all(s.complete for s in t.symbols[:-1])
    assert len(t.symbols) == -(-sum(ev) // 50)  # as many symbols as started fifties


@given(events_1)
def test_an_o_only_where_one_event_scored_a_whole_ten_into_an_empty_space(ev):
    """Compare the tally before and after every event: a space that shows an o
    after the event was empty before it, and the event scored at least ten; an
    o never changes afterwards; and the event drew no more o's than whole tens."""
    before = tally([])
    for k, p in enumerate(ev, 1):
        after = tally(ev[:k])
        new_os = 0
        for i, sym in enumerate(after.symbols):
            for j, space in enumerate(sym.spaces):
                old = before.symbols[i].spaces[j] if i < len(before.symbols) else ""
                if old == "o":
                    assert space == "o"
                elif space == "o":
                    assert old == "" and p >= 10
                    new_os += 1
        assert new_os * 10 <= p
        before = after


@given(events_1)
def test_an_empty_space_and_a_whole_ten_always_make_an_o(ev):
    """The converse: after an event of ten or more, the first space it reached empty holds an o."""
    t0 = tally([])
    for k, p in enumerate(ev, 1):
        t1 = tally(ev[:k])
        if p >= 10 and t0.symbols and t0.symbols[-1].x == 2 and not t0.symbols[-1].complete:
            sym = t0.symbols[-1]
            j = next(j for j, s in enumerate(sym.spaces) if s in ("", "/"))
            if sym.spaces[j] == "":
                assert t1.symbols[len(t0.symbols) - 1].spaces[j] == "o"
        t0 = t1


@given(events_1)
def test_tally_text_round_trips(ev):
    t = tally(ev)
    assert Tally.parse(str(t)).symbols == t.symbols
    assert Tally.parse(str(t)).total == t.total


@given(st.lists(st.integers(0, 30), max_size=30))
def test_pegs_leapfrog(ev):
    p = pegs(ev)
    assert p.front == sum(ev)
    scoring = [x for x in ev if x]
    assert p.back == sum(scoring[:-1])
    # every score lifts the back peg over the front one
    prev = pegs([])
    for k in range(1, len(ev) + 1):
        cur = pegs(ev[:k])
        if ev[k - 1]:
            assert cur.back == prev.front and cur.front == prev.front + ev[k - 1]
        else:
            assert cur == prev
        prev = cur


# ------------------------------------------------------------ from a match
match_args = st.builds(
    lambda seed, players, teams, rules: (seed, players, teams, rules),
    st.integers(0, 10_000),
    st.sampled_from([2, 3, 4]),
    st.booleans(),
    st.sampled_from(
        [{}, {"scale": 5}, {"spinner": "none"}, {"hand_end": "each-subtracts"}, {"scale": 5, "exact_target": True}]
    ),
)


@settings(max_examples=40, deadline=None)
@given(match_args)
def test_timeline_events_add_up_to_the_scores(args):
    seed, players, teams, rules = args
    m = load(random_record(seed, players, teams=teams and players == 4, max_hands=6, **rules))
    tl = timeline(m)
    assert tl.scores == tuple(m.scores)
    assert [sum(e) for e in tl.events()] == list(m.scores)
    assert len(tl.steps) == sum(len(h.turns) + (h.settlement is not None) for h in m.hands)
    assert tl.deductions == any(p < 0 for h in m.hands for p in (h.settlement or ()))


@settings(max_examples=40, deadline=None)
@given(match_args, st.sampled_from([0.0, 0.4]))
def test_score_screen_displays_match_the_scores(args, claim_rate):
    seed, players, teams, rules = args
    rules = dict(rules, claims="muggins") if claim_rate else rules
    m = load(random_record(seed, players, teams=teams and players == 4, max_hands=6, claim_rate=claim_rate, **rules))
    d = score_displays(registry.get("all-fives"), m)
    assert d.summary["scores"] == dict(zip(d.timeline.sides, m.scores, strict=True))
    if rules.get("hand_end") == "each-subtracts":
        assert d.note == EACH_SUBTRACTS_NOTE and d.pegboard is None
        assert all(s.tally is None for s in d.sides)
        return
    assert d.note is None
    for side, score in zip(d.sides, m.scores, strict=True):
        assert side.score == score
        if side.tally is None:  # only a claim that is not whole fives (muggins, scale 1) stops a tally
            assert "not a multiple of 5" in side.note and m.rules.scale == 1
        else:
            assert side.tally.total == score
            assert side.previous.total <= score
    if m.rules.scale == 5:
        assert [p.front for _, p in d.pegboard.sides] == list(m.scores)
        assert d.pegboard.holes == 61
    else:
        assert d.pegboard is None


def test_each_subtracts_scores_dip_below_zero_on_the_timeline():
    for seed in range(200):
        m = load(random_record(seed, 2, max_hands=6, hand_end="each-subtracts"))
        tl = timeline(m)
        if any(min(tl.series(i)) < 0 for i in range(2)):
            assert tl.deductions
            assert score_displays(registry.get("all-fives"), m).note == EACH_SUBTRACTS_NOTE
            return
    pytest.fail("no each-subtracts game went below zero in 200 seeds")


# --------------------------------------------------------------- commands
# ``cli`` is the conftest fixture: ``scorekeeper ARGS`` run in this process, text output.


def test_cli_tally_json_is_the_spec_example(cli):
    p = cli("tally", "--points", "10,10,5,15,35", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {
        "total": 75,
        "symbols": [{"x": 2, "spaces": ["o", "x", "o", "o"]}, {"x": 2, "spaces": ["o", "/", "", ""]}],
    }


def test_cli_pegboard_json_is_the_spec_example(cli):
    p = cli("pegboard", "--points", "3,2,4", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"front": 9, "back": 5}


def test_cli_pegboard_several_sides(cli):
    p = cli("pegboard", "--points", "3,2,4", "--points", "5", "--names", "Us,Them", "--json")
    assert json.loads(p.stdout) == [{"side": "Us", "front": 9, "back": 5}, {"side": "Them", "front": 5, "back": 0}]
    p = cli("pegboard", "--points", "3,2,4", "--points", "5")
    assert p.stdout.splitlines() == ["Side 1: front peg 9, back peg 5", "Side 2: front peg 5, back peg 0"]


def test_cli_tally_text(cli):
    p = cli("tally", "--points", "10,10,5,15,35")
    assert p.stdout.splitlines() == ["75 points", "[X o x o o]  50", "[X o / . .]  75"]


@pytest.mark.parametrize("command", ["tally", "pegboard"])
def test_cli_svg_parses_as_xml(cli, command):
    p = cli(command, "--points", "10,10,5,15,35", "--svg")
    assert p.returncode == 0, p.stderr
    root = ET.fromstring(p.stdout)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize(
    "args, message",
    [
        (["tally", "--points=-5,10"], "event 1: -5 points: the tally cannot show a deduction"),
        (["tally", "--points", "10,-5", "--json"], "event 2: -5 points: the tally cannot show a deduction"),
        (["tally", "--points", "10,-5", "--svg"], "cannot show a deduction"),
        (["pegboard", "--points", "3,-2"], "event 2: -2 points: a pegboard cannot show a deduction"),
        (["pegboard", "--points", "3", "--points=-1", "--json"], "Side 2, event 1: -1 points"),
        (["tally", "--points", "7"], "7 points is not a multiple of 5"),
        (["tally", "--points", "5,five"], "event 2: 'five' is not a whole number"),
        (["pegboard", "--points", "3", "--target", "0"], "target must be"),
        (["pegboard", "--points", "3", "--names", "A,B"], "2 names for 1 sides"),
    ],
)
def test_cli_refuses_bad_points_with_status_2(cli, args, message):
    p = cli(*args)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stdout == ""
    assert p.stderr.startswith("error: ") and message in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
