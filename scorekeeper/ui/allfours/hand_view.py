"""The parts of the All Fours hand screen (Flet): the pegboard or Seven Up's
chips, the deal (turn-up card picker, beg / give / run the pack), the end-of-hand
facts (High, Low, Jack, Game -- one tap each; Game also by counting the cards),
penalties, who deals next and the winner.  They draw what
:class:`~scorekeeper.ui.allfours.table.FoursTableModel` says; no rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorekeeper.allfours.variants import RANKS
from scorekeeper.tally.svg import SIDE_COLOURS, pegboard_svg
from scorekeeper.ui.allfours.count import COUNTING_RANKS, Chips
from scorekeeper.ui.allfours.table import FoursTableModel
from scorekeeper.ui.shell import widgets
from scorekeeper.ui.shell.typed import Typed
from scorekeeper.ui.shell.widgets import PAD, choice_row, error_box, heading, labelled, on, svg_image

__all__ = ["board", "deal_next", "deal_section", "end_section", "penalty_section", "winner_panel"]

_UNSET = "-unset-"  # a fact not entered yet (None is "nobody")


def _section(title: str, rows: list[ft.Control]) -> ft.Control:
    return ft.Container(
        content=ft.Column([heading(title, 16), *rows], spacing=8),
        padding=PAD,
        border_radius=12,
        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
    )


# --------------------------------------------------------- pegboard, chips
def _chip(colour: str, filled: bool) -> ft.Control:
    return ft.Container(
        width=18,
        height=18,
        border_radius=9,
        bgcolor=colour if filled else None,
        border=ft.Border.all(2, colour),
    )


def _chips_view(chips: list[Chips]) -> ft.Control:
    """Seven Up: a row of chips per side; a point scored moves one into the pool."""
    rows: list[ft.Control] = []
    pool: list[ft.Control] = []
    for i, c in enumerate(chips):
        colour = SIDE_COLOURS[i % len(SIDE_COLOURS)]
        rows.append(
            labelled(
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
        labelled(
            ft.Row([ft.Text("Pool", width=110, weight=ft.FontWeight.BOLD), *pool], spacing=4, wrap=True),
            f"Pool: {total} chips",
        )
    )
    return ft.Container(
        content=ft.Column(rows, spacing=6), padding=PAD, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW
    )


def board(t: FoursTableModel) -> ft.Control:
    """Seven Up's chips, or the pegboard of the other variants."""
    chips = t.chips()
    if chips is not None:
        return _chips_view(chips)
    pegs = t.pegboard()
    if pegs is None:  # points taken off by an adjustment cannot be pegged
        return ft.Text("Points were taken off: no pegboard (the scores above; Score says why).", italic=True)
    label = "Pegboard: " + ", ".join(f"{n} {p.front} (back peg {p.back})" for n, p in pegs.sides)
    return svg_image(pegboard_svg(pegs), label)


# ------------------------------------------------------------------ the deal
def deal_section(t: FoursTableModel) -> ft.Control | None:
    """The card turned for trump and the beg; None where trump is pitched."""
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
    buttons: list[ft.Control] = []
    for r in RANKS:
        text = f"{r} +{values[r]}" if r in values else r
        handler = on(t.turn_up, r)
        kind = ft.FilledButton if r in turned else ft.FilledTonalButton if r in values else ft.OutlinedButton
        btn = kind(content=text, on_click=handler)
        buttons.append(labelled(btn, f"turn up {r}", handler))
    rows.append(ft.Row(buttons, wrap=True, spacing=4, run_spacing=4))
    if turned:
        rows.append(ft.TextButton(content="Clear the turn-up", on_click=on(t.clear_turn_up)))
    rows.append(
        choice_row(
            f"{t.beggar} begs?",
            [("stands", "stand"), ("dealer gives 1", "give"), ("dealer runs the pack", "run")],
            f.get("beg", _UNSET),
            t.beg,
        )
    )
    return _section(f"Deal: {t.dealer} deals", rows)


# ------------------------------------------------------- the end of the hand
def end_section(t: FoursTableModel) -> ft.Control:
    """High, Low, Jack (held by, then won by) and Game; the Game-point helper when open."""
    f = t.facts
    players: list[tuple[str, Any]] = [(p, p) for p in t.players]
    rows: list[ft.Control] = [
        choice_row("High", [*players, ("no trump", None)], f.get("high", _UNSET), t.set_high),
        choice_row("Low", [*players, ("no trump", None)], f.get("low", _UNSET), t.set_low),
    ]
    jack = f.get("jack", _UNSET)
    held = t.jack_held or (jack["held"] if isinstance(jack, dict) else jack)
    rows.append(choice_row("Jack held by", [*players, ("not in play", None)], held, t.hold_jack))
    if t.jack_held is not None:
        rows.append(
            choice_row(
                "Jack won by",
                [(f"{p} ({what})", p) for p, what in t.jack_choices()],
                None,
                t.jack_won,
            )
        )
    elif isinstance(jack, dict):
        rows.append(ft.Text(f"Jack won by {jack['won']}"))
    game: str | None = _UNSET
    if "game" in f and "game_cards" not in f:
        pts = f["game"]
        best = max(pts.values()) if pts else 0
        top = [s for s, v in pts.items() if v == best]
        game = top[0] if len(top) == 1 else None
    rows.append(choice_row("Game", [*[(s, s) for s in t.sides], ("tie", None)], game, t.game_to))
    card_points = t.hand.card_points if t.hand else None
    if "game_cards" in f or ("game" in f and card_points and sum(card_points) > 1):
        rows.append(ft.Text("Card points: " + t.entered().get("game", "")))
    rows.append(
        ft.OutlinedButton(content="Count the cards for Game", icon=ft.Icons.CALCULATE, on_click=on(t.open_counting))
    )
    if t.counting is not None:
        rows.append(_counting(t))
    return _section("End of hand", rows)


