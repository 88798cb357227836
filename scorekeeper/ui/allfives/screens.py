"""The All Fives screens: a new match (``/new/all-fives``) and the table
(``/table/<id>`` of an All Fives match). They draw what the view-models say; no
rule lives here."""

from __future__ import annotations

import flet as ft

from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui import model as vm
from scorekeeper.ui.widgets import PAD, _choice_row, _error, _go, _heading, _labelled, game_choice
from scorekeeper.ui.widgets import tile_button as _tile_button
from scorekeeper.ui.widgets import tile_face as _tile_face

BLURB = "All Fives at the table: enter each tile as it is set"

NewMatchVM = ft.observable(vm.NewMatchForm)
TableVM = ft.observable(vm.TableModel)

TILE_W = 40  # picker tile: width of one half (px)


@ft.component
def _LaidTile(tile: str, first: int, second: int, horizontal: bool, half: float, spinner: bool, setting, on_choose):
    """A tile of the layout drawing; ``setting``: the tile being set, when this one is an end it may go on."""
    face = _tile_face(first, second, horizontal, half, spinner, ft.Colors.TERTIARY_CONTAINER if setting else None)
    if setting is None:
        return _labelled(face, f"{tile}{' spinner' if spinner else ''} on the table")
    handler = lambda e: on_choose(tile)  # noqa: E731
    return _labelled(ft.Container(content=face, on_click=handler), f"set {setting} on {tile}", handler)


#: Memoized like the picker tiles: a tap redraws only the tiles whose look changed.
LaidTile = ft.memo(_LaidTile)


@ft.component
def _PickerTile(tile: str, label: str, fits: bool, half: float, on_tap):
    return _tile_button(tile, lambda e: on_tap(tile), label, fits, half)


#: A picker tile re-renders only when its own arguments change (``on_tap`` is a
#: bound method of the view-model, equal from one render to the next), so a tap
#: rebuilds a handful of controls instead of every tile of the set.
PickerTile = ft.memo(_PickerTile)


# ----------------------------------------------------------------- new match
@ft.component
def NewMatch(shared: vm.Shared):
    form, _ = ft.use_state(lambda: NewMatchVM(shared))
    show_rules, set_show_rules = ft.use_state(False)
    rules, rules_error = form.checked_rules()
    n = len(form.names)

    def start(e):
        mid = form.start()
        if mid:
            ft.context.page.navigate(f"/table/{mid}")

    name_fields = []
    for i, name in enumerate(form.names):
        name_fields.append(
            ft.TextField(
                label=f"Player {i + 1}",
                value=name,
                on_change=(lambda i: lambda e: form.set_name(i, e.control.value))(i),
                dense=True,
                key=f"name-{i}-{n}",
            )
        )
    known = [k for k in form.known if k not in form.names][:8]
    suggestions = (
        ft.Row(
            [ft.Text("Earlier players:")]
            + [
                ft.TextButton(
                    content=k,
                    on_click=(lambda k: lambda e: _fill_next(form, k))(k),
                    tooltip=f"Use name {k}",
                )
                for k in known
            ],
            wrap=True,
        )
        if known
        else ft.Container(visible=False)
    )
    controls: list[ft.Control] = [
        ft.Row(
            [
                ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=_go("/")),
                _heading("New match"),
            ]
        ),
        game_choice("all-fives"),
        _choice_row("Players", [(str(k), k) for k in range(2, 6)], n, form.set_count),
        *name_fields,
        suggestions,
    ]
    if n == 4:
        controls.append(
            ft.Switch(
                label="Partnerships (1 & 3 against 2 & 4)",
                value=form.partners,
                on_change=lambda e: form.set_partners(e.control.value),
            )
        )
    controls.append(
        _choice_row("Rules", [(label, key) for key, (label, _) in vm.PRESETS.items()], form.preset, form.set_preset)
    )
    controls.append(
        _choice_row(
            "Hand sizes", [(label, key) for key, label in vm.HAND_SIZES.items()], form.hand_sizes, form.set_hand_sizes
        )
    )
    # every option of all-fives.md
    opts: list[ft.Control] = []
    for key in ("hand_size", "target"):
        default = form.default_of(key)
        opts.append(
            ft.TextField(
                label=key.replace("_", " "),
                value=str(form.overrides.get(key, "" if default is None else default)),
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=(lambda k: lambda e: form.set_rule(k, e.control.value))(key),
                dense=True,
                width=160,
                # A new field when the default moves (target 250 -> 61 at scale 5): changing
                # the text of the same field from the server raced the client, which sent
                # its old text back as typed.
                key=f"rule-{key}-{default}",
            )
        )
    for key, choices in vm.RULE_CHOICES.items():
        current = getattr(rules, key, None) if rules is not None else form.overrides.get(key)
        opts.append(
            _choice_row(
                key.replace("_", " "),
                [(str(c).lower() if isinstance(c, bool) else str(c), c) for c in choices],
                current,
                (lambda k: lambda v: form.set_rule(k, v))(key),
            )
        )
    controls.append(
        ft.TextButton(
            content=("Hide rule options" if show_rules else "All rule options"),
            icon=ft.Icons.EXPAND_LESS if show_rules else ft.Icons.EXPAND_MORE,
            on_click=lambda e: set_show_rules(not show_rules),
        )
    )
    if show_rules:
        controls.append(ft.Container(content=ft.Column(opts, spacing=10), padding=ft.Padding.only(left=8)))
    leaders = [("Draw lots", None)] + [(nm, nm) for nm in form.names]
    controls.append(_choice_row("First leader", leaders, form.leader, form.set_leader))
    controls.append(_error(form.error or rules_error))
    controls.append(ft.FilledButton(content="Start match", icon=ft.Icons.PLAY_ARROW, on_click=start, height=56))
    return ft.Column(controls, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)


