"""The SVG drawings of the tally, the pegboard and the score chart
(``scorekeeper.tally.svg``): well-formed documents whose marks, holes, pegs
and lines match the data they draw."""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorekeeper.tally as T
from scorekeeper.tally import pegboard, tally
from scorekeeper.tally.svg import SIDE_COLOURS, chart_svg, pegboard_svg, tally_svg
from scorekeeper.tally.timeline import Step, Timeline

NS = "{http://www.w3.org/2000/svg}"
NASTY = "Bob <&\"'> Co"


# --------------------------------------------------------------------------
# helpers


def parse(svg: str) -> ET.Element:
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" ')
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    w, h = float(root.get("width")), float(root.get("height"))
    assert w > 0 and h > 0
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    return root


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def having(root: ET.Element, *names: str) -> list[ET.Element]:
    """Elements whose class list holds every one of ``names``, in document order."""
    return [e for e in root.iter() if set(names) <= classes(e)]


def title(root: ET.Element) -> str:
    t = root.find(NS + "title")
    assert t is not None
    return t.text or ""


def texts(root: ET.Element) -> list[str]:
    return ["".join(e.itertext()) for e in root.iter(NS + "text")]


def elements(t: T.Tally) -> tuple[int, int]:
    """(stroke elements, o elements) the tally should draw."""
    strokes = sum(s.x + sum({"": 0, "/": 1, "x": 2, "o": 0}[sp] for sp in s.spaces) for s in t.symbols)
    os = sum(sp == "o" for s in t.symbols for sp in s.spaces)
    return strokes, os


points5 = st.lists(st.integers(0, 12).map(lambda k: 5 * k), max_size=20)


# --------------------------------------------------------------------------
# tally


def test_tally_spec_example_marks_the_latest_event_new():
    t, prev = tally([10, 10, 5, 15, 35]), tally([10, 10, 5, 15])
    root = parse(tally_svg(t, previous=prev))
    assert len(having(root, "stroke")) == 2 + 2 + 2 + 1  # X, x in space 2, then X, /
    assert len(having(root, "o")) == 3 + 1
    new = having(root, "new")
    # o in space 4 of symbol 1; symbol 2: both strokes of the X, the o, the /
    assert len(new) == 5
    assert len(having(root, "o", "new")) == 2
    assert len(having(root, "stroke", "new")) == 3
    new_inks = {e.get("stroke") for e in new}
    old_inks = {e.get("stroke") for e in root.iter(NS + "path") if e not in new and classes(e) & {"stroke", "o"}}
    assert len(new_inks) == 1 and len(old_inks) == 1 and new_inks != old_inks


def test_tally_without_previous_has_nothing_new():
    root = parse(tally_svg(tally([10, 10, 5, 15, 35])))
    assert having(root, "new") == []
    assert title(root) == "Tally: " + tally([10, 10, 5, 15, 35]).describe()


def test_tally_strokes_look_hand_drawn():
    root = parse(tally_svg(tally([20, 5])))
    paths = having(root, "stroke")
    assert all(" Q" in p.get("d") for p in paths)  # curved, not ruler-straight
    assert 'stroke-linecap="round"' in tally_svg(tally([20, 5]))
    # the two strokes of the large X are not mirror images of each other
    assert len({p.get("d") for p in paths}) == len(paths)


def test_tally_o_is_a_closed_unfilled_path():
    root = parse(tally_svg(tally([10, 10])))
    (o,) = having(root, "o")
    assert o.get("d").rstrip().endswith("Z")
    parent_fill = {e.get("fill") for e in root.iter(NS + "g") if o in list(e)}
    assert parent_fill == {"none"}


def test_empty_tally_is_one_blank_cell():
    root = parse(tally_svg(tally([]), size=64))
    assert having(root, "stroke") == having(root, "o") == []
    one = parse(tally_svg(tally([10]), size=64))
    assert (root.get("width"), root.get("height")) == (one.get("width"), one.get("height"))
    assert title(root) == "Tally: 0 points: nothing drawn"


def test_tally_wraps_after_per_row_symbols():
    five = parse(tally_svg(tally([50] * 5), per_row=5))
    six = parse(tally_svg(tally([50] * 6), per_row=5))
    eleven = parse(tally_svg(tally([50] * 11), per_row=5))
    assert five.get("width") == six.get("width") == eleven.get("width")
    h5, h6, h11 = (float(r.get("height")) for r in (five, six, eleven))
    assert h5 < h6 < h11 and h11 - h6 == pytest.approx(h6 - h5) == pytest.approx(64)
    narrow = parse(tally_svg(tally([50] * 6), per_row=2))
    assert float(narrow.get("width")) < float(six.get("width"))
    assert float(narrow.get("height")) == pytest.approx(h5 + 2 * 64)


