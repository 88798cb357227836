"""What an entry redraws of the picker and the drawing on another phone of the table
(issue 49).

The picker: a tile whose look did not change is the very control it was (Flet's diff
passes over it without looking into it); a tile that comes to fit or stops fitting is a
new box that takes over the old one's id (Flet sends its changed properties, not a new
control) around the same semantics node and digits, its border replaced whole; a split
cell keeps each target that is the same in the same place, and a target is one text (its
parts in spans of their own sizes and colours), with no row or column. No tile is a
component of its own.

The drawing: its tiles and the marks of its open ends are on a sheet that moves in the
box as the drawing grows; a tile in the same place on the sheet is the very control it
was, one that moved on it keeps its face."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable
from typing import Any

import aio
import flet as ft
import pytest
from flet.components.component import Component
from flet.controls import object_patch

from scorekeeper.ui.allfives.layout_view import LIT, PALE
from scorekeeper.ui.allfives.tiles import LitBorder
from scorekeeper.ui.app import fletdiff
from tools.loadtest import broadcast, common


def find(root: Any, hit: Callable[[Any], Any]) -> Any:
    """The first thing under ``root`` (controls, components, lists) for which ``hit`` gives
    something other than None, and what it gave (None where nothing does)."""
    todo = [root]
    while todo:
        item = todo.pop()
        found = hit(item)
        if found is not None:
            return found
        if isinstance(item, list):
            todo += item
        elif isinstance(item, Component):
            todo.append(item._b)
        elif isinstance(item, ft.BaseControl):
            todo += list(fletdiff._fields(item, type(item)))
    return None


def grid_of(root: Any) -> Any:
    """The picker's row of cells under ``root`` (None where the screen shows no picker)."""
    return find(root, lambda i: i if isinstance(i, ft.Row) and i.key == "picker" else None)


def sheet_of(root: Any) -> dict[str, Any]:
    """The drawing's tiles and marks under ``root``, by key (none where it shows no drawing)."""
    sheet = find(root, lambda i: i if isinstance(i, ft.Stack) and i.key == "sheet" else None)
    return {} if sheet is None else {c.key: c for c in sheet.controls}


def frame_of(root: Any) -> dict[str, Any]:
    """The table screen's parts under ``root`` by key (the top bar, the scores, the players,
    the strip, the drawing's box, the count, the panel), and the screen itself as "screen"."""
    table = find(root, lambda i: i if isinstance(i, Component) and i.fn.__name__ == "Table" else None)
    screen = table._b
    return {"screen": screen, **{c.key.split("-")[0] if c.key else "": c for c in screen.controls}}


def chips_of(frame: dict[str, Any]) -> list[Any]:
    """The players' chips (and the boneyard) of a frame."""
    return list(frame["players"].controls)


def words(text: ft.Text) -> str:
    """What a text shows: its value and its spans' texts."""
    return (text.value or "") + "".join(span.text or "" for span in text.spans or [])


def split_words(place: Any, digit: int | None) -> str:
    """What a split cell's target shows: the half's digit and the gain beside it over where
    it goes ("5 +10" over "on 5-5"), or where it goes over the gain."""
    if digit is None:
        return f"on {place.on}" + (f"\n{place.gain}" if place.gain else "")
    return f"{digit}" + (f" {place.gain}" if place.gain else "") + f"\non {place.on}"


def kind(cell: Any) -> str:
    return "down" if cell.state == "down" else "split" if cell.places else "tile"


