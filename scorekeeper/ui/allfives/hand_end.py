"""The end of an All Fives hand, without Flet: what each player still holds
(picked tile by tile, or the pips typed), the settlement previewed in words with
its rounding ("23 -> 25") before it is entered, and who leads the next hand."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from scorekeeper.allfives.engine import Hand, Match, round5
from scorekeeper.allfives.record import parse_remaining
from scorekeeper.dominoes import Tile
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store
from scorekeeper.ui.allfives.part import Part, TableDoor
from scorekeeper.ui.allfives.play import PickerCell
from scorekeeper.ui.shell.base import stale
from scorekeeper.ui.shell.drafts import DraftChange, DraftView

__all__ = ["HandEnd", "settlement_lines"]


class HandEnd(Part):
    """The hand-end form, the same on every phone of the table: ``remaining`` (per
    player, the tiles picked, a list, or the pips typed, text) lives in the app's
    :class:`~scorekeeper.ui.shell.drafts.DraftBook` for this match and hand, so an entry made on
    one phone shows on all of them and a new hand starts empty. ``picking_for``: whose
    tiles this phone's picker adds to (at first its own player's, where it is someone's).

    ``draft`` (a :class:`~scorekeeper.ui.shell.drafts.DraftView`) knows which entries this
    screen shows as they are: a change to one another phone changed meanwhile is refused
    (as a stale tap is)."""

    def __init__(self, door: TableDoor) -> None:
        super().__init__(door)
        self._picking: str | None = None
        self._picked = False  # this phone chose whose tiles to pick
        self._hand = self._key()
        self.draft = DraftView(door.drafts, door.mid, "remaining", self._key)

    # ------------------------------------------------------------ the shared draft
    def _key(self) -> int:
        h = self.door.match.hand
        return h.number if h is not None else 0

    def _fresh(self) -> None:
        if self._hand != self._key():  # another hand: this phone has not chosen whose tiles yet
            self._hand, self._picking, self._picked = self._key(), None, False

    @property
    def unseen(self) -> set[str]:
        return self.draft.unseen

    @property
    def remaining(self) -> dict[str, list[str] | str]:
        """What has been entered for each player, on whichever phone."""
        return self.draft.values()

    def _put(self, changes: dict[str, list[str] | str | None]) -> bool:
        """Change the shared entries ``changes`` and tell the other phones; refused (with
        the reason) from a watcher, a screen behind the match, or one that does not show
        the last change of one of those entries."""
        if self.door.refused():
            return False
        words = "; ".join(_entry_words(n, v) for n, v in changes.items())
        made = self.draft.put(changes, words, self.door.phone)
        if isinstance(made, str):
            self._refuse_stale(stale(f"{next(iter(changes))}'s tiles left, as entered on {made},"))
            return False
        self.door.error = None
        self.door.note = words
        self.door.tell_others(made)
        self.door.redraw()
        return True

    def remote(self, change: DraftChange) -> None:
        """Another phone changed the entries ``change.names``: shown now, and a change to
        them from here waits for this browser to show them."""
        self.draft.remote(change)
        self.door.note = f"{change.words} (on {change.by})"
        self.door.error = self.door.refusal  # (a refusal this change caused is still said)

    def catch_up(self) -> bool:
        """Show the entries as they are now (a phone back from sleep); whether they changed."""
        return self.draft.catch_up()

    def up_to_date(self) -> bool:
        """This screen shows every entry as it is (else Settle is refused)."""
        return self.draft.up_to_date()

    # ------------------------------------------------------------ entering
    def holding(self) -> list[tuple[str, int]]:
        """Players who still hold tiles at the end of the hand: (name, tiles), this phone's
        own player first."""
        h = self.match.hand
        if h is None or h.end is None:
            return []
        rows = [(n, h.held[i]) for i, n in enumerate(self.match.setup.players) if h.held[i]]
        seat = self.door.seat
        return sorted(rows, key=lambda r: r[0] != seat)

    def asked(self) -> list[tuple[str, int]]:
        """The players of :meth:`holding` whose tiles change the settlement (the engine says
        which: after a domino, only the other sides'), this phone's own player first: the
        form asks for these alone."""
        counted = set(self.match.counted_holders())
        return [(n, held) for n, held in self.holding() if n in counted]

    def not_asked(self) -> list[str]:
        """The players still holding tiles whose tiles change nothing (the side that dominoed)."""
        counted = set(self.match.counted_holders())
        return [n for n, _ in self.holding() if n not in counted]

    @property
    def picking_for(self) -> str | None:
        """Whose tiles the picker adds to: the one this phone chose, else its own player's
        while they are asked for and not entered."""
        self._fresh()
        if self._picked:
            return self._picking
        seat = self.door.seat
        held = dict(self.asked()).get(seat or "", 0)
        if seat is not None and held and not self._complete(seat, held) and not self._typed(seat):
            return seat
        waiting = self.waiting()  # else the first still to enter: their tiles are one tap each
        return waiting[0] if waiting else None

    def pick_for(self, name: str | None) -> None:
        self._fresh()
        self._picking, self._picked = name, True
        if name is not None and isinstance(self.remaining.get(name), str):  # typed pips give way to tiles
            self._put({name: []})
        self.door.redraw()

    def picking_cells(self, cells: Sequence[PickerCell]) -> list[PickerCell]:
        """The picker at the hand end (``cells``: the play's, every tile of the set): the tiles
        not on the table, each lit while nobody's tiles hold it (one of them is in a hand: tap
        it) and pale once picked for a player (a tap takes it back, or moves it to the player
        picked for now)."""
        taken = {t for v in self.remaining.values() if isinstance(v, list) for t in v}
        return [PickerCell(c.tile, "other" if str(c.tile) in taken else "fits") for c in cells if c.state != "down"]

    def pick_remaining(self, tile: Tile | str) -> None:
        """Add (or take back) a tile to the picked player's remaining tiles (a Tile from the
        picker; text is read as one)."""
        name = self.picking_for
        if name is None:
            return
        t = str(tile if isinstance(tile, Tile) else Tile.parse(tile))
        remaining = self.remaining
        mine = remaining.get(name)
        tiles = list(mine) if isinstance(mine, list) else []
        changes: dict[str, list[str] | str | None] = {}
        if t in tiles:
            tiles.remove(t)
        else:
            for other, v in remaining.items():
                if other != name and isinstance(v, list) and t in v:
                    changes[other] = [x for x in v if x != t]
            tiles.append(t)
        changes[name] = tiles
        if not self._put(changes):
            return
        held = dict(self.holding()).get(name, 0)
        if len(tiles) >= held:  # this player is complete: go on to the next one still open
            nxt = [n for n, k in self.asked() if n != name and not self._complete(n, k) and not self._typed(n)]
            self._picking, self._picked = (nxt[0] if nxt else None), True
        self.door.redraw()

    def set_pips(self, name: str, text: str) -> None:
        self._put({name: text})

    def _complete(self, name: str, held: int) -> bool:
        v = self.remaining.get(name)
        if isinstance(v, list):
            return len(v) == held
        return isinstance(v, str) and v.strip().isdigit()

    def implied(self) -> tuple[str, int] | None:
        """With the boneyard empty every tile not down is in someone's hand: once all players
        but one are entered, the last one's pips follow (``(name, pips)``), else None."""
        m = self.match
        h = m.hand
        holding = self.holding()
        if h is None or h.boneyard != 0 or not holding:
            return None
        open_ = [n for n, held in holding if not self._complete(n, held) and not self._typed(n)]
        if len(open_) != 1 or open_[0] not in dict(self.asked()):
            return None
        known = 0
        for name, held in holding:
            v = self.remaining.get(name)
            if name == open_[0]:
                continue
            if isinstance(v, list):
                if len(v) != held:
                    return None
                known += sum(Tile.parse(t).pips for t in v)
            elif isinstance(v, str) and re.fullmatch(r"\d{1,4}", v.strip()):
                known += int(v.strip())
            else:
                return None
        rest = sum(t.pips for t in m.tiles if t not in h.layout.nodes) - known
        held = dict(holding)[open_[0]]
        return (open_[0], rest) if 0 <= rest <= held * 2 * m.rules.set else None

    def _remaining_value(self) -> dict[str, list[str] | int]:
        out: dict[str, list[str] | int] = {}
        implied = self.implied()
        asked = dict(self.asked())
        for name, held in self.holding():
            v = self.remaining.get(name)
            if name not in asked and not self._complete(name, held):
                continue  # their tiles change nothing: left out unless entered in full
            if implied is not None and name == implied[0]:
                out[name] = implied[1]
            elif isinstance(v, list):
                out[name] = list(v)
            elif isinstance(v, str) and v.strip():
                s = v.strip()
                if not re.fullmatch(r"\d{1,4}", s):
                    raise ValueError(f"{name}: pips must be a whole number, not {s!r}")
                out[name] = int(s)
            else:
                raise ValueError(
                    f"{name} still holds {held} tile{'s' if held != 1 else ''}: pick them or type their pips"
                )
        return out

    def waiting(self) -> list[str]:
        """The players whose tiles or pips are not entered yet (and do not follow from the others')."""
        implied = self.implied()
        return [
            n
            for n, held in self.asked()
            if not self._complete(n, held) and not self._typed(n) and (implied is None or n != implied[0])
        ]

    def _typed(self, name: str) -> bool:
        v = self.remaining.get(name)
        return isinstance(v, str) and bool(v.strip())

    def settlement_preview(self) -> tuple[list[str], str | None]:
        """What the hand-end form would settle, in words with its rounding; or the reason it
        cannot (none while players are still to be entered: :meth:`waiting` says who)."""
        m = self.match
        h = m.hand
        number = h.number if h else 1
        if self.waiting():
            return [], None
        try:
            value = self._remaining_value()
        except ValueError as e:
            return [], f"hand {number}, remaining: {e}"
        try:
            settle = parse_remaining(value, m.rules.set, number)
            trial = Match.replay(m.setup, [*m.events, settle])
        except ScorekeeperError as e:
            return [], str(e)
        assert trial.hand is not None
        return settlement_lines(trial, trial.hand), None

    def settle(self) -> None:
        """Enter the remaining tiles or pips; where the rules name the next leader (after a
        domino, or the lead passing left) the next hand starts by itself."""
        if self.door.refused():
            return
        if not self.up_to_date():
            self._refuse_stale(stale("an entry of the tiles left on another phone"))
            self.catch_up()
            return
        lines, problem = self.settlement_preview()
        if problem or not lines:
            waiting = self.waiting()
            self._fail(problem or f"{waiting[0]}: pick the tiles left or type their pips")
            return
        value = self._remaining_value()
        h = self.match.hand
        assert h is not None
        mid = self.door.mid

        leader = self.rule_leader()

        def go(st: Store) -> None:
            st.append(mid, {"remaining": value})
            m = st.match(mid)
            if m.winner is None and leader is not None:
                st.append(mid, {"hand": {"leader": leader}})

        if self.door.change(go, self.door.saying(f"the settlement of hand {h.number} on {self.door.phone}")):
            m = self.match
            nxt = m.hand
            started = nxt is not None and nxt.number == h.number + 1
            lead = f" {m.setup.players[nxt.leader]} leads hand {nxt.number}." if started and nxt is not None else ""
            self.door.done(f"Hand {h.number}: " + " ".join(lines) + lead)

    def rule_leader(self) -> str | None:
        """The leader the rules name for the next hand (no other is accepted), or None when
        the table chooses: after a domino, the player who went out; with the lead passing
        to the left, the player after this hand's leader."""
        m = self.match
        h = m.hand
        if h is None or h.end is None or h.entered is not None:  # nobody is known to have led it
            return None
        players = m.setup.players
        if m.rules.next_leader == "left":
            return players[(h.leader + 1) % len(players)]
        return players[h.domino_player] if h.domino_player is not None else None

    def suggested_leader(self) -> str | None:
        """Who leads the next hand: the domino player (the rules); after a block, the player
        with the fewest pips (the first in seating order on a tie)."""
        h = self.match.hand
        if h is None or h.entered is not None:
            return None
        players = self.match.setup.players
        if h.end == "domino" and h.domino_player is not None:
            return players[h.domino_player]
        pips = h.pips
        if pips:
            return players[min(range(len(players)), key=lambda i: pips[i])]
        return None

    def start_hand(self, leader: str | None, rng: random.Random | None = None) -> None:
        """Start the next hand with ``leader`` (None: draw lots; the note says who won them)."""
        names = list(self.match.setup.players)
        lots = leader is None
        chosen = (rng or random).choice(names) if leader is None else leader
        if self.door.change(lambda st: st.append(self.door.mid, {"hand": {"leader": chosen}})):
            how = "lots drawn: " if lots else ""
            self.door.done(f"hand {self.door.hand_number}: {how}{chosen} leads")