def test_tally_size_scales_the_drawing():
    small = parse(tally_svg(tally([15]), size=32))
    big = parse(tally_svg(tally([15]), size=128))
    assert float(big.get("width")) == pytest.approx(4 * float(small.get("width")), abs=2)


def test_tally_title_is_escaped():
    svg = tally_svg(tally([10]), title=NASTY)
    assert title(parse(svg)) == NASTY


def test_tally_is_deterministic():
    t, prev = tally([10, 10, 5, 15, 35]), tally([10, 10, 5, 15])
    assert tally_svg(t, previous=prev) == tally_svg(t, previous=prev)


def test_tally_rejects_bad_layout():
    with pytest.raises(ValueError):
        tally_svg(tally([10]), per_row=0)


@settings(max_examples=60, deadline=None)
@given(points5, st.sampled_from([1, 3, 5]), st.sampled_from([32, 64]))
def test_tally_counts_strokes_and_os(events, per_row, size):
    t = tally(events)
    root = parse(tally_svg(t, per_row=per_row, size=size))
    strokes, os = elements(t)
    assert len(having(root, "stroke")) == strokes
    assert len(having(root, "o")) == os
    # two strokes per o: the drawing shows every stroke of the tally
    assert strokes + 2 * os == t.strokes


@settings(max_examples=60, deadline=None)
@given(points5.filter(bool))
def test_tally_new_marks_are_what_the_last_event_added(events):
    t, prev = tally(events), tally(events[:-1])
    root = parse(tally_svg(t, previous=prev))
    ns, no = elements(t)
    ps, po = elements(prev)
    assert len(having(root, "stroke", "new")) == ns - ps
    assert len(having(root, "o", "new")) == no - po
    assert len(having(root, "new")) == (ns + no) - (ps + po)


# --------------------------------------------------------------------------
# pegboard


def pegs_of(root: ET.Element) -> dict[tuple[int, str], int]:
    out = {}
    for e in having(root, "peg"):
        which = ({"front", "back"} & classes(e)).pop()
        out[(int(e.get("data-side")), which)] = int(e.get("data-hole"))
    return out


def track(root: ET.Element, side: int) -> list[tuple[float, float]]:
    (g,) = [g for g in having(root, "track") if g.get("data-side") == str(side)]
    return [(float(c.get("cx")), float(c.get("cy"))) for c in g if "hole" in classes(c)]


def test_pegboard_spec_example_pegs():
    board = pegboard({"Us": [3, 2, 4], "Them": [5]})
    root = parse(pegboard_svg(board))
    assert pegs_of(root) == {(0, "front"): 9, (0, "back"): 5, (1, "front"): 5, (1, "back"): 0}
    assert title(root) == "Pegboard: Us 9 (back peg 5), Them 5 (back peg 0); game at 61"
    # back peg before front peg, per side
    order = [(e.get("data-side"), ({"front", "back"} & classes(e)).pop()) for e in having(root, "peg")]
    assert order == [("0", "back"), ("0", "front"), ("1", "back"), ("1", "front")]
    assert float(root.get("width")) == 390


def test_pegboard_61_holes_per_side_two_rows_serpentine():
    root = parse(pegboard_svg(pegboard({"Us": [], "Them": []})))
    assert len(having(root, "hole")) == 2 * 62
    assert len(having(root, "hole", "start")) == len(having(root, "hole", "game")) == 2
    for side in (0, 1):
        holes = track(root, side)
        assert len(holes) == 62
        xs = [x for x, _ in holes]
        rows = sorted({y for _, y in holes[1:61]})
        assert len(rows) == 2
        assert xs[1:31] == sorted(xs[1:31]) and xs[31:61] == sorted(xs[31:61], reverse=True)
        assert xs[30] == xs[31]  # row 2 comes back from the right end
        assert xs[0] == xs[61] < xs[1]  # start and game hole at the left
        assert holes[0][1] == rows[0] and holes[61][1] == rows[1]
        # groups of five: the gap after hole 5 is wider than between 1 and 2
        assert xs[6] - xs[5] > 1.5 * (xs[2] - xs[1])
    # the tracks are stacked top to bottom
    assert max(y for _, y in track(root, 0)) < min(y for _, y in track(root, 1))


def test_pegboard_121_has_four_rows_per_side():
    board = pegboard({"A": [60, 50], "B": [7], "C": []}, target=121)
    assert board.holes == 121
    root = parse(pegboard_svg(board))
    assert len(having(root, "hole")) == 3 * 122
    for side in range(3):
        holes = track(root, side)
        assert len({y for _, y in holes[1:121]}) == 4
        xs = [x for x, _ in holes]
        for r in range(4):
            row = xs[1 + 30 * r : 31 + 30 * r]
            assert row == sorted(row, reverse=r % 2 == 1)
        assert xs[121] == xs[0]
    assert pegs_of(root)[(0, "front")] == 110 and pegs_of(root)[(0, "back")] == 60
    # every side gets its own colour
    fills = [[c.get("fill") for c in peg] for peg in having(root, "peg", "front")]
    assert [SIDE_COLOURS[i] in f for i, f in enumerate(fills)] == [True] * 3