def watch(entries: int) -> list[dict[str, Any]]:
    """A match at a table of two phones, ``entries`` entries on the first: for each tile
    tapped (not a hand settled, not a tile set in two taps), on the second, every cell of
    the picker before and after (its PickerCell and its control), the drawing's sheet before
    and after, the ids of the controls the entry's patches added or reconciled there, the
    patches' operations, and the screen's frame before and after with what it showed (the
    players' rows, the scores, the actions' handlers)."""
    seen: list[dict[str, Any]] = []
    added: list[int] = []
    ops: list[dict[str, Any]] = []
    from_diff = object_patch.ObjectPatch.from_diff.__func__  # type: ignore[attr-defined]

    def listing(cls: Any, *args: Any, **kwargs: Any) -> Any:
        patch, new, gone = from_diff(cls, *args, **kwargs)
        added.extend(c._i for c in new)
        ops.extend(patch.patch)
        return patch, new, gone

    async def run() -> None:
        from scorekeeper.ui.app.main import make_main
        from scorekeeper.ui.server.shared import open_shared

        loop = asyncio.get_running_loop()
        hub = ft.PubSubHub(loop=loop)
        with tempfile.TemporaryDirectory(prefix="scorekeeper-picker-") as tmp:
            shared = open_shared(os.path.join(tmp, "db"))
            broadcast.record_subscriptions(shared.hub)
            table = broadcast.Table(shared, make_main(shared), loop, hub)
            await table.open(2)
            phone, model = table.sessions[1], table.models[1]

            def shown() -> tuple[Any, dict[Any, tuple[Any, Any]]]:
                row = grid_of(phone.page)
                if row is None or model.phase != "play":
                    return None, {}
                cells = model.play.picker()
                assert len(cells) == len(row.controls)
                return row, {c.tile: (c, ctl) for c, ctl in zip(cells, row.controls, strict=True)}

            def showing() -> tuple[Any, ...]:
                return (model.player_rows, dict(model.scores), model.phase)

            for _ in range(entries):
                row, before = shown()
                sheet = sheet_of(phone.page)
                frame, was_showing = frame_of(phone.page), showing()
                added.clear()
                ops.clear()
                timed = await table.entry()
                await common.idle(table.sessions)
                table.check()
                after_row, after = shown()
                if row is not None and after_row is not None and timed is not None:  # one tap
                    seen.append(
                        {
                            "before": before,
                            "after": after,
                            "added": set(added),
                            "ops": list(ops),
                            "row": after_row,
                            "sheet": (sheet, sheet_of(phone.page)),
                            "frame": (frame, frame_of(phone.page)),
                            "showing": (was_showing, showing()),
                        }
                    )
            added.clear()
            ops.clear()
            frame = frame_of(phone.page)
            model._changed()  # redrawn with nothing changed
            await common.idle(table.sessions)
            seen.append({"floor": (frame, frame_of(phone.page)), "added": set(added), "ops": list(ops)})
            shared.close()

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(object_patch.ObjectPatch, "from_diff", classmethod(listing))
        aio.run(run())  # on a thread of its own: a browser test may have left its loop running
    finally:
        mp.undo()
    return seen


def test_an_entry_redraws_only_the_parts_of_the_frame_whose_look_changed() -> None:
    """The top bar, the players' chips, the scores, the strip, the count and the panel are the
    very controls they were where they show the same; a changed part is a new control whose
    new look is sent (Flet's diff passes over the same object without looking into it)."""
    steps = watch(30)
    floor = steps.pop()
    before, after = floor["floor"]
    assert after["screen"] is before["screen"] and not floor["ops"] and not floor["added"]
    kept = {"scores": 0, "tools": 0, "actions": 0}
    for step in steps:
        (was, now), ((rows, scores, phase), (new_rows, new_scores, new_phase)) = step["frame"], step["showing"]
        if phase != new_phase:
            continue
        values = [op.get("value") for op in step["ops"]]
        for chip, was_chip, row, new_row in zip(chips_of(now), chips_of(was), new_rows, rows, strict=False):
            assert (chip is was_chip) == (row == new_row), f"{row} -> {new_row}"  # (two players: both change)
        assert (now["scores"] is was["scores"]) == (scores == new_scores)
        kept["scores"] += now["scores"] is was["scores"]
        if now["scores"] is not was["scores"]:  # the new score sent
            assert any(f"{side}: {n}" == v for side, n in new_scores.items() for v in values)
        top, was_top = now["top"].controls, was["top"].controls
        assert top[-1] is was_top[-1]  # the tools, while the phone may enter the same
        kept["tools"] += 1
        if top[1].value != was_top[1].value:  # the title: its new words sent
            assert top[1].value in values
        assert now["count"].controls[0].value in values or now["count"] is was["count"]
        actions, was_actions = now["panel"].controls[0], was["panel"].controls[0]
        kept["actions"] += actions is was_actions
        if actions is was_actions:
            assert actions.args == was_actions.args
    assert all(n >= 5 for n in kept.values()), kept


