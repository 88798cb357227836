"""A change of a finished match that waits for the other side: asked on one side's phone,
agreed on a phone of every other side (or done by the host). No Flet.

A match that is over is the result both sides walked away with: a seated phone that undoes
or corrects an entry of it only *asks* (:class:`Ask`); every phone of the match shows the
question, and the change is made once a phone holding a seat of each other side agrees. Any
other change of the match meanwhile (another phone's entry, the host's own change) voids the
question: it was about the match as it stood.

>>> book = AskBook()
>>> ask = Ask("m1", "undo the last entry", "Ann's phone", "k1", 0, frozenset({1}), 3, lambda st: None)
>>> book.put(ask); book.get("m1", 3) is ask, book.get("m1", 4)
(True, None)
>>> ask.agree(1), ask.waiting_for
(True, frozenset())
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from scorekeeper.ui.access.roles import Role
from scorekeeper.ui.shell.policy import Act, Verdict

if TYPE_CHECKING:  # handed to the app by whoever starts it (scorekeeper.ui.server.shared)
    from scorekeeper.ui.access.visitor import Visitor
    from scorekeeper.ui.live.hub import Hub

__all__ = ["Ask", "AskBook", "AskDoor", "Asking"]


@dataclass
class Ask:
    """One side's request to change a finished match: ``what`` it is in words, ``by`` whom
    ("Ann's phone"), the key of the phone that asked, its side (an index of the record's
    sides), the sides that must agree, the match's version it was asked at, and the change."""

    mid: str
    what: str
    by: str
    key: str | None
    side: int
    need: frozenset[int]
    version: int
    change: Callable[[Any], Any]
    agreed: set[int] = field(default_factory=set)

    @property
    def waiting_for(self) -> frozenset[int]:
        """The sides that have not agreed yet."""
        return self.need - self.agreed

    def agree(self, side: int) -> bool:
        """``side`` agrees; True once every side it waited for has."""
        if side in self.need:
            self.agreed.add(side)
        return not self.waiting_for


class AskBook:
    """The question open at each match (one at a time), thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._asks: dict[str, Ask] = {}

    def put(self, ask: Ask) -> None:
        """``ask`` is the match's question (an earlier one is replaced)."""
        with self._lock:
            self._asks[ask.mid] = ask

    def get(self, mid: str, version: int) -> Ask | None:
        """The question open at ``mid`` while the match is still at ``version`` (else None:
        the match changed since, and the question went with it)."""
        with self._lock:
            ask = self._asks.get(mid)
            if ask is not None and ask.version != version:
                del self._asks[mid]
                return None
            return ask

    def drop(self, mid: str) -> Ask | None:
        """Close the question at ``mid`` (agreed, refused or taken back); it, if there was one."""
        with self._lock:
            return self._asks.pop(mid, None)


class AskDoor(Protocol):
    """What :class:`Asking` may use of its table."""

    mid: str
    error: str | None
    note: str | None

    @property
    def seat(self) -> str | None:
        """The player this phone is, or None."""

    @property
    def visitor(self) -> Visitor:
        """The browser (its key, its role, the seats held)."""

    @property
    def hub(self) -> Hub:
        """The match's version (a question is about the match as it stood)."""

    def match_sides(self) -> tuple[tuple[str, ...], ...]: ...

    def may(self, act: Act, **facts: Any) -> Verdict: ...

    def sheet_lock(self) -> str | None: ...

    def apply_agreed(self, fn: Callable[[Any], Any], then: Callable[[], Any] | None = None) -> bool: ...

    def saying(self, words: str) -> Callable[[], None]: ...

    def tell_others(self, change: object = None) -> None: ...

    def redraw(self) -> None: ...


