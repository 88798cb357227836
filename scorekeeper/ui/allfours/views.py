"""The All Fours screens: a new match (``/new/fours``) and the hand screen
(``/table/<id>`` of an All Fours match).  They draw what
:mod:`scorekeeper.ui.fours` says; no rule lives here.

The hand screen is one column, top to bottom: the scores and the pegboard (or
Seven Up's chips), what the last tap credited, the deal (turn-up card picker,
beg / give / run the pack), the end-of-hand facts (High, Low, Jack, Game --
one tap each; Game also by counting the cards), penalties, and the hands so far.
"""

from __future__ import annotations

import flet as ft

from scorekeeper.allfours.variants import RANKS
from scorekeeper.errors import ScorekeeperError
from scorekeeper.tally.svg import SIDE_COLOURS, pegboard_svg
from scorekeeper.ui.allfours import models as fv
from scorekeeper.ui.widgets import PAD, _choice_row, _error, _go, _heading, _labelled, _svg, game_choice

FoursFormVM = ft.observable(fv.FoursNewMatchForm)
FoursTableVM = ft.observable(fv.FoursTableModel)

_UNSET = "-unset-"  # a fact not entered yet (None is "nobody")


def _variant_line(spec, target: int) -> str:
    if spec.pitched:
        deal = "trump is pitched"
    else:
        values = ", ".join(f"{r} {v}" for r, v in spec.turn_up.items())
        deal = f"turn-up {values} ({'every card turned' if spec.all_turned else 'the final card'} counts)"
    jack = "hang jack 3" if spec.hang_jack else "Jack 1 to who wins it"
    tie = "a Game tie goes to a non-dealer" if spec.seven_up_tie else "a Game tie scores nobody"
    return f"{spec.title}: {deal}; {jack}; {tie}; deals {spec.dealing}; plays to {target}"


# ----------------------------------------------------------------- new match
@ft.component
def NewFoursMatch(shared):
    form, _ = ft.use_state(lambda: FoursFormVM(shared))
    n = len(form.names)

    def start(e):
        mid = form.start()
        if mid:
            ft.context.page.navigate(f"/table/{mid}")

    controls: list[ft.Control] = [
        ft.Row([ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=_go("/")), _heading("New match")]),
        game_choice("all-fours"),
        _choice_row("Players", [(str(k), k) for k in fv.PLAYER_COUNTS], n, form.set_count),
    ]
    for i, name in enumerate(form.names):
        controls.append(
            ft.TextField(
                label=f"Player {i + 1}",
                value=name,
                on_change=(lambda i: lambda e: form.set_name(i, e.control.value))(i),
                dense=True,
                key=f"fours-name-{i}-{n}",
            )
        )
    sides = form.sides()
    controls.append(
        ft.Text("Sides: " + " against ".join(sides) + ("  (partners sit opposite)" if form.teams() else ""))
    )
    controls.append(_choice_row("Variant", fv.VARIANT_CHOICES, form.variant, form.set_variant))
    default = form.default_target()
    controls.append(ft.Text(_variant_line(form.spec, default), color=ft.Colors.ON_SURFACE_VARIANT))
    controls.append(
        ft.TextField(
            label="target",
            value=form.target_text or str(default),
            keyboard_type=ft.KeyboardType.NUMBER,
            on_change=lambda e: form.set_target("" if e.control.value.strip() == str(default) else e.control.value),
            dense=True,
            width=160,
            key=f"fours-target-{form.variant}-{n}",
        )
    )
    controls.append(
        _choice_row(
            "First dealer", [("Cut for deal", None)] + [(nm, nm) for nm in form.names], form.dealer, form.set_dealer
        )
    )
    controls.append(_error(form.error or form.target_error()))
    controls.append(ft.FilledButton(content="Start match", icon=ft.Icons.PLAY_ARROW, on_click=start, height=56))
    return ft.Column(controls, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)


