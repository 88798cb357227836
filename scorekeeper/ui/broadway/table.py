"""The Broadway table view-model: one match on a grid of half-tile cells --
without Flet and without rules: whether a placement is legal, what it matches
and scores, whose turn it is and who has won is the engine's
(:mod:`scorekeeper.broadway.engine`).

A tile is set in three taps: the tile in the picker, the cell its first half
goes on, the cell next to it for the other half (or, instead of the third tap,
the direction the other half lies in).  Before it is entered the
matched sections are highlighted and the points shown; "Set it" enters it.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> from scorekeeper.ui.broadway.form import BroadwayNewMatchForm
>>> shared = open_shared(tempfile.mkdtemp())
>>> form = BroadwayNewMatchForm(shared, names=["Ann", "Ben", "Cy", "Di"])
>>> form.leader = "Ben"
>>> t = BroadwayTableModel(shared, form.start())
>>> t.phase, t.to_move, t.double
('play', 'Ben', '6-6')
>>> t.pick("6-6"); t.tap_cell((0, 0)); t.tap_cell((0, 1)); t.confirm(); t.note
'Ben set 6-6'
>>> t.pick("6-3"); t.tap_cell((1, 0)); t.tap_cell((2, 0)); t.error   # Cy (South) sets East-West
>>> t.preview.sections, t.preview.points
(1, 0)
>>> shared.close()
"""

from __future__ import annotations

from scorekeeper.broadway.engine import REGULAR_HANDS, SEATS, Match, Preview
from scorekeeper.broadway.grid import Cell, Placement, adjacent
from scorekeeper.errors import ScorekeeperError
from scorekeeper.points import adjustment_field
from scorekeeper.ui.broadway.cells import GridCell, grid_window, neighbours
from scorekeeper.ui.shell.base import Shared, TableModel
from scorekeeper.ui.shell.points import PointsPart, Step

__all__ = ["ALL_TILES", "BroadwayTableModel"]

#: The double-six set, high to low.
ALL_TILES = tuple(f"{a}-{b}" for a in range(6, -1, -1) for b in range(a, -1, -1))


