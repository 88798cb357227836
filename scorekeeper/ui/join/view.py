"""Getting in: the join screen (all a browser without a code ever sees), the host's
invitation (the QR codes of the table code and the watch code) and a watcher's Home.
"""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft

from scorekeeper.ui.access.gate import Gate, spaced
from scorekeeper.ui.access.passes import PASS_KEY
from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.access.visitor import Visitor
from scorekeeper.ui.join.seats_view import Seats
from scorekeeper.ui.shell.base import Shared, game_title
from scorekeeper.ui.shell.typed import use_typed
from scorekeeper.ui.shell.widgets import error_box, go, heading, qr_svg, svg_image

__all__ = ["Invite", "Join", "WatchHome", "guessing", "keep_pass", "kept_pass"]


async def kept_pass() -> str | None:
    """The pass this browser kept (its local storage), or None (none, or no answer in 5 s)."""
    try:
        value = await asyncio.wait_for(ft.SharedPreferences().get(PASS_KEY), 3)
    except Exception:  # no storage, no answer: the join screen asks for the code
        return None
    return value if isinstance(value, str) else None


async def keep_pass(token: str) -> None:
    """Keep ``token`` in this browser, for the next page it opens here."""
    try:
        await asyncio.wait_for(ft.SharedPreferences().set(PASS_KEY, token), 5)
    except Exception:  # storage refused (a private window): the phone types the code next time
        pass


@ft.component
def Join(visitor: Visitor) -> ft.Control:
    """The one screen of a browser that has not given a code: nothing of any match."""
    code = use_typed()

    async def join(e: Any = None) -> None:
        if visitor.join(code.text):
            ft.context.page.navigate(visitor.wanted or "/")
            if visitor.token:
                await keep_pass(visitor.token)

    # (while its browser says whether it joined before, the join screen is shown as it is: a
    # phone with a pass leaves it a moment later; a client that never answers stays on it)
    return ft.Column(
        [
            heading("Scorekeeper", 28),
            heading("Join the table"),
            ft.Text("Type the table code shown on the host's screen, or scan its QR code with the camera."),
            ft.TextField(
                label="Table code",
                value=code.text,
                key="code",
                keyboard_type=ft.KeyboardType.NUMBER,
                text_size=24,
                on_change=code.typed,
                on_submit=join,
            ),
            ft.FilledButton(content="Join", icon=ft.Icons.LOGIN, on_click=join, height=56),
            error_box(visitor.error),
        ],
        spacing=16,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )


def _code_block(title: str, link: str, code: str | None, size: int, note: str) -> ft.Control:
    items: list[ft.Control] = [heading(title)]
    items.append(svg_image(qr_svg(link), f"QR code: {link}", max_width=size))
    if code is not None:
        items.append(ft.Text(spaced(code), size=32, weight=ft.FontWeight.BOLD, semantics_label=f"{title} code {code}"))
    items += [ft.Text(link, selectable=True, semantics_label=f"{title} link {link}"), ft.Text(note)]
    return ft.Column(items, horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=8)


@ft.component
def Invite(shared: Shared) -> ft.Control:
    """The QR codes that let phones in: the table code (scorers) and the watch code."""
    back = ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip="Back", on_click=go("/"))
    invite = shared.invite
    if invite is None:
        body: list[ft.Control] = [
            ft.Text(
                "This app is not served to phones. Run `scorekeeper web` (or `make run`) "
                "and open the address it prints."
            )
        ]
    elif invite.codes is None:
        body = [
            _code_block(
                "Players",
                invite.scorer_link,
                None,
                260,
                "Open table (--open): no code is asked; every phone on this network can enter.",
            )
        ]
    else:
        body = [
            _code_block(
                "Players",
                invite.scorer_link,
                invite.codes.scorer,
                260,
                f"Scan it with the phone's camera (or open the link), or open {invite.base}/ and type the code.",
            ),
            ft.Divider(),
            _code_block(
                "Watchers",
                invite.watcher_link,
                invite.codes.watcher,
                180,
                "Watchers see the table and the scores; they cannot change or export anything.",
            ),
        ]
    if invite is not None:
        body += [
            ft.Divider(),
            _code_block(
                "Install on this phone",
                invite.site_link,
                None,
                180,
                "Scorekeeper in the phone itself, with no laptop: open it once here, then it scores with no network "
                "(kept for offline starts where the browser allows it: see docs/phone.md). Its matches stay on that "
                "phone; move them to this laptop as files (History: Save, then Import).",
            ),
        ]
    if invite is not None and invite.codes is not None and shared.visitor.role is Role.HOST:
        body += [ft.Divider(), Seats(shared), ft.Divider(), EndPasses(shared)]
    return ft.Column(
        [ft.Row([back, heading("Phones at this table")]), *body],
        spacing=12,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
    )


