"""All Fours: the facts of each hand -> points, in the traditional counting order.

The match is a fold of its hands (one event = the facts of one hand); undo
drops the last hand.  Points are credited in the spec's order (turn-up, gift,
penalties, High, Low, Jack, Game) and the first side to reach the target wins
at that moment: nothing after it in that hand counts.

>>> m = Match(Setup.of({"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"]}))
>>> h = m.push({"dealer": "Ann", "turn_up": ["J"], "high": "Ben", "low": "Ann",
...             "jack": {"held": "Ann", "won": "Ben"}, "game": {"Ann": 30, "Ben": 23}})
>>> [(i.side, i.points, i.label) for i in h.items]
[(0, 3, 'turn-up'), (1, 1, 'high'), (0, 1, 'low'), (1, 3, 'hang-jack'), (0, 1, 'game')]
>>> m.scores
[5, 4]
>>> m.undo()["dealer"], m.scores
('Ann', [0, 0])
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.allfours.variants import CARD_POINTS, DEFAULT_VARIANT, RANKS, VARIANTS, Variant
from scorekeeper.envelope import Envelope, type_name
from scorekeeper.errors import IllegalEntryError, MatchOverError, RecordFormatError, RulesError, ScorekeeperError

__all__ = ["AllFoursError", "Item", "HandResult", "Rules", "Setup", "Match", "HAND_KEYS", "BEGS", "PENALTIES"]

HAND_KEYS = ("dealer", "turn_up", "beg", "high", "low", "jack", "game", "game_cards", "penalties")
BEGS = (None, "stand", "give", "run")
PENALTIES = {
    "misdeal": ("type",),
    "revoke": ("type", "by", "honour"),
    "peek": ("type", "by"),
    "award": ("type", "side", "points", "reason"),
}
RULE_KEYS = ("variant", "target")


class AllFoursError(IllegalEntryError):
    """A hand's facts that break the rules of All Fours."""


@dataclass(frozen=True)
class Rules:
    variant: str
    target: int

    @property
    def spec(self) -> Variant:
        return VARIANTS[self.variant]

    @classmethod
    def parse(cls, rules: Any, players: int) -> Rules:
        if rules is None:
            rules = {}
        if not isinstance(rules, Mapping):
            raise RulesError(f"must be an object, not {type_name(rules)}", field="rules")
        for key in rules:
            if key not in RULE_KEYS:
                raise RulesError(f"unknown rule {key!r} (All Fours rules: {', '.join(RULE_KEYS)})", field="rules")
        variant = rules.get("variant", DEFAULT_VARIANT)
        if variant not in VARIANTS or not isinstance(variant, str):
            raise RulesError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})", field="rules.variant")
        target = rules.get("target", VARIANTS[variant].default_target(players))
        if type(target) is not int or target < 1:
            raise RulesError(f"must be a whole number of at least 1, not {target!r}", field="rules.target")
        return cls(variant, target)


@dataclass(frozen=True)
class Setup:
    """Who plays, as which sides, under which rules."""

    players: tuple[str, ...]
    sides: tuple[str, ...]
    side_of: tuple[int, ...]
    rules: Rules
    envelope: Envelope

    @classmethod
    def of(cls, record: Any) -> Setup:
        env = Envelope.parse(record)
        if env.game != "all-fours":
            raise RecordFormatError(f"not an All Fours record (game {env.game!r})", field="game")
        n, sides = len(env.players), len(env.sides)
        sizes = {sum(1 for s in env.side_of if s == i) for i in range(sides)}
        if sides not in (2, 3) or len(sizes) != 1 or sizes.pop() > 2:
            raise RecordFormatError(
                f"All Fours is played by two or three sides: 2 or 3 players, or 4 or 6 in teams of two "
                f"(here {n} players as {sides} sides)",
                field="teams" if env.teams else "players",
            )
        return cls(env.players, env.sides, env.side_of, Rules.parse(record.get("rules"), n), env)

    def next_dealer(self, dealer: int) -> int:
        """The next dealer: to the right in Trinidad (counter-clockwise), else to the left."""
        step = -1 if self.rules.spec.dealing == "counter-clockwise" else 1
        return (dealer + step) % len(self.players)


@dataclass(frozen=True)
class Item:
    """One credited item: ``points`` to side ``side`` for ``label`` (turn-up, high, ...)."""

    side: int
    points: int
    label: str
    extra: tuple[tuple[str, Any], ...] = ()


