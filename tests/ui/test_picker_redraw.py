"""What an entry redraws of the picker on another phone of the table (issue 49): a tile
whose look did not change is the very control it was (Flet's diff passes over it without
looking into it); a tile that comes to fit or stops fitting is a new box and semantics
node that take over the old ones' ids (Flet sends their changed properties, not new
controls) around the same digits; a split cell keeps each target that is the same in the
same place. No tile is a component of its own."""

from __future__ import annotations

import asyncio
import os
import tempfile
from typing import Any

import aio
import flet as ft
import pytest
from flet.components.component import Component
from flet.controls import object_patch

from scorekeeper.ui.app import fletdiff
from tools.loadtest import broadcast, common


def grid_of(root: Any) -> Any:
    """The picker's row of cells under ``root`` (None where the screen shows no picker)."""
    todo = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, list):
            todo += item
        elif isinstance(item, Component):
            if item.fn.__name__ == "_PickerGrid":
                return item._b
            todo.append(item._b)
        elif isinstance(item, ft.BaseControl):
            todo += list(fletdiff._fields(item, type(item)))
    return None


def kind(cell: Any) -> str:
    return "down" if cell.state == "down" else "split" if cell.places else "tile"


def watch(entries: int) -> list[dict[str, Any]]:
    """A match at a table of two phones, ``entries`` entries on the first: for each, on the
    second, every cell of the picker before and after (its PickerCell and its control) and
    the ids of the controls the entry's patches added or reconciled there."""
    seen: list[dict[str, Any]] = []
    added: list[int] = []
    from_diff = object_patch.ObjectPatch.from_diff.__func__  # type: ignore[attr-defined]

    def listing(cls: Any, *args: Any, **kwargs: Any) -> Any:
        patch, new, gone = from_diff(cls, *args, **kwargs)
        added.extend(c._i for c in new)
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

            for _ in range(entries):
                row, before = shown()
                added.clear()
                await table.entry()
                await common.idle(table.sessions)
                table.check()
                after_row, after = shown()
                if row is not None and after_row is not None:
                    seen.append({"before": before, "after": after, "added": set(added), "row": after_row})
            shared.close()

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(object_patch.ObjectPatch, "from_diff", classmethod(listing))
        aio.run(run())  # on a thread of its own: a browser test may have left its loop running
    finally:
        mp.undo()
    return seen


def test_an_entry_redraws_only_the_tiles_whose_look_changed_and_keeps_their_digits() -> None:
    lit_or_pale = kept_targets = 0
    for step in watch(30):
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
                assert control is not was and control._i == was._i  # its properties patched
                assert control.content._i == was.content._i
                digits = control.content.content
                assert digits is was.content.content  # the same digits: not sent again
                assert digits._i not in step["added"]
                assert control.content.opacity == (1.0 if cell.state == "fits" else 0.45)
            if kind(cell) == kind(was_cell) == "split" and len(cell.places) == len(was_cell.places):
                targets = control.content.controls[::2]
                for i, (place, was_place) in enumerate(zip(cell.places, was_cell.places, strict=True)):
                    if place == was_place:
                        kept_targets += 1
                        assert targets[i] is was.content.controls[2 * i]
    assert lit_or_pale >= 10 and kept_targets >= 1
