"""The Broadway screens: a new match (``/new/broadway``) and the table
(``/table/<id>`` of a Broadway match): a grid of half-tile cells that pans
(scrolls both ways) and zooms (the + / - buttons), the tile picker, the
placement preview (matched sections highlighted, the points shown) before
"Set it", pass / exposed, the end-of-hand penalties.  They draw what
:mod:`scorekeeper.ui.broadway` says; no rule lives here."""

from __future__ import annotations

import flet as ft

from scorekeeper.broadway.engine import SEATS
from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.broadway import models as bv
from scorekeeper.ui.widgets import PAD, _choice_row, _error, _go, _heading, _labelled, game_choice

BroadwayFormVM = ft.observable(bv.BroadwayNewMatchForm)
BroadwayTableVM = ft.observable(bv.BroadwayTableModel)

CELL = 34  # px per half-tile cell at zoom 1


# ----------------------------------------------------------------- new match
@ft.component
def NewBroadwayMatch(shared):
    form, _ = ft.use_state(lambda: BroadwayFormVM(shared))

    def start(e):
        mid = form.start()
        if mid:
            ft.context.page.navigate(f"/table/{mid}")

    controls: list[ft.Control] = [
        ft.Row([ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=_go("/")), _heading("New match")]),
        game_choice("broadway"),
        ft.Text("Four players, North-South against East-West; seven hands on the doubles 6-6 down to 0-0."),
    ]
    for i, name in enumerate(form.names):
        controls.append(
            ft.TextField(
                label=f"{SEATS[i]}",
                value=name,
                dense=True,
                key=f"bw-name-{i}",
                on_change=(lambda i: lambda e: form.set_name(i, e.control.value))(i),
            )
        )
    controls.append(
        _choice_row("Tiles set", [("by seat", "seat"), ("any way", "free")], form.orientation, form.set_orientation)
    )
    controls.append(
        ft.Text(
            "By seat: North and South set tiles East-West, East and West North-South.",
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
    )
    controls.append(
        _choice_row(
            "Tiles left at the end",
            [("-1 each to the holder's side", "subtract"), ("+1 each to the other side", "to-opponents")],
            form.penalty,
            form.set_penalty,
        )
    )
    controls.append(_choice_row("Who holds 6-6?", [(n, n) for n in form.names], form.leader, form.set_leader))
    controls.append(_error(form.error))
    controls.append(ft.FilledButton(content="Start match", icon=ft.Icons.PLAY_ARROW, on_click=start, height=56))
    return ft.Column(controls, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)


# --------------------------------------------------------------------- grid
_FILL = {
    "tile": ft.Colors.SURFACE_CONTAINER_HIGHEST,
    "matched": ft.Colors.AMBER_200,
    "new": ft.Colors.PRIMARY_CONTAINER,
    "first": ft.Colors.PRIMARY_CONTAINER,
    "spot": ft.Colors.TERTIARY_CONTAINER,
    "free": None,
}


def _grid(t) -> ft.Control:
    (x0, y0, x1, y1), cells = t.grid()
    size = CELL * t.zoom
    children: list[ft.Control] = []
    drawn: set = set()
    by_cell = {(c.x, c.y): c for c in cells}
    for c in cells:
        left, top = (c.x - x0) * size, (y1 - c.y) * size
        label = f"cell {c.x},{c.y}"
        if c.state in ("tile", "matched"):
            if frozenset({(c.x, c.y), c.partner}) in drawn:
                continue
            drawn.add(frozenset({(c.x, c.y), c.partner}))
            other = by_cell[c.partner]
            a, b = sorted([c, other], key=lambda g: (-g.y, g.x))  # top-left half first
            horizontal = a.y == b.y
            halves = []
            for g in (a, b):
                halves.append(
                    _labelled(
                        ft.Container(
                            content=ft.Text(str(g.pips), size=max(9, size * 0.5), weight=ft.FontWeight.BOLD),
                            width=size - 2,
                            height=size - 2,
                            alignment=ft.Alignment.CENTER,
                            bgcolor=_FILL[g.state],
                            border_radius=3,
                        ),
                        f"{'matched' if g.state == 'matched' else 'down'} {g.x},{g.y}: {g.pips}",
                    )
                )
            inner = ft.Row(halves, spacing=0, tight=True) if horizontal else ft.Column(halves, spacing=0, tight=True)
            children.append(
                ft.Container(
                    content=inner,
                    left=(a.x - x0) * size,
                    top=(y1 - a.y) * size,
                    width=(2 * size if horizontal else size),
                    height=(size if horizontal else 2 * size),
                    bgcolor=_FILL["tile"],
                    padding=1,
                    border=ft.Border.all(1.5, ft.Colors.ON_SURFACE_VARIANT),
                    border_radius=4,
                )
            )
            continue
        handler = (lambda cell: lambda e: t.tap_cell(cell))((c.x, c.y))
        text = str(c.pips) if c.pips is not None else ""
        children.append(
            ft.Container(
                content=_labelled(
                    ft.Container(
                        content=ft.Text(text, size=max(9, size * 0.5), weight=ft.FontWeight.BOLD),
                        alignment=ft.Alignment.CENTER,
                        width=size,
                        height=size,
                        on_click=handler,
                    ),
                    label,
                    handler,
                    selected=c.state in ("new", "first") or None,
                ),
                left=left,
                top=top,
                width=size,
                height=size,
                bgcolor=_FILL[c.state],
                border=ft.Border.all(
                    2 if c.state in ("new", "first") else 1,
                    ft.Colors.PRIMARY if c.state in ("new", "first", "spot") else ft.Colors.OUTLINE_VARIANT,
                ),
                border_radius=3,
            )
        )
    w, h = (x1 - x0 + 1) * size, (y1 - y0 + 1) * size
    stack = ft.Stack(children, width=w, height=h)
    return ft.Container(
        content=ft.Column([ft.Row([stack], scroll=ft.ScrollMode.AUTO)], scroll=ft.ScrollMode.AUTO),
        height=min(h + 16, 380),
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        border_radius=8,
        padding=4,
    )


def _picker(t) -> list[ft.Control]:
    fits, others = t.picker()

    def btn(tile, strong):
        handler = (lambda tl: lambda e: t.pick(tl))(tile)
        kind = ft.FilledButton if tile == t.tile else ft.OutlinedButton if strong else ft.TextButton
        return _labelled(kind(content=tile, on_click=handler), f"tile {tile}", handler, tile == t.tile)

    out: list[ft.Control] = [
        ft.Text(f"Fits now ({len(fits)})", weight=ft.FontWeight.W_500),
        ft.Row([btn(x, True) for x in fits], wrap=True, spacing=4, run_spacing=4),
    ]
    if others:
        out += [
            ft.Text(f"Other tiles not down ({len(others)})", color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Row([btn(x, False) for x in others], wrap=True, spacing=2, run_spacing=2),
        ]
    return out


def _play_panel(t) -> list[ft.Control]:
    out: list[ft.Control] = []
    line = t.preview_line()
    if line:
        out.append(
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(line, size=18, weight=ft.FontWeight.BOLD, semantics_label=f"Preview {line}"),
                        ft.Row(
                            [
                                ft.FilledButton(content="Set it", on_click=lambda e: t.confirm()),
                                ft.OutlinedButton(content="Turn round", on_click=lambda e: t.swap()),
                                ft.TextButton(content="Cancel", on_click=lambda e: t.cancel()),
                            ],
                            wrap=True,
                        ),
                    ]
                ),
                bgcolor=ft.Colors.TERTIARY_CONTAINER,
                padding=PAD,
                border_radius=8,
            )
        )
    elif t.tile and t.first is None:
        out.append(ft.Text(f"{t.tile}: tap the cell for its first half, then the cell next to it"))
    elif t.tile:
        ways = t.directions()
        out.append(
            ft.Text(
                f"{t.tile}: now the cell next to it for the other half"
                + (", or its direction:" if ways else " (no way fits here)")
            )
        )
        buttons = []
        for d in ways:
            handler = (lambda d: lambda e: t.toward(d))(d)
            buttons.append(_labelled(ft.OutlinedButton(content=d, on_click=handler), f"Other half {d}", handler))
        if buttons:
            out.append(ft.Row(buttons, wrap=True))
    out.append(
        ft.Row(
            [
                ft.FilledTonalButton(content="Pass", on_click=lambda e: t.pass_()),
                ft.OutlinedButton(
                    content="Exposed",
                    on_click=lambda e: t.expose(),
                    tooltip="The player showed the picked tile: turn lost",
                    disabled=t.tile is None,
                ),
            ],
            wrap=True,
        )
    )
    out += _picker(t)
    return out