def _fill_next(form, name: str) -> None:
    for i, current in enumerate(form.names):
        if current.startswith("Player ") or not current.strip():
            form.set_name(i, name)
            return
    form.set_name(len(form.names) - 1, name)


# --------------------------------------------------------------------- table
def _layout_view(table, d, width: float = 380, height: float = 300) -> ft.Control:
    if not d.tiles:
        return ft.Container(
            content=ft.Text("No tile down yet: tap the lead tile below."),
            height=80,
            alignment=ft.Alignment.CENTER,
        )
    unit = max(4.0, min(width / d.width, height / d.height, 14.0))
    choosing = table.choosing
    targets = set(choosing[1]) if choosing else set()
    children: list[ft.Control] = []
    for g in d.tiles:
        t = str(g.tile)
        half = 2 * unit - (4 if g.spinner else 2)
        children.append(
            ft.Container(
                content=LaidTile(
                    t,
                    g.first,
                    g.second,
                    g.w > g.h,
                    half,
                    g.spinner,
                    choosing[0] if t in targets else None,
                    table.choose,
                ),
                width=g.w * unit,
                height=g.h * unit,
                left=g.x * unit,
                top=g.y * unit,
                key=f"laid-{t}",
            )
        )
    for m in d.ends:
        r = 1.6 * unit
        children.append(
            ft.Container(
                content=ft.Text(
                    str(m.value),
                    size=max(8, unit * 0.9),
                    weight=ft.FontWeight.BOLD,
                    color=ft.Colors.ON_PRIMARY if m.counts or not m.tile.is_double else ft.Colors.ON_SURFACE,
                ),
                bgcolor=ft.Colors.PRIMARY if (m.counts or not m.tile.is_double) else ft.Colors.SURFACE_CONTAINER,
                width=r,
                height=r,
                border_radius=r / 2,
                alignment=ft.Alignment.CENTER,
                left=m.x * unit - r / 2,
                top=m.y * unit - r / 2,
                tooltip=f"open end {m.value}",
            )
        )
    stack = ft.Stack(children, width=d.width * unit, height=d.height * unit)
    # scaled to fit (no pinch-zoom: on the web a mouse wheel over a zoomable
    # area zooms it instead of scrolling the page)
    return ft.Container(content=stack, alignment=ft.Alignment.CENTER, height=min(height, d.height * unit) + 8)


def _count_line(d) -> ft.Control:
    terms = " + ".join(f"{t} ({v})" if "-" in t else t for t, v in d.terms) if d.terms else "nothing open"
    return ft.Row(
        [
            ft.Text(f"Count {d.count}", size=22, weight=ft.FontWeight.BOLD, semantics_label=f"Count {d.count}"),
            ft.Text(f"= {terms}", size=14, color=ft.Colors.ON_SURFACE_VARIANT),
        ],
        wrap=True,
    )


