"""The sniff in the layout drawing (scorekeeper/ui/allfives/drawing.py): set across it is
drawn as a spinner (crosswise; sides along the line, ends across it), set in line it lies
lengthwise and its flanks go out from its middle, across the line. Open ends count as the
layout counts them: ``Drawing.terms`` add up to the count."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings

from scorekeeper.allfives.layout import Layout
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.ui.allfives.drawing import draw_layout

from .sniffs import replay, sniff_hands


def T(text: str) -> Tile:
    return Tile.parse(text)


def build(lead, *plays, way="across"):
    """A sniff layout: ``lead``, then each ``(tile, on)``; the sniff set ``way``."""
    lay = Layout("sniff")
    lay.lead(T(lead), sniff=way)
    for tile, on in plays:
        lay.place(T(tile), T(on), sniff=way)
    return lay


def glyph(d, tile):
    return next(g for g in d.tiles if g.tile is T(tile))


def centre(g):
    return (g.x + g.w / 2, g.y + g.h / 2)


def where(d, tile, of):
    """Where ``tile`` lies from ``of``: "right", "left", "up" or "down" (by their centres)."""
    (x, y), (cx, cy) = centre(glyph(d, tile)), centre(glyph(d, of))
    if abs(x - cx) >= abs(y - cy):
        return "right" if x > cx else "left"
    return "down" if y > cy else "up"


def assert_clear(d) -> None:
    """No two tiles share a cell, and no open end's mark lies on a tile or on another mark."""
    assert d.overlaps == 0
    owner = {}
    for g in d.tiles:
        for c in ((i, j) for i in range(g.x, g.x + g.w) for j in range(g.y, g.y + g.h)):
            assert c not in owner, f"{g.tile} overlaps {owner[c]}"
            owner[c] = g.tile
    for e in d.ends:
        for c in ((int(e.x) - 1 + a, int(e.y) - 1 + b) for a in (0, 1) for b in (0, 1)):
            assert c not in owner, f"the mark of {e.tile}'s {e.value} lies on {owner[c]}"
            owner[c] = e


# ---------------------------------------------------------------- the spec's example
def test_the_spec_example_drawn_across():
    lay = build("1-4", ("4-4", "1-4"), way="across")
    d = draw_layout(lay)
    s = glyph(d, "4-4")
    assert (s.w, s.h, s.spinner, s.sniff) == (2, 4, True, "across")  # crosswise, as a spinner
    assert [(m.value, m.counts) for m in d.ends if m.tile is T("4-4")] == [(4, 8)]  # a side open: 8
    assert sorted(d.terms) == [("1", 1), ("4-4", 8)] and d.count == 9
    lay.place(T("4-5"), T("4-4"))
    d = draw_layout(lay)
    assert sorted((m.value, m.counts) for m in d.ends if m.tile is T("4-4")) == [(4, 4), (4, 4)]
    assert sorted(d.terms) == [("1", 1), ("4", 4), ("4", 4), ("5", 5)] and d.count == 14
    s = glyph(d, "4-4")
    ends = sorted(m.y for m in d.ends if m.tile is T("4-4"))
    assert ends[0] < s.y + 1 and ends[1] > s.y + s.h - 1  # its ends above and below it
    lay.place(T("4-0"), T("4-4"))
    d = draw_layout(lay)
    assert where(d, "4-0", "4-4") in ("up", "down") and where(d, "5-4", "4-4") != where(d, "4-1", "4-4")
    assert sorted(d.terms) == [("0", 0), ("1", 1), ("4", 4), ("5", 5)] and d.count == 10
    assert_clear(d)