def _unplayed_panel(t) -> list[ft.Control]:
    rows: list[ft.Control] = [_heading(f"Hand {t.hand_number} blocked: tiles left", 18)]
    for name, held in t.held():
        n = t.unplayed.get(name, held)
        minus = (lambda nm, v: lambda e: t.set_unplayed(nm, v - 1))(name, n)
        plus = (lambda nm, v: lambda e: t.set_unplayed(nm, v + 1))(name, n)
        rows.append(
            ft.Row(
                [
                    ft.Text(f"{name}: {n}", width=120, semantics_label=f"{name} left {n}"),
                    _labelled(ft.IconButton(icon=ft.Icons.REMOVE, on_click=minus), f"{name} fewer", minus),
                    _labelled(ft.IconButton(icon=ft.Icons.ADD, on_click=plus), f"{name} more", plus),
                ]
            )
        )
    pens, problem = t.penalty_preview()
    if pens is not None:
        text = "Penalties: " + ", ".join(f"{s} {v:+d}" for s, v in pens.items())
        rows.append(ft.Text(text, size=18, weight=ft.FontWeight.BOLD, semantics_label=text))
    elif problem:
        rows.append(ft.Text(problem, italic=True))
    rows.append(ft.FilledButton(content="Settle hand", on_click=lambda e: t.settle(), disabled=pens is None))
    return rows