def _counting(t: FoursTableModel) -> ft.Control:
    """The Game-point helper: the counting cards each side took, one tap each."""
    c = t.counting
    assert c is not None
    rows: list[ft.Control] = [ft.Text("Tap the counting cards each side took: A 4, K 3, Q 2, J 1, 10 10")]
    for side in c.sides:
        buttons: list[ft.Control] = []
        for r in COUNTING_RANKS:
            handler = on(t.count_card, side, r)
            buttons.append(
                labelled(
                    ft.OutlinedButton(content=f"+{r}", on_click=handler, disabled=c.left(r) == 0),
                    f"{side} took {r}",
                    handler,
                )
            )
        undo = on(t.uncount, side)
        buttons.append(
            labelled(
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
    rows.append(error_box(c.error))
    pts = c.points()
    rows.append(
        ft.Row(
            [
                ft.FilledButton(
                    content="Enter Game (" + ", ".join(f"{s} {p}" for s, p in pts.items()) + ")",
                    on_click=on(t.enter_counted),
                ),
                ft.TextButton(content="Cancel", on_click=on(t.close_counting)),
            ],
            wrap=True,
        )
    )
    return ft.Container(
        content=ft.Column(rows, spacing=6), padding=PAD, border_radius=8, bgcolor=ft.Colors.TERTIARY_CONTAINER
    )


# ---------------------------------------------------------------- penalties
def _penaltyon(t: FoursTableModel, kind: str) -> Callable[[Any], None]:
    """A misdeal is entered at once; the other penalties open (or close) their question."""

    def handler(e: Any = None) -> None:
        if kind == "misdeal":
            t.misdeal()
        else:
            t.ask_penalty(None if t.penalty == kind else kind)

    return handler


def _penalty_text(p: dict[str, Any]) -> str:
    return (
        p["type"]
        + (f" by {p['by']}" if "by" in p else "")
        + (" (honour)" if p.get("honour") else "")
        + (f" {p['points']} to {p['side']}" if p["type"] == "award" else "")
    )


def penalty_section(t: FoursTableModel, award_points: Typed) -> ft.Control:
    """The penalty buttons, the open question (who? how many points?), the hand's penalties."""
    kinds = [("Misdeal", "misdeal"), ("Revoke", "revoke")]
    if t.honours:
        kinds.append(("Honour revoke", "honour"))
    if t.peeks:
        kinds.append(("Peek", "peek"))
    kinds.append(("Award", "award"))
    rows: list[ft.Control] = []
    buttons: list[ft.Control] = []
    for text, kind in kinds:
        handler = _penaltyon(t, kind)
        buttons.append(labelled(ft.OutlinedButton(content=text, on_click=handler), f"penalty {text.lower()}", handler))
    rows.append(ft.Row(buttons, wrap=True, spacing=6))
    asked = t.penalty
    if asked in ("revoke", "honour", "peek"):
        what = {
            "revoke": "Who revoked?",
            "honour": "Who revoked holding an honour? (their side loses the match)",
            "peek": "Who looked at their cards before the pitch?",
        }[asked]
        act: Callable[[str], None] = {
            "revoke": t.revoke,
            "honour": lambda p: t.revoke(p, honour=True),
            "peek": t.peek,
        }[asked]
        rows.append(choice_row(what, [(p, p) for p in t.players], None, act))
        rows.append(ft.TextButton(content="Cancel", on_click=on(t.ask_penalty, None)))
    elif asked == "award":
        rows.append(
            ft.TextField(
                label="Award points",
                value=award_points.text,
                width=140,
                dense=True,
                keyboard_type=ft.KeyboardType.NUMBER,
                key="award-points",
                on_change=award_points.typed,
            )
        )

        def give(side: str) -> None:
            text = award_points.text.strip()
            if text.isdigit():
                t.award(side, int(text))
            else:
                t.error = f"award points must be a whole number, not {text!r}"
                t.ask_penalty("award")

        rows.append(choice_row("Award to", [(s, s) for s in t.sides], None, give))
        rows.append(ft.TextButton(content="Cancel", on_click=on(t.ask_penalty, None)))
    pens = t.facts.get("penalties") or []
    if pens:
        rows.append(ft.Text("This hand: " + "; ".join(_penalty_text(p) for p in pens)))
    return _section("Penalties", rows)


# ------------------------------------------------------- between the hands
def deal_next(t: FoursTableModel) -> list[ft.Control]:
    """The hand is counted: who deals the next one (the suggested dealer filled)."""
    nxt = t.hand_number + 1
    suggested = t.suggested_dealer()
    buttons: list[ft.Control] = [
        (ft.FilledButton if name == suggested else ft.OutlinedButton)(
            content=f"{name} deals", on_click=on(t.start_hand, name)
        )
        for name in t.players
    ]
    why = "again (misdeal)" if t.hand and t.hand.void else f"next, {t.variant.dealing}"
    if t.hand is not None and t.hand.entered is not None:  # nobody is known to have dealt it
        return [heading(f"Hand {nxt}: who deals?", 18), ft.Row(buttons, wrap=True)]
    return [heading(f"Hand {nxt}: who deals? ({suggested} deals {why})", 18), ft.Row(buttons, wrap=True)]


def winner_panel(t: FoursTableModel) -> ft.Control:
    """The match is won: who, where in the counting order; a new match or History."""
    return widgets.winner_panel(t.winner_line() or "", "/new/all-fours", t.can_enter, t.event_route())