# ----------------------------------------------------------------- hand
def _scores(t) -> ft.Control:
    chips = [
        ft.Container(
            content=ft.Text(
                f"{side}: {score}", size=18, weight=ft.FontWeight.BOLD, semantics_label=f"Score {side} {score}"
            ),
            bgcolor=ft.Colors.SECONDARY_CONTAINER,
            padding=ft.Padding.symmetric(horizontal=10, vertical=4),
            border_radius=12,
        )
        for side, score in t.scores.items()
    ]
    chips.append(ft.Text(f"to {t.target}", color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Row(chips, wrap=True, spacing=8)


def _chip(colour: str, filled: bool) -> ft.Control:
    return ft.Container(
        width=18,
        height=18,
        border_radius=9,
        bgcolor=colour if filled else None,
        border=ft.Border.all(2, colour),
    )


def _chips_view(chips: list[fv.Chips]) -> ft.Control:
    """Seven Up: a row of chips per side; a point scored moves one into the pool."""
    rows: list[ft.Control] = []
    pool: list[ft.Control] = []
    for i, c in enumerate(chips):
        colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
        rows.append(
            _labelled(
                ft.Row(
                    [ft.Text(c.side, width=110, weight=ft.FontWeight.BOLD)]
                    + [_chip(colour, True) for _ in range(c.left)],
                    spacing=4,
                    wrap=True,
                ),
                f"Chips {c.side}: {c.left} left",
            )
        )
        pool += [_chip(colour, True) for _ in range(c.pool)]
    total = sum(c.pool for c in chips)
    rows.append(
        _labelled(
            ft.Row([ft.Text("Pool", width=110, weight=ft.FontWeight.BOLD)] + pool, spacing=4, wrap=True),
            f"Pool: {total} chips",
        )
    )
    return ft.Container(
        content=ft.Column(rows, spacing=6), padding=PAD, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW
    )


def _board(t) -> ft.Control:
    chips = t.chips()
    if chips is not None:
        return _chips_view(chips)
    board = t.pegboard()
    label = "Pegboard: " + ", ".join(f"{n} {p.front} (back peg {p.back})" for n, p in board.sides)
    return _svg(pegboard_svg(board), label)


def _section(title: str, rows: list[ft.Control]) -> ft.Control:
    return ft.Container(
        content=ft.Column([_heading(title, 16)] + rows, spacing=8),
        padding=PAD,
        border_radius=12,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )


def _deal_section(t) -> ft.Control | None:
    if not t.turns_up:
        return None
    f = t.facts
    values = t.turn_up_values()
    turned = t.turned
    running = f.get("beg") == "run"
    rows: list[ft.Control] = [
        ft.Text(
            ("Turned: " + " ".join(turned) if turned else "Tap the card turned for trump")
            + (" - running the pack: tap each card turned" if running else ""),
            semantics_label="Turned " + (" ".join(turned) if turned else "nothing"),
        )
    ]
    buttons = []
    for r in RANKS:
        text = f"{r} +{values[r]}" if r in values else r
        handler = (lambda r: lambda e: t.turn_up(r))(r)
        kind = ft.FilledButton if r in turned else ft.FilledTonalButton if r in values else ft.OutlinedButton
        btn = kind(content=text, on_click=handler)
        buttons.append(_labelled(btn, f"turn up {r}", handler))
    rows.append(ft.Row(buttons, wrap=True, spacing=4, run_spacing=4))
    if turned:
        rows.append(ft.TextButton(content="Clear the turn-up", on_click=lambda e: t.clear_turn_up()))
    rows.append(
        _choice_row(
            f"{t.beggar} begs?",
            [("stands", "stand"), ("dealer gives 1", "give"), ("dealer runs the pack", "run")],
            f.get("beg", _UNSET),
            t.beg,
        )
    )
    return _section(f"Deal: {t.dealer} deals", rows)


def _end_section(t) -> ft.Control:
    f = t.facts
    players = [(p, p) for p in t.players]
    rows: list[ft.Control] = [
        _choice_row("High", players + [("no trump", None)], f.get("high", _UNSET), t.set_high),
        _choice_row("Low", players + [("no trump", None)], f.get("low", _UNSET), t.set_low),
    ]
    jack = f.get("jack", _UNSET)
    held = t.jack_held or (jack["held"] if isinstance(jack, dict) else jack)
    rows.append(_choice_row("Jack held by", players + [("not in play", None)], held, t.hold_jack))
    if t.jack_held is not None:
        rows.append(
            _choice_row(
                "Jack won by",
                [(f"{p} ({what})", p) for p, what in t.jack_choices()],
                None,
                t.jack_won,
            )
        )
    elif isinstance(jack, dict):
        rows.append(ft.Text(f"Jack won by {jack['won']}"))
    game = _UNSET
    if "game" in f and "game_cards" not in f:
        pts = f["game"]
        best = max(pts.values()) if pts else 0
        top = [s for s, v in pts.items() if v == best]
        game = top[0] if len(top) == 1 else None
    rows.append(_choice_row("Game", [(s, s) for s in t.sides] + [("tie", None)], game, t.game_to))
    if "game_cards" in f or ("game" in f and t.hand.card_points and sum(t.hand.card_points) > 1):
        rows.append(ft.Text("Card points: " + t.entered().get("game", "")))
    rows.append(
        ft.OutlinedButton(
            content="Count the cards for Game", icon=ft.Icons.CALCULATE, on_click=lambda e: t.open_counting()
        )
    )
    if t.counting is not None:
        rows.append(_counting(t))
    return _section("End of hand", rows)


def _counting(t) -> ft.Control:
    c = t.counting
    rows: list[ft.Control] = [ft.Text("Tap the counting cards each side took: A 4, K 3, Q 2, J 1, 10 10")]
    for side in c.sides:
        buttons = []
        for r in fv.COUNTING_RANKS:
            handler = (lambda s, r: lambda e: t.count_card(s, r))(side, r)
            buttons.append(
                _labelled(
                    ft.OutlinedButton(content=f"+{r}", on_click=handler, disabled=c.left(r) == 0),
                    f"{side} took {r}",
                    handler,
                )
            )
        undo = (lambda s: lambda e: t.uncount(s))(side)
        buttons.append(
            _labelled(
                ft.IconButton(icon=ft.Icons.BACKSPACE_OUTLINED, on_click=undo), f"{side} remove the last card", undo
            )
        )
        rows.append(
            ft.Text(
                f"{side}: {c.summary(side)}",
                weight=ft.FontWeight.BOLD,
                semantics_label=f"Counted {side}: {c.points()[side]}",
            )
        )
        rows.append(ft.Row(buttons, wrap=True, spacing=4))
    rows.append(_error(c.error))
    pts = c.points()
    rows.append(
        ft.Row(
            [
                ft.FilledButton(
                    content="Enter Game (" + ", ".join(f"{s} {p}" for s, p in pts.items()) + ")",
                    on_click=lambda e: t.enter_counted(),
                ),
                ft.TextButton(content="Cancel", on_click=lambda e: t.close_counting()),
            ],
            wrap=True,
        )
    )
    return ft.Container(
        content=ft.Column(rows, spacing=6), padding=PAD, border_radius=8, bgcolor=ft.Colors.TERTIARY_CONTAINER
    )


def _penalty_section(t, award_points: str, set_award_points) -> ft.Control:
    kinds = [("Misdeal", "misdeal"), ("Revoke", "revoke")]
    if t.honours:
        kinds.append(("Honour revoke", "honour"))
    if t.peeks:
        kinds.append(("Peek", "peek"))
    kinds.append(("Award", "award"))
    rows: list[ft.Control] = []
    buttons = []
    for text, kind in kinds:
        handler = (lambda k: lambda e: t.misdeal() if k == "misdeal" else t.ask_penalty(None if t.penalty == k else k))(
            kind
        )
        buttons.append(_labelled(ft.OutlinedButton(content=text, on_click=handler), f"penalty {text.lower()}", handler))
    rows.append(ft.Row(buttons, wrap=True, spacing=6))
    kind = t.penalty
    if kind in ("revoke", "honour", "peek"):
        what = {
            "revoke": "Who revoked?",
            "honour": "Who revoked holding an honour? (their side loses the match)",
            "peek": "Who looked at their cards before the pitch?",
        }[kind]
        act = {"revoke": t.revoke, "honour": lambda p: t.revoke(p, honour=True), "peek": t.peek}[kind]
        rows.append(_choice_row(what, [(p, p) for p in t.players], None, act))
        rows.append(ft.TextButton(content="Cancel", on_click=lambda e: t.ask_penalty(None)))
    elif kind == "award":
        rows.append(
            ft.TextField(
                label="Award points",
                value=award_points,
                width=140,
                dense=True,
                keyboard_type=ft.KeyboardType.NUMBER,
                key="award-points",
                on_change=lambda e: set_award_points(e.control.value),
            )
        )

        def give(side):
            text = award_points.strip()
            if text.isdigit():
                t.award(side, int(text))
            else:
                t.error = f"award points must be a whole number, not {text!r}"
                t.ask_penalty("award")

        rows.append(_choice_row("Award to", [(s, s) for s in t.sides], None, give))
        rows.append(ft.TextButton(content="Cancel", on_click=lambda e: t.ask_penalty(None)))
    pens = t.facts.get("penalties") or []
    if pens:
        rows.append(
            ft.Text(
                "This hand: "
                + "; ".join(
                    p["type"]
                    + (f" by {p['by']}" if "by" in p else "")
                    + (" (honour)" if p.get("honour") else "")
                    + (f" {p['points']} to {p['side']}" if p["type"] == "award" else "")
                    for p in pens
                )
            )
        )
    return _section("Penalties", rows)


def _deal_next(t) -> list[ft.Control]:
    nxt = t.hand_number + 1
    suggested = t.suggested_dealer()
    buttons = [
        (ft.FilledButton if name == suggested else ft.OutlinedButton)(
            content=f"{name} deals", on_click=(lambda n: lambda e: t.start_hand(n))(name)
        )
        for name in t.players
    ]
    why = "again (misdeal)" if t.hand and t.hand.void else f"next, {t.variant.dealing}"
    return [_heading(f"Hand {nxt}: who deals? ({suggested} deals {why})", 18), ft.Row(buttons, wrap=True)]


@ft.component
def FoursTable(shared, mid: str):
    def make():
        try:
            return FoursTableVM(shared, mid)
        except ScorekeeperError as e:
            return str(e)

    t, _ = ft.use_state(make)
    award_points, set_award_points = ft.use_state("1")
    if isinstance(t, str):
        return ft.Column([_heading("Cannot open this match"), _error(t), ft.Button(content="Home", on_click=_go("/"))])
    phase = t.phase
    status = f"{t.dealer} deals" if phase == "hand" else "hand counted" if phase == "deal" else f"{t.winner} won"
    top = ft.Row(
        [
            ft.IconButton(icon=ft.Icons.HOME, tooltip="Home", on_click=_go("/")),
            ft.Text(
                f"Hand {t.hand_number} · {status}",
                size=16,
                weight=ft.FontWeight.BOLD,
                expand=True,
                semantics_label=f"Hand {t.hand_number}, {status}",
            ),
            ft.IconButton(icon=ft.Icons.UNDO, tooltip="Undo", on_click=lambda e: t.undo()),
            ft.IconButton(icon=ft.Icons.REDO, tooltip="Redo", on_click=lambda e: t.redo()),
        ],
        spacing=0,
    )
    body: list[ft.Control] = [
        ft.Container(content=top, key="top"),
        ft.Container(content=_scores(t), key="scores"),
        ft.Container(content=_board(t), key="board"),
        ft.Text(
            t.note or "",
            size=18,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.PRIMARY,
            semantics_label=f"Credited {t.note}" if t.note else None,
            visible=bool(t.note),
            key="note",
        ),
        ft.Container(content=_error(t.error), key="error"),
    ]
    panel: list[ft.Control]
    if phase == "over":
        line = t.winner_line()
        panel = [
            ft.Container(
                content=ft.Column(
                    [
                        ft.Text(line, size=24, weight=ft.FontWeight.BOLD, semantics_label=f"Winner {line}"),
                        ft.Row(
                            [
                                ft.OutlinedButton(content="New match", on_click=_go("/new/all-fours")),
                                ft.OutlinedButton(content="History", on_click=_go("/history")),
                            ]
                        ),
                    ]
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER,
                padding=PAD,
                border_radius=12,
            )
        ]
    elif phase == "deal":
        panel = []
        if t.hand:
            panel.append(ft.Text(t.hand_lines()[0]))
        panel += _deal_next(t)
    else:
        panel = []
        pending = t.pending_note()
        if pending:
            panel.append(
                ft.Container(
                    content=ft.Text(pending, semantics_label=f"Pending {pending}"),
                    bgcolor=ft.Colors.TERTIARY_CONTAINER,
                    padding=PAD,
                    border_radius=8,
                )
            )
        items = t.items()
        panel.append(
            ft.Text(
                "This hand: " + ("; ".join(items) if items else "nothing credited yet"),
                semantics_label="This hand: " + ("; ".join(items) if items else "nothing"),
            )
        )
        deal = _deal_section(t)
        if deal is not None:
            panel.append(deal)
        panel.append(_end_section(t))
        panel.append(_penalty_section(t, award_points, set_award_points))
    body.append(ft.Column(panel, spacing=10, key=f"panel-{phase}", horizontal_alignment=ft.CrossAxisAlignment.STRETCH))
    lines = t.hand_lines()
    if lines:
        body.append(
            ft.Container(
                content=ft.Column([_heading("Hands", 16)] + [ft.Text(x, size=13) for x in lines], spacing=4),
                key="hands",
            )
        )
    return ft.Column(body, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
