"""The All Fours variants of ``docs/rules/all-fours.md`` as data.

>>> VARIANTS["trinidad"].turn_up_points("J"), VARIANTS["trinidad"].turn_up_points("5")
(3, 0)
>>> VARIANTS["west-yorkshire"].default_target(players=2), VARIANTS["west-yorkshire"].default_target(players=4)
(9, 11)
>>> VARIANTS["trinidad"].dealing
'counter-clockwise'
>>> PRESETS[-1]
Preset(id='pitch', title='Pitch', rules={'variant': 'pitch'}, hand_sizes={})
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.registry import Preset

__all__ = ["Variant", "VARIANTS", "RANKS", "CARD_POINTS", "DEFAULT_VARIANT", "PRESETS"]

#: Card ranks as a record writes them, low to high.
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Points of the counting cards for Game (the pack holds 80).
CARD_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1, "10": 10}
DEFAULT_VARIANT = "trinidad"


@dataclass(frozen=True)
class Variant:
    """One row of the spec's table."""

    name: str
    title: str
    turn_up: dict[str, int] = field(default_factory=dict)  # rank -> points to the dealer's side; {} = pitched
    all_turned: bool = False  # every turned card counts (else only the final one)
    hang_jack: bool = False  # the Jack won by an opponent scores 3
    seven_up_tie: bool = False  # a Game tie goes to a non-dealer (else nobody)
    target: int = 11
    target_two_players: int | None = None
    dealing: str = "clockwise"

    @property
    def pitched(self) -> bool:
        """True where trump is pitched: no card is turned up, nobody begs."""
        return not self.turn_up

    def turn_up_points(self, rank: str) -> int:
        return self.turn_up.get(rank, 0)

    def default_target(self, players: int) -> int:
        if players == 2 and self.target_two_players is not None:
            return self.target_two_players
        return self.target

    def hand_most(self, sides: int = 2) -> int:
        """The most one hand can give, every point's value added up: the turn-up (each
        counting rank once where every card turned counts, else the best one), the gift (one
        to each side but the dealer's, where a card is turned up to beg on), High, Low, Jack
        (3 as a hang-jack where the variant has it) and Game. A hand entered as points gives
        no side more, nor all the sides together (``docs/rules/all-fours.md``).

        >>> [VARIANTS[v].hand_most() for v in ("trinidad", "running", "seven-up", "pitch")]
        [13, 9, 6, 4]
        """
        values = self.turn_up.values()
        turn_up = (sum(values) if self.all_turned else max(values)) if values else 0
        gift = 0 if self.pitched else sides - 1
        return turn_up + gift + 1 + 1 + (3 if self.hang_jack else 1) + 1


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "trinidad",
            "Trinidad",
            {"A": 1, "6": 2, "J": 3},
            all_turned=True,
            hang_jack=True,
            target=14,
            dealing="counter-clockwise",
        ),
        Variant("tobago", "Tobago", {"A": 1, "2": 2, "J": 3}, all_turned=True, hang_jack=True, target=14),
        Variant("west-yorkshire", "West Yorkshire", target=11, target_two_players=9),
        Variant("lancashire", "Lancashire", target=11),
        Variant("english-1674", "English (1674)", {"J": 1}, target=11),
        Variant("running", "Running All Fours", {"A": 4, "K": 3, "Q": 2, "J": 1}, target=31),
        Variant("north-american", "North American", {"J": 1}, target=10),
        Variant("seven-up", "Seven Up", {"J": 1}, seven_up_tie=True, target=7),
        Variant("pitch", "Pitch", target=7),
    )
}

#: The variants as a new match offers them (through the game's ``GameSpec``), in the
#: spec's order: each a preset of one rule, the variant.
PRESETS: tuple[Preset, ...] = tuple(Preset(v.name, v.title, {"variant": v.name}) for v in VARIANTS.values())
