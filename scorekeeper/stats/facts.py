"""The facts of one match that the statistics add up.

:func:`match_facts` replays a record through its game's engine and returns a small
JSON object: who played on which side, the scores (and those carried in, ``start``),
the winner, the hands (a hand entered as points is one; an adjustment is none), and per
player the game's own counters and best single play (each game's ``facts``,
e.g. :func:`scorekeeper.allfives.stats.facts`). A game registered without
``facts`` still counts matches, wins, points and hands.

>>> rec = {"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...        "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}, {"play": "5-5", "on": "5-0"}]}]}
>>> f = match_facts(rec)
>>> f["kind"], f["players"], f["scores"], f["winner"], f["hands"]
('all-fives', ['Ann', 'Ben'], [5, 10], None, 1)
"""

from __future__ import annotations

from typing import Any

from scorekeeper import registry

Record = dict[str, Any]

#: Bumped whenever what :func:`match_facts` returns changes: older cached facts are rebuilt.
#: 2: ``start``, the scores a match carried in.
VERSION = 2


def match_facts(record: Record) -> Record:
    """The facts of one match (any game); the record is checked through the engine first
    (a record that is not valid raises the engine's error)."""
    game = registry.game_of(record)
    match = game.load(record)
    setup = match.setup
    n = len(setup.players)
    out: Record = {
        "game": game.id,
        "kind": registry.kind_of(record),
        "players": list(setup.players),
        "sides": list(setup.sides),
        "side_of": list(setup.side_of),
        "scores": list(match.scores),
        "start": list(getattr(setup, "start", None) or [0] * len(setup.sides)),  # a game of its own may carry none in
        "winner": match.winner,
        "hands": len(match.hands),
        "per": [{} for _ in range(n)],
        "best": [None] * n,
    }
    per_game = getattr(game, "facts", None)
    if per_game is not None:
        out.update(per_game(record, game.result(match)))
    return out
