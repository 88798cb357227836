"""The paper displays under hostile numbers: the tally and the pegboard refuse what would
take long to draw before drawing anything; the SVG drawings take any whole number
without an OverflowError, a ZeroDivisionError or a number too long to write out."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest
from support import finishes, run_cli

from scorekeeper import registry
from scorekeeper.tally import Pegboard, Pegs, Tally, TallyError, pegboard, tally
from scorekeeper.tally.svg import _nice_step, chart_svg, pegboard_svg, tally_svg
from scorekeeper.tally.timeline import Step, Timeline
from scorekeeper.tally.xtally import Symbol, number_text

HUGE = [10**15, 10**308, 10**309, 10**400, -(10**400), 10**5000, -(10**5000)]


def quickly(fn, *args, **kwargs):
    """``fn(*args, **kwargs)``, which must end (its output is bounded: the tests check that)."""
    with finishes(120):
        return fn(*args, **kwargs)


@pytest.mark.parametrize("scale", [1, 5])
@pytest.mark.parametrize("points", [[99_999_995], [10_000], [5, 99_999_995], [9_995] * 11])
def test_tally_refuses_too_many_points_before_drawing(points, scale):
    with pytest.raises(TallyError) as info:
        quickly(tally, points, scale=scale)
    assert "at most" in info.value.reason and len(str(info.value)) < 200


def test_tally_at_scale_5_draws_at_most_20000_strokes():
    with pytest.raises(TallyError, match="20,000 strokes"):
        quickly(tally, [9_999, 9_999, 9_999], scale=5)
    t = quickly(tally, [9_999, 9_999, 2], scale=5)
    assert t.total == 20_000 and len(t.symbols) == 2_000
    t = quickly(tally, [9_995] * 10, scale=1)
    assert t.total == 99_950
    assert len(quickly(tally_svg, t)) < 5_000_000


@pytest.mark.parametrize("points", [[99_999_999], [10_000], [9_999] * 11, [10**400]])
def test_pegboard_refuses_too_many_points_before_drawing(points):
    with pytest.raises(TallyError) as info:
        quickly(pegboard, {"Us": points, "Them": [1]})
    assert "at most" in info.value.reason and len(str(info.value)) < 200


@pytest.mark.parametrize("target", [0, 100_000, 10**400, True, 61.0])
def test_pegboard_target_bounded(target):
    with pytest.raises(TallyError, match="target must be"):
        pegboard({"Us": [1]}, target=target)


def test_the_largest_boards_draw():
    board = pegboard({"Us": [9_999] * 10, "Them": [5]}, target=99_999)
    assert board.sides[0][1].front == 99_990
    ET.fromstring(quickly(pegboard_svg, board))


@pytest.mark.parametrize(("command", "scale"), [("tally", "5"), ("tally", "1"), ("pegboard", None)])
def test_command_line_refuses_quickly(command, scale):
    args = [command, "--points", "99999999"] + (["--scale", scale] if scale else [])
    ran = quickly(run_cli, *args)
    assert ran.returncode == 2, ran
    line = ran.stderr.strip()
    assert "\n" not in line and "at most" in line and "Traceback" not in ran.stderr


@pytest.mark.parametrize("target", [0, 61, *HUGE], ids=number_text)
@pytest.mark.parametrize("score", [0, -1, 61, *HUGE], ids=number_text)
def test_chart_takes_any_whole_number(target, score):
    tl = Timeline(("Us", "Them"), target, 5, (Step(1, 1, (score, 0)), Step(2, None, (score, -score))))
    svg = quickly(chart_svg, tl)
    ET.fromstring(svg)
    assert len(svg) < 20_000
    ET.fromstring(quickly(chart_svg, Timeline(("Us",), target, 1, ())))


@pytest.mark.parametrize("target", [1, 61, 200, *HUGE], ids=number_text)
@pytest.mark.parametrize("score", [0, -1, 64, *HUGE], ids=number_text)
def test_pegboard_svg_takes_any_whole_number(target, score):
    for holes in (14, 61, 121):
        board = Pegboard(target, (("Us", Pegs(score, score)), ("Them", Pegs(target, 0))), holes)
        svg = quickly(pegboard_svg, board)
        ET.fromstring(svg)
        assert len(svg) < 200_000


@pytest.mark.parametrize("total", HUGE, ids=number_text)
def test_tally_svg_takes_any_whole_number(total):
    ET.fromstring(quickly(tally_svg, Tally(total, (Symbol(2, ("o", "x", "/", "")),))))


@pytest.mark.parametrize("holes", [0, 1, 122, 10**6, 10**400], ids=number_text)
def test_a_board_has_2_to_121_holes(holes):
    with pytest.raises(TallyError):
        Pegboard(61, (), holes)


@pytest.mark.parametrize("kwargs", [{"size": 10**400}, {"per_row": 10**400}, {"size": 2}])
def test_tally_svg_drawing_sizes_bounded(kwargs):
    with pytest.raises(ValueError):
        tally_svg(tally([10]), **kwargs)


def test_nice_step_and_number_text_for_huge_numbers():
    assert _nice_step(10**5000) == 2 * 10**4999
    assert number_text(10**5000) == "1.0e5000" and number_text(-(10**400)) == "-1.0e400"
    assert number_text(999_999_999_999_999) == "999999999999999"


def test_score_displays_of_a_record_at_the_highest_target():
    # the engines refuse a target above 9,999; at 9,999 the chart, tallies and board draw
    game = registry.get("all-fours")
    record = {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben"],
        "rules": {"target": 9_999},
        "hands": [{"dealer": "Ann", "penalties": [{"type": "award", "side": "Ben", "points": 9_999}]}],
    }
    m = game.load(record)
    tl = game.timeline(m)
    ET.fromstring(chart_svg(tl))
    board = pegboard(dict(zip(tl.sides, tl.events(), strict=True)), target=tl.target)
    ET.fromstring(pegboard_svg(board))
    ET.fromstring(tally_svg(tally(tl.events()[1], tl.scale)))
