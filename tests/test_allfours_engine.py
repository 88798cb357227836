"""The All Fours engine as an event fold (beyond the spec's rules, which
tests/test_allfours_spec.py checks): undo, correcting the last hand, the next
dealer, and ``scorekeeper score`` routing and ``--text`` for All Fours."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.allfours import AllFoursError, Match, Setup, load, result
from scorekeeper.errors import ScorekeeperError

ROOT = Path(__file__).resolve().parents[1]


def setup(players=("Ann", "Ben", "Cy"), teams=None, **rules):
    r = {"format": "scorekeeper/1", "game": "all-fours", "players": list(players)}
    if teams:
        r["teams"] = teams
    if rules:
        r["rules"] = rules
    return Setup.of(r)


HAND = {
    "dealer": "Ann",
    "turn_up": ["J"],
    "high": "Ben",
    "low": "Ann",
    "jack": {"held": "Ben", "won": "Ben"},
    "game": {"Ann": 40},
}


def test_undo_drops_the_last_hand_and_its_points():
    m = Match(setup())
    m.push(HAND)
    before = m.state()
    m.push({"dealer": "Cy", "high": "Ann"})
    assert m.undo() == {"dealer": "Cy", "high": "Ann"}
    assert m.state() == before


def test_replace_last_adds_facts_to_the_hand_being_entered():
    m = Match(setup())
    m.push({"dealer": "Ann", "turn_up": ["J"]})
    assert m.scores == [3, 0, 0]
    m.replace_last({"dealer": "Ann", "turn_up": ["J"], "high": "Ben"})
    assert m.scores == [3, 1, 0] and len(m.hands) == 1


def test_replace_last_is_atomic():
    m = Match(setup())
    m.push({"dealer": "Ann", "turn_up": ["J"]})
    before = m.state()
    with pytest.raises(AllFoursError, match="hand 1, high: 'Zed' is not a player"):
        m.replace_last({"dealer": "Ann", "turn_up": ["J"], "high": "Zed"})
    assert m.state() == before


def test_a_refused_hand_changes_nothing():
    m = Match(setup())
    m.push(HAND)
    before = m.state()
    with pytest.raises(ScorekeeperError, match="hand 2"):
        m.push({"dealer": "Ann", "game": {"Ann": 81}})
    assert m.state() == before


def test_trinidad_deals_counter_clockwise_the_others_clockwise():
    t = Match(
        setup(
            players=("Ann", "Ben", "Cy", "Di"), teams={"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]}, variant="trinidad"
        )
    )
    t.push({"dealer": "Ann"})
    assert t.setup.players[t.suggested_dealer()] == "Di"
    s = Match(setup(variant="seven-up"))
    s.push({"dealer": "Ann"})
    assert s.setup.players[s.suggested_dealer()] == "Ben"


def test_after_a_misdeal_the_same_dealer_deals_again():
    m = Match(setup(variant="seven-up"))
    m.push({"dealer": "Ben", "penalties": [{"type": "misdeal"}]})
    assert m.setup.players[m.suggested_dealer()] == "Ben"
    assert m.scores == [1, 0, 1]


hand_facts = st.fixed_dictionaries(
    {"dealer": st.sampled_from(["Ann", "Ben", "Cy"])},
    optional={
        "high": st.sampled_from(["Ann", "Ben", "Cy"]),
        "low": st.sampled_from(["Ann", "Ben", "Cy"]),
        "turn_up": st.lists(st.sampled_from(["A", "6", "J", "5", "K"]), min_size=1, max_size=3),
        "game": st.fixed_dictionaries({"Ann": st.integers(0, 26), "Ben": st.integers(0, 26), "Cy": st.integers(0, 26)}),
    },
)


@settings(max_examples=60, deadline=None)
@given(st.lists(hand_facts, max_size=8))
def test_undo_is_the_inverse_of_push(hands):
    m = Match(setup(variant="trinidad", target=40))
    for facts in hands:
        before = m.state()
        m.push(facts)
        after = m.state()
        assert m.undo() == facts
        assert m.state() == before
        m.push(facts)
        assert m.state() == after


@settings(max_examples=60, deadline=None)
@given(st.lists(hand_facts, max_size=8))
def test_the_record_round_trips_through_json(hands):
    record = {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben", "Cy"],
        "rules": {"target": 40},
        "hands": hands,
    }
    out = result(load(record))
    again = result(load(json.loads(json.dumps(record))))
    assert out == again == json.loads(json.dumps(out))


def cli(*args, stdin=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def test_score_command_routes_all_fours_records(tmp_path):
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


def test_score_command_names_the_hand_of_an_all_fours_error():
    record = {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben"],
        "hands": [HAND | {"game": {"Ann": 40}}, {"dealer": "Ben", "turn_up": ["Z"]}],
    }
    p = cli("score", "-", stdin=json.dumps(record))
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == "error: hand 2, turn_up: unknown rank 'Z' (ranks: 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A)\n"