def test_an_entry_redraws_only_the_tiles_whose_look_changed_and_keeps_their_digits() -> None:
    lit_or_pale = kept_targets = went_down = 0
    for step in watch(30)[:-1]:
        before, after = step["before"], step["after"]
        assert not any(isinstance(c, Component) for c in step["row"].controls)
        assert [c.key for c in step["row"].controls] == [f"cell-{t}" for t in after]
        for tile, (cell, control) in after.items():
            was_cell, was = before[tile]
            if cell == was_cell:
                assert control is was, f"{tile}: drawn again, unchanged"
                continue
            if kind(cell) == kind(was_cell) == "tile":  # came to fit, or stopped fitting
                lit_or_pale += 1
                box = control  # a new box, its properties patched ...
                assert box is not was and box._i == was._i
                node = box.content  # ... around the same semantics node and digits: not sent again
                assert isinstance(node, ft.Semantics) and node is was.content
                assert node.label == f"tile {tile}" and node.on_tap is box.on_click
                assert node._i not in step["added"] and node.content._i not in step["added"]
                assert box.opacity == (LIT if cell.state == "fits" else PALE)
                # its border sent whole (a LitBorder as it fits, a plain one as it does not),
                # not compared and sent side by side
                assert isinstance(box.border, LitBorder) == (cell.state == "fits")
                place = list(after).index(tile)
                at = ["controls", place, "border"]  # (in either phone's patch)
                mine = [op for op in step["ops"] if op["path"][-3:] == at]
                assert mine and all(op["op"] == "replace" and op["value"] is box.border for op in mine)
                assert not [op for op in step["ops"] if op["path"][-4:-1] == at]  # no side of it
            if kind(cell) == "down" and kind(was_cell) == "tile":  # set: the same cell, emptied
                # a box of the same type and key (a control of another type would replace it in
                # the row, and Flet's client would build the whole row of 28 cells again)
                went_down += 1
                assert type(control) is type(was) and control.key == was.key and control._i == was._i
                assert control.content is None  # its properties patched, not sent whole
                assert not [op for op in step["ops"] if op.get("value") is control]
            if kind(cell) == "split":  # each target one text, its parts in spans
                n = len(cell.places)
                digits = (tile.hi, tile.lo) if n == 2 else (None,) * n
                for place, digit, target in zip(cell.places, digits, control.content.controls, strict=True):
                    shown = target.content.content  # (in its semantics node and box)
                    assert isinstance(shown, ft.Text)
                    assert words(shown) == split_words(place, digit)
            if kind(cell) == kind(was_cell) == "split" and len(cell.places) == len(was_cell.places):
                targets = control.content.controls
                for i, (place, was_place) in enumerate(zip(cell.places, was_cell.places, strict=True)):
                    if place == was_place:
                        kept_targets += 1
                        assert targets[i] is was.content.controls[i]
    assert lit_or_pale >= 10 and kept_targets >= 1 and went_down >= 10


def test_an_entry_redraws_only_the_laid_tiles_that_changed_or_moved_on_the_sheet() -> None:
    kept = moved = 0
    for step in watch(30)[:-1]:
        before, after = step["sheet"]
        for key, control in after.items():
            was = before.get(key)
            if was is None:  # a tile just set, an end just opened
                continue
            if key.startswith("mark-"):  # a mark: its key is its place on the sheet, in units
                if control.width == was.width:  # the same unit: the same place
                    assert (control.left, control.top) == (was.left, was.top)
                    if (control.content.value, control.bgcolor) == (was.content.value, was.bgcolor):
                        assert control is was
                continue
            if control is was:
                kept += 1
                continue
            assert control._i == was._i  # its new place patched, not a new control
            if (control.width, control.height) == (was.width, was.height):  # the same size: moved
                moved += 1
                assert (control.left, control.top) != (was.left, was.top)
                assert control.content is was.content  # the same face: not sent again
                assert control.content.content._i not in step["added"]
    assert kept >= 50 and kept > 3 * moved


def test_a_lit_tile_has_its_opacity_sent_and_drawn_whole() -> None:
    """A lit cell's opacity is sent with it (Flet does not send its default, 1.0, and its
    client then puts no opacity layer above the cell: the first time the cell went pale,
    the client built it again from nothing), and the browser draws it whole: at 255 of 255,
    as at 1. The table's first play makes most of the set pale at once."""
    from flet.messaging.protocol import configure_encode_object_for_msgpack

    from scorekeeper.dominoes import Tile
    from scorekeeper.ui.allfives.layout_view import _draw_cell
    from scorekeeper.ui.allfives.play import PickerCell

    encode = configure_encode_object_for_msgpack(ft.BaseControl)
    lit, pale = (
        _draw_cell(PickerCell(Tile(5, 3), state), None, lambda tile: None, "tile", 20, None).control
        for state in ("fits", "other")
    )
    assert encode(lit)["opacity"] == LIT and encode(pale)["opacity"] == PALE
    assert round(LIT * 255) == 255 and LIT != 1.0
