"""All Fours view-models: the new-match form, the hand screen and the
Game-point helper -- without any Flet, and without any rule: what a fact
scores, in which order, and who has won is the engine's
(:mod:`scorekeeper.allfours.engine`).

Every fact goes to the store at once (``{"fact": {...}}`` entries), so a killed
app resumes where it was.

>>> import tempfile
>>> from scorekeeper.ui.model import Shared
>>> shared = Shared(tempfile.mkdtemp())
>>> form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
>>> form.dealer = "Ann"
>>> table = FoursTableModel(shared, form.start())
>>> table.phase, table.dealer, table.beggar
('hand', 'Ann', 'Ben')
>>> table.turn_up("J"); table.note
'Ann +3 turn-up (J)'
>>> table.set_high("Ben"); table.set_low("Ben"); table.scores
{'Ann': 3, 'Ben': 2}
>>> shared.close()
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.allfours.engine import HandResult, Item, Match
from scorekeeper.allfours.variants import CARD_POINTS, DEFAULT_VARIANT, VARIANTS, Variant
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store import Store
from scorekeeper.tally import Pegboard, pegboard
from scorekeeper.ui.base import FormModel as _Form
from scorekeeper.ui.base import Model as _Model
from scorekeeper.ui.base import names_problem

__all__ = [
    "VARIANT_CHOICES",
    "PLAYER_COUNTS",
    "COUNTING_RANKS",
    "FoursNewMatchForm",
    "FoursTableModel",
    "CardCount",
    "Chips",
    "fours_match",
    "item_text",
]

#: The variants offered, in the spec's order: (title, name).
VARIANT_CHOICES = [(v.title, name) for name, v in VARIANTS.items()]
#: Two or three sides: 2 or 3 players alone, 4 or 6 in partnerships.
PLAYER_COUNTS = (2, 3, 4, 6)
#: The counting cards for Game, high to low (the helper's buttons).
COUNTING_RANKS = ("A", "K", "Q", "J", "10")
#: The end-of-hand facts in counting order (the record's keys).
END_FACTS = ("high", "low", "jack", "game")
_END_OF_LABEL = {"high": "high", "low": "low", "jack": "jack", "hang-jack": "jack", "game": "game"}


def fours_match(shared, mid: str) -> Match:
    """The engine state of a stored All Fours match; another game is refused."""
    match = shared.store.match(mid)
    if not isinstance(match, Match):
        raise ScorekeeperError(f"match {mid} is not an All Fours match")
    return match


def item_text(m: Match, item: Item) -> str:
    """One credited item in words: ``Ann +3 turn-up (J)``."""
    extra = dict(item.extra)
    what = item.label
    if "card" in extra:
        what += f" ({extra['card']})"
    elif "by" in extra:
        what += f" by {extra['by']}"
    elif extra.get("reason"):
        what += f" ({extra['reason']})"
    return f"{m.setup.sides[item.side]} +{item.points} {what}"


def _at(item: Item) -> str:
    """Where in the counting order an item stands, for the winner's line."""
    extra = dict(item.extra)
    names = {
        "turn-up": "the turn-up",
        "gift": "the gift",
        "misdeal": "the misdeal",
        "revoke": "the revoke",
        "peek": "the peek",
        "award": "an award",
        "high": "High",
        "low": "Low",
        "jack": "Jack",
        "hang-jack": "Hang Jack",
        "game": "Game",
    }
    text = names.get(item.label, item.label)
    if "card" in extra:
        text += f" ({extra['card']})"
    elif "by" in extra:
        text += f" by {extra['by']}"
    return text