def guessing(gate: Gate) -> str | None:
    """What the host is told when someone seems to be guessing the codes (None: nothing to tell).

    >>> from scorekeeper.ui.access.gate import Codes
    >>> gate = Gate(Codes("482913", "771204"))
    >>> guessing(gate) is None
    True
    >>> gate.wrong = 57
    >>> print(guessing(gate))
    Someone may be guessing the codes: 57 wrong codes typed since these codes were made. Phones that scan the QR code (or open the link) still join. New codes below makes new ones.
    >>> gate.held_back = 3
    >>> print(guessing(gate))  # doctest: +ELLIPSIS
    Someone may be guessing the codes: 57 wrong codes typed ... made; typed codes wait for now (3 held back). Phones ...
    """
    if not gate.guessing:
        return None
    words = f"Someone may be guessing the codes: {gate.wrong} wrong codes typed since these codes were made"
    if gate.held_back:
        words += f"; typed codes wait for now ({gate.held_back} held back)"
    return words + ". Phones that scan the QR code (or open the link) still join. New codes below makes new ones."


@ft.component
def EndPasses(shared: Shared) -> ft.Control:
    """The host's way to shut phones out: new codes, or the same codes with every phone
    forgotten (a phone that joined comes back without a code until then). One tap asks,
    the second does it."""
    asking, set_asking = ft.use_state("")
    _, set_done = ft.use_state(0)
    gate = shared.gate
    assert gate is not None
    phones = len(gate.passes)
    guessed = guessing(gate)

    def do(what: str) -> None:
        shared.end_passes(new_codes=what == "codes")
        set_asking("")
        set_done(gate.epoch)

    if asking:
        words = (
            "New codes: every phone that joined must join again with the new table code."
            if asking == "codes"
            else "Forget all phones: every phone that joined must type the table code again."
        )
        return ft.Column(
            [
                ft.Text(words, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        ft.FilledButton(
                            content="New codes" if asking == "codes" else "Forget all phones",
                            on_click=lambda e: do(asking),
                            height=48,
                        ),
                        ft.OutlinedButton(content="Keep them", on_click=lambda e: set_asking(""), height=48),
                    ],
                    wrap=True,
                ),
            ],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        )
    return ft.Column(
        [
            *([ft.Text(guessed, weight=ft.FontWeight.BOLD, color=ft.Colors.ERROR)] if guessed else []),
            ft.Text(
                f"{phones} phone(s) joined: each comes back to its seat without a code"
                " (a closed tab, a phone that slept, a restart of the app this evening)."
                if phones
                else "A phone that joins comes back to its seat without a code (a closed tab, a phone that slept)."
            ),
            ft.Row(
                [
                    ft.OutlinedButton(
                        content="New codes", icon=ft.Icons.REFRESH, on_click=lambda e: set_asking("codes")
                    ),
                    ft.OutlinedButton(
                        content="Forget all phones",
                        icon=ft.Icons.PHONELINK_OFF,
                        on_click=lambda e: set_asking("phones"),
                    ),
                ],
                wrap=True,
                alignment=ft.MainAxisAlignment.CENTER,
            ),
        ],
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
    )


@ft.component
def WatchHome(shared: Shared) -> ft.Control:
    """A watcher's Home: the matches in play, to watch; nothing else of the store."""
    with shared.lock:
        playing = [m for m in shared.store.list(0, 20) if m.get("status") != "won"]
    items: list[ft.Control] = [
        heading("Scorekeeper", 28),
        ft.Text("Watching: you see the table and the scores; you cannot change anything."),
    ]
    items.append(
        ft.OutlinedButton(content="Events: standings", icon=ft.Icons.EMOJI_EVENTS, on_click=go("/events"), height=48)
    )
    if not playing:
        items.append(ft.Text("No match is being played yet."))
    for m in playing:
        scores = ", ".join(f"{k} {v}" for k, v in (m.get("scores") or {}).items())
        title = m.get("title") or game_title(m.get("game"))
        items.append(
            ft.FilledTonalButton(
                content=f"Watch {' · '.join(m['players'])} ({title}: {scores})",
                icon=ft.Icons.VISIBILITY,
                on_click=go(f"/table/{m['id']}"),
                height=56,
            )
        )
    return ft.Column(items, spacing=16, scroll=ft.ScrollMode.AUTO, expand=True)
