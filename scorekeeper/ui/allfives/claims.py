"""Claims and "Muggins!" on the All Fives table, without Flet.

With the rule ``claims: "check"`` the table may ask for the points a player
announces (the claims switch) and says whether they were right; with
``claims: "muggins"`` a player scores only what they claim, and an opponent
who spots missed points calls "Muggins!" on the last play to take them.
"""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.allfives.events import Play
from scorekeeper.allfives.record import event_entry
from scorekeeper.dominoes import Tile
from scorekeeper.ui.allfives.part import Part, TableDoor

__all__ = ["Claims", "Enter"]

#: How a play is entered with the points claimed for it (the entry of plays' ``enter``).
Enter = Callable[[Tile, Tile | None, int | None], None]


class Claims(Part):
    """``claiming``: a play (tile, end) waiting for its claim; ``mode``: claims asked
    with ``check`` rules (always with ``muggins``)."""

    claiming: tuple[Tile, Tile | None] | None = None
    mode = False

    def __init__(self, door: TableDoor, *, enter: Enter) -> None:
        super().__init__(door)
        self._enter = enter

    @property
    def asks(self) -> bool:
        """Whether a play waits for the points announced before it is entered."""
        return self.door.rules.claims == "muggins" or self.mode

    def set_mode(self, on: bool) -> None:
        self.mode = bool(on)
        self.door.redraw()

    def choices(self) -> list[int]:
        """Quick buttons for a claim, in the match's scale."""
        rules = self.door.rules
        top = 5 * (rules.set * 6 // 5 + 1)  # above any count the set can make
        return [p // rules.scale for p in range(0, top + 1, 5)]

    def ask(self, tile: Tile, on: Tile | None) -> None:
        """Hold the play until its claim is given."""
        self.claiming = (tile, on)
        self.door.error = None
        self.door.redraw()

    def claim(self, points: int | None) -> None:
        """The claim announced for the play waiting for it (None: no claim)."""
        if self.claiming is None:
            return
        tile, on = self.claiming
        self.claiming = None
        self._enter(tile, on, points)

    def muggins_callers(self) -> list[str]:
        """Opponents who may call "Muggins!" on the last play (claims: muggins, points missed):
        on a player's phone, that player alone, if an opponent."""
        m = self.match
        t = self.door.last_turn()
        if m.rules.claims != "muggins" or t is None or t.tile is None or t.muggins is not None:
            return []
        if self.door.phase not in ("play", "hand-end"):
            return []
        if m.rules.worth(t.count) - (t.claim or 0) <= 0:
            return []
        s = m.setup
        mine = s.side_of[t.player]
        callers = [n for i, n in enumerate(s.players) if s.side_of[i] != mine]
        seat = self.door.seat  # a player's phone calls for its player only (nobody's: for anyone)
        return callers if seat is None else [seat] if seat in callers else []

    def call_muggins(self, caller: str) -> None:
        """An opponent called "Muggins!" on the last play: the missed points go to their side."""
        if caller not in self.muggins_callers():
            self._fail(f"{caller} cannot call muggins now")
            return
        m = self.match
        h = m.hand
        assert h is not None
        n = len(h.turns)
        last = m.events[-1]
        if not isinstance(last, Play):  # muggins_callers saw a play last
            return
        entry = dict(event_entry(last), muggins=caller)  # the last play, as entered
        if self.door.change(
            lambda st: st.edit(self.door.mid, h.number, n, entry), what=f"take {caller}'s muggins call"
        ):
            t = self.door.last_turn()
            if t is None or t.muggins is None:
                return
            _, side, pts, voided = t.muggins
            note = f"{caller} called muggins: {self.match.setup.sides[side]} +{pts}" + (
                " (voided: past the exact target)" if voided else ""
            )
            self.door.done(note, f"Muggins! {pts}" if pts else None)
