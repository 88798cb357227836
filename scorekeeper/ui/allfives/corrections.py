"""Correcting any entry of an All Fives match, without Flet: a hand's leader, a turn
or what was left in hands at its end, a hand entered as points (each side's points), an
adjustment (each side's change and the reason).

A turn is corrected the way it was entered: pick it, and the table shows the
match as it stood before that turn (the drawing, the picker, whose turn, the
boneyard); tap the tile, its end, the draws or the pass. Before anything is
saved the whole match is counted again and the change is shown ("hand 1,
turn 13: 4-2 on 2-2, count 14 (was 12); Ann & Cy +0 (was +3)"); a correction
that would make a later entry illegal is refused, naming that entry.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from scorekeeper import registry
from scorekeeper.allfives.engine import Match, Turn
from scorekeeper.allfives.notation import parse_turn_text, turn_text
from scorekeeper.codec import adjustment_item, hand_item
from scorekeeper.errors import ScorekeeperError
from scorekeeper.points import Adjustment, adjust_words, in_order
from scorekeeper.ui.allfives.part import Part, TableDoor

__all__ = ["Corrections", "EntryRow"]

#: a turn's number, "leader", "remaining", "points" (a hand entered as points) or "adjust" (an
#: adjustment: its row's ``hand`` is then its place among the adjustments, from 1)
Where = int | str


@dataclass(frozen=True)
class EntryRow:
    """One entry of the match as the corrections list shows it."""

    hand: int
    where: Where
    text: str  # "Ann: 4-2 on 2-2", "Ann leads", "left: Ben 6"
    detail: str  # "count 12, Ann +10"

    @property
    def label(self) -> str:
        """What the row is read out as (and tapped by)."""
        if self.where == "adjust":
            return f"Correct adjustment {self.hand}"
        what = f"turn {self.where}" if isinstance(self.where, int) else self.where
        return f"Correct hand {self.hand} {what}"


def _turn_detail(m: Match, t: Turn) -> str:
    s = m.setup
    if t.tile is None:
        return f"count {t.count}"
    pts = f", {s.sides[s.side_of[t.player]]} +{t.points}" if t.points else ""
    return f"count {t.count}{pts}"


class Corrections(Part):
    """``listing``: the list of entries is open; ``picked``: the entry being corrected
    (hand, turn number / ``"leader"`` / ``"remaining"``); ``before``: the match as it stood
    before the picked turn; ``draft``: the corrected entry waiting to be saved, and
    ``preview`` what it changes."""

    def __init__(self, door: TableDoor) -> None:
        super().__init__(door)
        self.listing = False
        self.picked: tuple[int, Where] | None = None
        self.before: Match | None = None
        self.draft: Any = None
        self.preview: str | None = None
        self.pips: dict[str, str] = {}  # a hand end being corrected: pips typed per player
        # (a hand entered as points, an adjustment: each side's points or change)
        self.why = ""  # an adjustment being corrected: its reason

    @property
    def active(self) -> bool:
        """A turn is being corrected (the table's entry goes here, not to the store)."""
        return self.picked is not None and isinstance(self.picked[1], int)

    # ------------------------------------------------------------- reading
    def entries(self) -> list[EntryRow]:
        """Every entry of the match, hand by hand: the leader, the turns, what was left."""
        m = self.match
        s = m.setup
        out = []
        adjustments = 0
        for h in in_order(m.hands, m.adjustments):
            if isinstance(h, Adjustment):
                adjustments += 1
                out.append(EntryRow(adjustments, "adjust", adjust_words(_adjust_json(s.sides, h)), ""))
                continue
            if h.entered is not None:
                words = ", ".join(f"{side} {n:+d}" for side, n in zip(s.sides, h.entered, strict=True))
                out.append(EntryRow(h.number, "points", f"entered as points: {words}", ""))
                continue
            out.append(EntryRow(h.number, "leader", f"{s.players[h.leader]} leads", ""))
            for i, t in enumerate(h.turns, 1):
                out.append(EntryRow(h.number, i, f"{s.players[t.player]}: {turn_text(t)}", _turn_detail(m, t)))
            if h.pips is not None:
                left = ", ".join(f"{n} {p}" for n, p in zip(s.players, h.pips, strict=True) if p)
                out.append(EntryRow(h.number, "remaining", f"left: {left or 'nothing'}", ""))
        return out

    def was(self) -> str | None:
        """The picked entry as it stands now ("Ben: 2-2 on 3-2")."""
        if self.picked is None:
            return None
        for row in self.entries():
            if (row.hand, row.where) == self.picked:
                return row.text
        return None

    def holders(self) -> list[tuple[str, int]]:
        """A hand end being corrected: who held tiles then, and how many."""
        if self.picked is None or self.picked[1] != "remaining":
            return []
        h = self.match.hands[self.picked[0] - 1]
        return [(n, h.held[i]) for i, n in enumerate(self.match.setup.players) if h.held[i]]

    # ------------------------------------------------------------- acting
    def open(self) -> None:
        """Show the list of entries (or hide it again)."""
        self.listing = not self.listing
        if not self.listing:
            self._reset()
        self.door.redraw()

    def close(self) -> None:
        self.listing = False
        self._reset()
        self.door.redraw()

    def _reset(self) -> None:
        self.picked = self.before = self.draft = self.preview = None
        self.pips = {}
        self.door.drop_entry()
        self.door.error = None

    def pick(self, hand: int, where: Where) -> None:
        """Correct this entry: a turn is re-entered on the match as it stood before it."""
        self._reset()
        self.picked = (hand, where)
        if isinstance(where, int):
            m = self.match
            h = m.hands[hand - 1]
            self.before = Match.replay(m.setup, m.events[: h.first_event + where])
        elif where == "remaining":
            h = self.match.hands[hand - 1]
            pips = h.pips or []
            self.pips = {n: str(pips[i]) for i, n in enumerate(self.match.setup.players) if h.held[i]}
        elif where == "points":
            entered = self.match.hands[hand - 1].entered or ()
            self.pips = {side: str(n) for side, n in zip(self.match.setup.sides, entered, strict=True)}
        elif where == "adjust":
            a = self.match.adjustments[hand - 1]
            self.pips = {side: str(n) if n else "" for side, n in zip(self.match.setup.sides, a.changes, strict=True)}
            self.why = a.why
        self.door.redraw()

    def again(self) -> None:
        """Drop the proposed correction and enter the picked entry again."""
        if self.picked is not None:
            self.pick(*self.picked)

    def set_leader(self, name: str) -> None:
        """A hand's leader, corrected."""
        self.propose(name)

    def set_pips(self, name: str, text: str) -> None:
        self.pips = {**self.pips, name: text}
        self.door.redraw()

    def set_why(self, text: str) -> None:
        self.why = text
        self.door.redraw()

    def propose_points(self) -> None:
        """A hand entered as points, or an adjustment, with each side's figure as typed."""
        if self.picked is None:
            return
        adjust = self.picked[1] == "adjust"
        value: dict[str, int] = {}
        for side, text in self.pips.items():
            t = text.strip()
            if adjust and not t:
                continue
            if not re.fullmatch(r"[-+]?\d{1,4}", t):
                self._fail(f"{side}: {'the change' if adjust else 'points'} must be a whole number, not {t!r}")
                return
            if int(t) or not adjust:
                value[side] = int(t)
        self.propose({"adjust": value, "why": self.why.strip()} if adjust else value)

    def propose_remaining(self) -> None:
        value: dict[str, int] = {}
        for name, text in self.pips.items():
            if not re.fullmatch(r"\d{1,4}", text.strip()):
                self._fail(f"{name}: pips must be a whole number, not {text.strip()!r}")
                return
            value[name] = int(text.strip())
        self.propose(value)

    def propose(self, entry: Any) -> bool:
        """The corrected entry: the whole match is counted again with it and the change shown;
        True when the match holds with it (then :meth:`save` stores it)."""
        if self.picked is None:
            return False
        hand, where = self.picked
        record = self.door.stored_record()
        h = adjustment_item(record, hand) if where == "adjust" else hand_item(record, hand)
        if isinstance(where, int):
            h["turns"][where - 1] = entry
        elif where == "adjust":
            h.update(entry)
        else:
            h[where] = entry
        try:
            new = registry.game_of(record).load(record)
        except ScorekeeperError as e:
            self.draft = self.preview = None
            self._fail(str(e))
            return False
        self.draft = copy.deepcopy(entry)
        self.preview = self._change(new)
        self.door.error = None
        self.door.redraw()
        return True

    def _change(self, new: Match) -> str:
        """What the correction changes, in words."""
        assert self.picked is not None
        hand, where = self.picked
        old = self.match
        s = old.setup
        bits = []
        if isinstance(where, int):
            t0 = old.hands[hand - 1].turns[where - 1]
            t1 = new.hands[hand - 1].turns[where - 1]
            side = s.sides[s.side_of[t1.player]]
            what = f"hand {hand}, turn {where}: {s.players[t1.player]} {turn_text(t1)}"
            bits.append(what + f", count {t1.count}" + (f" (was {t0.count})" if t1.count != t0.count else ""))
            if (t0.points, t0.tile) != (t1.points, t1.tile) or t0.points:
                bits.append(f"{side} +{t1.points}" + (f" (was +{t0.points})" if t1.points != t0.points else ""))
        elif where == "leader":
            bits.append(f"hand {hand}: {s.players[new.hands[hand - 1].leader]} leads")
        elif where == "points":
            bits.append(f"hand {hand} entered as points: " + ", ".join(f"{n} {p:+d}" for n, p in self.draft.items()))
        elif where == "adjust":
            bits.append(adjust_words(self.draft))
        else:
            bits.append(f"hand {hand}, left in hands: " + ", ".join(f"{n} {p}" for n, p in self.draft.items()))
        if list(new.scores) != list(old.scores):
            now = ", ".join(f"{n} {v}" for n, v in zip(s.sides, new.scores, strict=True))
            were = ", ".join(str(v) for v in old.scores)
            bits.append(f"scores now {now} (were {were})")
        else:
            bits.append("scores unchanged")
        return "; ".join(bits)

    def save(self) -> None:
        """Store the proposed correction; every score after it is counted again."""
        if self.picked is None or self.draft is None:
            return
        hand, where = self.picked
        draft, preview = self.draft, self.preview
        what = f"correct hand {hand}, {where if isinstance(where, str) else f'turn {where}'} ({preview})"
        mid = self.door.mid

        def edit(st: Any) -> None:
            if where != "adjust":
                st.edit(mid, hand, where, draft)
                return
            st.edit(mid, hand, "adjust", draft["adjust"])  # each key checked with the whole match
            st.edit(mid, hand, "why", draft["why"])

        if self.door.change(edit, what=what):
            self.listing = False
            self._reset()
            self.door.done(f"corrected: {preview}")

    def correct(self, hand: int, turn: int, text: str) -> None:
        """Replace an earlier turn by ``text`` in the short notation (``5-3 on 5-5``, ``+2 5-3``,
        ``pass``) and save it at once (for scripts and tests; the screen corrects by taps)."""
        try:
            entry = parse_turn_text(text)
        except ValueError as e:
            self._fail(f"hand {hand}, turn {turn}: {e}")
            return
        self.pick(hand, turn)
        if self.propose(entry):
            self.save()
        else:
            error = self.door.error
            self._reset()
            self.door.error = error
            self.door.redraw()


def _adjust_json(sides: tuple[str, ...] | list[str], a: Adjustment) -> dict[str, Any]:
    """An adjustment as the record writes it (the sides it changes, and why)."""
    return {"adjust": {side: n for side, n in zip(sides, a.changes, strict=True) if n}, "why": a.why}