# ----------------------------------------------------------------- new match
class FoursNewMatchForm(_Form):
    """New All Fours match: players (2, 3, 4 or 6), partnerships, variant, target, first dealer."""

    _picked = "dealer"  # a renamed seat keeps being the first dealer

    def __init__(self, shared, names: list[str] | None = None) -> None:
        self._shared = shared
        self.known = shared.names()
        start = list(names) if names else (self.known[:2] if len(self.known) >= 2 else ["Player 1", "Player 2"])
        self.names: list[str] = start
        self.variant = DEFAULT_VARIANT
        self.target_text = ""  # "" = the variant's target
        self.dealer: str | None = None  # None: cut for the deal when the match starts
        self.error: str | None = None

    @property
    def spec(self) -> Variant:
        return VARIANTS[self.variant]

    def set_count(self, n: int) -> None:
        if n not in PLAYER_COUNTS:
            return
        names = list(self.names[:n])
        pool = [k for k in self.known if k not in names]
        while len(names) < n:
            names.append(pool.pop(0) if pool else f"Player {len(names) + 1}")
        self.names = names
        if self.dealer not in names:
            self.dealer = None
        self._changed()

    def teams(self) -> dict[str, list[str]] | None:
        """Partners sit opposite: 1 & 3 against 2 & 4; with six, 1 & 4, 2 & 5, 3 & 6."""
        n = [s.strip() for s in self.names]
        if len(n) not in (4, 6):
            return None
        per = len(n) // 2  # sides; partners sit ``per`` seats apart
        return {f"{n[i]} & {n[i + per]}": [n[i], n[i + per]] for i in range(per)}

    def sides(self) -> list[str]:
        t = self.teams()
        return list(t) if t else [s.strip() for s in self.names]

    def set_variant(self, name: str) -> None:
        if name in VARIANTS:
            self.variant = name
            self._changed()

    def default_target(self) -> int:
        return self.spec.default_target(len(self.names))

    def set_target(self, text: str) -> None:
        self.target_text = (text or "").strip()
        self._changed()

    def target_error(self) -> str | None:
        t = self.target_text
        if t and (not re.fullmatch(r"[0-9]+", t) or int(t) < 1):
            return f"target must be a whole number of at least 1, not {t!r}"
        return None

    def set_dealer(self, name: str | None) -> None:
        self.dealer = name
        self._changed()

    def record(self, rng: random.Random | None = None) -> dict:
        names = [s.strip() for s in self.names]
        dealer = self.dealer if self.dealer in names else (rng or random).choice(names)
        rec: dict[str, Any] = {"format": "scorekeeper/1", "game": "all-fours", "players": names}
        teams = self.teams()
        if teams:
            rec["teams"] = teams
        rules: dict[str, Any] = {"variant": self.variant}
        if self.target_text:
            rules["target"] = int(self.target_text)
        rec["rules"] = rules
        rec["title"] = f"All Fours - {self.spec.title}"
        rec["hands"] = [{"dealer": dealer}]
        return rec

    def start(self, rng: random.Random | None = None) -> str | None:
        """Create the match (its first hand dealt); the new id, or None with ``error`` set."""
        return self._create(names_problem(self.names) or self.target_error(), lambda: self.record(rng))


# --------------------------------------------------------- Game-point helper
class CardCount:
    """The Game-point helper: per side, the counting cards taken in tricks,
    entered one tap at a time; the card points are computed (A 4, K 3, Q 2,
    J 1, 10 10).  A pack holds four of each rank: a fifth is refused.

    >>> c = CardCount(["Us", "Them"])
    >>> for r in ("A", "10", "K"): c.add("Us", r)
    >>> c.add("Them", "10"); c.points()
    {'Us': 17, 'Them': 10}
    >>> c.left("10"), c.game_cards()
    (2, {'Us': ['A', '10', 'K'], 'Them': ['10']})
    >>> c.remove_last("Us"); c.points()["Us"]
    14
    """

    def __init__(self, sides: list[str]) -> None:
        self.sides = list(sides)
        self.taken: dict[str, list[str]] = {s: [] for s in self.sides}
        self.error: str | None = None

    def left(self, rank: str) -> int:
        return 4 - sum(cards.count(rank) for cards in self.taken.values())

    def add(self, side: str, rank: str) -> None:
        if rank not in CARD_POINTS or side not in self.taken:
            self.error = f"{rank!r} is not a counting card" if side in self.taken else f"{side!r} is not a side"
            return
        if self.left(rank) <= 0:
            self.error = f"all four {rank}s are already counted"
            return
        self.error = None
        self.taken[side].append(rank)

    def remove_last(self, side: str) -> None:
        if self.taken.get(side):
            self.taken[side].pop()
        self.error = None

    def clear(self) -> None:
        self.taken = {s: [] for s in self.sides}
        self.error = None

    def points(self) -> dict[str, int]:
        return {s: sum(CARD_POINTS[r] for r in cards) for s, cards in self.taken.items()}

    def game_cards(self) -> dict[str, list[str]]:
        return {s: list(cards) for s, cards in self.taken.items()}

    def summary(self, side: str) -> str:
        """``A A 10 K = 21``"""
        cards = Counter(self.taken[side])
        shown = " ".join(
            f"{n}x{r}" if n > 1 else r for r, n in sorted(cards.items(), key=lambda rn: COUNTING_RANKS.index(rn[0]))
        )
        return f"{shown or 'no counting cards'} = {self.points()[side]}"


