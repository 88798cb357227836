"""The All Fives new-match form, without Flet: players (2 to 5), partnerships for
four, the presets (All Fives, Muggins, Five Up, Cribbage 61), the hand-size
tables, every rule option and the first leader.

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> f = NewMatchForm(open_shared(tempfile.mkdtemp()), names=["Ann", "Ben"])
>>> f.set_rule("target", "100"); f.default_of("target")
250
>>> f.set_rule("scale", 5); f.default_of("target"), f.rules().target
(61, 100)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from scorekeeper import registry
from scorekeeper.allfives.rules import (
    BLOCK_WINNERS,
    CLAIM_MODES,
    COUNTS,
    DEFAULT_HAND_SIZE,
    DOMINO_ENDS,
    GAME_ID,
    HAND_ENDS,
    HAND_SIZE_PRESETS,
    NEXT_LEADERS,
    RULE_KEYS,
    SPINNER_POLICIES,
    Rules,
)
from scorekeeper.errors import ScorekeeperError
from scorekeeper.registry import Preset
from scorekeeper.ui.shell.base import Shared
from scorekeeper.ui.shell.form import FormModel, names_problem

__all__ = ["COUNTS_OFFERED", "PRESETS", "RULE_CHOICES", "RULE_WORDS", "NewMatchForm", "RuleWords"]

#: The game's rule presets (its ``GameSpec``'s: the rules, the hands they deal), by id.
PRESETS: dict[str, Preset] = {p.id: p for p in registry.presets_of(registry.get(GAME_ID))}

#: The numbers of players the form offers: the game's (its ``GameSpec``'s).
COUNTS_OFFERED: tuple[int, ...] = registry.player_counts(registry.get(GAME_ID))

#: Choices of every rule option with a fixed set of values (the rest are numbers).
RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "set": (6, 9, 12),
    "spinner": SPINNER_POLICIES,
    "hand_end": HAND_ENDS,
    "block_winner": BLOCK_WINNERS,
    "scale": (1, 5),
    "exact_target": (False, True),
    "boneyard_reserve": (0, 1, 2),
    "claims": CLAIM_MODES,
    "count": COUNTS,
    "draw": (True, False),
    "domino": DOMINO_ENDS,
    "next_leader": NEXT_LEADERS,
    "win_on_lead": (True, False),
}

#: The rule options typed as numbers.
_NUMBERS = ("set", "hand_size", "scale", "target", "boneyard_reserve")


@dataclass(frozen=True)
class RuleWords:
    """A rule option in a player's words: its name, a line saying what it does, and
    each of its values (for the options chosen with buttons)."""

    name: str
    line: str
    values: dict[Any, str] = field(default_factory=dict)


#: Every rule option in plain words (the record's keys and values stay as they are).
RULE_WORDS: dict[str, RuleWords] = {
    "hand_size": RuleWords("Tiles per player", "How many tiles each player draws at the start of a hand."),
    "target": RuleWords("Target", "The score that wins the match."),
    "set": RuleWords(
        "Set", "Which set of tiles is played.", {6: "double-6 (28)", 9: "double-9 (55)", 12: "double-12 (91)"}
    ),
    "spinner": RuleWords(
        "Spinner",
        "A spinner is a double that can be played on from all four sides.",
        {
            "first-double": "the first double",
            "none": "no spinner",
            "all-doubles": "every double",
            "sniff": "the sniff: across or in line",
        },
    ),
    "hand_end": RuleWords(
        "Hand end",
        "What a hand's end scores: the pips left in hands, a point for going out (the go), or nothing.",
        {
            "winner-takes": "the winner scores the pips",
            "each-subtracts": "each loses their own pips",
            "go": "1 for the go",
            "none": "nothing at the end",
        },
    ),
    "block_winner": RuleWords(
        "Blocked hand",
        "Who wins a hand nobody can go on with.",
        {"player": "the player with fewest pips", "side": "the side with fewest pips"},
    ),
    "scale": RuleWords(
        "Points",
        "Score the count as it is, or one point per five (the cribbage-board way, to 61).",
        {1: "the count", 5: "count / 5"},
    ),
    "exact_target": RuleWords(
        "Exact target",
        "Must the target be hit exactly? Points that would go past it are then lost.",
        {False: "no, passing it wins", True: "yes, hit it exactly"},
    ),
    "boneyard_reserve": RuleWords(
        "Boneyard",
        "Tiles that stay in the boneyard: nobody may draw them.",
        {0: "draw them all", 1: "leave 1", 2: "leave 2"},
    ),
    "claims": RuleWords(
        "Claims",
        "Who counts the points: the app, or each player who must call them (Muggins: an opponent "
        'may call "Muggins!" and take what was missed).',
        {"check": "the app counts", "muggins": "players call them"},
    ),
    "count": RuleWords(
        "Count",
        "Which counts score: multiples of five (All Fives), or of five and of three (Fives and Threes: 15 scores 8).",
        {"fives": "fives only", "fives-and-threes": "fives and threes"},
    ),
    "draw": RuleWords(
        "Drawing",
        "May a player who cannot play draw from the boneyard? Without drawing, they knock.",
        {True: "draw until you can play", False: "none, knock instead"},
    ),
    "domino": RuleWords(
        "Going out",
        "Does the hand end when one player is out, or do partners play on until both are out?",
        {"player": "the first out ends it", "side": "partners play on"},
    ),
    "next_leader": RuleWords(
        "Next lead",
        "Who leads the next hand: the player who went out, or the next player to the left.",
        {"winner": "who went out", "left": "to the left"},
    ),
    "win_on_lead": RuleWords(
        "Win on the down",
        "May the first tile of a hand (the down) score the points that win?",
        {True: "yes", False: "no: they are lost"},
    ),
}


class NewMatchForm(FormModel):
    """The new-match screen: players, partnerships, rules, first leader."""

    def __init__(self, shared: Shared, names: list[str] | None = None) -> None:
        super().__init__(shared, names)
        self.partners = len(self.names) == 4  # four players play in partnerships, unless told not to
        self.preset = next(iter(PRESETS))  # the plain game
        self.hand_sizes = "default"
        self.overrides: dict[str, Any] = self._deal()
        self.leader: str | None = None  # None: draw lots
        self.lots: str | None = None  # who the lots named, once drawn

    # -- players
    def set_count(self, n: int) -> None:
        n = max(COUNTS_OFFERED[0], min(COUNTS_OFFERED[-1], n))
        dealt = self._deal()
        self._resize(n)
        self.partners = n == 4
        if self.leader not in self.names:
            self.leader = None
        self._redeal(dealt)
        self._changed()

    def use_known(self, name: str) -> None:
        """An earlier player's name tapped: it takes the first seat still "Player k" or empty
        (else the last seat)."""
        for i, current in enumerate(self.typed):
            if not current.strip():
                self.set_name(i, name)
                return
        self.set_name(len(self.names) - 1, name)

    def set_partners(self, on: bool) -> None:
        self.partners = bool(on) and len(self.names) == 4
        self._changed()

    def teams(self) -> dict[str, list[str]] | None:
        if not self.partners:
            return None
        n = [s.strip() for s in self.names]
        return {f"{n[0]} & {n[2]}": [n[0], n[2]], f"{n[1]} & {n[3]}": [n[1], n[3]]}

    # -- rules
    def carried_sides(self) -> list[str]:
        """The partnerships where partners play, else every player."""
        t = self.teams()
        return list(t) if t else [s.strip() for s in self.names]

    def _deal(self) -> dict[str, Any]:
        """The rules the game gives the chosen preset at a table of this many players (its
        deal included): :func:`registry.rules_for`, as an event's match has them."""
        return registry.rules_for(GAME_ID, self.preset, len(self.names))

    def _redeal(self, before: dict[str, Any]) -> None:
        """The number of players changed: the preset's rules for the old number give way to
        its rules for the new one (a rule changed here stays); the hand-size table again."""
        after = self._deal()
        for key, value in before.items():
            if key not in after and self.overrides.get(key) == value:
                del self.overrides[key]
        for key, value in after.items():
            if key not in self.overrides or self.overrides[key] == before.get(key):
                self.overrides[key] = value
        self._set_hand_sizes(self.hand_sizes)

    def set_preset(self, key: str) -> None:
        self.preset = key
        self.overrides = self._deal()
        self._set_hand_sizes(self.hand_sizes)
        self._changed()

    def preset_line(self) -> str:
        """The chosen preset's rules in words, for the line under its button: ``Count: fives
        and threes · Spinner: no spinner · ... · 7 tiles each · to 61 exactly``."""
        rules = self.rules()
        if rules is None:
            return ""
        given = PRESETS[self.preset].rules
        bits = [
            f"{RULE_WORDS[k].name}: {RULE_WORDS[k].values[v]}"
            for k, v in given.items()
            if k in RULE_WORDS and v in RULE_WORDS[k].values and k != "exact_target"
        ]
        bits.append(f"{rules.hand_size} tiles each")
        bits.append(f"to {rules.target}" + (" exactly" if rules.exact_target else ""))
        return " · ".join(bits)

    def _set_hand_sizes(self, key: str) -> None:
        """The hand-size table ``key``: its size for this many players, on top of the preset's
        deal ("default": the preset's own hands where it deals them, else the game's)."""
        self.hand_sizes = key
        n = len(self.names)
        dealt = self._deal().get("hand_size")
        size = None if key == "default" else HAND_SIZE_PRESETS[key].get(n)
        if size is None:
            size = dealt
        elif dealt is None and size == DEFAULT_HAND_SIZE.get(n):
            size = None  # the game's own: the record need not say it
        if size is None:
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
            if isinstance(value, str) and key in _NUMBERS:
                value = value.strip()
                if value == "":
                    value = None
                elif re.fullmatch(r"-?[0-9]+", value):
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
        others: the target is 61 at scale 5, else 250 or 200), or None."""
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

    def record(self, rng: random.Random | None = None) -> dict[str, Any]:
        names = [s.strip() for s in self.names]
        leader = self.leader if self.leader in names else None
        if leader is None:
            leader = (rng or random).choice(names)
            self.lots = leader
        rec: dict[str, Any] = {"format": "scorekeeper/1", "game": GAME_ID, "players": names}
        teams = self.teams()
        if teams:
            rec["teams"] = teams
        if self.overrides:
            rec["rules"] = dict(self.overrides)
        rec["title"] = PRESETS[self.preset].title
        rec["hands"] = [{"leader": leader, "turns": []}]
        return rec

    def start(self, rng: random.Random | None = None) -> str | None:
        """Create the match in the store; returns its id (None, with ``error`` set, if refused).
        Lots drawn for the first leader are announced on the table."""
        self.lots = None
        mid = self._create(names_problem(self.names) or self.rules_error(), lambda: self.record(rng))
        if mid is not None and self.lots is not None:
            self._shared.announce(mid, f"lots drawn: {self.lots} leads")
        return mid
