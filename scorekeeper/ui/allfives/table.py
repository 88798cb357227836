"""The All Fives table's view-model, without Flet: the match as the screen shows it
(the layout, whose turn, each player's tiles, the boneyard, the scores), undo and
redo -- and the small view-models of what is entered on it:

* :attr:`TableModel.play` (:class:`~scorekeeper.ui.allfives.play.PlayEntry`): a tile
  tapped in the picker, the end it goes on, draws and passes;
* :attr:`TableModel.claims` (:class:`~scorekeeper.ui.allfives.claims.Claims`): the
  points a player announces, and "Muggins!";
* :attr:`TableModel.fixes` (:class:`~scorekeeper.ui.allfives.corrections.Corrections`):
  correcting an earlier turn;
* :attr:`TableModel.hand_end` (:class:`~scorekeeper.ui.allfives.hand_end.HandEnd`):
  what was left in hands, the settlement, the next leader;
* :attr:`TableModel.entries` (:class:`~scorekeeper.ui.shell.points.PointsPart`): a hand
  entered as points, an adjustment.

The rules are the engine's: nothing here decides whether a tile fits or what it
scores; it asks :class:`~scorekeeper.allfives.engine.Match`.

>>> import tempfile
>>> from scorekeeper.ui.allfives.form import NewMatchForm
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> form = NewMatchForm(shared, names=["Ann", "Ben"])
>>> form.leader = "Ann"
>>> table = TableModel(shared, form.start())
>>> table.phase, table.to_move
('play', 'Ann')
>>> table.play.tap("3-2"); table.flash
'5!'
>>> table.play.tap("6-6"); table.error
'hand 1, turn 2: 6-6 matches no open end (open ends: 3, 2)'
>>> table.scores
{'Ann': 5, 'Ben': 0}
>>> shared.close()
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from scorekeeper.allfives.engine import Match, Turn
from scorekeeper.allfives.layout import Layout
from scorekeeper.allfives.rules import Rules
from scorekeeper.allfives.timeline import timeline
from scorekeeper.store import Store
from scorekeeper.tally import Pegboard, TallyError, pegboard
from scorekeeper.ui.allfives.claims import Claims
from scorekeeper.ui.allfives.corrections import Corrections
from scorekeeper.ui.allfives.drawing import Drawing, draw_layout
from scorekeeper.ui.allfives.hand_end import HandEnd
from scorekeeper.ui.allfives.placing import Box
from scorekeeper.ui.allfives.play import PlayEntry
from scorekeeper.ui.score.model import winner_line
from scorekeeper.ui.shell import base
from scorekeeper.ui.shell.drafts import DraftChange
from scorekeeper.ui.shell.points import PointsPart, Step

__all__ = ["PlayerRow", "TableModel"]


@dataclass(frozen=True)
class PlayerRow:
    name: str
    side: str
    held: int
    to_move: bool

    out: bool = False  # set their last tile while partners play on (skipped until the hand ends)

    @property
    def text(self) -> str:
        """``Ben · 1 tile · to play``, ``Cy · out``"""
        if self.out:
            return f"{self.name} · out"
        return f"{self.name} · {self.held} {self._tiles}" + (" · to play" if self.to_move else "")

    @property
    def short(self) -> str:
        """``Ben 1``, ``Cy out``: the players' row where the long form does not fit (the one to
        play is lit and bold; the screen puts a tile between the name and the count)."""
        return f"{self.name} out" if self.out else f"{self.name} {self.held}"

    @property
    def label(self) -> str:
        """``Ben holds 1 tile, to play`` (what it is read out as)."""
        if self.out:
            return f"{self.name} is out"
        return f"{self.name} holds {self.held} {self._tiles}" + (", to play" if self.to_move else "")

    @property
    def _tiles(self) -> str:
        return "tile" if self.held == 1 else "tiles"


class TableModel(base.TableModel[Match]):
    """The table screen of one All Fives match."""

    game = "all-fives"

    def __init__(self, shared: base.Shared, mid: str) -> None:
        super().__init__(shared, mid)
        # its parts, each with the door into the table it may use, and the siblings it needs
        self.fixes = Corrections(self)
        self.claims = Claims(self, enter=lambda tile, on, points: self.play.enter(tile, on, points))
        self.play = PlayEntry(self, fixes=self.fixes, claims=self.claims)
        self.hand_end = HandEnd(self)
        self.entries = PointsPart(
            self, self.points_steps, lambda: self.target, self.begun, lambda: self.rules.exact_target
        )

    # ------------------------------------------------------------- reading
    @property
    def rules(self) -> Rules:
        return self._match.rules

    @property
    def entry_match(self) -> Match:
        """The match a turn is entered on: the live one, or, while an earlier turn is being
        corrected, the match as it stood before that turn."""
        before = self.fixes.before
        return before if before is not None else self._match

    @property
    def player_rows(self) -> list[PlayerRow]:
        """Each player with the tiles they hold, the draws being entered counted at once."""
        m = self.entry_match
        s = m.setup
        h = m.hand
        held = list(h.held) if h else [m.rules.hand_size] * len(s.players)
        to_move = m.to_move
        if h is not None and to_move is not None:
            held[h.next_player] += self.play.draws
        playing = h is not None and h.end is None and bool(h.turns)
        return [
            PlayerRow(n, s.sides[s.side_of[i]], held[i], to_move == n, playing and not held[i])
            for i, n in enumerate(s.players)
        ]

    @property
    def target(self) -> int:
        return self._match.rules.target

    def points_steps(self) -> list[Step]:
        """The quick steps of a hand entered as points: in 5s where every score is a multiple
        of 5 (unscaled fives), else in 1s; a step back to take a tap back."""
        r = self.rules
        unit = 5 if r.count == "fives" and r.scale == 1 else 1
        return [(f"+{unit * k}", unit * k) for k in (1, 2, 4)] + [(f"\u2212{unit}", -unit)]

    def begun(self) -> str | None:
        """The hand being played, in words of what was entered of it ("4 turns"; "": started,
        no turn yet), or None between hands."""
        if self.phase not in ("play", "hand-end"):
            return None
        h = self._match.hand
        n = len(h.turns) if h else 0
        return "" if n == 0 else f"{n} turn{'s' if n != 1 else ''}"

    def board(self) -> Pegboard | None:
        """The cribbage board that is the score display of a Fives and Threes match (each
        side named with its score: ``Ann 18``), or None: the scores are shown as chips."""
        m = self._match
        if m.rules.count != "fives-and-threes":
            return None
        tl = timeline(m)
        named = {f"{side}  {score}": ev for side, score, ev in zip(tl.sides, m.scores, tl.events(), strict=True)}
        try:
            return pegboard(named, target=m.rules.target)
        except TallyError:  # points taken off (each-subtracts) cannot be pegged: the chips say it
            return None

    @property
    def to_move(self) -> str | None:
        return self.entry_match.to_move

    @property
    def turn_of(self) -> str | None:
        """Whose phone lights up: the player to move while tiles are being set."""
        return self.to_move if self.phase == "play" and not self.fixes.active else None

    @property
    def boneyard(self) -> int:
        """Tiles left in the boneyard, the draws being entered taken out at once."""
        m = self.entry_match
        h = m.hand
        return (h.boneyard if h else m.rules.boneyard) - self.play.draws

    @property
    def phase(self) -> str:
        """``play``, ``hand-end`` (remaining to enter), ``leader`` (next hand to start) or ``over``."""
        m = self._match
        if m.winner is not None:
            return "over"
        h = m.hand
        if h is None or h.settlement is not None:
            return "leader"
        if h.end is not None:
            return "hand-end"
        return "play"

    def winner_line(self) -> str | None:
        """``Ann wins the match!``, ``Ben & Di win the match!`` (None until a side has won)."""
        return winner_line(self._match)

    def drawing(self, box: Box | None = None) -> Drawing:
        """The layout drawn (laid out to fit ``box``, width and height in units, if given): made
        once for every phone showing it (see :func:`drawing_of`)."""
        h = self.entry_match.hand
        return drawing_of(h.layout if h else Layout(self.rules.spinner), box)

    def last_turn(self) -> Turn | None:
        h = self._match.hand
        return h.turns[-1] if h and h.turns else None

    # ------------------------------------------------------------- acting
    def done(self, note: str | None, flash: str | None = None) -> None:
        """After an entry went in: what it did, in words (and "15!" for a scoring play)."""
        self.note = note
        self.flash = flash

    def _forget_entry(self) -> None:
        """Drop what was being entered (a tile waiting for its end or its claim, draws)."""
        self.play.forget()
        self.hand_end.catch_up()  # (the hand-end form is the table's: it is kept, shown as it is)
        self.claims.claiming = None

    def remote(self, origin: base.TableModel[Any] | DraftChange) -> None:
        if isinstance(origin, DraftChange):  # draws or the hand-end form, changed on another phone
            if origin.kind == "draws":
                self.play.shared.remote(origin)
                self.note = f"{origin.words} (on {origin.by})"
                self.error = self._refusal  # (a refusal this change caused is still said)
            else:
                self.hand_end.remote(origin)
            self._changed()
            return
        if self.fixes.picked is not None:  # it was picked on the match as it stood
            self.fixes.close()
        super().remote(origin)

    @property
    def unseen(self) -> bool:
        return self._unseen or bool(self.hand_end.unseen) or bool(self.play.shared.unseen)

    def seen(self) -> None:
        super().seen()
        self.hand_end.draft.unseen.clear()
        self.play.shared.unseen.clear()

    def catch_up(self) -> None:
        if not self.behind and (self.hand_end.catch_up() | self.play.shared.catch_up()):
            self.note = "changed on another phone meanwhile"
            self._changed()
        super().catch_up()

    def submit_turn(self, entry: dict[str, Any]) -> bool:
        """A turn entered on the table: into the store (the live match), or, while an earlier
        turn is being corrected, into that correction. True when it went in."""
        if self.fixes.active:
            return self.fixes.propose(entry)
        return self._apply(lambda st: st.append(self.mid, {"turn": entry}), self._after_turn)

    def _after_turn(self) -> None:
        t = self.last_turn()
        if t is None:
            return
        m = self._match
        s = m.setup
        who = s.players[t.player]
        h = m.hand
        rules = m.rules
        self._said = f"{who}'s {t.tile}" if t.tile is not None else f"{who}'s {'pass' if rules.draw else 'knock'}"
        if t.tile is None:
            did = "passed" if rules.draw else "knocked"
            blocked = ": the hand is blocked" + ("" if rules.settles_pips else ", nothing scored")
            end = blocked if h is not None and h.end == "blocked" else ""
            self.done(f"{who} {did}" + (f" after drawing {t.drew}" if t.drew else "") + end)
            return
        worth = rules.worth(t.count)
        # Fives and Threes says what the count makes: "9 = 3, go 1"
        bits = [f"{t.count} = {worth}" if rules.count != "fives" and worth else f"count {t.count}"]
        if t.go:
            bits.append(f"go {t.go}")
        if t.points:
            bits.append(f"{s.sides[s.side_of[t.player]]} +{t.points}")
        bust = t.voided and rules.exact_target and m.scores[s.side_of[t.player]] + worth + t.go > rules.target
        if bust:
            bits.append(f"bust: {worth + t.go} would pass {rules.target}, nothing scored")
        elif t.voided and h is not None and len(h.turns) == 1:
            bits.append(f"the down may not win: {worth} not scored")
        elif t.voided:
            bits.append("points voided: past the exact target")
        if t.claim is not None:
            if t.claim_ok is False:
                bits.append(f"wrong claim: said {t.claim}, scored {t.points}")
            elif t.claim_ok:
                bits.append("claim right")
            elif m.rules.claims == "muggins":
                worth = m.rules.worth(t.count)
                if t.claim > worth:
                    bits.append(f"claimed {t.claim}: too much, nothing scored")
                elif t.claim < worth:
                    bits.append(f"claimed {t.claim} of {worth}: {worth - t.claim} missed")
        if h is not None and h.end == "domino":
            bits.append(f"{who} dominoed" if rules.settles_pips else f"{who} went out: the hand is over")
        elif h is not None and h.end is None and not h.held[t.player]:
            bits.append(f"{who} is out; partners play on")
        flash = "Bust!" if bust else f"{t.points}!" if t.points else None
        if h is not None and h.end is not None:  # the hand is over: the note says it, no banner over the count
            flash = None
        self.done(f"{who} set {t.tile}: " + ", ".join(bits), flash)

    def undo(self) -> None:
        """Take back the last entry (a hand started by itself after a domino goes with its
        settlement); first, whatever was being entered."""
        if self.fixes.active:
            self.fixes.close()
            return
        if self.play.put_back_draws():  # first the draws being counted
            return
        self._forget_entry()

        undone: list[str] = []

        def go(st: Store) -> None:
            undone.append(_last_words(st.match(self.mid)))  # (before: undo changes that match)
            entry = st.undo(self.mid)
            if "hand" in entry:
                m = st.match(self.mid)
                # the app started it with the settlement: undo that too (a hand started by a
                # tap, after the go or when the lead passes left, goes alone)
                h, rules = m.hand, m.rules
                named = h is not None and (h.end == "domino" or rules.next_leader == "left")
                if h is not None and named and rules.settles_pips:
                    undone.append(_last_words(m))
                    st.undo(self.mid)

        def said() -> None:
            self.done(f"Undo: {' and '.join(reversed(undone)) or 'the last entry'} taken back")
            self._said = f"the Undo on {self.phone}"

        self._apply(go, said, what="undo the last entry")

    def redo(self) -> None:
        def said() -> None:
            self.done("entry put back")
            self._said = f"the Redo on {self.phone}"

        self._apply(lambda st: st.redo(self.mid), said)


def _last_words(m: Match) -> str:
    """The last entry of match ``m`` in words: ``Ann's 6-6``, ``Ben's pass``, ``the
    settlement of hand 2``, ``the start of hand 3``."""
    h = m.hand
    if h is None and not m.adjustments:
        return "the last entry"
    if m.adjustments and m.adjustments[-1].after == len(m.hands):
        return "the adjustment"
    assert h is not None
    if h.entered is not None:
        return f"hand {h.number} entered as points"
    if h.settlement is not None:
        return f"the settlement of hand {h.number}"
    if not h.turns:
        return f"the start of hand {h.number}"
    t = h.turns[-1]
    who = m.setup.players[t.player]
    what = str(t.tile) if t.tile is not None else ("pass" if m.rules.draw else "knock")
    return f"{who}'s {what}"


#: The drawings made last, by what they draw and the box they fill: after an entry every
#: phone of the table draws the same layout, and a drawing takes a millisecond or more (tens
#: when the search goes back), so it is made once for all of them.
_MADE: OrderedDict[tuple[Any, ...], Drawing] = OrderedDict()
_MADE_LOCK = threading.Lock()
KEEP = 64


def drawing_of(layout: Layout, box: Box | None = None) -> Drawing:
    """``draw_layout(layout, box)``, made once for every screen showing the same layout in a
    box of the same size (a Drawing is never changed once made: the screens share it)."""
    key = (type(layout).__name__, layout.spinner, layout.state(), box)
    with _MADE_LOCK:
        made = _MADE.get(key)
        if made is not None:
            _MADE.move_to_end(key)
            return made
    made = draw_layout(layout, box)
    with _MADE_LOCK:
        _MADE[key] = made
        while len(_MADE) > KEEP:
            _MADE.popitem(last=False)
    return made