def test_pegboard_pegs_stand_on_their_holes():
    board = pegboard({"Us": [3, 2, 4]})
    root = parse(pegboard_svg(board))
    holes = track(root, 0)
    for peg in having(root, "peg"):
        body = [c for c in peg if c.get("stroke")][0]
        x, y = holes[int(peg.get("data-hole"))]
        assert (float(body.get("cx")), float(body.get("cy"))) == pytest.approx((x, y))


def test_pegboard_pegs_in_one_hole_are_both_visible():
    root = parse(pegboard_svg(pegboard({"Us": []})))
    bodies = {
        ({"front", "back"} & classes(peg)).pop(): [c for c in peg if c.get("stroke")][0] for peg in having(root, "peg")
    }
    assert bodies["front"].get("cx") != bodies["back"].get("cx")
    assert float(bodies["back"].get("r")) < float(bodies["front"].get("r"))


def test_pegboard_marks_a_target_short_of_the_game_hole():
    root = parse(pegboard_svg(pegboard({"Us": [], "Them": []}, target=45)))
    marks = having(root, "target")
    assert len(marks) == 2
    for side, mark in enumerate(marks):
        assert (float(mark.get("cx")), float(mark.get("cy"))) == pytest.approx(track(root, side)[45])


@pytest.mark.parametrize("target", [7, 11, 14, 31])
def test_a_short_board_is_one_row_ending_in_the_game_hole_at_the_target(target):
    board = pegboard({"Us": [3, 2, 4], "Them": [target + 5]}, target=target)
    root = parse(pegboard_svg(board))
    assert board.holes == target and having(root, "target") == []  # the game hole is the target
    for side in (0, 1):
        holes = track(root, side)
        assert len(holes) == target + 1  # start hole, the track, the game hole
        xs = [x for x, _ in holes]
        assert len({y for _, y in holes[1:]}) == 1  # one row
        assert xs == sorted(xs) and len(set(xs)) == len(xs)  # left to right, the game hole last
        assert max(xs) < float(root.get("width"))  # nothing cut off
    pegs = pegs_of(root)
    assert pegs[(0, "front")] == min(9, target) and pegs[(1, "front")] == target  # past the target: in the game hole
    assert having(parse(pegboard_svg(pegboard({"Us": []}))), "target") == []


def test_pegboard_laps_past_the_board():
    board = pegboard({"Ann": [30], "Bob": [60, 50, 20]}, target=181)
    assert board.place(130) == (1, 10)
    root = parse(pegboard_svg(board))
    assert pegs_of(root)[(1, "front")] == 10
    labels = texts(root)
    assert any("Bob" in t and "lap 2" in t for t in labels)
    assert not any("Ann" in t and "lap" in t for t in labels)


def test_pegboard_escapes_names():
    board = pegboard({NASTY: [5], "Us & Them": [10]})
    svg = pegboard_svg(board)
    root = parse(svg)
    assert NASTY in texts(root) and "Us & Them" in texts(root)
    assert title(root).startswith(f"Pegboard: {NASTY} 5 (back peg 0)")


def test_pegboard_width_and_determinism():
    board = pegboard({"Us": [3, 2, 4], "Them": [5]})
    assert pegboard_svg(board) == pegboard_svg(board)
    wide = parse(pegboard_svg(board, width=600))
    assert float(wide.get("width")) == 600
    one, three = (parse(pegboard_svg(pegboard(dict.fromkeys("ABC"[:k], [])))) for k in (1, 3))
    assert float(one.get("height")) < float(three.get("height"))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 29), max_size=8), min_size=1, max_size=4),
    st.sampled_from([31, 61, 121, 181]),
)
def test_pegboard_pegs_follow_place(events, target):
    board = pegboard({f"S{i}": e for i, e in enumerate(events)}, target=target)
    root = parse(pegboard_svg(board))
    got = pegs_of(root)
    for i, (_, p) in enumerate(board.sides):
        assert got[(i, "front")] == board.place(p.front)[1]
        assert got[(i, "back")] == board.place(p.back)[1]
    assert len(having(root, "hole")) == len(events) * (board.holes + 1)


# --------------------------------------------------------------------------
# chart


def dipping_timeline() -> Timeline:
    steps = (
        Step(1, 1, (10, 0)),
        Step(1, 2, (10, 5)),
        Step(1, None, (-15, 5)),  # each-subtracts: Us go below zero
        Step(2, 1, (-15, 25)),
        Step(2, 2, (0, 25)),
        Step(2, None, (0, -10)),
        Step(3, 1, (20, -10)),
    )
    return Timeline(("Us", NASTY), target=61, scale=1, steps=steps)


