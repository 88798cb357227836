"""The All Fours hand screen's view-model, without any Flet and without any rule:
what a fact scores, in which order, and who has won is the engine's
(:mod:`scorekeeper.allfours.engine`).

Every fact goes to the store at once (``{"fact": {...}}`` entries), so a killed
app resumes where it was.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> from scorekeeper.ui.allfours.form import FoursNewMatchForm
>>> shared = open_shared(tempfile.mkdtemp())
>>> form = FoursNewMatchForm(shared, names=["Ann", "Ben"])
>>> form.dealer = "Ann"
>>> table = FoursTableModel(shared, form.start())
>>> table.phase, table.dealer, table.beggar
('hand', 'Ann', 'Ben')
>>> table.turn_up("J"); table.note
'Ann +3 turn-up (J)'
>>> table.set_high("Ben"); table.set_low("Ben"); table.scores
{'Ann': 3, 'Ben': 2}
>>> table.facts
{'dealer': 'Ann', 'turn_up': ['J'], 'high': 'Ben', 'low': 'Ben'}
>>> shared.close()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from scorekeeper.allfours.engine import HandResult, Item, Match
from scorekeeper.allfours.events import Penalties, TurnUp
from scorekeeper.allfours.timeline import timeline
from scorekeeper.allfours.variants import Variant
from scorekeeper.points import Adjustment, adjust_words, adjustment_field, in_order
from scorekeeper.store import Store
from scorekeeper.tally import Pegboard, TallyError, pegboard
from scorekeeper.ui.allfours.count import CardCount, Chips
from scorekeeper.ui.allfours.words import at_text, fact_words, hand_line, item_text
from scorekeeper.ui.shell.base import Shared, TableModel
from scorekeeper.ui.shell.points import PointsPart, Step

__all__ = ["END_FACTS", "FoursTableModel"]

#: The end-of-hand facts in counting order (the record's keys).
END_FACTS = ("high", "low", "jack", "game")
_END_OF_LABEL = {"high": "high", "low": "low", "jack": "jack", "hang-jack": "jack", "game": "game"}


class FoursTableModel(TableModel[Match]):
    """The All Fours hand screen of one match.

    ``phase``: ``"hand"`` (facts of the hand being entered), ``"deal"`` (the
    last hand is counted: who deals next?) or ``"over"`` (the match is won, at
    a point of the counting order that no missing fact can come before).
    """

    game = "all-fours"

    def __init__(self, shared: Shared, mid: str) -> None:
        self.jack_held: str | None = None  # the Jack's holder, waiting for who won it
        self.counting: CardCount | None = None  # the Game-point helper, when open
        self.penalty: str | None = None  # the penalty being entered: "revoke", "honour", "peek", "award"
        super().__init__(shared, mid)
        self.entries = PointsPart(self, self.points_steps, lambda: self.target, self.begun)

    # ------------------------------------------------------------- reading
    @property
    def variant(self) -> Variant:
        return self.match.rules.spec

    @property
    def target(self) -> int:
        return self.match.rules.target

    @property
    def hand(self) -> HandResult | None:
        return self.match.hand

    @property
    def facts(self) -> dict[str, Any]:
        """The facts of the last hand as entered, written as the record writes them."""
        h = self.hand
        if h is None:
            return {}
        dealer = {"dealer": self.players[h.dealer]} if h.dealer >= 0 else {}
        return {**dealer, **{f.key: f.to_json() for f in h.facts}}

    @property
    def dealer(self) -> str | None:
        """Who dealt the last hand (None: no hand yet, or one entered as points)."""
        h = self.hand
        return self.players[h.dealer] if h is not None and h.dealer >= 0 else None

    def points_steps(self) -> list[Step]:
        """The quick steps of a hand entered as points: the variant's points by name (the
        turn-up's cards, the gift, High, Low, Jack or Hang Jack, Game)."""
        v = self.variant
        steps: list[Step] = [(f"Turn-up {rank}", n) for rank, n in v.turn_up.items()]
        if not v.pitched:
            steps.append(("Gift", 1))
        steps += [("High", 1), ("Low", 1), ("Jack", 1)]
        if v.hang_jack:
            steps.append(("Hang Jack", 3))
        return [*steps, ("Game", 1), ("\u22121", -1)]

    def begun(self) -> str | None:
        """The hand being entered, in words of what was entered of it ("3 facts"; "": dealt,
        nothing more), or None between hands."""
        h = self.hand
        if self.phase != "hand" or h is None:
            return None
        n = len(h.facts)
        return "" if n == 0 else f"{n} fact{'s' if n != 1 else ''}"

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
        return [k for k in before if h.fact(k) is None and not (k == "game" and h.fact("game_cards") is not None)]

    @property
    def phase(self) -> str:
        h = self.hand
        if self.match.winner is not None and (h is None or not h.decided):
            return "over"  # an adjustment took a side to the target
        if h is None:
            return "deal"
        if h.decided:
            return "hand" if self.missing_before_win() else "over"
        return "deal" if h.complete else "hand"

    def winner_line(self) -> str | None:
        """``Ann & Cy win the match at Hang Jack in hand 5 (15 points, target 14)``, or why a side lost, or None."""
        h = self.hand
        if self.phase != "over" or h is None:
            return None
        if h.honour_revoke is not None:
            loser = self.setup.sides[h.honour_revoke]
            return f"{self.winner} {self._win} the match: {loser} revoked holding an honour (hand {h.number})"
        m = self.match
        assert m.winner is not None
        reached = f"({m.scores[m.winner]} points, target {self.target})"
        if not h.decided:  # the adjustment after the last hand won it
            return f"{self.winner} {self._win} the match at the {adjustment_field(len(m.hands))} {reached}"
        if h.entered is not None:
            return f"{self.winner} {self._win} the match in hand {h.number}, entered as points {reached}"
        item = h.items[-1]
        return (
            f"{self.winner} {self._win} the match at {at_text(item)} in hand {h.number} "
            f"({self.match.scores[item.side]} points, target {self.target})"
        )

    @property
    def _win(self) -> str:
        return "win" if self.setup.envelope.teams else "wins"

    def pending_note(self) -> str | None:
        """While a win waits for earlier facts: what is missing."""
        missing = self.missing_before_win()
        if not missing or self.hand is None:
            return None
        item = self.hand.items[-1]
        side = self.setup.sides[item.side]
        reach = "reach" if self.setup.envelope.teams else "reaches"
        return (
            f"{side} {reach} {self.target} at {at_text(item)} - but enter {', '.join(m.title() for m in missing)} "
            f"first: it counts before {at_text(item)}"
        )

    def items(self) -> list[str]:
        """The current hand's credited items, in counting order."""
        return [item_text(self.match, i) for i in self.hand.items] if self.hand else []

    def hand_lines(self) -> list[str]:
        """Every hand so far, newest first: dealer, items, scores after (an adjustment in its
        place: "Adjustment: Ann +2 (misdeal)", the scores after it)."""
        m = self.match
        out = []
        for e in in_order(m.hands, m.adjustments):
            if isinstance(e, Adjustment):
                adjust = {"adjust": {m.setup.sides[s]: n for s, n in enumerate(e.changes) if n}, "why": e.why}
                out.append(f"{adjust_words(adjust)} -> {' - '.join(str(s) for s in e.scores_after)}")
            else:
                out.append(hand_line(m, e))
        return out[::-1]

    def suggested_dealer(self) -> str:
        d = self.match.suggested_dealer()
        return self.players[d if d is not None else 0]

    def events(self) -> dict[str, list[int]]:
        """Each side's scoring events (the points of every credited item), in order: the game's timeline's."""
        return dict(zip(self.sides, timeline(self.match).events(), strict=True))

    def pegboard(self) -> Pegboard | None:
        """The cribbage board of the scores, or None where it cannot be pegged: an adjustment
        took points off (the scores are shown as chips, and Score says why)."""
        try:
            return pegboard(self.events(), target=self.target)
        except TallyError:
            return None

    def chips(self) -> list[Chips] | None:
        """Seven Up: each side starts with one chip per point of the target and
        pays one into the pool per point scored.  None in other variants."""
        if self.match.rules.variant != "seven-up":
            return None
        t = self.target
        return [Chips(s, max(0, t - p), min(p, t)) for s, p in self.scores.items()]

    # what the hand screen offers (the variant's parts only)
    @property
    def turns_up(self) -> bool:
        return not self.variant.pitched

    @property
    def turned(self) -> list[str]:
        return list(self.hand.turned) if self.hand else []

    @property
    def honours(self) -> bool:
        """Trinidad's honour revoke (Tobago plays the same table)."""
        return self.match.rules.variant in ("trinidad", "tobago")

    @property
    def peeks(self) -> bool:
        return self.match.rules.variant == "west-yorkshire"

    def turn_up_values(self) -> dict[str, int]:
        return dict(self.variant.turn_up)

    def entered(self) -> dict[str, str]:
        """What each fact of the current hand says, for the screen's buttons."""
        return fact_words(self.match, self.hand)

    def jack_choices(self) -> list[tuple[str, str]]:
        """Once the holder is picked: (player, what it scores) for who won the trick with the Jack."""
        if self.jack_held is None:
            return []
        mine = self.side_of(self.jack_held)
        hang = self.variant.hang_jack
        out = []
        for p in self.players:
            side = self.side_of(p)
            if side == mine:
                out.append((p, f"{mine} +1 jack"))
            else:
                out.append((p, f"{side} +{3 if hang else 1} {'hang jack' if hang else 'jack'}"))
        out.sort(key=lambda pc: self.side_of(pc[0]) != mine)  # the holder's side first
        return out

    # ------------------------------------------------------------- acting
    def _forget_entry(self) -> None:
        self.jack_held = None
        self.counting = None
        self.penalty = None

    def _apply(
        self, fn: Callable[[Store], Any], then: Callable[[], Any] | None = None, what: str = "undo the last entry"
    ) -> bool:
        """The base's store change; ``note`` then says what it credited in the same hand."""
        before = self.hand.items if self.hand else ()
        number = self.hand_number

        def credited() -> None:
            self.note = self._credited(before) if self.hand_number == number else None
            if then is not None:
                then()

        return super()._apply(fn, credited, what)

    def _credited(self, before: Sequence[Item]) -> str | None:
        """The items of the hand that were not among ``before``, in words."""
        left = Counter(before)
        new = []
        for i in self.hand.items if self.hand else ():
            if left[i]:
                left[i] -= 1
            else:
                new.append(i)
        return ", ".join(item_text(self.match, i) for i in new) or None

    def _fact(self, **facts: Any) -> bool:
        return self._apply(lambda st: st.append(self.mid, {"fact": facts}))

    def start_hand(self, dealer: str) -> None:
        """Deal the next hand (``dealer`` deals)."""
        self.jack_held = self.counting = self.penalty = None
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

        def change(st: Store) -> None:
            if other in self.facts:
                st.edit(self.mid, self.hand_number, other, None)
            st.append(self.mid, {"fact": fact})

        return self._apply(change)

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

    def _add_penalty(self, p: dict[str, Any]) -> None:
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
        h = self.hand
        last = h.facts[-1] if h is not None and h.facts else None
        shorter = last.to_json()[:-1] if isinstance(last, TurnUp | Penalties) else []
        if last is not None and shorter:
            # a list fact loses its last element (a card turned, a penalty), not all of them
            if self._fact(**{last.key: shorter}):
                self.note = f"last {'card turned' if last.key == 'turn_up' else 'penalty'} taken back"
            return
        if self._apply(lambda st: st.undo(self.mid), what="undo the last entry"):
            self.note = "last entry taken back"

    def redo(self) -> None:
        if self._apply(lambda st: st.redo(self.mid)):
            self.note = "entry put back"
