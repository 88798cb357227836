"""The app's state and actions, without any Flet: the view-models.

The screens (``scorekeeper.ui.app``) only draw what these objects say and
call their methods. Every method that changes something goes through the
:class:`~scorekeeper.store.Store` at once (so a killed app resumes exactly
where it was), catches the engine's errors and keeps the message in
``error`` for the screen to show in place. Nothing here raises to the UI.

The rules are the engine's: this module never decides whether a tile fits
or what it scores; it asks :class:`~scorekeeper.allfives.engine.Match`.

>>> import tempfile
>>> shared = Shared(tempfile.mkdtemp())
>>> form = NewMatchForm(shared, names=["Ann", "Ben"])
>>> form.leader = "Ann"
>>> table = TableModel(shared, form.start())
>>> table.phase, table.to_move
('play', 'Ann')
>>> table.tap("3-2"); table.flash
'5!'
>>> table.tap("6-6"); table.error
'hand 1, turn 2: 6-6 matches no open end (open ends: 3, 2)'
>>> table.scores
{'Ann': 5, 'Ben': 0}
>>> shared.close()
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from scorekeeper.allfives.engine import Match, round5
from scorekeeper.allfives.layout import Layout
from scorekeeper.allfives.notation import parse_turn_text, turn_text  # noqa: F401
from scorekeeper.allfives.record import event_entry, parse_remaining, result
from scorekeeper.allfives.rules import (
    BLOCK_WINNERS,
    CLAIM_MODES,
    DEFAULT_HAND_SIZE,
    HAND_ENDS,
    HAND_SIZE_PRESETS,
    RULE_KEYS,
    SPINNER_POLICIES,
    Rules,
)
from scorekeeper.allfives.timeline import timeline
from scorekeeper.dominoes.tiles import Tile
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store
from scorekeeper.tally import Pegboard, Tally, TallyError, pegboard, tally
from scorekeeper.tally.timeline import Timeline
from scorekeeper.ui.drawing import Drawing, draw_layout

#: Rule presets offered by the new-match screen (rules on top of the defaults).
PRESETS: dict[str, tuple[str, dict]] = {
    "all-fives": ("All Fives", {}),
    "muggins": ("Muggins (no spinner)", {"spinner": "none"}),
    "five-up": ("Five Up (all doubles spin)", {"spinner": "all-doubles"}),
    "cribbage-61": ("Cribbage 61 (scale 5)", {"scale": 5}),
}

#: Hand-size tables offered beside the presets.
HAND_SIZES: dict[str, str] = {
    "default": "Standard",
    "european": "European",
    "holsey": "Holsey",
    "newsom-bourne": "Newsom & Bourne",
}

#: Choices of every rule option with a fixed set of values (the rest are numbers).
RULE_CHOICES: dict[str, tuple] = {
    "set": (6, 9, 12),
    "spinner": SPINNER_POLICIES,
    "hand_end": HAND_ENDS,
    "block_winner": BLOCK_WINNERS,
    "scale": (1, 5),
    "exact_target": (False, True),
    "boneyard_reserve": (0, 1, 2),
    "claims": CLAIM_MODES,
}

PAGE_SIZE = 10


from scorekeeper.ui.base import FormModel as _Form  # noqa: E402
from scorekeeper.ui.base import Model as _Model  # noqa: E402
from scorekeeper.ui.base import Shared, names_problem  # noqa: E402,F401
from scorekeeper.ui.base import TableModel as _Table  # noqa: E402


def all_fives_match(shared: Shared, mid: str) -> Match:
    from scorekeeper.ui.base import open_match

    return open_match(shared, mid, "all-fives")


# ----------------------------------------------------------------- new match
class NewMatchForm(_Form):
    """The new-match screen: players, partnerships, rules, first leader."""

    def __init__(self, shared: Shared, names: list[str] | None = None) -> None:
        self._shared = shared
        self.known = shared.names()
        start = list(names) if names else (self.known[:2] if len(self.known) >= 2 else ["Player 1", "Player 2"])
        self.names: list[str] = start
        self.partners = False
        self.preset = "all-fives"
        self.hand_sizes = "default"
        self.overrides: dict[str, Any] = {}
        self.leader: str | None = None  # None: draw lots
        self.error: str | None = None

    # -- players
    def set_count(self, n: int) -> None:
        n = max(2, min(5, n))
        names = list(self.names[:n])
        pool = [k for k in self.known if k not in names]
        while len(names) < n:
            names.append(pool.pop(0) if pool else f"Player {len(names) + 1}")
        self.names = names
        if n != 4:
            self.partners = False
        if self.leader not in names:
            self.leader = None
        self._set_hand_sizes(self.hand_sizes)
        self._changed()

    def set_partners(self, on: bool) -> None:
        self.partners = bool(on) and len(self.names) == 4
        self._changed()

    def teams(self) -> dict[str, list[str]] | None:
        if not self.partners:
            return None
        n = [s.strip() for s in self.names]
        return {f"{n[0]} & {n[2]}": [n[0], n[2]], f"{n[1]} & {n[3]}": [n[1], n[3]]}

    # -- rules
    def set_preset(self, key: str) -> None:
        self.preset = key
        self.overrides = dict(PRESETS[key][1])
        self._set_hand_sizes(self.hand_sizes)
        self._changed()

    def _set_hand_sizes(self, key: str) -> None:
        self.hand_sizes = key
        size = HAND_SIZE_PRESETS[key].get(len(self.names))
        if key == "default" or size is None or size == DEFAULT_HAND_SIZE.get(len(self.names)):
            self.overrides.pop("hand_size", None)
        else:
            self.overrides["hand_size"] = size

    def set_hand_sizes(self, key: str) -> None:
        self._set_hand_sizes(key)
        self._changed()

    def set_rule(self, key: str, value: Any) -> None:
        """Set one rule option; a number typed as text is read as a number; "" goes back to the default."""
        if key not in RULE_KEYS:
            self.error = f"unknown rule {key!r}"
        else:
            if isinstance(value, str) and key in ("set", "hand_size", "scale", "target", "boneyard_reserve"):
                value = value.strip()
                if value == "":
                    value = None
                elif re.fullmatch(r"-?\d+", value):
                    value = int(value)
            if value is None:
                self.overrides.pop(key, None)
            else:
                self.overrides[key] = value
            self.error = None
        self._changed()

    def checked_rules(self) -> tuple[Rules | None, str | None]:
        """The rules in effect (defaults filled in) and None, or None and why they are invalid."""
        try:
            return Rules.parse(self.overrides, len(self.names)), None
        except ScorekeeperError as e:
            return None, str(e)

    def rules(self) -> Rules | None:
        return self.checked_rules()[0]

    def default_of(self, key: str) -> Any:
        """What rule ``key`` would be if it were not set here (it follows the
        others: the target is 61 at scale 5, else 250 or 200), or None.

        >>> import tempfile
        >>> f = NewMatchForm(Shared(tempfile.mkdtemp()), names=["Ann", "Ben"])
        >>> f.set_rule("target", "100"); f.default_of("target")
        250
        >>> f.set_rule("scale", 5); f.default_of("target"), f.rules().target
        (61, 100)
        """
        try:
            rules = Rules.parse({k: v for k, v in self.overrides.items() if k != key}, len(self.names))
        except ScorekeeperError:
            return None
        return getattr(rules, key, None)

    def rules_error(self) -> str | None:
        return self.checked_rules()[1]

    def set_leader(self, name: str | None) -> None:
        """The first leader (None: draw lots when the match starts)."""
        self.leader = name
        self._changed()

    def record(self, rng: random.Random | None = None) -> dict:
        names = [s.strip() for s in self.names]
        leader = self.leader if self.leader in names else (rng or random).choice(names)
        rec: dict[str, Any] = {"format": "scorekeeper/1", "game": "all-fives", "players": names}
        teams = self.teams()
        if teams:
            rec["teams"] = teams
        if self.overrides:
            rec["rules"] = dict(self.overrides)
        title = PRESETS[self.preset][0]
        rec["title"] = title
        rec["hands"] = [{"leader": leader, "turns": []}]
        return rec

    def start(self, rng: random.Random | None = None) -> str | None:
        """Create the match in the store; returns its id (None, with ``error`` set, if refused)."""
        return self._create(names_problem(self.names) or self.rules_error(), lambda: self.record(rng))


# --------------------------------------------------------------------- table
@dataclass(frozen=True)
class PlayerRow:
    name: str
    side: str
    held: int
    to_move: bool


class TableModel(_Table):
    """The table screen of one match: the layout, the tile picker and every entry."""

    def __init__(self, shared: Shared, mid: str) -> None:
        self._shared = shared
        self.mid = mid
        self.error: str | None = None
        self.flash: str | None = None  # "15!" after a scoring play
        self.note: str | None = None  # what the last entry did, in words
        self.draws = 0  # tiles drawn in the turn being entered
        self.choosing: tuple[str, list[str]] | None = None  # a tile that fits several ends
        self.claiming: tuple[str, str | None] | None = None  # a play waiting for its claim
        self.claim_mode = False  # enter claims with "check" rules (always on with "muggins")
        self.remaining: dict[str, Any] = {}  # the hand-end form: name -> list of tiles or pips text
        self.picking_for: str | None = None  # whose tiles the hand-end picker adds to
        with shared.lock:
            self._match = all_fives_match(shared, mid)  # raises StoreError for an unknown id

    # ------------------------------------------------------------- reading
    @property
    def match(self) -> Match:
        return self._match

    @property
    def rules(self) -> Rules:
        return self._match.rules

    @property
    def players(self) -> list[PlayerRow]:
        m = self._match
        s = m.setup
        h = m.hand
        held = h.held if h else [m.rules.hand_size] * len(s.players)
        return [PlayerRow(n, s.sides[s.side_of[i]], held[i], m.to_move == n) for i, n in enumerate(s.players)]

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self._match.setup.sides, self._match.scores))

    @property
    def target(self) -> int:
        return self._match.rules.target

    @property
    def to_move(self) -> str | None:
        return self._match.to_move

    @property
    def hand_number(self) -> int:
        h = self._match.hand
        return h.number if h else 0

    @property
    def boneyard(self) -> int:
        h = self._match.hand
        return h.boneyard if h else self._match.rules.boneyard

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn this turn (beyond the draws entered)."""
        return max(0, self.boneyard - self.rules.boneyard_reserve - self.draws)

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

    @property
    def winner(self) -> str | None:
        m = self._match
        return None if m.winner is None else m.setup.sides[m.winner]

    @property
    def can_pass(self) -> bool:
        return self.phase == "play" and self.drawable == 0 and self._match.hand.turns != []

    def drawing(self) -> Drawing:
        h = self._match.hand
        return draw_layout(h.layout if h else Layout(self.rules.spinner))

    def picker(self) -> tuple[list[str], list[str]]:
        """The tiles not yet down: those that fit an open end now, and the others."""
        m = self._match
        h = m.hand
        down = h.layout.nodes if h else {}
        fits, others = [], []
        playing = self.phase == "play"
        for t in m.tiles:
            if t in down:
                continue
            (fits if playing and m.placements(t) else others).append(str(t))
        return fits, others

    def claim_choices(self) -> list[int]:
        """Quick buttons for a claim, in the match's scale."""
        top = 5 * (self.rules.set * 6 // 5 + 1)  # above any count the set can make
        return [p // self.rules.scale for p in range(0, top + 1, 5)]

    def set_claim_mode(self, on: bool) -> None:
        self.claim_mode = bool(on)
        self._changed()

    def _worth(self, count: int) -> int:
        """What a count scores (in the match's scale) before claims and the target."""
        return count // self.rules.scale if count % 5 == 0 else 0

    @property
    def asks_claims(self) -> bool:
        return self.rules.claims == "muggins" or self.claim_mode

    def last_turn(self):
        h = self._match.hand
        return h.turns[-1] if h and h.turns else None

    def muggins_callers(self) -> list[str]:
        """Opponents who may call "Muggins!" on the last play (claims: muggins, points missed)."""
        m = self._match
        t = self.last_turn()
        if self.rules.claims != "muggins" or t is None or t.tile is None or t.muggins is not None:
            return []
        if self.phase not in ("play", "hand-end"):
            return []
        if self._worth(t.count) - (t.claim or 0) <= 0:
            return []
        s = m.setup
        mine = s.side_of[t.player]
        return [n for i, n in enumerate(s.players) if s.side_of[i] != mine]

    def entries(self) -> list[tuple[int, int, str]]:
        """Every turn of the match as (hand, turn, text), for corrections."""
        out = []
        s = self._match.setup
        for h in self._match.hands:
            for i, t in enumerate(h.turns, 1):
                out.append((h.number, i, f"{s.players[t.player]}: {turn_text(t)}"))
        return out

    # ------------------------------------------------------------- acting
    def tap(self, tile: str) -> None:
        """A tile tapped in the picker: played at once if it fits one place; else asks where."""
        self.choosing = None
        self.claiming = None
        if self.phase == "hand-end" and self.picking_for:
            self.pick_remaining(tile)
            return
        if self.phase != "play":
            self.error = "no tile can be set now" + (f": {self.winner} has won the match" if self.winner else "")
            self._changed()
            return
        try:
            t = Tile.parse(tile)
        except ScorekeeperError as e:
            self.error = str(e)
            self._changed()
            return
        places = self._match.placements(t)
        if len(places) > 1:
            self.choosing = (str(t), [str(p) for p in places])
            self.error = None
            self._changed()
            return
        on = places[0] if places else None
        self._play(str(t), None if on is None else str(on))

    def choose(self, on: str) -> None:
        """The end picked for a tile that fits several."""
        if self.choosing is None:
            return
        tile = self.choosing[0]
        self.choosing = None
        self._play(tile, on)

    def cancel(self) -> None:
        self.choosing = None
        self.claiming = None
        self.error = None
        self._changed()

    def _play(self, tile: str, on: str | None) -> None:
        if self.asks_claims:
            self.claiming = (tile, on)
            self.error = None
            self._changed()
            return
        self._enter_play(tile, on, None)

    def claim(self, points: int | None) -> None:
        """The claim announced for the play waiting for it (None: no claim)."""
        if self.claiming is None:
            return
        tile, on = self.claiming
        self.claiming = None
        self._enter_play(tile, on, points)

    def _enter_play(self, tile: str, on: str | None, claim: int | None) -> None:
        entry: dict[str, Any] = {}
        if self.draws:
            entry["draw"] = self.draws
        entry["play"] = tile
        if on is not None and self._match.hand.turns:
            entry["on"] = on
        if claim is not None:
            entry["claim"] = claim
        if self._apply(lambda st: st.append(self.mid, {"turn": entry})):
            self.draws = 0
            self._after_turn()

    def _after_turn(self) -> None:
        t = self.last_turn()
        m = self._match
        s = m.setup
        who = s.players[t.player]
        if t.tile is None:
            self.flash = None
            self.note = f"{who} passed" + (f" after drawing {t.drew}" if t.drew else "")
            return
        bits = [f"count {t.count}"]
        if t.points:
            self.flash = f"{t.points}!"
            bits.append(f"{s.sides[s.side_of[t.player]]} +{t.points}")
        else:
            self.flash = None
        if t.voided:
            bits.append("points voided: past the exact target")
        if t.claim is not None:
            if t.claim_ok is False:
                bits.append(f"wrong claim: said {t.claim}, scored {t.points}")
            elif t.claim_ok:
                bits.append("claim right")
            elif self.rules.claims == "muggins":
                worth = self._worth(t.count)
                if t.claim > worth:
                    bits.append(f"claimed {t.claim}: too much, nothing scored")
                elif t.claim < worth:
                    bits.append(f"claimed {t.claim} of {worth}: {worth - t.claim} missed")
        if m.hand.end == "domino":
            bits.append(f"{who} dominoed")
        self.note = f"{who} set {t.tile}: " + ", ".join(bits)

    def draw(self, n: int = 1) -> None:
        """The player to move drew ``n`` more tiles (entered with their play or pass)."""
        if self.phase != "play":
            return
        if n > self.drawable:
            h = self._match.hand
            self.error = (
                f"hand {h.number}, turn {len(h.turns) + 1}: cannot draw {n}: "
                f"{self.drawable} tile{'s' if self.drawable != 1 else ''} left to draw"
            )
        else:
            self.draws += n
            self.error = None
        self._changed()

    def clear_draws(self) -> None:
        self.draws = 0
        self._changed()

    def pass_(self) -> None:
        entry: dict[str, Any] = {"pass": True}
        if self.draws:
            entry = {"draw": self.draws, "pass": True}
        if self._apply(lambda st: st.append(self.mid, {"turn": entry})):
            self.draws = 0
            self._after_turn()

    def undo(self) -> None:
        """Take back the last entry (a hand started by itself after a domino goes with its settlement)."""
        self.choosing = self.claiming = None
        if self.draws:
            self.draws = 0
            self._changed()
            return

        def go(st: Store):
            entry = st.undo(self.mid)
            if "hand" in entry:
                m = st.match(self.mid)
                if m.hand is not None and m.hand.end == "domino":  # the app started it: undo the settlement too
                    st.undo(self.mid)

        if self._apply(go):
            self.flash = None
            self.note = "last entry taken back"

    def redo(self) -> None:
        if self._apply(lambda st: st.redo(self.mid)):
            self.flash = None
            self.note = "entry put back"

    def call_muggins(self, caller: str) -> None:
        """An opponent called "Muggins!" on the last play: the missed points go to their side."""
        if caller not in self.muggins_callers():
            self.error = f"{caller} cannot call muggins now"
            self._changed()
            return
        h = self._match.hand
        n = len(h.turns)
        entry = dict(event_entry(self._match.events[-1]), muggins=caller)  # the last play, as entered
        if self._apply(lambda st: st.edit(self.mid, h.number, n, entry)):
            t = self.last_turn()
            _, side, pts, voided = t.muggins
            self.flash = f"Muggins! {pts}" if pts else None
            self.note = f"{caller} called muggins: {self._match.setup.sides[side]} +{pts}" + (
                " (voided: past the exact target)" if voided else ""
            )

    # -- corrections
    def correct(self, hand: int, turn: int, text: str) -> None:
        """Replace an earlier turn by ``text`` (e.g. ``5-3 on 5-5``, ``+2 5-3``, ``pass``, ``+3 pass``)."""
        try:
            entry = parse_turn_text(text)
        except ValueError as e:
            self.error = f"hand {hand}, turn {turn}: {e}"
            self._changed()
            return
        if self._apply(lambda st: st.edit(self.mid, hand, turn, entry)):
            self.flash = None
            self.note = f"hand {hand}, turn {turn} corrected; every score after it recounted"

    # -- the end of a hand
    def holding(self) -> list[tuple[str, int]]:
        """Players who still hold tiles at the end of the hand: (name, tiles)."""
        h = self._match.hand
        if h is None or h.end is None:
            return []
        return [(n, h.held[i]) for i, n in enumerate(self._match.setup.players) if h.held[i]]

    def pick_for(self, name: str | None) -> None:
        self.picking_for = name
        if name is not None and not isinstance(self.remaining.get(name), list):
            self.remaining = dict(self.remaining, **{name: []})
        self._changed()

    def pick_remaining(self, tile: str) -> None:
        """Add (or take back) a tile to the picked player's remaining tiles."""
        name = self.picking_for
        if name is None:
            return
        t = str(Tile.parse(tile))
        tiles = list(self.remaining.get(name) or []) if isinstance(self.remaining.get(name), list) else []
        if t in tiles:
            tiles.remove(t)
        else:
            for other, v in self.remaining.items():
                if other != name and isinstance(v, list) and t in v:
                    v.remove(t)
            tiles.append(t)
        self.remaining = dict(self.remaining, **{name: tiles})
        held = dict(self.holding()).get(name, 0)
        if len(tiles) >= held:  # this player is complete: go on to the next one still open
            nxt = [n for n, k in self.holding() if n != name and not self._complete(n, k)]
            self.picking_for = nxt[0] if nxt else None
        self._changed()

    def set_pips(self, name: str, text: str) -> None:
        self.remaining = dict(self.remaining, **{name: text})
        self._changed()

    def _complete(self, name: str, held: int) -> bool:
        v = self.remaining.get(name)
        if isinstance(v, list):
            return len(v) == held
        return isinstance(v, str) and v.strip().isdigit()

    def _remaining_value(self) -> dict:
        out = {}
        for name, held in self.holding():
            v = self.remaining.get(name)
            if isinstance(v, list):
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

    def settlement_preview(self) -> tuple[list[str], str | None]:
        """What the hand-end form would settle, in words with its rounding; or the reason it cannot."""
        h = self._match.hand
        where = f"hand {h.number if h else 1}, remaining"
        try:
            value = self._remaining_value()
        except ValueError as e:
            return [], f"{where}: {e}"
        try:
            settle = parse_remaining(value, self.rules.set, h.number)
            trial = Match.replay(self._match.setup, self._match.events + [settle])
        except ScorekeeperError as e:
            return [], str(e)
        return settlement_lines(trial, trial.hand), None

    def settle(self) -> None:
        """Enter the remaining tiles or pips; after a domino the next hand starts by itself."""
        lines, problem = self.settlement_preview()
        if problem:
            self.error = problem
            self._changed()
            return
        value = self._remaining_value()
        h = self._match.hand

        def go(st: Store):
            st.append(self.mid, {"remaining": value})
            m = st.match(self.mid)
            if m.winner is None and h.end == "domino":
                st.append(self.mid, {"hand": {"leader": m.setup.players[h.domino_player]}})

        if self._apply(go):
            self.remaining = {}
            self.picking_for = None
            self.flash = None
            self.note = " ".join(lines)

    def suggested_leader(self) -> str | None:
        """Who leads the next hand: the domino player (the rules); after a block, the player
        with the fewest pips (the first in seating order on a tie)."""
        h = self._match.hand
        if h is None:
            return None
        players = self._match.setup.players
        if h.end == "domino":
            return players[h.domino_player]
        if h.pips:
            return players[min(range(len(players)), key=lambda i: h.pips[i])]
        return None

    def start_hand(self, leader: str | None, rng: random.Random | None = None) -> None:
        """Start the next hand with ``leader`` (None: draw lots)."""
        names = list(self._match.setup.players)
        if leader is None:
            leader = (rng or random).choice(names)
        if self._apply(lambda st: st.append(self.mid, {"hand": {"leader": leader}})):
            self.flash = None
            self.note = f"hand {self.hand_number}: {leader} leads"


# --------------------------------------------------------------------- score
EACH_SUBTRACTS_NOTE = (
    "No X tally or pegboard: with hand end each-subtracts points are taken off, "
    "and a tally or a board cannot show a deduction. The chart shows the dips."
)


@dataclass(frozen=True)
class SideDisplay:
    """One side on the score screen: its tally (and the tally before its latest
    scoring event, so the new strokes can be told apart), or why there is none."""

    name: str
    score: int
    tally: Tally | None
    previous: Tally | None
    note: str | None = None


@dataclass(frozen=True)
class ScoreDisplays:
    """Everything the score screen draws, computed from the stored record."""

    summary: dict  # the ``scorekeeper score`` object
    timeline: Timeline
    sides: tuple[SideDisplay, ...]
    pegboard: Pegboard | None  # scale-5 matches only
    note: str | None  # why there are no tallies and no board (each-subtracts)


def score_displays(match: Match) -> ScoreDisplays:
    """The tallies, the pegboard and the chart of a match, as data.

    >>> from scorekeeper.allfives.record import load
    >>> m = load({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
    ...           "rules": {"hand_size": 3}, "hands": [{"leader": "Ann", "turns": [{"play": "5-5"}]}]})
    >>> d = score_displays(m)
    >>> [(s.name, str(s.tally), s.previous.total) for s in d.sides]
    [('Ann', '[X . . . .]', 0), ('Ben', '', 0)]
    >>> d.pegboard is None, d.note is None
    (True, True)
    """
    tl = timeline(match)
    rules = match.rules
    summary = result(match)
    if rules.hand_end == "each-subtracts":
        sides = tuple(SideDisplay(n, sc, None, None) for n, sc in zip(tl.sides, tl.scores))
        return ScoreDisplays(summary, tl, sides, None, EACH_SUBTRACTS_NOTE)
    events = tl.events()
    sides = []
    for name, score, ev in zip(tl.sides, tl.scores, events):
        try:
            sides.append(SideDisplay(name, score, tally(ev, rules.scale), tally(ev[:-1], rules.scale)))
        except TallyError as e:  # a muggins claim of, say, 7 in a scale-1 match
            sides.append(SideDisplay(name, score, None, None, f"No X tally: {e.reason}."))
    board = pegboard(dict(zip(tl.sides, events)), target=rules.target) if rules.scale == 5 else None
    return ScoreDisplays(summary, tl, tuple(sides), board, None)


def settlement_lines(m: Match, h) -> list[str]:
    """The settlement of a settled hand in words, showing the rounding ("23 -> 25")."""
    s = m.setup
    r = m.rules
    scale = r.scale
    pips = h.pips or []
    lines = []
    unit = "" if scale == 1 else f" (scale {scale}: divided by {scale})"
    if r.hand_end == "each-subtracts":
        for i, p in enumerate(pips):
            lines.append(f"{s.players[i]} holds {p} -> -{round5(p) // scale}{unit}.")
        return lines
    side_pips = [0] * len(s.sides)
    for i, p in enumerate(pips):
        side_pips[s.side_of[i]] += p
    won = [i for i, v in enumerate(h.settlement or []) if v]
    if h.winner is not None:
        pot = sum(v for i, v in enumerate(side_pips) if i != h.winner)
        what = "dominoed" if h.end == "domino" else "won the block"
        lines.append(
            f"{s.sides[h.winner]} {what}: the others hold {pot} -> {round5(pot) // scale}{unit}"
            + (" (voided: past the exact target)" if h.winner in h.voided else "")
            + "."
        )
    elif won:
        tied = won
        pot = sum(v for i, v in enumerate(side_pips) if i not in tied)
        lines.append(
            f"Tie between {' and '.join(s.sides[i] for i in tied)}: "
            f"{pot} / {len(tied)} -> {h.settlement[tied[0]]} each{unit}."
        )
    else:
        lines.append("Blocked and tied: nobody scores.")
    return lines


# ------------------------------------------------------------------ history
class HistoryModel(_Model):
    """The history screen: matches page by page, export and import."""

    def __init__(self, shared: Shared) -> None:
        self._shared = shared
        self.offset = 0
        self.error: str | None = None
        self.message: str | None = None
        self.items: list[dict] = []
        self.total = 0
        self.load()

    def load(self) -> None:
        try:
            with self._shared.lock:
                self.total = self._shared.store.count()
                self.items = self._shared.store.list(self.offset, PAGE_SIZE)
        except ScorekeeperError as e:
            self.error = str(e)
        self._changed()

    def next_page(self) -> None:
        if self.offset + PAGE_SIZE < self.total:
            self.offset += PAGE_SIZE
        self.load()

    def prev_page(self) -> None:
        self.offset = max(0, self.offset - PAGE_SIZE)
        self.load()

    def export(self, mid: str) -> str | None:
        try:
            with self._shared.lock:
                return self._shared.store.export(mid)
        except ScorekeeperError as e:
            self.error = str(e)
            self._changed()
            return None

    def import_text(self, text: str) -> str | None:
        """Import a record given as JSON text; returns the new id (None, with ``error`` set, if refused)."""
        try:
            record = json.loads(text)
        except ValueError as e:
            self.error = f"not a JSON record: {e}"
            self._changed()
            return None
        try:
            with self._shared.lock:
                mid = self._shared.store.import_record(record)
        except ScorekeeperError as e:
            self.error = f"not imported: {e}"
            self._changed()
            return None
        self.error = None
        self.message = f"imported as {mid}"
        self.offset = 0
        self.load()
        return mid

    def summary(self, mid: str) -> dict | None:
        """The scored hands of a stored match (the ``scorekeeper score`` object)."""
        try:
            with self._shared.lock:
                match = self._shared.store.match(mid)
                game = game_of(self._shared, mid)
                if game == "all-fours":
                    from scorekeeper.allfours.record import result as fours_result

                    return fours_result(match)
                if game == "broadway":
                    from scorekeeper.broadway.record import result as broadway_result

                    return broadway_result(match)
                return result(all_fives_match(self._shared, mid))
        except ScorekeeperError as e:
            self.error = str(e)
            self._changed()
            return None