def _entry_words(name: str, value: list[str] | str | None) -> str:
    """An entry of the hand-end form in words: ``Ben holds 3-3 2-1``, ``Ben: 12 pips``."""
    if isinstance(value, list):
        return f"{name} holds {' '.join(value)}" if value else f"{name}: no tiles picked"
    if isinstance(value, str) and value.strip():
        return f"{name}: {value.strip()} pips"
    return f"{name}: nothing entered"


def _rounded(pips: int, scale: int) -> str:
    """A pip total, rounded to the nearest five, in the match's scale: ``23 -> 25``, or at
    scale 5 ``28 -> 30 -> 6 (scale 5: divided by 5)``."""
    r = round5(pips)
    if scale == 1:
        return f"{pips} -> {r}"
    return f"{pips} -> {r} -> {r // scale} (scale {scale}: divided by {scale})"


def settlement_lines(m: Match, h: Hand) -> list[str]:
    """The settlement of a settled hand in words, showing the rounding ("23 -> 25").

    The side that dominoed is named by the player who did it ("Cy dominoed (Ann & Cy)").
    """
    s = m.setup
    r = m.rules
    scale = r.scale
    pips = h.pips or []
    lines = []
    if r.hand_end == "each-subtracts":
        for i, p in enumerate(pips):
            rounded = round5(p)
            if scale == 1:
                lines.append(f"{s.players[i]} holds {p} -> -{rounded}.")
            else:
                lines.append(
                    f"{s.players[i]} holds {p} -> {rounded} -> -{rounded // scale} (scale {scale}: divided by {scale})."
                )
        return lines
    side_pips = [0] * len(s.sides)
    for i, p in enumerate(pips):
        side_pips[s.side_of[i]] += p
    settlement = h.settlement or []
    won = [i for i, v in enumerate(settlement) if v]
    if h.winner is not None:
        pot = sum(v for i, v in enumerate(side_pips) if i != h.winner)
        side = s.sides[h.winner]
        if h.end == "domino" and h.domino_player is not None:
            who = s.players[h.domino_player]
            what = f"{who} dominoed" + (f" ({side})" if side != who else "")
        else:
            what = f"{side} won the block"
        lines.append(
            f"{what}: the others hold {_rounded(pot, scale)}"
            + (" (voided: past the exact target)" if h.winner in h.voided else "")
            + "."
        )
    elif won:
        pot = sum(v for i, v in enumerate(side_pips) if i not in won)
        unit = "" if scale == 1 else f" (scale {scale}: divided by {scale})"
        lines.append(
            f"Tie between {' and '.join(s.sides[i] for i in won)}: "
            f"{pot} / {len(won)} -> {settlement[won[0]]} each{unit}."
        )
    else:
        lines.append("Blocked and tied: nobody scores.")
    return lines