def point_list(poly: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in poly.get("points").split()]


def test_chart_one_polyline_per_side_with_every_step():
    tl = dipping_timeline()
    root = parse(chart_svg(tl))
    lines = having(root, "series")
    assert [e.get("data-side") for e in lines] == ["0", "1"]
    for i, line in enumerate(lines):
        pts = point_list(line)
        assert len(pts) == len(tl.steps) + 1
        xs = [x for x, _ in pts]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
        assert line.get("stroke") == SIDE_COLOURS[i]


def test_chart_shows_dips_below_zero():
    tl = dipping_timeline()
    root = parse(chart_svg(tl))
    (zero,) = having(root, "zero")
    y0 = float(zero.get("y1"))
    us = point_list(having(root, "series")[0])
    assert us[0][1] == pytest.approx(y0)  # everyone starts at 0
    assert us[3][1] > y0  # -15 lies below the zero line
    assert us[1][1] < y0  # 10 above it
    them = point_list(having(root, "series")[1])
    assert them[6][1] > y0
    # the dip is inside the image
    assert max(y for _, y in us + them) < float(root.get("height"))


def test_chart_without_deductions_has_no_zero_line():
    tl = Timeline(("Us", "Them"), 61, 5, (Step(1, 1, (5, 0)), Step(1, 2, (5, 10)), Step(2, 1, (12, 10))))
    root = parse(chart_svg(tl))
    assert having(root, "zero") == []
    assert title(root) == "Score chart: Us 12, Them 10 after 3 turns"


def test_chart_target_hands_and_legend():
    tl = dipping_timeline()
    root = parse(chart_svg(tl))
    (target,) = having(root, "target")
    assert target.get("stroke-dasharray")
    labels = texts(root)
    assert "target 61" in labels
    assert {"H1", "H2", "H3"} <= set(labels)
    assert len(having(root, "hand")) == 2  # hands 2 and 3 start inside the plot
    assert "Us 20" in labels and f"{NASTY} -10" in labels
    assert title(root) == f"Score chart: Us 20, {NASTY} -10 after 7 turns"
    # the target line lies above every score here
    ty = float(target.get("y1"))
    assert all(y > ty for line in having(root, "series") for _, y in point_list(line))


def test_chart_of_no_steps_still_renders():
    tl = Timeline(("Us", "Them"), 61, 5, ())
    root = parse(chart_svg(tl))
    for line in having(root, "series"):
        assert len(point_list(line)) == 1
    assert len(having(root, "target")) == 1
    assert title(root) == "Score chart: Us 0, Them 0 after 0 turns"


def test_chart_scores_beyond_the_target_fit():
    tl = Timeline(("Us",), 61, 5, (Step(1, 1, (40,)), Step(1, 2, (95,))))
    root = parse(chart_svg(tl, width=300, height=180))
    assert (root.get("width"), root.get("height")) == ("300", "180")
    (line,) = having(root, "series")
    assert all(0 <= y <= 180 and 0 <= x <= 300 for x, y in point_list(line))


def test_chart_crowded_hands_skip_labels():
    steps = tuple(Step(h, None, (h, 0)) for h in range(1, 81))
    root = parse(chart_svg(Timeline(("A", "B"), 61, 1, steps)))
    hand_labels = [t for t in texts(root) if re.fullmatch(r"H\d+", t)]
    assert "H1" in hand_labels and 1 < len(hand_labels) < 80
    assert len(having(root, "hand")) == 79


def test_chart_is_deterministic():
    assert chart_svg(dipping_timeline()) == chart_svg(dipping_timeline())


# --------------------------------------------------------------------------
# renderer-friendly markup (flutter_svg)


@pytest.mark.parametrize(
    "svg",
    [
        tally_svg(tally([10, 10, 5, 15, 35]), previous=tally([10, 10, 5, 15])),
        pegboard_svg(pegboard({"Us": [3, 2, 4], "Them": [5]}, target=31)),
        chart_svg(dipping_timeline()),
    ],
    ids=["tally", "pegboard", "chart"],
)
def test_markup_avoids_what_flutter_svg_cannot_draw(svg):
    root = parse(svg)
    tags = {e.tag.removeprefix(NS) for e in root.iter()}
    assert not tags & {"style", "filter", "mask", "foreignObject"}
    for attr in ("textLength", "dominant-baseline", "style=", "filter=", "mask="):
        assert attr not in svg
    for t in root.iter(NS + "text"):
        assert t.get("font-family") or any(t in list(g) and g.get("font-family") for g in root.iter(NS + "g"))
