"""How the shell finds a game's screens, without any Flet: the module the registry names
for the game (``scorekeeper/ui/<game>/screens.py``) and what it offers the shell.

>>> [g.id for g in games_with_screens()]
['all-fives', 'all-fours', 'broadway']
>>> screens_of("chess") is None
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from scorekeeper import registry
from scorekeeper.scored import Scored

if TYPE_CHECKING:
    from scorekeeper.ui.shell.base import Shared

__all__ = ["GameScreens", "games_with_screens", "history_blocks", "screens_of"]


class GameScreens(Protocol):
    """What a game's ``scorekeeper/ui/<game>/screens.py`` offers the app shell (the
    registry names the module)."""

    #: One line about the game for Home ("Broadway: the grid").
    BLURB: str

    def NewMatch(self, shared: Shared) -> Any:  # noqa: N802 - a Flet component is named like a class
        """The new-match screen (``/new/<game>``)."""
        ...

    def Table(self, shared: Shared, mid: str) -> Any:  # noqa: N802
        """The table screen of one match (``/table/<id>``)."""
        ...

    # Optional: ``history_blocks(summary) -> list[str]``, a stored match on the History
    # screen as blocks of text (else :func:`history_blocks` shows its ``--text`` table).


def screens_of(game: Any) -> GameScreens | None:
    """The screens of a game (imported on first use), or None when it has none."""
    name = registry.ui_module(game) if isinstance(game, str) else None
    if name is None:
        return None
    return cast(GameScreens, importlib.import_module(name))


def history_blocks(summary: Scored) -> list[str]:
    """A stored match on the History screen (``summary``: its ``scorekeeper score`` object):
    its game's screens' own blocks of text where they have them, else its ``--text`` table."""
    screens = screens_of(summary.get("game"))
    own: Callable[[Scored], list[str]] | None = getattr(screens, "history_blocks", None)
    if own is not None:
        return own(summary)
    return [registry.get(summary["game"]).render(summary)]


def games_with_screens() -> list[registry.Game]:
    """The games that have screens, in the registry's order."""
    return [g for g in registry.games() if registry.ui_module(g.id) is not None]
