"""Entering a play on the All Fives table, without Flet.

The picker shows every tile of the set, always in the same place (the tiles
that fit an open end now lit, the tiles down left empty), so a thumb finds a
tile where it was. Every turn is one tap: a tile that fits one place is set by
a tap on it; a tile that fits two or three places shows its cell split into as
many targets, one per place, each saying where it goes and what it would score
there (a tile that fits more makes the drawing's open ends where it may go into
buttons: a second tap). Draws are one tap for any number (the count drawn,
shown at once in the boneyard and the player's tiles) before the tile or the
pass that follows them; a pass is offered only when it is legal.

The same entry serves a correction: while an earlier turn is being corrected,
the table's *entry match* is the match as it stood before that turn, and the
entry goes to the correction instead of the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorekeeper.allfives.layout import SNIFF_WAYS
from scorekeeper.dominoes import Tile
from scorekeeper.errors import ScorekeeperError
from scorekeeper.ui.allfives.part import Part, TableDoor
from scorekeeper.ui.shell.base import stale
from scorekeeper.ui.shell.drafts import DraftView

if TYPE_CHECKING:
    from scorekeeper.ui.allfives.claims import Claims
    from scorekeeper.ui.allfives.corrections import Corrections

__all__ = ["SPLIT", "EndChoice", "ForOther", "PickerCell", "Place", "PlayEntry", "SniffChoice"]

#: The words the table says for each way the sniff may be set (``layout.SNIFF_WAYS``).
SNIFF_WORDS = {"across": "Across", "inline": "In line"}


#: The most places a picker cell is split into (one target each): a tile that fits more
#: waits for its place on the drawing.
SPLIT = 3


@dataclass(frozen=True)
class PickerCell:
    """One tile of the set in the picker: ``state`` is ``"fits"`` (it can be set now),
    ``"other"`` (not down, fits no open end now) or ``"down"`` (already on the table);
    ``places``: where a tile that fits two or three places may go, one target each (the
    place its higher half joins first, as the picker shows it), else empty."""

    tile: Tile
    state: str
    places: tuple[Place, ...] = ()


@dataclass(frozen=True)
class Place:
    """A place a tile that fits two or three may go, as its split picker cell shows it: on
    ``on``, scoring ``points`` there (before claims and the exact target). No count: the
    count a place makes changes at every entry, what it scores seldom, and the cell is drawn
    again only when what it shows changes.

    >>> Place(Tile(4, 4), 15).gain, Place(Tile(4, 0), 0).gain
    ('+15', '')
    """

    on: Tile
    points: int

    @property
    def gain(self) -> str:
        """``+10`` where it scores, else nothing."""
        return f"+{self.points}" if self.points else ""


@dataclass(frozen=True)
class EndChoice:
    """Where a tile that fits several places may go: on ``on``, making ``count``
    and scoring ``points`` (before claims and the exact target).

    >>> EndChoice(Tile(4, 4), 15, 15).label, EndChoice(Tile(4, 0), 12, 0).label
    ('on 4-4 +15', 'on 4-0')
    """

    on: Tile
    count: int
    points: int

    @property
    def where(self) -> str:
        """``on 4-4``: the tile whose open end it goes on."""
        return f"on {self.on}"

    @property
    def gain(self) -> str:
        """``+10`` where it scores, else nothing."""
        return f"+{self.points}" if self.points else ""

    @property
    def label(self) -> str:
        """``on 4-4 +10``, ``on 0-4`` (what the button says: which end, and what it scores
        there if it scores)."""
        return f"{self.where} {self.gain}" if self.points else self.where


@dataclass(frozen=True)
class SniffChoice:
    """One way to set the sniff waiting for it: ``way`` ("across" / "inline"), the count
    it makes and its points."""

    way: str
    count: int
    points: int

    @property
    def label(self) -> str:
        """``Across: count 9``, ``In line: count 5, +5`` (what the button says)."""
        return f"{SNIFF_WORDS[self.way]}: count {self.count}" + (f", +{self.points}" if self.points else "")


@dataclass(frozen=True)
class ForOther:
    """A tap on a phone that is one player's while another is to play, waiting for one more
    tap to say it is meant for that player: ``action`` is ``"tap"`` (``tile``), ``"draw"``
    or ``"pass"``; ``player`` is the player to play."""

    action: str
    player: str
    tile: Tile | None = None
    knock: bool = False  # the game has no drawing: the pass is a knock
    n: int = 1  # tiles drawn
    on: Tile | None = None  # the place tapped, for a tile that fits several
    absolute: bool = False  # ``n`` is the whole count drawn, not more draws

    @property
    def question(self) -> str:
        """``Enter 6-5 for Ann?`` (what the strip asks)."""
        if self.action == "tap":
            return f"It is {self.player}'s turn. Enter {self.tile} for {self.player}?"
        if self.action == "draw":
            tiles = "a draw" if self.n == 1 else f"a draw of {self.n}"
            return f"It is {self.player}'s turn. Enter {tiles} for {self.player}?"
        return f"It is {self.player}'s turn. Enter {'a knock' if self.knock else 'a pass'} for {self.player}?"


class PlayEntry(Part):
    """The tile being set (``choosing``: a tile and the places it fits; ``sniffing``: the
    sniff and its place, waiting for across or in line) and the draws before it.

    A tile stays a :class:`~scorekeeper.dominoes.Tile` from the picker's button to the
    entry: the turn's record entry (``{"play": "5-0", "on": "5-5"}``) is written once,
    in :meth:`enter`, and the store reads it into the engine's ``Play``."""

    choosing: tuple[Tile, list[Tile]] | None = None
    sniffing: tuple[Tile, Tile | None] | None = None
    way: str | None = None  # how the sniff being entered is set
    asking: ForOther | None = None  # a tap for another player than this phone's, to confirm
    confirmed_for: str | None = None  # this turn is entered for that player, confirmed

    def __init__(self, door: TableDoor, *, fixes: Corrections, claims: Claims) -> None:
        super().__init__(door)
        self.fixes = fixes  # while a turn is being corrected, the entry is that correction's
        self.claims = claims  # a play may wait for the points claimed
        self._local_draws = 0  # while a turn is being corrected: draws of that turn, this phone's own
        # the draws of the turn being played, the same on every phone (one entry: "draws")
        self.shared = DraftView(door.drafts, door.mid, "draws", self._turn)

    def forget(self) -> None:
        """Drop what was being entered (a tile waiting for its end or its claim, draws)."""
        self.choosing = None
        self.sniffing = None
        self.way = None
        self._local_draws = 0
        self.shared.catch_up()
        self.asking = None
        self.confirmed_for = None

    def _turn(self) -> tuple[int, int]:
        h = self.door.match.hand
        return (h.number, len(h.turns)) if h is not None else (0, 0)

    # ------------------------------------------------------------- reading
    @property
    def draws(self) -> int:
        """Tiles drawn so far by the player to play (entered with their tile or pass): on
        every phone at once; while a turn is being corrected, that correction's."""
        if self.fixes.active:
            return self._local_draws
        n = self.shared.values().get("draws", 0)
        return n if isinstance(n, int) else 0

    def _set_draws(self, n: int) -> bool:
        if self.fixes.active:
            self._local_draws = n
            return True
        who = self.door.to_move
        words = f"{who} drew {n}" if n else f"{who}'s draws put back"
        made = self.shared.put({"draws": n}, words, self.door.phone)
        if isinstance(made, str):
            self._refuse_stale(stale(f"the draw entered on {made}"))
            return False
        if not n:  # (while draws are counted the strip says so: "Ben drew 2. Undo puts them back.")
            self.door.note = words
        self.door.tell_others(made)
        return True

    def put_back_draws(self) -> bool:
        """Undo while draws are counted: they go back (on every phone); whether there were any."""
        if not self.draws:
            return False
        if not self.door.refused():
            self._set_draws(0)
        self.door.redraw()
        return True

    @property
    def match_for_entry(self) -> Any:
        return self.door.entry_match

    @property
    def playing(self) -> bool:
        """A turn can be entered (the live hand is being played, or a turn is being corrected)."""
        return self.fixes.active or self.door.phase == "play"

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn this turn (beyond the draws entered); none where
        there is no drawing (a player who cannot play knocks)."""
        m = self.match_for_entry
        if not m.rules.draw:
            return 0
        h = m.hand
        boneyard = h.boneyard if h else m.rules.boneyard
        return max(0, boneyard - m.rules.boneyard_reserve - self.draws)

    @property
    def can_pass(self) -> bool:
        h = self.match_for_entry.hand
        return self.playing and self.drawable == 0 and h is not None and h.turns != []

    def picker(self) -> list[PickerCell]:
        """Every tile of the set, in the same order on every turn."""
        m = self.match_for_entry
        h = m.hand
        down = h.layout.nodes if h else {}
        playing = self.playing
        cells = []
        for t in m.tiles:
            places = m.placements(t) if playing and t not in down else ()
            if t in down:
                cells.append(PickerCell(t, "down"))
            elif 1 < len(places) <= SPLIT:
                cells.append(PickerCell(t, "fits", self._choices(t, places)))
            elif places:
                cells.append(PickerCell(t, "fits"))
            else:
                cells.append(PickerCell(t, "other"))
        return cells

    def _choices(self, tile: Tile, places: Sequence[Tile | None]) -> tuple[Place, ...]:
        """Each place ``tile`` may go with its points, the place its higher half joins first
        (the picker shows a tile's higher half on top)."""
        m = self.match_for_entry
        out = [Place(on, m.preview(tile, on)[1]) for on in places if on is not None]
        return tuple(sorted(out, key=lambda c: tile.hi not in (c.on.hi, c.on.lo) or tile.is_double))

    def end_choices(self) -> list[EndChoice]:
        """While a tile that fits several places waits: each place, its count and its points."""
        if self.choosing is None:
            return []
        m = self.match_for_entry
        tile, places = self.choosing
        out = []
        for on in places:
            count, points = m.preview(tile, on)
            out.append(EndChoice(on, count, points))
        return out

    def sniff_choices(self) -> list[SniffChoice]:
        """While the sniff waits for how it is set: each way, its count and its points."""
        if self.sniffing is None:
            return []
        m = self.match_for_entry
        tile, on = self.sniffing
        return [SniffChoice(w, *m.preview(tile, on, w)) for w in SNIFF_WAYS]

    # ------------------------------------------------------------- acting
    def _for_whom(
        self, action: str, tile: Tile | None = None, n: int = 1, on: Tile | None = None, absolute: bool = False
    ) -> bool:
        """Whether an entry may go on for the player to play: at once on a phone that is
        nobody's, or that player's, or once confirmed; else the strip asks ("Enter 6-5 for
        Ann?") and nothing is entered until :meth:`confirm_other`."""
        seat, player = self.door.seat, self.door.to_move
        if seat is None or player is None or seat == player or self.fixes.active:
            return True
        if self.confirmed_for == player:
            return True
        self.asking = ForOther(
            action, player, tile, knock=not self.match_for_entry.rules.draw, n=n, on=on, absolute=absolute
        )
        self.choosing = None
        self.sniffing = None
        self.door.error = None
        self.door.redraw()
        return False

    def confirm_other(self) -> None:
        """Yes: the tap waiting is for the player to play (whose phone this is not)."""
        asked = self.asking
        self.asking = None
        if asked is None or self.door.refused():
            return
        if asked.player != self.door.to_move:  # (the match moved on: refused() caught that)
            self.door.redraw()
            return
        self.confirmed_for = asked.player
        if asked.action == "tap" and asked.tile is not None and asked.on is not None:
            self.place(asked.tile, asked.on)
        elif asked.action == "tap" and asked.tile is not None:
            self.tap(asked.tile)
        elif asked.action == "draw" and asked.absolute:
            self.drew(asked.n)
        elif asked.action == "draw":
            self.draw(asked.n)
        else:
            self.pass_()

    def tap(self, tile: Tile | str) -> None:
        """A tile tapped in the picker (a Tile; text such as ``"5-0"``, as a test writes it, is
        read as one first): set at once if it fits one place; else the drawing asks where.
        Tapping the tile waiting for its end again puts it back."""
        if self.door.refused() or not self._draws_shown():
            return
        if not isinstance(tile, Tile):
            try:
                tile = Tile.parse(tile)
            except ScorekeeperError as e:
                self._fail(str(e))
                return
        waiting = self.choosing[0] if self.choosing else self.sniffing[0] if self.sniffing else None
        again = waiting == tile
        self.choosing = None
        self.sniffing = None
        self.claims.claiming = None
        self.door.flash = None  # the last play's banner goes once the next player acts
        if again:
            self.door.error = None
            self.door.redraw()
            return
        if self.playing and not self._for_whom("tap", tile):
            return
        if not self.playing:
            winner = self.door.winner
            self._fail("no tile can be set now" + (f": {winner} has won the match" if winner else ""))
            return
        places = self.match_for_entry.placements(tile)
        if len(places) > 1:
            self.choosing = (tile, list(places))
            self.door.error = None
            self.door.redraw()
            return
        self._set(tile, places[0] if places else None)

    def place(self, tile: Tile | str, on: Tile | str) -> None:
        """One of the targets of a tile that fits several places tapped (its cell in the
        picker is split, one target a place): the tile is set there at once (Tiles; text such
        as ``"5-0"`` is read as one)."""
        if self.door.refused() or not self._draws_shown():
            return
        try:
            tile = tile if isinstance(tile, Tile) else Tile.parse(tile)
            where = on if isinstance(on, Tile) else Tile.parse(on)
        except ScorekeeperError as e:
            self._fail(str(e))
            return
        self.choosing = None
        self.sniffing = None
        self.claims.claiming = None
        self.door.flash = None  # the last play's banner goes once the next player acts
        if self.playing and not self._for_whom("tap", tile, on=where):
            return
        if not self.playing:
            self._fail("no tile can be set now")
            return
        self._set(tile, where)

    def choose(self, on: Tile | str) -> None:
        """The place picked for a tile that fits several (a Tile; text is read as one)."""
        if self.choosing is None:
            return
        tile = self.choosing[0]
        self.choosing = None
        try:
            where = on if isinstance(on, Tile) else Tile.parse(on)
        except ScorekeeperError as e:
            self._fail(str(e))
            return
        self._set(tile, where)

    def set_sniff(self, way: str) -> None:
        """The sniff waiting is set ``way`` ("across" or "inline")."""
        if self.sniffing is None or way not in SNIFF_WAYS:
            return
        tile, on = self.sniffing
        self.sniffing = None
        self.way = way
        self._set(tile, on)

    def cancel(self) -> None:
        self.asking = None
        self.choosing = None
        self.sniffing = None
        self.way = None
        self.claims.claiming = None
        self.door.error = None
        self.door.redraw()

    def _set(self, tile: Tile, on: Tile | None) -> None:
        h = self.match_for_entry.hand
        if self.way is None and h is not None and h.layout.sets_sniff(tile):
            self.sniffing = (tile, on)  # the sniff: across or in line? (the table asks)
            self.door.error = None
            self.door.redraw()
            return
        if self.claims.asks:
            self.claims.ask(tile, on)
            return
        self.enter(tile, on, None)

    def enter(self, tile: Tile, on: Tile | None, claim: int | None) -> None:
        """Enter the play (with the draws before it and the claim announced): the turn's
        record entry, the tiles written as the record writes them."""
        entry: dict[str, Any] = {}
        if self.draws:
            entry["draw"] = self.draws
        entry["play"] = str(tile)
        h = self.match_for_entry.hand
        if on is not None and h is not None and h.turns:
            entry["on"] = str(on)
        if claim is not None:
            entry["claim"] = claim
        if self.way is not None:
            entry["sniff"] = self.way
        self.way = None
        self._submit(entry)

    def _draws_shown(self) -> bool:
        """This screen shows the draws as they are (else the entry is refused, as a stale tap is)."""
        if self.fixes.active or self.shared.up_to_date():
            return True
        self.shared.catch_up()
        self._refuse_stale(stale(f"the draw entered on {self.shared.by('draws')}"))
        return False

    def _submit(self, entry: dict[str, Any]) -> None:
        if not self._draws_shown():
            return
        if self.door.submit_turn(entry):
            self._local_draws = 0
            self.confirmed_for = None

    def draw(self, n: int = 1) -> None:
        """The player to move drew ``n`` more tiles (entered with their play or pass)."""
        if self.door.refused() or not self._draws_shown() or not self.playing or not self._for_whom("draw", n=n):
            return
        self.door.flash = None
        if n > self.drawable:
            h = self.match_for_entry.hand
            number, turn = (h.number, len(h.turns) + 1) if h is not None else (1, 1)
            self.door.error = (
                f"hand {number}, turn {turn}: cannot draw {n}: "
                f"{self.drawable} tile{'s' if self.drawable != 1 else ''} left to draw"
            )
        elif self._set_draws(self.draws + n):
            self.door.error = None
        self.door.redraw()

    def drew(self, n: int) -> None:
        """The player to move drew ``n`` tiles in all this turn (one tap, whatever the number:
        the count replaces the one counted before; the same count again puts them back)."""
        if self.door.refused() or not self._draws_shown() or not self.playing:
            return
        if not self._for_whom("draw", n=n, absolute=True):
            return
        self.door.flash = None
        n = 0 if n == self.draws else n
        most = self.drawable + self.draws
        if n > most:
            h = self.match_for_entry.hand
            number, turn = (h.number, len(h.turns) + 1) if h is not None else (1, 1)
            self.door.error = (
                f"hand {number}, turn {turn}: cannot draw {n}: {most} tile{'s' if most != 1 else ''} left to draw"
            )
        elif self._set_draws(n):
            self.door.error = None
        self.door.redraw()

    @property
    def draw_counts(self) -> int:
        """The most tiles the player to move may draw this turn (the counts offered, 1 to this)."""
        return self.drawable + self.draws

    def pass_(self) -> None:
        if self.door.refused() or not self._for_whom("pass"):
            return
        entry: dict[str, Any] = {"pass": True}
        if self.draws:
            entry = {"draw": self.draws, "pass": True}
        self.door.flash = None
        self._submit(entry)