def _score_strip(table) -> ft.Control:
    chips = []
    for side, score in table.scores.items():
        chips.append(
            ft.Container(
                content=ft.Text(
                    f"{side}: {score}", size=18, weight=ft.FontWeight.BOLD, semantics_label=f"Score {side} {score}"
                ),
                bgcolor=ft.Colors.SECONDARY_CONTAINER,
                padding=ft.Padding.symmetric(horizontal=10, vertical=4),
                border_radius=12,
            )
        )
    chips.append(ft.Text(f"to {table.target}", color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Row(chips, wrap=True, spacing=8)


def _players_strip(table) -> ft.Control:
    items = []
    for p in table.players:
        items.append(
            ft.Container(
                content=ft.Text(
                    f"{p.name} · {p.held} tile{'s' if p.held != 1 else ''}{' · to play' if p.to_move else ''}",
                    weight=ft.FontWeight.BOLD if p.to_move else None,
                    semantics_label=f"{p.name} holds {p.held} tiles{', to play' if p.to_move else ''}",
                ),
                bgcolor=ft.Colors.PRIMARY_CONTAINER if p.to_move else None,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
                border_radius=8,
            )
        )
    items.append(ft.Text(f"Boneyard {table.boneyard}", semantics_label=f"Boneyard {table.boneyard}"))
    return ft.Row(items, wrap=True, spacing=6)


def _prompt(table, question: str, buttons: list[ft.Control]) -> ft.Control:
    """A question about the entry being made, its answers and Cancel."""
    return ft.Container(
        bgcolor=ft.Colors.TERTIARY_CONTAINER,
        padding=PAD,
        border_radius=8,
        content=ft.Column(
            [
                ft.Text(question),
                ft.Row(buttons + [ft.TextButton(content="Cancel", on_click=lambda e: table.cancel())], wrap=True),
            ]
        ),
    )


def _play_panel(table) -> list[ft.Control]:
    prompts: list[ft.Control] = []
    out: list[ft.Control] = [ft.Column(prompts, spacing=8, key="prompts")]
    if table.choosing:
        tile, ends = table.choosing
        prompts.append(
            _prompt(
                table,
                f"{tile} fits {len(ends)} ends: tap the one it goes on (on the drawing or here)",
                [
                    ft.FilledButton(content=f"on {on}", on_click=(lambda on: lambda e: table.choose(on))(on))
                    for on in ends
                ],
            )
        )
    if table.claiming:
        tile, on = table.claiming
        buttons = []
        for p in table.claim_choices():
            handler = (lambda p: lambda e: table.claim(p))(p)
            buttons.append(_labelled(ft.OutlinedButton(content=str(p), on_click=handler), f"claim {p}", handler))
        prompts.append(_prompt(table, f"{tile}{' on ' + on if on else ''}: points announced?", buttons))
    callers = table.muggins_callers()
    if callers:
        prompts.append(
            ft.Row(
                [
                    ft.FilledButton(
                        content=f"Muggins! ({c})",
                        on_click=(lambda c: lambda e: table.call_muggins(c))(c),
                        bgcolor=ft.Colors.ERROR,
                        color=ft.Colors.ON_ERROR,
                    )
                    for c in callers
                ],
                wrap=True,
            )
        )
    # draw / pass / claims
    actions: list[ft.Control] = [
        ft.OutlinedButton(content="Draw +1", on_click=lambda e: table.draw(1), disabled=table.drawable == 0),
        ft.OutlinedButton(
            content="+3", on_click=lambda e: table.draw(3), disabled=table.drawable < 3, tooltip="Drew 3"
        ),
    ]
    if table.draws:
        actions.append(
            ft.TextButton(
                content=f"Drew {table.draws} (clear)", on_click=lambda e: table.clear_draws(), tooltip="Clear the draws"
            )
        )
    if table.can_pass:
        actions.append(ft.FilledTonalButton(content="Pass", on_click=lambda e: table.pass_()))
    if table.rules.claims == "check":
        actions.append(
            ft.Switch(
                label="Claims",
                value=table.claim_mode,
                on_change=lambda e: table.set_claim_mode(e.control.value),
            )
        )
    out.append(ft.Row(actions, wrap=True, spacing=6, key="actions"))
    fits, others = table.picker()
    out.append(ft.Text(f"Fits an open end ({len(fits)})", weight=ft.FontWeight.W_500))
    out.append(
        ft.Row(
            [PickerTile(t, f"tile {t}", True, TILE_W, table.tap, key=f"fit-{t}") for t in fits],
            wrap=True,
            spacing=6,
            run_spacing=6,
        )
    )
    out.append(ft.Text(f"Other tiles not down ({len(others)})", color=ft.Colors.ON_SURFACE_VARIANT))
    out.append(
        ft.Row(
            [PickerTile(t, f"tile {t}", False, 30, table.tap, key=f"other-{t}") for t in others],
            wrap=True,
            spacing=4,
            run_spacing=4,
        )
    )
    return out


def _hand_end_panel(table) -> list[ft.Control]:
    h = table.match.hand
    title = f"Hand {h.number} over: " + (
        f"{table.match.setup.players[h.domino_player]} dominoed" if h.end == "domino" else "blocked"
    )
    rows: list[ft.Control] = [_heading(title, 18), ft.Text("What is left in hands? Pick the tiles or type the pips.")]
    for name, held in table.holding():
        v = table.remaining.get(name)
        picked = v if isinstance(v, list) else []
        typed = v if isinstance(v, str) else ""
        rows.append(
            ft.Row(
                [
                    ft.Text(f"{name} ({held})", width=70, semantics_label=f"{name} holds {held}"),
                    ft.OutlinedButton(
                        content=("Picking" if table.picking_for == name else f"Pick {len(picked)}/{held}"),
                        on_click=(lambda n: lambda e: table.pick_for(n))(name),
                        tooltip=f"Pick {name}'s tiles",
                    ),
                    ft.TextField(
                        label=f"{name} pips",
                        value=typed,
                        width=100,
                        dense=True,
                        keyboard_type=ft.KeyboardType.NUMBER,
                        on_change=(lambda n: lambda e: table.set_pips(n, e.control.value))(name),
                        key=f"pips-{h.number}-{name}",
                    ),
                ],
                wrap=True,
            )
        )
        if picked:
            rows.append(ft.Text(f"   {name}: {' '.join(picked)}", color=ft.Colors.ON_SURFACE_VARIANT))
    lines, problem = table.settlement_preview()
    if lines:
        rows += [ft.Text(line, size=18, weight=ft.FontWeight.BOLD) for line in lines]
    elif problem:
        rows.append(ft.Text(problem, color=ft.Colors.ON_SURFACE_VARIANT, italic=True))
    rows.append(
        ft.FilledButton(content="Settle hand", on_click=lambda e: table.settle(), disabled=not lines, height=52)
    )
    if table.picking_for:
        _, others = table.picker()
        rows.append(ft.Text(f"Tap {table.picking_for}'s tiles:"))
        rows.append(
            ft.Row(
                [
                    _tile_button(t, (lambda t: lambda e: table.tap(t))(t), f"remaining tile {t}", fits=True, half=30)
                    for t in others
                ],
                wrap=True,
                spacing=4,
                run_spacing=4,
            )
        )
    return [
        ft.Container(
            content=ft.Column(rows, spacing=8),
            padding=PAD,
            border=ft.Border.all(2, ft.Colors.PRIMARY),
            border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        )
    ]


def _leader_panel(table) -> list[ft.Control]:
    nxt = table.hand_number + 1
    suggested = table.suggested_leader()
    buttons = [
        (ft.FilledButton if name == suggested else ft.OutlinedButton)(
            content=f"{name} leads", on_click=(lambda n: lambda e: table.start_hand(n))(name)
        )
        for name in table.match.setup.players
    ]
    buttons.append(ft.TextButton(content="Draw lots", on_click=lambda e: table.start_hand(None)))
    return [_heading(f"Hand {nxt}: who leads?", 18), ft.Row(buttons, wrap=True)]


def _corrections_panel(table, editing, set_editing) -> list[ft.Control]:
    rows: list[ft.Control] = [_heading("Correct an entry", 18)]
    entries = table.entries()
    for hand, turn, text in entries[-12:]:
        if editing and editing[:2] == (hand, turn):
            value = editing[2]
            rows.append(
                ft.Column(
                    [
                        ft.TextField(
                            label=f"Hand {hand}, turn {turn}",
                            value=value,
                            on_change=lambda e: set_editing((hand, turn, e.control.value)),
                            helper="e.g. 5-3 on 5-5, +2 5-3, pass, +3 pass",
                            key=f"edit-{hand}-{turn}",
                        ),
                        ft.Row(
                            [
                                ft.FilledButton(
                                    content="Save correction",
                                    on_click=(lambda h, t: lambda e: _save_edit(table, h, t, editing[2], set_editing))(
                                        hand, turn
                                    ),
                                ),
                                ft.TextButton(content="Cancel", on_click=lambda e: set_editing(None)),
                            ]
                        ),
                    ]
                )
            )
        else:
            short = text.split(": ", 1)[1]
            rows.append(
                ft.Row(
                    [
                        ft.Text(f"{hand}.{turn}  {text}", expand=True),
                        ft.IconButton(
                            icon=ft.Icons.EDIT,
                            tooltip=f"Correct hand {hand} turn {turn}",
                            on_click=(lambda h, t, s: lambda e: set_editing((h, t, s)))(hand, turn, short),
                        ),
                    ]
                )
            )
    if not entries:
        rows.append(ft.Text("No turns entered yet."))
    return rows


def _save_edit(table, hand, turn, text, set_editing) -> None:
    table.correct(hand, turn, text)
    if table.error is None:
        set_editing(None)


@ft.component
def Table(shared: vm.Shared, mid: str):
    def make():
        try:
            return TableVM(shared, mid)
        except ScorekeeperError as e:
            return str(e)

    table, _ = ft.use_state(make)
    show_fixes, set_show_fixes = ft.use_state(False)
    editing, set_editing = ft.use_state(None)
    if isinstance(table, str):
        return ft.Column(
            [_heading("Cannot open this match"), _error(table), ft.Button(content="Home", on_click=_go("/"))]
        )
    phase = table.phase
    turn = (
        f"{table.to_move} to play"
        if phase == "play"
        else "hand over"
        if phase == "hand-end"
        else "next hand"
        if phase == "leader"
        else f"{table.winner} won"
    )
    top = ft.Row(
        [
            ft.IconButton(icon=ft.Icons.HOME, tooltip="Home", on_click=_go("/")),
            ft.Text(
                f"Hand {table.hand_number} · {turn}",
                size=16,
                weight=ft.FontWeight.BOLD,
                expand=True,
                semantics_label=f"Hand {table.hand_number}, {turn}",
            ),
            ft.IconButton(icon=ft.Icons.UNDO, tooltip="Undo", on_click=lambda e: table.undo()),
            ft.IconButton(icon=ft.Icons.REDO, tooltip="Redo", on_click=lambda e: table.redo()),
            ft.IconButton(
                icon=ft.Icons.EDIT_NOTE, tooltip="Correct an entry", on_click=lambda e: set_show_fixes(not show_fixes)
            ),
            ft.IconButton(icon=ft.Icons.LEADERBOARD, tooltip="Score", on_click=_go(f"/score/{mid}")),
        ],
        spacing=0,
    )
    # The same keyed items in the same order on every render: Flet then patches
    # only what changed instead of re-sending the drawing and the picker.
    drawing = table.drawing()
    body: list[ft.Control] = [
        ft.Container(content=top, key="top"),
        ft.Container(content=_score_strip(table), key="scores"),
        ft.Container(content=_players_strip(table), key="players"),
        ft.Text(
            table.flash or "",
            size=44,
            weight=ft.FontWeight.BOLD,
            color=ft.Colors.PRIMARY,
            semantics_label=f"Scored {table.flash}" if table.flash else None,
            visible=bool(table.flash),
            key="flash",
        ),
        ft.Text(
            table.note or "",
            semantics_label=f"Note: {table.note}" if table.note else None,
            visible=bool(table.note),
            key="note",
        ),
        ft.Container(content=_error(table.error), key="error"),
        ft.Container(content=_layout_view(table, drawing), key="layout"),
        ft.Container(content=_count_line(drawing), key="count"),
    ]
    if show_fixes:
        panel, kind = _corrections_panel(table, editing, set_editing), "fixes"
    elif phase == "play":
        panel, kind = _play_panel(table), "play"
    elif phase == "hand-end":
        panel, kind = _hand_end_panel(table), "hand-end"
    elif phase == "leader":
        panel, kind = _leader_panel(table), "leader"
    else:
        panel, kind = (
            [
                ft.Container(
                    content=ft.Column(
                        [
                            ft.Text(
                                f"{table.winner} wins the match!",
                                size=28,
                                weight=ft.FontWeight.BOLD,
                                semantics_label=f"Winner {table.winner}",
                            ),
                            ft.Row(
                                [
                                    ft.FilledButton(content="Score", on_click=_go(f"/score/{mid}")),
                                    ft.OutlinedButton(content="New match", on_click=_go("/new/all-fives")),
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
    return ft.Column(body, spacing=8, scroll=ft.ScrollMode.AUTO, expand=True)
