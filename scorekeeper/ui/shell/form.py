"""The base of the new-match forms: the players' names, earlier players offered first.

>>> names_problem(["Ann", " Ann "]), names_problem(["Ann", ""]), names_problem(["Ann", "Ben"])
('two players have the same name', 'every player needs a name', None)
>>> names_problem(["Ann", "ann"])
"two players have the same name: 'Ann' and 'ann' (capitals and spaces do not count)"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper import text
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import message_of
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

__all__ = ["FormModel", "names_problem"]


class FormModel(Model):
    """Base of the new-match forms: the players' names (earlier players offered first),
    ``error``, and :meth:`_create` to store the new match.

    ``typed`` holds what each name field holds (empty until a name is typed or an earlier
    player's name is offered); ``names`` the names the match gets: a field left empty
    gives its seat's placeholder ("Player 2"), shown in the field, never typed into it.
    """

    #: The attribute naming a player that follows a renamed seat (the first leader, dealer...).
    _picked = "leader"

    def __init__(self, shared: Shared, names: list[str] | None = None) -> None:
        self._shared = shared
        self.known = shared.names()
        # two earlier players, if there are two; else two empty fields
        default = self.known[:2] if len(self.known) >= 2 else ["", ""]
        self.typed: list[str] = list(names) if names else default
        self.error: str | None = None
        #: "Scores so far": each side's score carried in (a match carried on from paper),
        #: off by default; ``carried`` holds what is typed for each side, in the sides' order.
        self.carry = False
        self.carried: list[str] = []

    # ------------------------------------------------------------ scores so far
    def carried_sides(self) -> list[str]:
        """The sides of the match the form would start, a field of "Scores so far" each
        (here: every player on their own; a form with partnerships says its own)."""
        return [s.strip() for s in self.names]

    def set_carry(self, on: bool) -> None:
        """Turn "Scores so far" on or off (off: nothing is carried in)."""
        self.carry = bool(on)
        self._changed()

    def set_carried(self, side: int, value: str) -> None:
        carried = list(self.carried) + [""] * (side + 1 - len(self.carried))
        carried[side] = value
        self.carried = carried
        self._changed()

    def carried_problem(self) -> str | None:
        """Why the scores so far cannot be carried in as typed (None: they can be tried; the
        engine checks each against the target)."""
        if not self.carry:
            return None
        for i, side in enumerate(self.carried_sides()):
            t = self.carried[i].strip() if i < len(self.carried) else ""
            if t and not (t.isascii() and t.isdigit() and len(t) <= 5):
                return f"start: the score of {side} must be a whole number, 0 or more, not {t!r}"
        return None

    def with_start(self, record: dict[str, Any]) -> dict[str, Any]:
        """``record`` with the scores so far (``"start"``) where "Scores so far" is on; an
        empty field carries in 0."""
        if not self.carry:
            return record
        sides = self.carried_sides()
        start = {s: int(self.carried[i].strip() or 0) if i < len(self.carried) else 0 for i, s in enumerate(sides)}
        return {**record, "start": start} if any(start.values()) else record

    @property
    def names(self) -> list[str]:
        """The players' names: what was typed, else the seat's placeholder."""
        return [t.strip() or self.placeholder(i) for i, t in enumerate(self.typed)]

    def placeholder(self, seat: int) -> str:
        """The name of a seat left empty (and what its field shows while empty)."""
        return f"Player {seat + 1}"

    def _resize(self, n: int) -> None:
        """``n`` seats: cut, or filled with earlier players not yet seated, then empty fields."""
        out = list(self.typed[:n])
        pool = [k for k in self.known if k not in out]
        while len(out) < n:
            out.append(pool.pop(0) if pool else "")
        self.typed = out

    def set_name(self, seat: int, name: str) -> None:
        old = self.names[seat]
        typed = list(self.typed)
        typed[seat] = name
        self.typed = typed
        if getattr(self, self._picked) == old:
            setattr(self, self._picked, self.names[seat])
        self._changed()

    def _create(self, problem: str | None, make_record: Callable[[], dict[str, Any]]) -> str | None:
        """Store the record ``make_record()`` unless ``problem``; its id, or None with ``error`` set."""
        verdict = self._shared.may(Act.START)
        problem = problem or self._shared.names_problem(self.names)
        if problem is None and not verdict.allowed:
            problem = verdict.words
        problem = problem or self.carried_problem()
        if problem is None:
            try:
                with self._shared.lock:
                    mid = self._shared.store.create(self.with_start(make_record()))
                self.error = None
                self._changed()
                return mid
            except ScorekeeperError as e:
                problem = message_of(e)
        self.error = problem
        self._changed()
        return None


def names_problem(names: list[str]) -> str | None:
    """Why a new match's player names (trimmed, as the match gets them) cannot be used, or None."""
    return text.players_problem([s.strip() for s in names])
