"""The new All Fours match form, without any Flet: the players (2, 3, 4 or 6;
partners sit opposite), the variant, the target and the first dealer.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
>>> form.set_count(4); form.names
['Ann', 'Ben', 'Player 3', 'Player 4']
>>> form.sides()
['Ann & Player 3', 'Ben & Player 4']
>>> form.set_variant("seven-up"); form.default_target()
7
>>> form.set_target("x"); form.start() is None, form.error
(True, "target must be a whole number of at least 1, not 'x'")
>>> shared.close()
"""

from __future__ import annotations

import random
import re
from typing import Any

from scorekeeper import registry
from scorekeeper.allfours.rules import GAME_ID
from scorekeeper.allfours.variants import DEFAULT_VARIANT, VARIANTS, Variant
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.form import FormModel, names_problem

__all__ = ["PLAYER_COUNTS", "VARIANT_CHOICES", "FoursNewMatchForm", "variant_line"]

#: The game's presets (its ``GameSpec``'s: a variant each, in the spec's order), as choices: (title, name).
VARIANT_CHOICES = [(p.title, p.id) for p in registry.presets_of(registry.get(GAME_ID))]
#: Two or three sides: 2 or 3 players alone, 4 or 6 in partnerships (the game's ``GameSpec`` says so).
PLAYER_COUNTS = registry.player_counts(registry.get(GAME_ID))


def variant_line(spec: Variant, target: int) -> str:
    """What a variant plays like, in one line (under the Variant row).

    >>> variant_line(VARIANTS["west-yorkshire"], 11)
    'West Yorkshire: trump is pitched; Jack 1 to who wins it; a Game tie scores nobody; deals clockwise; plays to 11'
    """
    if spec.pitched:
        deal = "trump is pitched"
    else:
        values = ", ".join(f"{r} {v}" for r, v in spec.turn_up.items())
        deal = f"turn-up {values} ({'every card turned' if spec.all_turned else 'the final card'} counts)"
    jack = "hang jack 3" if spec.hang_jack else "Jack 1 to who wins it"
    tie = "a Game tie goes to a non-dealer" if spec.seven_up_tie else "a Game tie scores nobody"
    return f"{spec.title}: {deal}; {jack}; {tie}; deals {spec.dealing}; plays to {target}"


class FoursNewMatchForm(FormModel):
    """New All Fours match: players (2, 3, 4 or 6), partnerships, variant, target, first dealer."""

    _picked = "dealer"  # a renamed seat keeps being the first dealer

    def __init__(self, shared: Shared, names: list[str] | None = None) -> None:
        super().__init__(shared, names)
        self.variant = DEFAULT_VARIANT
        self.target_text = ""  # "" = the variant's target
        self.dealer: str | None = None  # None: cut for the deal when the match starts
        self.cut: str | None = None  # who the cut named, once made

    @property
    def spec(self) -> Variant:
        return VARIANTS[self.variant]

    def set_count(self, n: int) -> None:
        if n not in PLAYER_COUNTS:
            return
        self._resize(n)
        if self.dealer not in self.names:
            self.dealer = None
        self._changed()

    def teams(self) -> dict[str, list[str]] | None:
        """Partners sit opposite: 1 & 3 against 2 & 4; with six, 1 & 4, 2 & 5, 3 & 6."""
        n = [s.strip() for s in self.names]
        if len(n) not in (4, 6):
            return None
        per = len(n) // 2  # sides; partners sit ``per`` seats apart
        return {f"{n[i]} & {n[i + per]}": [n[i], n[i + per]] for i in range(per)}

    def sides(self) -> list[str]:
        t = self.teams()
        return list(t) if t else [s.strip() for s in self.names]

    def carried_sides(self) -> list[str]:
        return self.sides()

    def set_variant(self, name: str) -> None:
        if name in VARIANTS:
            self.variant = name
            self._changed()

    def default_target(self) -> int:
        return self.spec.default_target(len(self.names))

    def set_target(self, text: str) -> None:
        self.target_text = (text or "").strip()
        self._changed()

    def target_error(self) -> str | None:
        t = self.target_text
        if t and (not re.fullmatch(r"[0-9]+", t) or int(t) < 1):
            return f"target must be a whole number of at least 1, not {t!r}"
        return None

    def set_dealer(self, name: str | None) -> None:
        self.dealer = name
        self._changed()

    def record(self, rng: random.Random | None = None) -> dict[str, Any]:
        names = self.names
        dealer = self.dealer if self.dealer in names else None
        if dealer is None:
            dealer = (rng or random).choice(names)
            self.cut = dealer
        rec: dict[str, Any] = {"format": "scorekeeper/1", "game": GAME_ID, "players": names}
        teams = self.teams()
        if teams:
            rec["teams"] = teams
        # the variant's rules for this many players, as an event's match has them; the target on top
        rules = registry.rules_for(GAME_ID, self.variant, len(names))
        if self.target_text:
            rules["target"] = int(self.target_text)
        rec["rules"] = rules
        rec["title"] = f"{registry.get(GAME_ID).title} - {self.spec.title}"
        rec["hands"] = [{"dealer": dealer}]
        return rec

    def start(self, rng: random.Random | None = None) -> str | None:
        """Create the match (its first hand dealt); the new id, or None with ``error`` set.
        A cut for the deal is announced on the table."""
        self.cut = None
        mid = self._create(names_problem(self.names) or self.target_error(), lambda: self.record(rng))
        if mid is not None and self.cut is not None:
            self._shared.announce(mid, f"cut for the deal: {self.cut} deals")
        return mid