@dataclass
class HandResult:
    number: int
    dealer: int
    facts: dict
    items: list[Item] = field(default_factory=list)
    scores_before: tuple[int, ...] = ()
    scores_after: tuple[int, ...] = ()
    turned: tuple[str, ...] = ()  # the turn-up ranks, checked
    card_points: tuple[int, ...] | None = None
    all_four: int | None = None
    void: bool = False
    honour_revoke: int | None = None
    decided: bool = False  # the match was won (or lost) during this hand

    @property
    def complete(self) -> bool:
        """Every fact is in: Game was entered, or the hand was void, or the match ended in it."""
        f = self.facts
        return self.void or self.decided or "game" in f or "game_cards" in f


class _Won(Exception):
    pass


class Match:
    """The state of an All Fours match: the fold of its hands."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.scores = [0] * len(setup.sides)
        self.winner: int | None = None
        self.hands: list[HandResult] = []

    # -- reading
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def hand(self) -> HandResult | None:
        return self.hands[-1] if self.hands else None

    def suggested_dealer(self) -> int | None:
        """Who deals next: the same dealer after a misdeal, else the next in the variant's direction."""
        h = self.hand
        if h is None:
            return None
        return h.dealer if h.void else self.setup.next_dealer(h.dealer)

    def state(self) -> tuple:
        return (tuple(self.scores), self.winner, tuple((h.number, tuple(h.items), h.scores_after) for h in self.hands))

    # -- changing
    def push(self, facts: Mapping) -> HandResult:
        """Check one hand's facts and credit them; an illegal hand changes nothing."""
        number = len(self.hands) + 1
        if self.winner is not None:
            raise MatchOverError(
                f"the match is over: {self.setup.sides[self.winner]} won in hand {self.hands[-1].number}",
                hand=number,
            )
        hand = self._check(facts, number)
        self._credit(hand)
        self.hands.append(hand)
        return hand

    def replace_last(self, facts: Mapping) -> HandResult:
        """Correct the last hand (e.g. more facts entered): undo it and push ``facts``; atomic."""
        old = self.undo()
        try:
            return self.push(facts)
        except ScorekeeperError:
            self.push(old)
            raise

    def undo(self) -> dict:
        """Drop the last hand; returns its facts."""
        if not self.hands:
            raise AllFoursError("there is nothing to undo")
        h = self.hands.pop()
        self.scores = list(h.scores_before)
        self.winner = None
        return copy.deepcopy(h.facts)

    @classmethod
    def replay(cls, setup: Setup, hands: Iterable[Mapping]) -> Match:
        m = cls(setup)
        for facts in hands:
            m.push(facts)
        return m

    # -- checking
    def _player(self, value: Any, number: int, what: str, *, null: bool = False) -> int | None:
        if value is None and null:
            return None
        if not isinstance(value, str):
            raise AllFoursError(f"must name a player, not {type_name(value)}", hand=number, field=what)
        try:
            return self.setup.players.index(value)
        except ValueError:
            raise AllFoursError(
                f"{value!r} is not a player (players: {', '.join(self.setup.players)})", hand=number, field=what
            ) from None

    def _side(self, value: Any, number: int, what: str) -> int:
        if not isinstance(value, str) or value not in self.setup.sides:
            raise AllFoursError(
                f"{value!r} is not a side (sides: {', '.join(self.setup.sides)})", hand=number, field=what
            )
        return self.setup.sides.index(value)

    def _rank(self, value: Any, number: int, what: str) -> str:
        rank = value.upper() if isinstance(value, str) else None  # "j" is read as "J"; 6 (a number) is refused
        if rank not in RANKS:
            raise AllFoursError(f"unknown rank {value!r} (ranks: {', '.join(RANKS)})", hand=number, field=what)
        return rank

    def _check(self, facts: Any, number: int) -> HandResult:
        if not isinstance(facts, Mapping):
            raise RecordFormatError(f"a hand must be an object, not {type_name(facts)}", hand=number)
        for key in facts:
            if key not in HAND_KEYS:
                raise RecordFormatError(f"unknown key {key!r} in a hand (known: {', '.join(HAND_KEYS)})", hand=number)
        if "dealer" not in facts:
            raise RecordFormatError("the dealer is missing", hand=number, field="dealer")
        variant = self.rules.spec
        dealer = self._player(facts["dealer"], number, "dealer")
        hand = HandResult(number, dealer, copy.deepcopy(dict(facts)))
        penalties = facts.get("penalties", [])
        if not isinstance(penalties, list):
            raise RecordFormatError(f"must be a list, not {type_name(penalties)}", hand=number, field="penalties")
        for i, p in enumerate(penalties, 1):
            self._check_penalty(p, number, f"penalties[{i}]")
        if any(p["type"] == "misdeal" for p in penalties):
            others = [k for k in facts if k not in ("dealer", "penalties")]
            if others:
                raise AllFoursError(
                    f"a misdeal voids the hand: no other facts ({', '.join(others)}) may be given",
                    hand=number,
                    field=others[0],
                )
            hand.void = True
            return hand
        turn_up = facts.get("turn_up") or []
        if not isinstance(turn_up, list):
            raise RecordFormatError(f"must be a list of ranks, not {type_name(turn_up)}", hand=number, field="turn_up")
        ranks = hand.turned = tuple(self._rank(r, number, "turn_up") for r in turn_up)
        if ranks and variant.pitched:
            raise AllFoursError(
                f"{variant.title}: trump is pitched, no card is turned up", hand=number, field="turn_up"
            )
        beg = facts.get("beg")
        if beg not in BEGS:
            raise AllFoursError(f'beg must be null, "stand", "give" or "run", not {beg!r}', hand=number, field="beg")
        if beg is not None and variant.pitched:
            raise AllFoursError(f"{variant.title}: trump is pitched, nobody begs", hand=number, field="beg")
        if beg == "give":
            self._check_give(dealer, number)
        self._player(facts.get("high"), number, "high", null=True)
        self._player(facts.get("low"), number, "low", null=True)
        jack = facts.get("jack")
        if jack is not None:
            if not isinstance(jack, Mapping) or set(jack) != {"held", "won"}:
                raise RecordFormatError('must be null or {"held": player, "won": player}', hand=number, field="jack")
            self._player(jack["held"], number, "jack.held")
            self._player(jack["won"], number, "jack.won")
        if "game" in facts and "game_cards" in facts:
            raise RecordFormatError("give game or game_cards, not both", hand=number, field="game_cards")
        if "game" in facts:
            hand.card_points = self._card_points(facts["game"], number)
        elif "game_cards" in facts:
            hand.card_points = self._cards_counted(facts["game_cards"], number)
        return hand

    def _check_penalty(self, p: Any, number: int, where: str) -> None:
        if not isinstance(p, Mapping) or p.get("type") not in PENALTIES:
            raise AllFoursError(
                f"a penalty is an object with type {', '.join(PENALTIES)}, not {p!r}"[:200], hand=number, field=where
            )
        for key in p:
            if key not in PENALTIES[p["type"]]:
                raise RecordFormatError(f"unknown key {key!r} in a {p['type']} penalty", hand=number, field=where)
        kind = p["type"]
        if kind in ("revoke", "peek"):
            if "by" not in p:
                raise RecordFormatError(f"a {kind} penalty names the player: by", hand=number, field=where)
            self._player(p["by"], number, f"{where}.by")
        if kind == "revoke" and not isinstance(p.get("honour", False), bool):
            raise RecordFormatError("honour must be true or false", hand=number, field=f"{where}.honour")
        if kind == "award":
            self._side(p.get("side"), number, f"{where}.side")
            pts = p.get("points")
            if type(pts) is not int or pts < 0:
                raise AllFoursError(
                    f"award points must be a whole number of at least 0, not {pts!r}",
                    hand=number,
                    field=f"{where}.points",
                )
            if "reason" in p and not isinstance(p["reason"], str):
                raise RecordFormatError("reason must be a string", hand=number, field=f"{where}.reason")

    def _check_give(self, dealer: int, number: int) -> None:
        """Seven Up with three players: no gift when the opponent who did not beg needs one point."""
        if not (self.rules.variant == "seven-up" and len(self.setup.sides) == 3):
            return
        n = len(self.setup.players)
        step = 1 if self.rules.spec.dealing == "clockwise" else -1
        other = (dealer + 2 * step) % n  # the beggar sits next to the dealer; the other opponent after them
        side = self.setup.side_of[other]
        if self.rules.target - self.scores[side] == 1:
            raise AllFoursError(
                f"the dealer may not give: {self.setup.players[other]} needs only one point to win, "
                "so the pack must be run",
                hand=number,
                field="beg",
            )

    def _card_points(self, value: Any, number: int) -> tuple[int, ...]:
        if not isinstance(value, Mapping):
            raise RecordFormatError(
                f"must map each side to its card points, not {type_name(value)}", hand=number, field="game"
            )
        pts = [0] * len(self.setup.sides)
        for name, v in value.items():
            s = self._side(name, number, "game")
            if type(v) is not int:
                raise AllFoursError(
                    f"card points of {name} must be a whole number, not {v!r}", hand=number, field="game"
                )
            if v < 0:
                raise AllFoursError(f"card points of {name} cannot be below 0 ({v})", hand=number, field="game")
            pts[s] = v
        if sum(pts) > 80:
            raise AllFoursError(f"card points add up to {sum(pts)}: the pack holds only 80", hand=number, field="game")
        return tuple(pts)

    def _cards_counted(self, value: Any, number: int) -> tuple[int, ...]:
        if not isinstance(value, Mapping):
            raise RecordFormatError(
                f"must map each side to the ranks it took, not {type_name(value)}", hand=number, field="game_cards"
            )
        pts = [0] * len(self.setup.sides)
        seen: dict[str, int] = {}
        for name, cards in value.items():
            s = self._side(name, number, "game_cards")
            if not isinstance(cards, list):
                raise RecordFormatError(f"the cards of {name} must be a list of ranks", hand=number, field="game_cards")
            for c in cards:
                rank = self._rank(c, number, "game_cards")
                seen[rank] = seen.get(rank, 0) + 1
                if seen[rank] > 4:
                    raise AllFoursError(f"more than four cards of rank {rank}", hand=number, field="game_cards")
                pts[s] += CARD_POINTS.get(rank, 0)
        return tuple(pts)

    # -- crediting
    def _credit(self, hand: HandResult) -> None:
        hand.scores_before = tuple(self.scores)
        try:
            self._count(hand)
        except _Won:
            hand.decided = True
        hand.scores_after = tuple(self.scores)
        if not hand.decided:
            hand.all_four = self._all_four(hand)

    def _add(self, hand: HandResult, side: int, points: int, label: str, **extra) -> None:
        if points <= 0:
            return
        self.scores[side] += points
        hand.items.append(Item(side, points, label, tuple(extra.items())))
        if self.scores[side] >= self.rules.target and self.winner is None:
            self.winner = side
            raise _Won

    def _count(self, hand: HandResult) -> None:
        f = hand.facts
        setup, variant = self.setup, self.rules.spec
        side_of, sides = setup.side_of, range(len(setup.sides))
        dealer_side = side_of[hand.dealer]
        # 1. turn-up
        for rank in hand.turned if variant.all_turned else hand.turned[-1:]:
            self._add(hand, dealer_side, variant.turn_up_points(rank), "turn-up", card=rank)
        # 2. gift
        if f.get("beg") == "give":
            for s in sides:
                if s != dealer_side:
                    self._add(hand, s, 1, "gift")
        # 3. penalties, in order
        barred: set[int] = set()
        for p in f.get("penalties", []):
            kind = p["type"]
            if kind == "misdeal":
                for s in sides:
                    if s != dealer_side:
                        self._add(hand, s, 1, "misdeal")
            elif kind == "revoke":
                who = setup.players.index(p["by"])
                rs = side_of[who]
                if p.get("honour"):
                    self._honour_revoke(hand, rs)
                barred.add(rs)
                for s in sides:
                    if s != rs:
                        self._add(hand, s, 1, "revoke", by=p["by"])
            elif kind == "peek":
                ps = side_of[setup.players.index(p["by"])]
                for s in sides:
                    if s != ps:
                        self._add(hand, s, 4, "peek", by=p["by"])
            else:
                extra = {"reason": p["reason"]} if "reason" in p else {}
                self._add(hand, setup.sides.index(p["side"]), p["points"], "award", **extra)
        if hand.void:
            return
        # 4. High, 5. Low
        for key in ("high", "low"):
            if f.get(key) is not None:
                self._add(hand, side_of[setup.players.index(f[key])], 1, key)
        # 6. Jack
        jack = f.get("jack")
        if jack is not None:
            held, won = (side_of[setup.players.index(jack[k])] for k in ("held", "won"))
            if held == won or not variant.hang_jack:
                self._add(hand, won, 1, "jack")
            else:
                self._add(hand, won, 3, "hang-jack")
        # 7. Game
        if hand.card_points is not None:
            s = self._game_side(hand.card_points, dealer_side)
            if s is not None and s not in barred:
                self._add(hand, s, 1, "game")

    def _game_side(self, pts: tuple[int, ...], dealer_side: int) -> int | None:
        best = max(pts)
        tied = [s for s, p in enumerate(pts) if p == best]
        if len(tied) == 1:
            return tied[0]
        if not self.rules.spec.seven_up_tie:
            return None
        # Seven Up: a tie of the dealer's side with one other goes to that other (with two sides:
        # the non-dealer); two non-dealers tied, or all three, -> nobody
        if len(tied) == 2 and dealer_side in tied:
            return next(s for s in tied if s != dealer_side)
        return None

    def _honour_revoke(self, hand: HandResult, loser: int) -> None:
        others = [s for s in range(len(self.setup.sides)) if s != loser]
        n = len(self.setup.sides)
        # the other side with the higher score; on a tie the first after the revoker's side
        order = sorted(others, key=lambda s: (-self.scores[s], (s - loser) % n))
        hand.honour_revoke = loser
        self.winner = order[0]
        raise _Won

    def _all_four(self, hand: HandResult) -> int | None:
        for s in range(len(self.setup.sides)):
            got = {i.label for i in hand.items if i.side == s}
            if {"high", "low", "game"} <= got and ("jack" in got or "hang-jack" in got):
                return s
        return None
