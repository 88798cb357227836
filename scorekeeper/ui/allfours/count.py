"""Counting on the All Fours hand screen, without any Flet: the Game-point helper
(:class:`CardCount`, the counting cards each side took) and Seven Up's chips
(:class:`Chips`).  What the cards are worth is the engine's
(:data:`scorekeeper.allfours.variants.CARD_POINTS`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scorekeeper.allfours.variants import CARD_POINTS

__all__ = ["COUNTING_RANKS", "CardCount", "Chips"]

#: The counting cards for Game, high to low (the helper's buttons).
COUNTING_RANKS = ("A", "K", "Q", "J", "10")


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
        """What ``side`` took, high to low, and its card points: ``2xA K 10 = 21``."""
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