class BroadwayTableModel(TableModel[Match]):
    """The Broadway table of one match."""

    game = "broadway"

    def __init__(self, shared: Shared, mid: str) -> None:
        super().__init__(shared, mid)
        self.entries = PointsPart(self, self.points_steps, lambda: None, self.begun)
        self.tile: str | None = None  # the tile picked
        self.first: Cell | None = None  # the cell its first half goes on
        self.preview: Preview | None = None  # the placement waiting for "Set it"
        self.zoom = 1.0
        self.unplayed: dict[str, int] = {}
        #: a seated phone's entry for another player, waiting for one more tap ("For Ann")
        self.asking: tuple[str, str] | None = None  # (the question, the action: confirm, pass_, expose)
        self._confirmed = False
        self._prefill_unplayed()  # a blocked hand opened again (reload, resume) is ready to settle

    # ------------------------------------------------------------- reading
    def seat_name(self, player: str) -> str:
        return SEATS[self.players.index(player)]

    @property
    def phase(self) -> str:
        return self._match.phase

    @property
    def double(self) -> str | None:
        """The double the hand being played is built on, else the next hand's (None once won)."""
        if self.phase == "over":
            return None
        h = self._match.hand
        if h is not None and not h.settled:
            return str(h.double)
        d = self._match.next_double
        return None if d is None else str(d)

    @property
    def to_move(self) -> str | None:
        return self._match.to_move

    def winner_line(self) -> str | None:
        m = self._match
        if m.winner is None or m.won_at is None:
            return None
        hand, turn = m.won_at
        at = f"hand {hand}, turn {turn}" if turn is not None else f"the end of hand {hand}"
        if m.won_by == "adjust":
            at = "the " + adjustment_field(hand)
        other = m.scores[1 - m.winner]
        return f"{self.winner} win {m.scores[m.winner]} to {other} at {at}"

    def status(self) -> str:
        """What the top bar says: the hand (and its double) and what the table must do now.
        Before the first hand (its leader not chosen on the new-match form): who holds the double."""
        phase = self.phase
        if phase == "start" and self._match.hand is None:
            return f"New match · who holds {self.double}?"
        status = (
            f"{self.to_move} to play"
            if phase == "play"
            else "tiles left"
            if phase == "unplayed"
            else "next hand"
            if phase == "start"
            else f"{self.winner} won"
        )
        hand = (
            f"Hand {self.hand_number} on {self.double}" if phase in ("play", "unplayed") else f"Hand {self.hand_number}"
        )
        return f"{hand} · {status}"

    @property
    def pass_open(self) -> bool:
        """Pass and Exposed can be entered: a hand is being played and its double is down
        (the first turn of a hand can only set the double)."""
        h = self._match.hand
        return self.phase == "play" and h is not None and bool(h.turns)

    def sudden_death(self) -> bool:
        """The hand being played is a sudden-death hand -- or, between hands, the next one is."""
        h = self._match.hand
        if self.phase == "start":
            return h is not None and (h.sudden_death or h.number >= REGULAR_HANDS)
        return bool(h and h.sudden_death)

    def held(self) -> list[tuple[str, int]]:
        """(player, tiles still held) in seat order; 7 each between hands (a new hand is drawn)."""
        h = self._match.hand
        if h is None or self.phase == "start":
            return [(p, 7) for p in self.players]
        return [(p, h.held(i)) for i, p in enumerate(self.players)]

    def tiles_left(self) -> list[str]:
        """Tiles not yet down this hand (the app does not know the hands)."""
        h = self._match.hand
        down = {str(t) for t in h.layout.tiles} if h else set()
        return [t for t in ALL_TILES if t not in down]

    def fits(self, tile: str) -> bool:
        return bool(self._match.legal_placements(tile))

    def picker(self) -> tuple[list[str], list[str]]:
        """Tiles not down yet: those the player to move can set somewhere, then the others."""
        h = self._match.hand
        if self.phase != "play" or h is None:
            return [], []
        if not h.turns:
            return [str(h.double)], []
        left = self.tiles_left()
        fits = [t for t in left if self.fits(t)]
        return fits, [t for t in left if t not in fits]

    def spots(self) -> set[Cell]:
        """Free cells where the picked tile can go (the first half's cell: any of its two)."""
        h = self._match.hand
        if self.tile is None or self.phase != "play" or h is None or not h.turns:
            return set()
        out: set[Cell] = set()
        for p in self._match.legal_placements(self.tile):
            if p.placement is not None:
                out.update(p.placement.cells)
        return out

    def grid(self) -> tuple[tuple[int, int, int, int], list[GridCell]]:
        """The window to draw -- the layout and two cells around it -- and its cells worth
        drawing (see :func:`~scorekeeper.ui.broadway.cells.grid_window`)."""
        h = self._match.hand
        lay = h.layout if h is not None and not h.settled else None
        return grid_window(lay, self.preview, self.first, self.spots())

    def points_steps(self) -> list[Step]:
        """The quick steps of a hand entered as points: 10 a tile set, 1 a tile left."""
        return [("+10", 10), ("+1", 1), ("\u221210", -10), ("\u22121", -1)]

    def begun(self) -> str | None:
        """The hand being played, in words of what was entered of it ("5 turns"; "": begun,
        no turn yet), or None between hands."""
        h = self._match.hand
        if self.phase not in ("play", "unplayed") or h is None:
            return None
        n = len(h.turns)
        return "" if n == 0 else f"{n} turn{'s' if n != 1 else ''}"

    def turn_lines(self) -> list[str]:
        """This hand's turns, newest first."""
        h = self._match.hand
        if h is None:
            return []
        out = []
        for t in reversed(h.turns):
            who = self.players[t.seat]
            if t.kind == "play":
                pts = f" -> {self.setup.sides[self.setup.side_of[t.seat]]} +{t.points}" if t.points else ""
                out.append(f"{t.number}. {who}: {t.tile}, {len(t.matched)} matched{pts}")
            elif t.kind == "pass":
                out.append(f"{t.number}. {who}: pass")
            else:
                out.append(f"{t.number}. {who}: exposed {t.exposed} (turn lost)")
        return out

    def preview_line(self) -> str | None:
        pv = self.preview
        seat = self._match.seat_to_move
        if pv is None or pv.placement is None or seat is None:
            return None
        side = self.setup.sides[self.setup.side_of[seat]]
        return (
            f"{pv.placement.tile}: {pv.sections} matched section{'s' if pv.sections != 1 else ''}"
            f" -> {side} +{pv.points}"
        )

    # ------------------------------------------------------------- acting
    def _clear(self) -> None:
        self.tile = self.first = self.preview = None
        self.asking = None

    def _for_other(self, action: str, what: str) -> bool:
        """Whether an entry may go in now: a phone that is Ben's entering for Ann is asked
        first ("It is Ann's turn. Enter 6-5 for Ann?"); nothing goes in until "For Ann"."""
        who, seat = self.to_move, self.seat
        if seat is None or who is None or seat == who or self._confirmed:
            return True
        self.asking, self.error = (f"It is {who}'s turn. Enter {what} for {who}?", action), None
        self._changed()
        return False

    def confirm_other(self) -> None:
        """ "For Ann": the entry asked about goes in."""
        if self.asking is not None:
            self._confirmed = True
            try:
                getattr(self, self.asking[1])()
            finally:
                self._confirmed, self.asking = False, None
                self._changed()

    def _forget_entry(self) -> None:
        self._clear()
        self._prefill_unplayed()

    @property
    def turn_of(self) -> str | None:
        return self.to_move if self.phase == "play" else None

    def pick(self, tile: str) -> None:
        """Pick the tile being set (again: put it back)."""
        if self.refused():
            return
        self.first = self.preview = None
        self.tile = None if tile == self.tile else tile
        self.error = None
        if self.tile is not None and not self.fits(self.tile) and self.phase == "play":
            self.error = f"{self.tile} matches nowhere for {self.to_move} now"
        self._changed()

    def tap_cell(self, cell: Cell) -> None:
        """The first tap: where the first half goes; the second: the other half's cell."""
        if self.refused():
            return
        cell = (int(cell[0]), int(cell[1]))
        if self.tile is None:
            self.error = "pick a tile first"
            self._changed()
            return
        if self.first is None or self.preview is not None or not adjacent(self.first, cell):
            self.first, self.preview = cell, None
            self.error = None
            self._changed()
            return
        self._propose(self.tile, self.first, cell)

    def directions(self) -> list[str]:
        """After the first tap: the directions (``"North"``, ``"East"``, ``"South"``, ``"West"``)
        the other half can go in -- those where the engine accepts the tile one way round."""
        tile, first = self.tile, self.first
        if tile is None or first is None or self.preview is not None:
            return []
        return [d for d, c in neighbours(first) if any(p.ok for p in self._tries(tile, first, c))]

    def toward(self, direction: str) -> None:
        """A cell and a direction: the other half goes on the cell next to the first tap."""
        if self.first is None or self.tile is None:  # (a first cell is only tapped with a tile picked)
            self.error = "tap the cell for the first half first"
            self._changed()
            return
        cell = dict(neighbours(self.first))[direction]
        self._propose(self.tile, self.first, cell)

    def _tries(self, tile: str, a: Cell, b: Cell) -> list[Preview]:
        hi, lo = (int(x) for x in tile.split("-"))
        tries = [self._match.preview(Placement(hi, lo, (a, b)))]
        if hi != lo:
            tries.append(self._match.preview(Placement(lo, hi, (a, b))))
        return tries

    def _propose(self, tile: str, a: Cell, b: Cell) -> None:
        """``tile`` on ``a`` and ``b``: the way round that is legal (the better one if both are)."""
        tries = self._tries(tile, a, b)
        good = [p for p in tries if p.ok]
        if good:
            self.preview = max(good, key=lambda p: p.points)
            self.error = None
        else:
            self.preview = None
            self.first = None
            self.error = str(tries[0].error)
        self._changed()

    def swap(self) -> None:
        """Turn the tile being set round (its halves change cells), if that is legal too."""
        pv = self.preview
        if pv is None or pv.placement is None:
            return
        p = pv.placement
        other = self._match.preview(Placement(p.second, p.first, p.cells))
        if other.ok:
            self.preview = other
            self.error = None
        else:
            self.error = str(other.error)
        self._changed()

    def cancel(self) -> None:
        self._clear()
        self.error = None
        self._changed()

    def confirm(self) -> None:
        pv = self.preview
        if pv is None or pv.placement is None or not self._for_other("confirm", str(pv.placement.tile)):
            return
        who, placement, points = self.to_move, pv.placement, pv.points
        entry = placement.entry()
        if self._apply(lambda st: st.append(self.mid, {"turn": entry}), self._saying(f"{who}'s {placement.tile}")):
            self.note = f"{who} set {placement.tile}" + (f": +{points}" if points else "")
            self._clear()
            self._after()

    def pass_(self) -> None:
        if not self._for_other("pass_", "a pass"):
            return
        who = self.to_move
        if self._apply(lambda st: st.append(self.mid, {"turn": {"pass": True}}), self._saying(f"{who}'s pass")):
            self.note = f"{who} passed"
            self._clear()
            self._after()

    def expose(self) -> None:
        """The player to move showed the picked tile out of turn: the turn is lost."""
        if self.tile is None:
            self.error = "pick the tile that was shown"
            self._changed()
            return
        if not self._for_other("expose", f"{self.tile} shown (the turn lost)"):
            return
        who, tile = self.to_move, self.tile
        if self._apply(lambda st: st.append(self.mid, {"turn": {"exposed": tile}}), self._saying(f"{who}'s {tile}")):
            self.note = f"{who} exposed {tile}: turn lost"
            self._clear()
            self._after()

    def _prefill_unplayed(self) -> None:
        """After a blocked hand: each player's tiles left, 7 minus the tiles they set."""
        h = self._match.hand
        if self.phase == "unplayed" and h is not None:
            self.unplayed = {p: h.held(i) for i, p in enumerate(self.players)}

    def _after(self) -> None:
        self._prefill_unplayed()
        self._changed()

    def set_unplayed(self, player: str, n: int) -> None:
        self.unplayed = {**self.unplayed, player: max(0, n)}
        self._changed()

    def penalty_preview(self) -> tuple[dict[str, int] | None, str | None]:
        try:
            return self._match.penalties_preview(self.unplayed), None
        except ScorekeeperError as e:
            return None, str(e)

    def settle(self) -> None:
        given = dict(self.unplayed)
        if self._apply(lambda st: st.append(self.mid, {"unplayed": given})):
            self.note = "hand settled"

    def start_hand(self, leader: str) -> None:
        if self._apply(lambda st: st.append(self.mid, {"hand": {"leader": leader}})):
            self.note = f"hand {self.hand_number}: {leader} sets {self.double}"
            self._clear()

    def undo(self) -> None:
        if self.tile is not None:
            self.cancel()
            return
        if self._apply(lambda st: st.undo(self.mid), self._saying(f"the Undo on {self.phone}")):
            self.note = "last entry taken back"
            self._after()

    def redo(self) -> None:
        if self._apply(lambda st: st.redo(self.mid), self._saying(f"the Redo on {self.phone}")):
            self.note = "entry put back"
            self._after()

    def zoom_by(self, factor: float) -> None:
        self.zoom = min(2.0, max(0.5, round(self.zoom * factor, 2)))
        self._changed()
