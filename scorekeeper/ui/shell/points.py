"""A hand entered as points and an adjustment, on any game's table: the part of a table's
view-model that enters them (no Flet). What a hand of the game can give and who wins by it
is the engine's (``scorekeeper/points.py`` and each game's engine): this part only keeps
what is typed and tapped, and stores it as the record's item.

- **A hand entered as points**: one field per side; the game's own steps (``+5`` in All
  Fives, the names of the points in All Fours, ``+10`` in Broadway) add to a side's field;
  one tap stores it (``{"points": {side: n}}``). When the points would take two sides to
  the target, the part asks which got there first (``"first"``). A hand already begun
  tile by tile (or fact by fact) is entered as points only after a confirmation: what was
  entered of it is dropped, and the hand is entered as points in its place.
- **An adjustment**: one field per side (empty: not changed) and a reason, required
  (``{"adjust": {side: n}, "why": "..."}``).

The part reaches its table through :class:`EntryDoor`, the few members of the table it
uses (every game's :class:`~scorekeeper.ui.shell.base.TableModel` is one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.shell.policy import Act, Verdict

if TYPE_CHECKING:
    from scorekeeper.store import Store

__all__ = ["ADJUST", "POINTS", "EntryDoor", "PointsPart", "Step", "whole"]

POINTS = "points"
ADJUST = "adjust"

#: A quick step of a side's field: its label ("+5", "High") and the points it adds.
Step = tuple[str, int]


class EntryDoor(Protocol):
    """What the points part may use of its table."""

    mid: str
    error: str | None  # what the screen shows in place of the entry
    note: str | None  # what the last entry did, in words

    @property
    def sides(self) -> list[str]: ...

    @property
    def scores(self) -> dict[str, int]: ...

    @property
    def hand_number(self) -> int: ...

    @property
    def winner(self) -> str | None: ...

    @property
    def can_enter(self) -> bool: ...

    def may(self, act: Act, **facts: Any) -> Verdict: ...

    def change(
        self, fn: Callable[[Store], Any], then: Callable[[], Any] | None = None, what: str = "undo the last entry"
    ) -> bool: ...

    def saying(self, words: str) -> Callable[[], None]: ...

    def stored_record(self) -> dict[str, Any]: ...

    def redraw(self) -> None: ...


def whole(text: str, *, sign: bool = True) -> int | None:
    """A typed whole number (``"-10"``, ``"+5"``, ``" 35 "``), or None when it is not one.

    >>> whole("35"), whole("-10"), whole("+5"), whole(""), whole("3.5"), whole("-2", sign=False)
    (35, -10, 5, None, None, None)
    """
    t = text.strip().replace("\u2212", "-")
    body = t[1:] if t[:1] in "+-" and sign else t
    if not body.isascii() or not body.isdigit() or len(body) > 6:
        return None
    return int(t)


class PointsPart:
    """Entering a hand as points or an adjustment, on one table (through ``door``).

    ``steps``: the game's quick steps of a side's field; ``target``: the score that wins
    (None: the game decides otherwise), to ask who got there first; ``begun``: the hand
    being entered now (tile by tile, fact by fact), in words of what was entered of it
    ("4 turns"; ``""``: started, nothing entered yet), or None between hands; ``exact``:
    whether the target must be hit exactly (points past it are voided: they reach nothing).
    """

    def __init__(
        self,
        door: EntryDoor,
        steps: Callable[[], Sequence[Step]],
        target: Callable[[], int | None],
        begun: Callable[[], str | None],
        exact: Callable[[], bool] = lambda: False,
    ) -> None:
        self.door = door
        self._steps = steps
        self._target = target
        self._begun = begun
        self._exact = exact
        self.mode: str | None = None  # POINTS, ADJUST or None (closed)
        self.typed: list[str] = []
        self.why = ""
        self.first: str | None = None
        self.confirming = False  # a begun hand: the table is asked before what it holds is dropped
        self._agreed: str | None = None  # what the table agreed to drop (dropped() when it did)
        self.fresh = 0  # changes when the app sets the fields (a tap on a step): new fields

    # ------------------------------------------------------------ reading
    @property
    def sides(self) -> list[str]:
        return self.door.sides

    @property
    def steps(self) -> list[Step]:
        return list(self._steps())

    @property
    def open(self) -> bool:
        return self.mode is not None

    def title(self) -> str:
        """The form's heading: ``Hand 3 as points``, ``Adjust score``."""
        if self.mode == ADJUST:
            return "Adjust score"
        return f"Hand {self.next_number()} as points"

    def next_number(self) -> int:
        """The number the hand entered as points gets (the begun hand's, where one is)."""
        n = self.door.hand_number
        return n if self._begun() is not None else n + 1

    def dropped(self) -> str | None:
        """What is dropped when the hand being entered is entered as points instead, in
        words ("what was entered of hand 3 (4 turns)"); None when nothing is."""
        begun = self._begun()
        if not begun:
            return None
        return f"what was entered of hand {self.next_number()} ({begun})"

    def values(self) -> list[int | None]:
        """Each side's typed points (None: empty or not a whole number)."""
        return [whole(t) for t in self.typed]

    def reaching(self) -> list[str]:
        """The sides the typed points take to the target (two or more: who was first is
        asked). A plain sum of the scores and the points; the engine has the last word."""
        target = self._target()
        if target is None or self.mode != POINTS:
            return []
        scores = self.door.scores
        exact = self._exact()
        return [
            s
            for s, v in zip(self.door.sides, self.values(), strict=True)
            if v is not None and v > 0 and (scores[s] + v == target if exact else scores[s] + v >= target)
        ]

    def problem(self) -> str | None:
        """Why the form cannot be stored as it is, in one line (None: it can be tried)."""
        sides = self.door.sides
        values = self.values()
        for side, text, v in zip(sides, self.typed, values, strict=True):
            if text.strip() and v is None:
                return f"{side}: {text.strip()!r} is not a whole number"
        if self.mode == POINTS:
            empty = [s for s, t in zip(sides, self.typed, strict=True) if not t.strip()]
            if len(empty) == len(sides):
                return "type each side's points in the hand (0 for a side that scored nothing)"
            if len(self.reaching()) > 1 and self.first not in self.reaching():
                return "say which side got there first"
            return None
        if not any(v for v in values):
            return "type the change of at least one side (-10 takes 10 off)"
        if not self.why.strip():
            return "say why, in a few words (a misdeal, a penalty agreed ...)"
        return None

    # ------------------------------------------------------------ the form
    def open_points(self) -> None:
        """Open the form of a hand entered as points (asked first when a hand is begun)."""
        if self._refused(Act.ENTER):
            return
        self._reset(POINTS)
        self.confirming = self.dropped() is not None
        self._agreed = None

    def open_adjust(self) -> None:
        """Open the form of an adjustment -- where the match takes one now: the engine is
        asked first (with a trial adjustment of one point, on a copy of the record), and why
        not is said at once (a hand being played: an adjustment comes between hands)."""
        if self._refused(Act.ADJUST):
            return
        record = self.door.stored_record()
        record["hands"] = [*record.get("hands", []), {"adjust": {self.sides[0]: 1}, "why": "a trial"}]
        try:
            registry.game_of(record).load(record)
        except ScorekeeperError as e:
            self.door.error = str(e)
            self.door.redraw()
            return
        self._reset(ADJUST)

    def confirm(self) -> None:
        """The table agrees to drop what was entered of the begun hand (done when stored)."""
        self.confirming = False
        self._agreed = self.dropped()
        self.door.redraw()

    def close(self) -> None:
        self.mode = None
        self.confirming = False
        self.door.error = None
        self.door.redraw()

    def set_text(self, side: int, text: str) -> None:
        typed = list(self.typed)
        typed[side] = text
        self.typed = typed
        if self.first is not None and self.first not in self.reaching():
            self.first = None
        self.door.redraw()

    def step(self, side: int, points: int) -> None:
        """A quick step: ``points`` added to the side's field (an empty field counts 0)."""
        v = whole(self.typed[side]) or 0
        self.fresh += 1
        self.set_text(side, str(v + points))

    def set_why(self, text: str) -> None:
        self.why = text
        self.door.redraw()

    def set_first(self, side: str | None) -> None:
        self.first = side
        self.door.redraw()

    def _reset(self, mode: str) -> None:
        self.mode = mode
        self.typed = [""] * len(self.door.sides)
        self.why = ""
        self.first = None
        self.fresh += 1
        self.door.error = None
        self.door.redraw()

    def _refused(self, act: Act) -> bool:
        verdict = self.door.may(act)
        if not verdict.allowed:
            self.door.error = verdict.words
            self.door.redraw()
            return True
        return False

    # ------------------------------------------------------------ storing
    def save(self) -> bool:
        """Store the entry (one change of the match; the form closes when it went in)."""
        if self.mode is None:
            return False
        dropped = self.dropped()
        if self.mode == POINTS and not self.confirming and dropped is not None and dropped != self._agreed:
            self.confirming = True  # another phone entered into the hand meanwhile: asked again
        problem = f"first say whether {dropped} is dropped" if self.confirming else None
        problem = problem or self.problem()
        if problem is not None:
            self.door.error = self._where(problem)
            self.door.redraw()
            return False
        if self.mode == ADJUST:
            if self._refused(Act.ADJUST):
                return False
            return self._store_adjust()
        return self._store_points()

    def _then(self, said: str, note: str) -> Callable[[], None]:
        """What runs once the entry is in, before the other phones are told: the change named
        for a phone that raced it (``said``), and what it did (``note``, every phone's)."""
        saying = self.door.saying(said)

        def then() -> None:
            saying()
            self.door.note = note

        return then

    def _where(self, problem: str) -> str:
        """A refusal in the words of every error line: it names the hand (an adjustment, the
        hand it follows)."""
        if self.mode == POINTS:
            return f"hand {self.next_number()}, points: {problem}"
        n = self.door.hand_number
        where = f"adjustment after hand {n}" if n else "adjustment before hand 1"
        return f"{where}: {problem}"

    def _store_points(self) -> bool:
        sides = self.door.sides
        points = {s: v or 0 for s, v in zip(sides, self.values(), strict=True)}
        entry: dict[str, Any] = {"points": points}
        reaching = self.reaching()
        if len(reaching) > 1 and self.first is not None:
            entry["first"] = self.first
        number = self.next_number()
        begun = self._begun() is not None
        mid = self.door.mid

        def store(st: Store) -> None:
            if begun:
                replace_hand(st, mid, entry)
            else:
                st.append(mid, entry)

        words = ", ".join(f"{s} {v:+d}" if v else f"{s} 0" for s, v in points.items())
        then = self._then(f"hand {number} entered as points", f"Hand {number} entered as points: {words}")
        if self.door.change(store, then, what=f"enter hand {number} as points"):
            self.mode = None
            self.door.redraw()
            return True
        return False

    def _store_adjust(self) -> bool:
        sides = self.door.sides
        changes = {s: v for s, v in zip(sides, self.values(), strict=True) if v}
        why = self.why.strip()
        entry = {"adjust": changes, "why": why}
        words = ", ".join(f"{s} {v:+d}" for s, v in changes.items())
        mid = self.door.mid
        then = self._then("the adjustment", f"Adjustment: {words} ({why})")
        if self.door.change(lambda st: st.append(mid, entry), then, what="adjust the score"):
            self.mode = None
            self.door.redraw()
            return True
        return False


def replace_hand(store: Store, mid: str, entry: dict[str, Any]) -> None:
    """The hand being entered is dropped (every entry of it taken back, its start too) and
    ``entry`` -- the hand entered as points -- stored in its place. When the store refuses
    it, what was taken back is entered again: the match is as it was, and the error raised."""
    hands = len(store.match(mid).hands)
    taken = 0
    try:
        while len(store.match(mid).hands) >= hands:
            store.undo(mid)
            taken += 1
        store.append(mid, entry)
    except ScorekeeperError:
        for _ in range(taken):
            store.redo(mid)
        raise
