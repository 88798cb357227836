"""Score: the totals, the winner, each side's X tally as it would look on paper,
the cribbage pegboard (one point, one hole), the chart of every side's score over
the turns and the per-hand table -- for any game, through its timeline."""

from __future__ import annotations

import flet as ft

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.scored import Scored
from scorekeeper.store.errors import message_of
from scorekeeper.tally.svg import chart_svg, pegboard_svg, tally_svg
from scorekeeper.ui.live.view import use_changes, use_live
from scorekeeper.ui.score.entries import ScoreEntries
from scorekeeper.ui.score.model import HandCell, SideDisplay, hand_rows, score_displays
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.points_view import entry_buttons, entry_panel
from scorekeeper.ui.shell.widgets import PAD, cannot_open, error_box, go, heading, svg_image

__all__ = ["Score"]

ScoreEntriesVM = ft.observable(ScoreEntries)


def _hand_cell(cell: HandCell) -> ft.Control:
    """A side after a hand: its total, large, and under it what the hand added, small."""
    return ft.Semantics(
        label=cell.label,
        container=True,
        exclude_semantics=True,
        content=ft.Column(
            [
                ft.Text(cell.total, size=22, weight=ft.FontWeight.BOLD),
                *[ft.Text(line, size=13, color=ft.Colors.ON_SURFACE_VARIANT) for line in cell.lines],
            ],
            spacing=0,
        ),
    )


def _score_table(summary: Scored) -> ft.Control:
    """One block per hand ("Hand 2 · domino"), one column per side: it fits a phone
    with up to four sides (two partnerships: two columns)."""
    sides = summary["sides"]
    blocks: list[ft.Control] = [
        ft.Row(
            [ft.Text(s, weight=ft.FontWeight.BOLD, expand=1) for s in sides],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
    ]
    for row in hand_rows(summary):
        blocks.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(row.title, size=13, weight=ft.FontWeight.W_500, color=ft.Colors.PRIMARY),
                        ft.Row(
                            [ft.Container(_hand_cell(c), expand=1) for c in row.cells],
                            spacing=8,
                            vertical_alignment=ft.CrossAxisAlignment.START,
                        ),
                    ],
                    spacing=2,
                ),
                border=ft.Border.only(top=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)),
                padding=ft.Padding.only(top=6, bottom=4),
            )
        )
    return ft.Column(blocks, spacing=4)


def _side_tally(side: SideDisplay, per_row: int) -> ft.Control:
    if side.tally is None:
        return ft.Column(
            [ft.Text(side.name, weight=ft.FontWeight.BOLD), ft.Text(side.note or "", italic=True)], spacing=2
        )
    label = f"Tally {side.name}: {side.tally.describe()}"
    picture = tally_svg(side.tally, previous=side.previous, per_row=per_row, title=label)
    return ft.Column(
        [ft.Text(f"{side.name}  {side.score}", weight=ft.FontWeight.BOLD), svg_image(picture, label)],
        spacing=2,
        key=f"tally-{side.name}",
    )


def _adjusting(entries: ScoreEntries | str) -> list[ft.Control]:
    """ "Adjust score" (a phone that may enter, while the match is in play) and its form."""
    if isinstance(entries, str) or not entries.can_enter or entries.winner is not None:
        return []
    note = [ft.Text(entries.note, italic=True, key="adjusted")] if entries.note else []
    form = entry_panel(entries.entries)
    return [
        *note,
        *(form or [entry_buttons(entries.entries, points=False)]),
        ft.Container(content=error_box(entries.error), key="adjust-error"),
    ]


def _open(shared: Shared, mid: str) -> ScoreEntries | str:
    try:
        return ScoreEntriesVM(shared, mid)
    except ScorekeeperError as e:
        return message_of(e)


@ft.component
def Score(shared: Shared, mid: str) -> ft.Control:
    use_changes(shared, mid)  # the scores follow every phone's entries
    made: tuple[ScoreEntries | str, object] = ft.use_state(lambda: _open(shared, mid))
    entries = made[0]
    if not isinstance(entries, str):
        use_live(entries)
    try:
        with shared.lock:
            record = shared.store.record(mid)
            shown = score_displays(registry.game_of(record), shared.store.match(mid))
    except ScorekeeperError as e:
        return cannot_open(message_of(e))
    summary = shown.summary
    totals = [
        ft.Text(f"{side}: {score}", size=26, weight=ft.FontWeight.BOLD, semantics_label=f"Total {side} {score}")
        for side, score in summary["scores"].items()
    ]
    body: list[ft.Control] = [
        ft.Row(
            [
                ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back to the table", on_click=go(f"/table/{mid}")),
                heading("Score"),
            ]
        ),
    ]
    if summary.get("target"):
        body.append(ft.Text(f"Target {summary['target']}"))
    body += totals
    body += _adjusting(entries)
    if summary["winner"]:
        body.append(
            ft.Container(
                content=ft.Text(
                    shown.winner_line or "",
                    size=24,
                    weight=ft.FontWeight.BOLD,
                    semantics_label=f"Winner {summary['winner']}",
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER,
                padding=PAD,
                border_radius=12,
            )
        )
    pegs_only = shown.timeline.pegs and shown.pegboard is not None  # Fives and Threes
    if shown.note:
        body.append(ft.Text(shown.note, italic=True, semantics_label=shown.note))
    elif not pegs_only:
        body.append(heading("X tally", 16))
        # A symbol is 50 points (10 at scale 5): one row holds a 250 (or 50-point) game.
        per_row = 5
        body.extend(_side_tally(side, per_row) for side in shown.sides)
    if shown.pegboard is not None:
        board = shown.pegboard
        label = "Pegboard: " + ", ".join(f"{n} {p.front} (back peg {p.back})" for n, p in board.sides)
        body.append(heading(f"Pegboard to {board.target}", 16))
        body.append(svg_image(pegboard_svg(board), label))
    tl = shown.timeline
    chart_label = (
        "Score chart: "
        + ", ".join(f"{n} {sc}" for n, sc in zip(tl.sides, tl.scores, strict=True))
        + f" after {len(tl.steps)} turn{'s' if len(tl.steps) != 1 else ''}"
    )
    low = min((min(tl.series(i)) for i in range(len(tl.sides))), default=0)
    if low < 0:
        chart_label += f"; lowest {low}"
    body.append(heading("Score over the turns", 16))
    body.append(svg_image(chart_svg(tl), chart_label))
    body.append(heading("Hand by hand", 16))
    body.append(ft.Text("Each side's total after the hand; under it, what the hand added.", italic=True))
    body.append(_score_table(summary))
    return ft.Column(body, spacing=10, scroll=ft.ScrollMode.AUTO, expand=True)