def test_the_spec_example_drawn_in_line():
    lay = build("1-4", ("4-4", "1-4"), way="inline")
    d = draw_layout(lay)
    s = glyph(d, "4-4")
    assert (s.w, s.h, s.first, s.second, s.spinner, s.sniff) == (4, 2, 4, 4, True, "inline")  # lengthwise
    assert [(m.value, m.counts) for m in d.ends if m.tile is T("4-4")] == [(4, 4)]  # its far end: a half
    assert sorted(d.terms) == [("1", 1), ("4", 4)] and d.count == 5
    lay.place(T("4-5"), T("4-4"))
    d = draw_layout(lay)
    s = glyph(d, "4-4")
    assert where(d, "5-4", "4-4") in ("left", "right") and where(d, "4-1", "4-4") in ("left", "right")
    flanks = [m for m in d.ends if m.tile is T("4-4")]
    assert [(m.value, m.counts) for m in flanks] == [(4, 0), (4, 0)]  # the flanks count nothing
    assert {m.x for m in flanks} == {centre(s)[0]} and sorted(m.y for m in flanks) == [s.y - 1, s.y + s.h + 1]
    assert sorted(d.terms) == [("1", 1), ("5", 5)] and d.count == 6
    lay.place(T("4-0"), T("4-4"))
    d = draw_layout(lay)
    g = glyph(d, "4-0")
    assert where(d, "4-0", "4-4") in ("up", "down") and (g.w, g.h) == (2, 4)  # out from its middle
    assert centre(g)[0] == centre(glyph(d, "4-4"))[0]
    assert sorted(d.terms) == [("0", 0), ("1", 1), ("5", 5)] and d.count == 6
    assert_clear(d)


# ---------------------------------------------------------------- the sniff as the lead
def test_a_led_sniff_across_sends_its_arms_four_ways_like_a_spinner():
    lay = build("5-5", ("5-0", "5-5"), ("5-3", "5-5"))
    d = draw_layout(lay)
    s = d.tiles[0]
    assert s.h > s.w and s.sniff == "across"
    assert sorted(m.counts for m in d.ends if m.tile is T("5-5")) == [5, 5]  # sides covered: ends, halves
    assert sum(v for _, v in d.terms) == d.count == 0 + 3 + 5 + 5
    for t in ("5-1", "5-2"):
        lay.place(T(t), T("5-5"))
    d = draw_layout(lay)
    arms = {t: where(d, t, "5-5") for t in ("5-0", "5-3", "5-1", "5-2")}
    assert arms == {"5-0": "right", "5-3": "left", "5-1": "up", "5-2": "down"}
    assert d.count == 0 + 3 + 1 + 2 == sum(v for _, v in d.terms)
    assert_clear(d)


def test_a_led_sniff_in_line_lies_lengthwise_and_sends_its_flanks_up_and_down():
    lay = build("5-5", way="inline")
    d = draw_layout(lay)
    s = d.tiles[0]
    assert (s.w, s.h, s.first, s.second, s.sniff) == (4, 2, 5, 5, "inline")
    assert sorted((m.x, m.counts) for m in d.ends) == [(s.x - 1, 5), (s.x + s.w + 1, 5)]  # both ends: halves
    assert d.terms == [("5", 5), ("5", 5)] and d.count == 10
    lay.place(T("5-0"), T("5-5"))
    d = draw_layout(lay)
    assert [(m.value, m.counts) for m in d.ends if m.tile is T("5-5")] == [(5, 5)]  # no flank yet
    for t in ("5-3", "5-1", "5-2"):
        lay.place(T(t), T("5-5"))
    d = draw_layout(lay)
    arms = {t: where(d, t, "5-5") for t in ("5-0", "5-3", "5-1", "5-2")}
    assert arms == {"5-0": "right", "5-3": "left", "5-1": "up", "5-2": "down"}
    for t in ("5-1", "5-2"):
        assert centre(glyph(d, t))[0] == centre(d.tiles[0])[0]
    assert d.count == 0 + 3 + 1 + 2 == sum(v for _, v in d.terms)
    assert_clear(d)


def test_a_sniff_in_line_further_down_the_line_keeps_its_flanks_across_the_line():
    lay = build("6-5", ("6-3", "6-5"), ("3-3", "6-3"), ("3-2", "3-3"), ("3-1", "3-3"), ("3-0", "3-3"), way="inline")
    d = draw_layout(lay)
    s = glyph(d, "3-3")
    assert s.w > s.h and where(d, "3-3", "6-3") == "left"
    assert where(d, "3-2", "3-3") == "left"
    assert {where(d, "3-1", "3-3"), where(d, "3-0", "3-3")} == {"up", "down"}
    assert d.count == lay.count == 5 + 2 + 1 + 0 == sum(v for _, v in d.terms)
    assert_clear(d)


