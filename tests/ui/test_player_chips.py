"""What a player's chip in the table screen's players' row is made of (issue 49): an entry
draws two chips again (the player who played, the next), on every phone of the table, and
each control of them is made, diffed, checked and sent. A chip is its box, its semantics
node (read out as its label alone) and one row of the name, the tile and the count, this
phone's player's phone first in that same row."""

from __future__ import annotations

import flet as ft

from scorekeeper.ui.allfives.screens import _player_chip
from scorekeeper.ui.allfives.table import PlayerRow


def test_a_short_chip_is_a_box_a_node_and_one_row_this_phones_with_the_phone_in_it() -> None:
    for mine in (False, True):
        p = PlayerRow("Ann", "Ann", 5, True)
        chip = _player_chip(p, False, mine, None)
        assert isinstance(chip, ft.Container) and chip.bgcolor == ft.Colors.PRIMARY_CONTAINER
        node = chip.content
        assert isinstance(node, ft.Semantics) and node.exclude_semantics
        assert node.label == "Ann holds 5 tiles, to play" + (", this phone" if mine else "")
        row = node.content
        assert isinstance(row, ft.Row) and row.spacing == 1
        icons = [c.icon for c in row.controls if isinstance(c, ft.Icon)]
        assert icons == [ft.Icons.PHONE_ANDROID, ft.Icons.SPLITSCREEN] if mine else [ft.Icons.SPLITSCREEN]
        texts = [c for c in row.controls if isinstance(c, ft.Text)]
        assert [(t.value, t.weight) for t in texts] == [("Ann", ft.FontWeight.BOLD), ("5", ft.FontWeight.BOLD)]
        if mine:  # 2 px from the name, as beside the row before
            phone = row.controls[0]
            assert isinstance(phone, ft.Icon) and phone.margin == ft.Margin.only(right=1)


def test_a_long_chip_is_a_box_and_its_text_this_phones_the_phone_before_it() -> None:
    p = PlayerRow("Ben", "Ben", 1, False)
    chip = _player_chip(p, True, False, None)
    assert isinstance(chip.content, ft.Text) and chip.content.semantics_label == "Ben holds 1 tile"
    mine = _player_chip(p, True, True, None)
    row = mine.content
    assert isinstance(row, ft.Row) and row.spacing == 2
    assert isinstance(row.controls[0], ft.Icon) and row.controls[0].margin is None
    assert row.controls[1].semantics_label == "Ben holds 1 tile, this phone"
