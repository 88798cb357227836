"""The rule sets All Fives is played by under their own names (``docs/rules/``): each
a :class:`~scorekeeper.registry.Preset` of rules on top of the defaults, offered by the
new-match form through the game's ``GameSpec``; and the names of the hand-size tables.

>>> [p.id for p in PRESETS]
['all-fives', 'muggins', 'five-up', 'cribbage-61', 'fives-threes', 'teesdale', 'sniff']
>>> from scorekeeper.allfives.rules import HAND_SIZE_PRESETS, Rules
>>> sniff = PRESETS[-1]
>>> sniff.title, Rules.parse(dict(sniff.rules), players=3).target, sniff.hand_sizes[3]
('Sniff', 200, 6)
>>> list(HAND_SIZE_TABLES) == list(HAND_SIZE_PRESETS)
True
"""

from __future__ import annotations

from scorekeeper.registry import Preset

__all__ = ["HAND_SIZE_TABLES", "PRESETS"]

#: The Fives and Threes count and its pub rules: no spinner, no drawing (knock), a point
#: for the go, partners play on, the lead passes to the left, 61 exactly.
_FIVES_THREES = {
    "count": "fives-and-threes",
    "spinner": "none",
    "draw": False,
    "hand_end": "go",
    "domino": "side",
    "next_leader": "left",
    "target": 61,
    "exact_target": True,
}

#: The presets, the plain game first. Those that deal their own hands say so by number of
#: players (the hand-size tables apply to the others); Teesdale names no size for three: 7 (ours).
PRESETS: tuple[Preset, ...] = (
    Preset("all-fives", "All Fives"),
    Preset("muggins", "Muggins (no spinner)", {"spinner": "none"}),
    Preset("five-up", "Five Up (all doubles spin)", {"spinner": "all-doubles"}),
    Preset("cribbage-61", "Cribbage 61 (scale 5)", {"scale": 5}),
    Preset("fives-threes", "Fives and Threes (pub)", _FIVES_THREES, {2: 7, 3: 5, 4: 5}),
    Preset(
        "teesdale",
        "Teesdale League",
        {**_FIVES_THREES, "hand_end": "none", "win_on_lead": False},
        {2: 9, 3: 7, 4: 6},
    ),
    Preset("sniff", "Sniff", {"spinner": "sniff", "target": 200}, {2: 7, 3: 6, 4: 5}),
)

#: The names of the hand-size tables (:data:`~scorekeeper.allfives.rules.HAND_SIZE_PRESETS`).
HAND_SIZE_TABLES: dict[str, str] = {
    "default": "Standard",
    "european": "European",
    "holsey": "Holsey",
    "newsom-bourne": "Newsom & Bourne",
}
