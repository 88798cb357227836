"""What a picker cell and a place on the drawing are made of (issue 49): each control is
made, diffed, checked and sent at every entry that draws it again, so a split cell's target
is its semantics node, its box and ONE text (its digit, gain and place in spans of their own
sizes and colours, read out as the node's label alone), the lines between the targets are
the cell's own colour between them, and a tile that comes to fit or stops fitting is a new
box around the same semantics node and digits."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorekeeper.dominoes import Tile
from scorekeeper.ui.allfives.fit import Spot
from scorekeeper.ui.allfives.layout_view import LIT, PALE, _draw_cell, _end_button, split_tile
from scorekeeper.ui.allfives.play import EndChoice, PickerCell, Place
from scorekeeper.ui.app import fletdiff


def controls(root: ft.BaseControl) -> list[ft.BaseControl]:
    """Every control under ``root`` (itself, its children, spans included), depth first."""
    found, todo = [], [root]
    while todo:
        c = todo.pop()
        found.append(c)
        for value in fletdiff._fields(c, type(c)):
            items = value if isinstance(value, list) else [value]
            todo += [x for x in items if isinstance(x, ft.BaseControl)]
    return found


def words(text: ft.Text) -> list[tuple[str, Any, Any]]:
    """A text's parts: each its words, size and colour (None: the text's own)."""
    own = [(text.value or "", text.size, text.color)]
    return own + [(s.text or "", s.style.size, s.style.color) for s in text.spans or []]


TAPPED: list[tuple[Tile, Tile]] = []


def placed(tile: Tile, on: Tile) -> None:
    TAPPED.append((tile, on))


def test_a_split_cell_of_two_is_a_target_each_one_text_with_its_digit_gain_and_place() -> None:
    tile = Tile(5, 3)
    places = (Place(Tile(5, 5), 10), Place(Tile(6, 3), 0))
    cell = split_tile(tile, places, placed, 40, key="cell-5-3")
    assert isinstance(cell, ft.Container) and cell.key == "cell-5-3"
    column = cell.content
    assert isinstance(column, ft.Column) and column.spacing == 1  # the line: the cell's colour between
    assert cell.bgcolor == ft.Colors.ON_TERTIARY_CONTAINER
    targets = column.controls
    assert len(targets) == 2  # no line between them of its own
    for target, place in zip(targets, places, strict=True):
        # read out as its label alone, tapped by it or on its box
        assert isinstance(target, ft.Semantics) and target.exclude_semantics and target.button
        assert target.label == f"set 5-3 on {place.on}: scores {place.points}"
        box = target.content
        assert isinstance(box, ft.Container) and box.on_click is target.on_tap
        assert box.bgcolor == ft.Colors.TERTIARY_CONTAINER and box.width == 40
        text = box.content
        assert isinstance(text, ft.Text) and text.text_align == ft.TextAlign.CENTER
        assert text.weight == ft.FontWeight.BOLD
        assert [type(c) for c in controls(target)][:3] == [ft.Semantics, ft.Container, ft.Text]
        assert len(controls(target)) == 3 + len(text.spans or [])  # no row, no column, no text more
        box.on_click(None)
        assert TAPPED.pop() == (tile, place.on)
    # the digit big, the gain beside it (in the scheme's primary colour), the place under
    assert words(targets[0].content.content) == [
        ("5", 17, None),
        (" +10", 11, ft.Colors.PRIMARY),
        ("\non 5-5", 11, None),
    ]
    assert words(targets[1].content.content) == [("3", 17, None), ("\non 6-3", 11, None)]
    # the heights as before: the targets and the 1 px between them fill the cell
    assert targets[0].content.height + 1 + targets[1].content.height == 80


def test_a_split_cell_of_three_says_where_over_the_gain_and_keeps_what_is_the_same() -> None:
    tile = Tile(4, 4)
    places = (Place(Tile(4, 1), 5), Place(Tile(4, 0), 0), Place(Tile(6, 4), 10))
    parts: dict[Any, ft.Control] = {}
    cell = split_tile(tile, places, placed, 34, parts=parts)
    texts = [t.content.content for t in cell.content.controls]
    assert [words(t) for t in texts] == [
        [("on 4-1", 10, None), ("\n+5", 10, ft.Colors.PRIMARY)],
        [("on 4-0", 10, None)],  # scores nothing: the place alone, no span
        [("on 6-4", 10, None), ("\n+10", 10, ft.Colors.PRIMARY)],
    ]
    # the spans' styles are shared objects (Flet's diff passes over the same object)
    assert texts[0].spans[0].style is texts[2].spans[0].style
    # drawn again with one place changed: the others are the very targets drawn last
    again = split_tile(tile, (places[0], Place(Tile(4, 0), 5), places[2]), placed, 34, kept=parts)
    now, was = again.content.controls, cell.content.controls
    assert now[0] is was[0] and now[2] is was[2] and now[1] is not was[1]
    assert now[1].label == "set 4-4 on 4-0: scores 5"


def test_a_tile_that_comes_to_fit_is_a_new_box_around_the_same_semantics_node() -> None:
    tile = Tile(6, 2)
    pale = _draw_cell(PickerCell(tile, "other"), None, lambda t: None, "tile", 40, placed)
    box = pale.control
    assert isinstance(box, ft.Container) and box.key == "cell-6-2" and box.opacity == PALE
    node = box.content
    assert isinstance(node, ft.Semantics) and node.label == "tile 6-2" and node.on_tap is box.on_click
    lit = _draw_cell(PickerCell(tile, "fits"), pale, lambda t: None, "tile", 40, placed)
    assert lit.control is not box and lit.control.opacity == LIT and lit.control.key == "cell-6-2"
    assert lit.control.content is node  # its label and digits not made, diffed nor sent again
    assert lit.control.on_click is box.on_click


def test_a_place_on_the_drawing_is_one_text_where_over_the_gain() -> None:
    spot = Spot(10, 20, 60, 48)
    scoring = _end_button(Tile(6, 2), EndChoice(Tile(2, 2), 15, 15), spot, lambda t: None)
    node = scoring.content
    assert node.label == "set 6-2 on 2-2: count 15, scores 15"
    text = node.content.content
    assert isinstance(text, ft.Text) and text.color == ft.Colors.ON_TERTIARY
    assert words(text) == [("on 2-2", 12, ft.Colors.ON_TERTIARY), ("\n+15", 15, None)]
    nothing = _end_button(Tile(6, 2), EndChoice(Tile(6, 3), 6, 0), spot, lambda t: None)
    assert words(nothing.content.content.content) == [("on 6-3", 12, ft.Colors.ON_TERTIARY)]