@dataclass(frozen=True)
class Chips:
    """Seven Up's chips of one side: ``left`` still in front of the side, ``pool`` paid in."""

    side: str
    left: int
    pool: int


# --------------------------------------------------------------------- hand
class FoursTableModel(_Model):
    """The All Fours hand screen of one match.

    ``phase``: ``"hand"`` (facts of the hand being entered), ``"deal"`` (the
    last hand is counted: who deals next?) or ``"over"`` (the match is won, at
    a point of the counting order that no missing fact can come before).
    """

    def __init__(self, shared, mid: str) -> None:
        self._shared = shared
        self.mid = mid
        self.error: str | None = None
        self.note: str | None = None  # what the last entry credited, in words
        self.jack_held: str | None = None  # the Jack's holder, waiting for who won it
        self.counting: CardCount | None = None  # the Game-point helper, when open
        self.penalty: str | None = None  # the penalty being entered: "revoke", "honour", "peek", "award"
        with shared.lock:
            self._match = fours_match(shared, mid)
            self._record = shared.store.record(mid)

    # ------------------------------------------------------------- reading
    @property
    def match(self) -> Match:
        return self._match

    @property
    def setup(self):
        return self._match.setup

    @property
    def variant(self) -> Variant:
        return self._match.rules.spec

    @property
    def target(self) -> int:
        return self._match.rules.target

    @property
    def players(self) -> list[str]:
        return list(self.setup.players)

    @property
    def sides(self) -> list[str]:
        return list(self.setup.sides)

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self.setup.sides, self._match.scores))

    @property
    def hand(self) -> HandResult | None:
        return self._match.hand

    @property
    def facts(self) -> dict:
        """The facts of the last hand as entered (the record's hand)."""
        hands = self._record.get("hands") or []
        return dict(hands[-1]) if hands else {}

    @property
    def hand_number(self) -> int:
        return self.hand.number if self.hand else 0

    @property
    def dealer(self) -> str | None:
        return self.players[self.hand.dealer] if self.hand else None

    @property
    def beggar(self) -> str | None:
        """Who begs (or stands): the player after the dealer, in the dealing direction."""
        if not self.hand:
            return None
        return self.players[self.setup.next_dealer(self.hand.dealer)]

    def side_of(self, player: str) -> str:
        return self.setup.sides[self.setup.side_of[self.players.index(player)]]

    def missing_before_win(self) -> list[str]:
        """End-of-hand facts not entered yet that count before the item that won
        the match: until they are in, the win is not settled."""
        h = self.hand
        if h is None or not h.decided or h.honour_revoke is not None or not h.items:
            return []
        end = _END_OF_LABEL.get(h.items[-1].label)
        before = END_FACTS[: END_FACTS.index(end)] if end else ()
        f = self.facts
        return [k for k in before if k not in f and not (k == "game" and "game_cards" in f)]

    @property
    def phase(self) -> str:
        h = self.hand
        if h is None:
            return "deal"
        if h.decided:
            return "hand" if self.missing_before_win() else "over"
        if h.void or "game" in self.facts or "game_cards" in self.facts:
            return "deal"
        return "hand"

    @property
    def winner(self) -> str | None:
        w = self._match.winner
        return None if w is None else self.setup.sides[w]

    def winner_line(self) -> str | None:
        """``Ann & Cy win the match at Hang Jack in hand 5 (15 points, target 14)``, or why a side lost, or None."""
        if self.phase != "over":
            return None
        h = self.hand
        if h.honour_revoke is not None:
            loser = self.setup.sides[h.honour_revoke]
            return f"{self.winner} {self._win} the match: {loser} revoked holding an honour (hand {h.number})"
        item = h.items[-1]
        return (
            f"{self.winner} {self._win} the match at {_at(item)} in hand {h.number} "
            f"({self._match.scores[item.side]} points, target {self.target})"
        )

    @property
    def _win(self) -> str:
        return "win" if self.setup.envelope.teams else "wins"

    def pending_note(self) -> str | None:
        """While a win waits for earlier facts: what is missing."""
        missing = self.missing_before_win()
        if not missing:
            return None
        item = self.hand.items[-1]
        side = self.setup.sides[item.side]
        return (
            f"{side} {'reach' if self.setup.envelope.teams else 'reaches'} {self.target} at {_at(item)} - but enter {', '.join(m.title() for m in missing)} "
            f"first: it counts before {_at(item)}"
        )

    def items(self) -> list[str]:
        """The current hand's credited items, in counting order."""
        return [item_text(self._match, i) for i in self.hand.items] if self.hand else []

    def hand_lines(self) -> list[str]:
        """Every hand so far, newest first: dealer, items, scores after."""
        out = []
        for h in reversed(self._match.hands):
            items = "; ".join(item_text(self._match, i) for i in h.items) or "nothing scored"
            extra = " (misdeal)" if h.void else ""
            if h.all_four is not None:
                extra += f" - all four: {self.setup.sides[h.all_four]}"
            scores = " - ".join(str(s) for s in h.scores_after)
            out.append(f"Hand {h.number}, {self.players[h.dealer]} dealt{extra}: {items} -> {scores}")
        return out

    def suggested_dealer(self) -> str:
        d = self._match.suggested_dealer()
        return self.players[d if d is not None else 0]

    def events(self) -> dict[str, list[int]]:
        """Each side's scoring events (the points of every credited item), in order."""
        ev: dict[str, list[int]] = {s: [] for s in self.sides}
        for h in self._match.hands:
            for i in h.items:
                ev[self.sides[i.side]].append(i.points)
        return ev

    def pegboard(self) -> Pegboard:
        return pegboard(self.events(), target=self.target)

    def chips(self) -> list[Chips] | None:
        """Seven Up: each side starts with one chip per point of the target and
        pays one into the pool per point scored.  None in other variants."""
        if self._match.rules.variant != "seven-up":
            return None
        t = self.target
        return [Chips(s, max(0, t - p), min(p, t)) for s, p in self.scores.items()]

    # what the hand screen offers (the variant's parts only)
    @property
    def turns_up(self) -> bool:
        return not self.variant.pitched

    @property
    def turned(self) -> list[str]:
        return list(self.facts.get("turn_up") or [])

    @property
    def honours(self) -> bool:
        """Trinidad's honour revoke (Tobago plays the same table)."""
        return self._match.rules.variant in ("trinidad", "tobago")

    @property
    def peeks(self) -> bool:
        return self._match.rules.variant == "west-yorkshire"

    def turn_up_values(self) -> dict[str, int]:
        return dict(self.variant.turn_up)

    # ------------------------------------------------------------- acting
    def _apply(self, fn: Callable[[Store], Any]) -> bool:
        before = list(self.hand.items) if self.hand else []
        number = self.hand_number
        try:
            with self._shared.lock:
                fn(self._shared.store)
                self._match = self._shared.store.match(self.mid)
                self._record = self._shared.store.record(self.mid)
            self.error = None
            ok = True
        except ScorekeeperError as e:
            self.error = str(e)
            ok = False
        if ok:
            now = list(self.hand.items) if self.hand else []
            if self.hand_number == number:
                left = Counter(before)
                new = []
                for i in now:
                    if left[i]:
                        left[i] -= 1
                    else:
                        new.append(i)
                self.note = ", ".join(item_text(self._match, i) for i in new) or None
            else:
                self.note = None
        self._changed()
        return ok

    def _fact(self, **facts: Any) -> bool:
        return self._apply(lambda st: st.append(self.mid, {"fact": facts}))

    def start_hand(self, dealer: str) -> None:
        """Deal the next hand (``dealer`` deals)."""
        self.jack_held = None
        self.counting = None
        self.penalty = None
        if self._apply(lambda st: st.append(self.mid, {"hand": {"dealer": dealer}})):
            self.note = f"hand {self.hand_number}: {dealer} deals"

    def turn_up(self, rank: str) -> None:
        """The card turned for trump: credited to the dealer's side at once.  After
        "run the pack" every card turned is added; else a tap corrects the card."""
        ranks = self.turned + [rank] if self.facts.get("beg") == "run" else [rank]
        self._fact(turn_up=ranks)

    def clear_turn_up(self) -> None:
        self._fact(turn_up=[])

    def beg(self, answer: str | None) -> None:
        self._fact(beg=answer)

    def set_high(self, player: str | None) -> None:
        self._fact(high=player)

    def set_low(self, player: str | None) -> None:
        self._fact(low=player)

    def hold_jack(self, player: str | None) -> None:
        """Who was dealt the Jack of trumps; None: the Jack was not in play."""
        if player is None:
            self.jack_held = None
            self._fact(jack=None)
            return
        self.jack_held = player
        self.error = None
        self._changed()

    def jack_choices(self) -> list[tuple[str, str]]:
        """Once the holder is picked: (player, what it scores) for who won the trick with the Jack."""
        if self.jack_held is None:
            return []
        mine = self.side_of(self.jack_held)
        out = []
        for p in self.players:
            if self.side_of(p) == mine:
                out.append((p, f"{mine} +1 jack"))
            else:
                out.append(
                    (
                        p,
                        f"{self.side_of(p)} +{3 if self.variant.hang_jack else 1} {'hang jack' if self.variant.hang_jack else 'jack'}",
                    )
                )
        # the holder's side first
        out.sort(key=lambda pc: self.side_of(pc[0]) != mine)
        return out

    def jack_won(self, player: str) -> None:
        if self.jack_held is None:
            self.error = "first tap who held the Jack"
            self._changed()
            return
        if self._fact(jack={"held": self.jack_held, "won": player}):
            self.jack_held = None

    def game_to(self, side: str | None) -> None:
        """One tap: Game to ``side`` (None: a tie).  The record holds 1 card point
        for that side and 0 for the others -- the least card points that say it;
        the counting helper records the real ones."""
        self._replace_game(game={s: (1 if s == side else 0) for s in self.sides})

    def _replace_game(self, **fact: Any) -> bool:
        """Enter Game one way (a tap, or the counted cards) in place of the other."""
        other = "game_cards" if "game" in fact else "game"

        def go(st: Store):
            if other in self.facts:
                st.edit(self.mid, self.hand_number, other, None)
            st.append(self.mid, {"fact": fact})

        return self._apply(go)

    def open_counting(self) -> None:
        self.counting = CardCount(self.sides)
        self._changed()

    def close_counting(self) -> None:
        self.counting = None
        self._changed()

    def count_card(self, side: str, rank: str) -> None:
        if self.counting is not None:
            self.counting.add(side, rank)
            self._changed()

    def uncount(self, side: str) -> None:
        if self.counting is not None:
            self.counting.remove_last(side)
            self._changed()

    def enter_counted(self) -> None:
        if self.counting is None:
            return
        if self._replace_game(game_cards=self.counting.game_cards()):
            self.counting = None

    def ask_penalty(self, kind: str | None) -> None:
        """Open (or close, with None) the question for a penalty: who?"""
        self.penalty = kind
        self._changed()

    def _add_penalty(self, p: dict) -> None:
        penalties = list(self.facts.get("penalties") or [])
        if self._fact(penalties=penalties + [p]):
            self.penalty = None

    def misdeal(self) -> None:
        """The dealer misdealt: each other side scores 1 and the same dealer deals again."""
        self._add_penalty({"type": "misdeal"})

    def revoke(self, player: str, honour: bool = False) -> None:
        self._add_penalty({"type": "revoke", "by": player, **({"honour": True} if honour else {})})

    def peek(self, player: str) -> None:
        self._add_penalty({"type": "peek", "by": player})

    def award(self, side: str, points: int, reason: str = "") -> None:
        self._add_penalty({"type": "award", "side": side, "points": points, **({"reason": reason} if reason else {})})

    def undo(self) -> None:
        """Take back the last fact entered (or the deal of the last hand).  A list
        fact -- the cards turned while running the pack, the penalties -- loses
        its last element.  A fact entered again (a corrected High, a corrected
        turn-up card) is taken back whole, not returned to its earlier value."""
        if self.jack_held is not None or self.counting is not None or self.penalty is not None:
            self.jack_held = self.counting = self.penalty = None
            self._changed()
            return
        f = self.facts
        last = [k for k in f if k != "dealer"][-1:] if self.hand else []
        if last and last[0] in ("turn_up", "penalties") and len(f[last[0]] or []) > 1:
            # a list fact loses its last element (a card turned, a penalty), not all of them
            key = last[0]
            if self._apply(lambda st: st.append(self.mid, {"fact": {key: f[key][:-1]}})):
                self.note = f"last {'card turned' if key == 'turn_up' else 'penalty'} taken back"
            return
        if self._apply(lambda st: st.undo(self.mid)):
            self.note = "last entry taken back"

    def redo(self) -> None:
        if self._apply(lambda st: st.redo(self.mid)):
            self.note = "entry put back"

    def entered(self) -> dict[str, str]:
        """What each fact of the current hand says, for the screen's buttons."""
        f = self.facts
        out: dict[str, str] = {}
        for key in ("high", "low"):
            if key in f:
                out[key] = f[key] if f[key] is not None else "nobody"
        if "jack" in f:
            j = f["jack"]
            out["jack"] = "not in play" if j is None else f"{j['held']} held, {j['won']} won"
        if "game_cards" in f or "game" in f:
            h = self.hand
            pts = h.card_points if h else None
            out["game"] = ", ".join(f"{s} {p}" for s, p in zip(self.sides, pts)) if pts else "entered"
        if "beg" in f:
            out["beg"] = f["beg"] or "-"
        return out
