"""The sniff in the engine and the record (issue 18): ``spinner: "sniff"`` and the turn's
``"sniff": "across" | "inline"``, with every error the spec names for it. The layout's
own tests (counts, what fits where, the drawing) are in ``test_sniff_layout.py`` and
``test_sniff_drawing.py``.
"""

from __future__ import annotations

import pytest

from scorekeeper.allfives import score_record
from scorekeeper.allfives.engine import Match, Setup
from scorekeeper.allfives.record import load, to_record
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import RecordFormatError, ScorekeeperError

from .builders import PASS, H, P, record

SNIFF = {"spinner": "sniff", "hand_size": 7}


def example(way=None):
    """The spec's example: [1-4] led, [4-4] on it (the sniff), [4-5] and [4-0] on the sniff."""
    kw = {} if way is None else {"sniff": way}
    return [P("1-4"), P("4-4", "1-4", **kw), P("4-5", "4-4"), P("4-0", "4-4")]


@pytest.mark.parametrize(
    ("way", "counts"), [("across", [5, 9, 14, 10]), ("inline", [5, 5, 6, 6]), (None, [5, 9, 14, 10])]
)
def test_the_spec_example_both_ways(way, counts):
    out = score_record(record(hands=[H(example(way), leader="Ann")], rules=SNIFF))
    turns = out["hands"][0]["turns"]
    assert [t["count"] for t in turns] == counts
    assert [t["points"] for t in turns] == [c if c % 5 == 0 else 0 for c in counts]
    # the play that set it says how in the output, even when the record left it to the default
    assert [t.get("sniff") for t in turns] == [None, way or "across", None, None]


def test_a_led_sniff_and_a_later_double_that_is_ordinary():
    m = Match(Setup.new(["Ann", "Ben"], rules=SNIFF))
    m.start("Ann")
    assert m.preview(Tile(3, 3), None, "inline") == (6, 0) == m.preview(Tile(3, 3))
    t = m.play("3-3", sniff="inline")
    assert (t.count, t.sniff) == (6, "inline")
    m.play("3-1", on="3-3")  # an in-line end: 3 + 1
    assert m.hand.count == 4
    m.play("1-1", on="3-1")  # an ordinary double, crosswise: 3 + 2
    assert m.hand.count == 5 and m.hand.turns[-1].sniff is None
    assert m.hand.layout.sniff == (m.hand.turns[0].tile, "inline")


def test_the_sniff_round_trips_through_the_record():
    turns = example("inline")
    rec = record(hands=[H(turns, leader="Ann")], rules=SNIFF)
    m = load(rec)
    written = to_record(m)
    assert written["hands"][0]["turns"][1] == {"play": "4-4", "on": "4-1", "sniff": "inline"}
    assert load(written).state() == m.state()


@pytest.mark.parametrize(
    ("rules", "turns", "turn", "text"),
    [
        ({"hand_size": 7}, [P("1-4"), P("4-4", "1-4", sniff="across")], 2, "only said in a match with the sniff"),
        (SNIFF, [P("1-4"), P("4-5", "1-4", sniff="across")], 2, "5-4 is not a double"),
        (
            SNIFF,
            [P("1-4"), P("4-4", "1-4", sniff="across"), P("4-5", "4-4"), P("5-5", "4-5", sniff="inline")],
            4,
            "the sniff is already down (4-4): 5-5 is an ordinary double",
        ),
        (SNIFF, [P("1-4"), P("4-4", "1-4", sniff="sideways")], 2, 'set "across" or "inline", not \'sideways\''),
    ],
)
def test_a_sniff_said_where_it_may_not_be_is_refused(rules, turns, turn, text):
    with pytest.raises(ScorekeeperError) as ei:
        score_record(record(hands=[H(turns, leader="Ann")], rules=rules))
    e = ei.value
    assert (e.hand, e.turn) == (1, turn), str(e)
    assert str(e).startswith(f"hand 1, turn {turn}: ") and text in str(e), str(e)


@pytest.mark.parametrize("value", [1, True, None, ["across"]])
def test_a_sniff_that_is_not_a_word_is_refused(value):
    turns = [P("1-4"), {"play": "4-4", "on": "1-4", "sniff": value}]
    with pytest.raises(RecordFormatError) as ei:
        score_record(record(hands=[H(turns, leader="Ann")], rules=SNIFF))
    assert str(ei.value).startswith("hand 1, turn 2: sniff must be"), str(ei.value)


def test_a_pass_cannot_say_sniff():
    turns = [P("1-4"), PASS(sniff="across")]
    with pytest.raises(RecordFormatError, match=r"^hand 1, turn 2: a pass cannot have 'sniff'$"):
        score_record(record(hands=[H(turns, leader="Ann")], rules=SNIFF | {"boneyard_reserve": 0, "hand_size": 14}))


def test_the_sniff_rule_has_plain_words():
    from scorekeeper.ui.allfives.form import RULE_WORDS

    assert "sniff" in RULE_WORDS["spinner"].values