def _start_panel(t) -> list[ft.Control]:
    nxt = t.hand_number + 1
    d = t.double
    sd = " (sudden death)" if t.sudden_death() else ""
    return [
        _heading(f"Hand {nxt}{sd} on {d}: who holds it?", 18),
        ft.Row(
            [
                ft.OutlinedButton(content=f"{n} holds {d}", on_click=(lambda n: lambda e: t.start_hand(n))(n))
                for n in t.players
            ],
            wrap=True,
        ),
    ]


@ft.component
def BroadwayTable(shared, mid: str):
    def make():
        try:
            return BroadwayTableVM(shared, mid)
        except ScorekeeperError as e:
            return str(e)

    t, _ = ft.use_state(make)
    if isinstance(t, str):
        return ft.Column([_heading("Cannot open this match"), _error(t), ft.Button(content="Home", on_click=_go("/"))])
    phase = t.phase
    status = (
        f"{t.to_move} to play"
        if phase == "play"
        else "tiles left"
        if phase == "unplayed"
        else "next hand"
        if phase == "start"
        else f"{t.winner} won"
    )
    hand = f"Hand {t.hand_number} on {t.double}" if phase in ("play", "unplayed") else f"Hand {t.hand_number}"
    top = ft.Row(
        [
            ft.IconButton(icon=ft.Icons.HOME, tooltip="Home", on_click=_go("/")),
            ft.Text(
                f"{hand} · {status}",
                size=16,
                weight=ft.FontWeight.BOLD,
                expand=True,
                semantics_label=f"{hand}, {status}",
            ),
            ft.IconButton(icon=ft.Icons.UNDO, tooltip="Undo", on_click=lambda e: t.undo()),
            ft.IconButton(icon=ft.Icons.REDO, tooltip="Redo", on_click=lambda e: t.redo()),
        ],
        spacing=0,
    )
    totals = [
        ft.Container(
            content=ft.Text(
                f"{side}: {score}", size=18, weight=ft.FontWeight.BOLD, semantics_label=f"Score {side} {score}"
            ),
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            padding=ft.Padding.symmetric(horizontal=10, vertical=4),
            border_radius=12,
        )
        for side, score in t.totals.items()
    ]
    totals.append(
        ft.Text(
            "sudden death: first to lead by 2" if t.sudden_death() else "seven hands",
            color=ft.Colors.ON_SURFACE_VARIANT,
        )
    )
    seats = ft.Row(
        [
            ft.Container(
                content=ft.Text(
                    f"{n} ({SEATS[i][0]}) {held}",
                    weight=ft.FontWeight.BOLD if n == t.to_move else None,
                    semantics_label=f"{n} holds {held}{', to play' if n == t.to_move else ''}",
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if n == t.to_move else None,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
                border_radius=8,
            )
            for i, (n, held) in enumerate(t.held())
        ],
        wrap=True,
        spacing=6,
    )
    body: list[ft.Control] = [
        ft.Container(content=top, key="top"),
        ft.Container(content=ft.Row(totals, wrap=True, spacing=8), key="totals"),
        ft.Container(content=seats, key="seats"),
        ft.Text(t.note or "", semantics_label=f"Note: {t.note}" if t.note else None, visible=bool(t.note), key="note"),
        ft.Container(content=_error(t.error), key="error"),
        ft.Row(
            [
                ft.Text("North ^", color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                ft.IconButton(icon=ft.Icons.ZOOM_OUT, tooltip="Zoom out", on_click=lambda e: t.zoom_by(0.8)),
                ft.IconButton(icon=ft.Icons.ZOOM_IN, tooltip="Zoom in", on_click=lambda e: t.zoom_by(1.25)),
            ],
            key="zoom",
        ),
        ft.Container(content=_grid(t), key="grid"),
    ]
    if phase == "play":
        panel, kind = _play_panel(t), "play"
    elif phase == "unplayed":
        panel, kind = _unplayed_panel(t), "unplayed"
    elif phase == "start":
        panel, kind = _start_panel(t), "start"
    else:
        line = t.winner_line()
        panel, kind = (
            [
                ft.Container(
                    content=ft.Column(
                        [
                            ft.Text(line, size=24, weight=ft.FontWeight.BOLD, semantics_label=f"Winner {line}"),
                            ft.Row(
                                [
                                    ft.OutlinedButton(content="New match", on_click=_go("/new/broadway")),
                                    ft.OutlinedButton(content="History", on_click=_go("/history")),
                                ]
                            ),
                        ]
                    ),
                    bgcolor=ft.Colors.PRIMARY_CONTAINER,
                    padding=PAD,
                    border_radius=12,
                )
            ],
            "over",
        )
    body.append(ft.Column(panel, spacing=8, key=f"panel-{kind}"))
    lines = t.turn_lines()
    if lines:
        title = "This hand" if phase in ("play", "unplayed") else f"Hand {t.hand_number}"
        body.append(
            ft.Container(
                content=ft.Column([_heading(title, 16)] + [ft.Text(x, size=13) for x in lines], spacing=2), key="turns"
            )
        )
    return ft.Column(body, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