# ---------------------------------------------------------------- properties
def _check_arms(d, lay):
    """Each tile on the sniff lies beyond it: along its line for a side (an in-line end),
    across it for an end (a flank), the latter reaching across the sniff's middle."""
    if lay.sniff is None:
        return
    tile, way = lay.sniff
    s = glyph(d, str(tile))
    long_x = s.w > s.h
    line_x = long_x if way == "inline" else not long_x  # does the line run left-right?
    sides = 2 if lay.root.tile is tile else 1
    lo = (s.x, s.y) if line_x else (s.y, s.x)
    hi = (s.x + s.w, s.y + s.h) if line_x else (s.y + s.h, s.x + s.w)
    mid = centre(s)[0] if line_x else centre(s)[1]
    for k, child in enumerate(lay.children(tile)):
        g = glyph(d, str(child.tile))
        a0, a1 = (g.x, g.x + g.w) if line_x else (g.y, g.y + g.h)  # along the line
        c0, c1 = (g.y, g.y + g.h) if line_x else (g.x, g.x + g.w)  # across it
        if k < sides:
            assert a0 >= hi[0] or a1 <= lo[0], f"{child.tile} is not beyond the sniff along the line"
        else:
            assert c0 >= hi[1] or c1 <= lo[1], f"{child.tile} is not beyond the sniff across the line"
            assert a0 < mid < a1, f"{child.tile} does not go out from the sniff's middle"


@settings(max_examples=60)
@given(sniff_hands())
def test_every_step_of_a_random_hand_is_drawn_right(hand):
    lay = Layout("sniff")
    for n, (tile, on, way) in enumerate(hand, 1):
        if on is None:
            lay.lead(tile, sniff=way)
        else:
            lay.place(tile, on, sniff=way)
        d = draw_layout(lay)
        assert [g.tile for g in d.tiles] == [node.tile for node in lay]
        assert sum(v for _, v in d.terms) == d.count == lay.count
        assert sorted(e.value for e in d.ends) == sorted(lay.open_ends())
        for g in d.tiles:
            assert sorted((g.w, g.h)) == [2, 4]
            assert 0 <= g.x and g.x + g.w <= d.width and 0 <= g.y and g.y + g.h <= d.height
            assert g.sniff == (lay.sniff[1] if lay.sniff and lay.sniff[0] is g.tile else None)
            assert g.spinner == (g.sniff is not None)
        lead = d.tiles[0]
        if lead.sniff is not None:  # the line runs left-right
            assert (lead.w > lead.h) == (lead.sniff == "inline")
        _check_arms(d, lay)
        if n <= 14:  # longer hands are drawn clear too, unless the search runs out of tries
            assert_clear(d)


# ---------------------------------------------------------------- the table's view
@pytest.mark.parametrize("way", ["across", "inline"])
def test_the_table_draws_the_sniff(way):
    from flet.components.component import Renderer

    from scorekeeper.ui.allfives.layout_view import count_line, layout_view

    lay = replay([(T("1-4"), None, "across"), (T("4-4"), T("1-4"), way), (T("4-5"), T("4-4"), "across")])
    d = draw_layout(lay)
    # (the view lays the drawing out again for its box)
    table = SimpleNamespace(play=SimpleNamespace(choosing=None, choose=None), drawing=lambda box: draw_layout(lay, box))
    with Renderer().with_context():
        view = layout_view(table, d, 400, 300)
        sheet = next(c for c in view.controls if c.key == "sheet")  # the drawing's tiles and marks
        laid = {c.key.removeprefix("laid-"): c for c in sheet.controls if c.key and c.key.startswith("laid-")}
        line = count_line(d)
    assert laid["4-4"].content.label == "4-4 sniff on the table" and laid["5-4"].content.label == "5-4 on the table"
    horizontal = {t: c.width > c.height for t, c in laid.items()}
    assert horizontal == {"4-1": True, "4-4": way == "inline", "5-4": True}
    assert line.controls[1].value == ("= 1 + 4 + 4 + 5" if way == "across" else "= 1 + 5")
