"""The All Fours engine as an event fold (beyond the spec's rules, which
tests/allfours/test_allfours_spec.py checks): undo, correcting a fact of the hand
being entered, the next dealer, and ``scorekeeper score`` routing and ``--text``
for All Fours."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.allfours import (
    AllFoursError,
    Deal,
    GamePoints,
    High,
    Jack,
    Low,
    Match,
    Setup,
    TurnUp,
    load,
    result,
)
from scorekeeper.allfours.record import iter_events
from scorekeeper.errors import ScorekeeperError


def setup(players=("Ann", "Ben", "Cy"), teams=None, **rules):
    return Setup.new(players, teams=teams, rules=rules or None)


HAND = {
    "dealer": "Ann",
    "turn_up": ["J"],
    "high": "Ben",
    "low": "Ann",
    "jack": {"held": "Ben", "won": "Ben"},
    "game": {"Ann": 40},
}


def deal(m, facts):
    """Push a hand written as a record's hand: its deal, then its facts."""
    m.start(facts["dealer"])
    return m.enter(**{k: v for k, v in facts.items() if k != "dealer"})


def test_undo_drops_the_last_hand_and_its_points():
    m = Match(setup())
    deal(m, HAND)
    before = m.state()
    m.start("Cy")
    m.enter(high="Ann")
    assert m.pop() == High("Ann")
    assert m.pop() == Deal("Cy")
    assert m.state() == before


def test_a_fact_given_again_replaces_the_earlier_one():
    m = Match(setup())
    m.start("Ann")
    m.push(TurnUp(("J",)))
    assert m.scores == [3, 0, 0]
    m.push(High("Ben"))
    m.push(High("Cy"))
    assert m.scores == [3, 0, 1] and len(m.hands) == 1
    assert m.events == [Deal("Ann"), TurnUp(("J",)), High("Cy")]
    assert m.to_record()["hands"] == [{"dealer": "Ann", "turn_up": ["J"], "high": "Cy"}]


def test_adding_facts_is_atomic():
    m = Match(setup())
    m.start("Ann")
    m.enter(turn_up=["J"])
    before = m.state()
    with pytest.raises(AllFoursError, match="hand 1, high: 'Zed' is not a player"):
        m.push(High("Zed"))
    with pytest.raises(AllFoursError, match="hand 1, high: 'Zed' is not a player"):
        m.enter(low="Ann", high="Zed")
    assert m.state() == before


def test_a_refused_hand_changes_nothing():
    m = Match(setup())
    deal(m, HAND)
    before = m.state()
    with pytest.raises(ScorekeeperError, match="hand 2"):
        deal(m, {"dealer": "Zed"})
    assert m.state() == before
    m.start("Ann")
    with pytest.raises(ScorekeeperError, match="hand 2"):
        m.push(GamePoints((("Ann", 81),)))
    assert len(m.hands) == 2 and m.hand.facts == ()


def test_a_fact_before_any_deal_is_refused():
    m = Match(setup())
    with pytest.raises(ScorekeeperError, match="hand 1, high: no hand has been started"):
        m.push(High("Ann"))
    with pytest.raises(TypeError):
        m.push_facts([{"high": "Ann"}])


def test_trinidad_deals_counter_clockwise_the_others_clockwise():
    t = Match(
        setup(
            players=("Ann", "Ben", "Cy", "Di"), teams={"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}, variant="trinidad"
        )
    )
    t.start("Ann")
    assert t.setup.players[t.suggested_dealer()] == "Di"
    s = Match(setup(variant="seven-up"))
    s.start("Ann")
    assert s.setup.players[s.suggested_dealer()] == "Ben"


def test_after_a_misdeal_the_same_dealer_deals_again():
    m = Match(setup(variant="seven-up"))
    deal(m, {"dealer": "Ben", "penalties": [{"type": "misdeal"}]})
    assert m.setup.players[m.suggested_dealer()] == "Ben"
    assert m.scores == [1, 0, 1]


def test_jack_not_in_play_round_trips():
    m = Match(setup())
    m.start("Ann")
    m.push(Jack())
    assert m.to_record()["hands"] == [{"dealer": "Ann", "jack": None}]
    assert m.hand.items == () and Low("Ann").to_json() == "Ann"


hand_facts = st.fixed_dictionaries(
    {"dealer": st.sampled_from(["Ann", "Ben", "Cy"])},
    optional={
        "high": st.sampled_from(["Ann", "Ben", "Cy"]),
        "low": st.sampled_from(["Ann", "Ben", "Cy"]),
        "turn_up": st.lists(st.sampled_from(["A", "6", "J", "5", "K"]), min_size=1, max_size=3),
        "game": st.fixed_dictionaries({"Ann": st.integers(0, 26), "Ben": st.integers(0, 26), "Cy": st.integers(0, 26)}),
    },
)


def _record(hands):
    return {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben", "Cy"],
        "rules": {"variant": "trinidad", "target": 40},
        "hands": hands,
    }


@settings(max_examples=60, deadline=None)
@given(st.lists(hand_facts, max_size=8))
def test_undo_is_the_inverse_of_push(hands):
    s = Setup.of(_record(hands))
    m = Match(s)
    for event in iter_events(_record(hands), s):
        before = m.state()
        m.push(event)
        after = m.state()
        assert m.pop() == event
        assert m.state() == before
        m.push(event)
        assert m.state() == after


@settings(max_examples=60, deadline=None)
@given(st.lists(hand_facts, max_size=8))
def test_replay_equals_the_incremental_state_and_the_record_round_trips(hands):
    record = _record(hands)
    m = load(record)
    assert Match.replay(m.setup, m.events).state() == m.state()
    assert m.to_record() == record
    out = result(m)
    again = result(load(json.loads(json.dumps(record))))
    assert out == again == json.loads(json.dumps(out))


def test_score_command_routes_all_fours_records(cli):
    record = {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben"],
        "hands": [HAND | {"game": {"Ann": 40, "Ben": 2}}],
    }
    p = cli("score", "-", stdin=json.dumps(record))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["game"] == "all-fours" and out["scores"] == {"Ann": 5, "Ben": 2}  # turn-up 3, low, game; high, jack
    t = cli("score", "-", "--text", stdin=json.dumps(record))
    assert t.stdout.splitlines()[:4] == [
        "All Fours (trinidad): Ann vs Ben; target 14",
        "",
        "Hand 1 (dealer Ann)",
        "  Ann  +3  turn-up J",
    ]


def test_score_command_names_the_hand_of_an_all_fours_error(cli):
    record = {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben"],
        "hands": [HAND | {"game": {"Ann": 40}}, {"dealer": "Ben", "turn_up": ["Z"]}],
    }
    p = cli("score", "-", stdin=json.dumps(record))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "error: hand 2, turn_up: unknown rank 'Z' (ranks: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A)\n"