class Asking:
    """A table's side of the questions (a part of its view-model): asking the other sides,
    and the phones of those sides agreeing or refusing. It reaches the table through its
    door (:class:`AskDoor`) only, and the app's book of questions."""

    def __init__(self, door: AskDoor, book: AskBook) -> None:
        self.door = door
        self._book = book

    def _side_of(self, player: str | None) -> int | None:
        return next((i for i, side in enumerate(self.door.match_sides()) if player in side), None)

    def _words(self, which: frozenset[int]) -> str:
        sides = self.door.match_sides()
        return " and ".join(" & ".join(sides[i]) for i in sorted(which) if i < len(sides))

    def _mine(self, ask: Ask) -> bool:
        return ask.key is not None and ask.key == self.door.visitor.key

    def ask(self, fn: Callable[[Any], Any], what: str) -> bool:
        """Ask the other sides to agree to ``fn`` (a change of this finished match, ``what`` in
        words); never applied here: False."""
        door = self.door
        visitor = door.visitor
        mine = self._side_of(door.seat)
        sides = door.match_sides()
        others = frozenset(i for i in range(len(sides)) if i != mine)
        empty = [i for i in sorted(others) if not any(visitor.held(door.mid, p) for p in sides[i])]
        if mine is None or empty:
            who = " & ".join(sides[empty[0]]) if empty else "the other side"
            door.error = f"the match is over: a change needs the host, or a phone holding a seat of {who}"
            door.redraw()
            return False
        version = door.hub.version(door.mid)
        self._book.put(Ask(door.mid, what, visitor.phone(door.mid), visitor.key, mine, others, version, fn))
        door.error = None
        door.note = f"the match is over: asked {self._words(others)} to agree to {what}"
        door.redraw()
        door.tell_others()  # their phones show the question
        return False

    @property
    def open(self) -> Ask | None:
        """The question open at this match, if any (a change of the match closes it)."""
        return self._book.get(self.door.mid, self.door.hub.version(self.door.mid))

    @property
    def can_answer(self) -> bool:
        """This phone may agree to the open question: the host's, or a seat of a side it waits for."""
        ask = self.open
        return (
            ask is not None and self.door.may(Act.AGREE, own=self._side_of(self.door.seat) in ask.waiting_for).allowed
        )

    @property
    def is_mine(self) -> bool:
        """The open question was asked on this phone (it may take it back)."""
        ask = self.open
        return ask is not None and self._mine(ask)

    def question(self) -> str | None:
        """The open question in words, for this phone: what it asks and who must agree."""
        ask = self.open
        if ask is None:
            return None
        if self._mine(ask):
            return f"Waiting for {self._words(ask.waiting_for)} to agree to {ask.what} (the match is over)."
        return f"{ask.by} asks to {ask.what} of this finished match: {self._words(ask.waiting_for)} to agree."

    def agree(self) -> bool:
        """Agree to the open question: the change is made once every side it waits for has
        agreed (at once when the host agrees). True when it was made."""
        door = self.door
        ask = self.open
        if ask is None:
            door.error = "nothing is asked now: the match changed meanwhile"
            door.redraw()
            return False
        side = self._side_of(door.seat)
        verdict = door.may(Act.AGREE, own=side in ask.waiting_for, locked=door.sheet_lock())
        if not verdict.allowed:
            door.error = verdict.words
            door.redraw()
            return False
        if door.visitor.role is not Role.HOST and side is not None and not ask.agree(side):
            door.note = f"agreed; waiting for {self._words(ask.waiting_for)}"
            door.redraw()
            door.tell_others()
            return False
        self._book.drop(door.mid)

        def said() -> None:
            door.note = f"agreed: {ask.what}, as {ask.by} asked"
            door.saying(f"the agreed change ({ask.what})")()  # what a phone that raced it is told

        return door.apply_agreed(ask.change, said)

    def decline(self) -> None:
        """Refuse the open question (a phone that may answer it), or take back one's own."""
        door = self.door
        ask = self.open
        mine = ask is not None and self._mine(ask)
        if ask is None or not (mine or self.can_answer):
            door.error = "nothing is asked of this phone now"
            door.redraw()
            return
        self._book.drop(door.mid)
        door.note = "taken back" if mine else f"refused on {door.visitor.phone(door.mid)}: {ask.what}"
        door.error = None
        door.redraw()
        door.tell_others()
