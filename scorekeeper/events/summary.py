"""An event in one line, as the event's page, the list of events and ``scorekeeper event
list`` say it: the format, the game and its preset (by their titles), the points that win
a match, the rounds.

>>> from scorekeeper.events.draw import new_event
>>> players = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]
>>> summary(new_event("e", "Night", "swiss", "all-fives", players=players, preset="fives-threes", rounds=3))
'Swiss · All Fives: Fives and Threes (pub) · to 61 · 3 rounds'
>>> summary(new_event("e", "Night", "knockout", "all-fours", players=players[:2]))
'Knockout · All Fours: Trinidad · to 14 · 1 round'
>>> league = new_event("e", "Night", "league", "all-fives", teams={"Reds": ["Ann", "Cy"], "Blues": ["Ben", "Di"]},
...                    singles=2, doubles=1, legs=1)
>>> summary(league), targets(league)
('League · All Fives · to 250 (singles), 200 (doubles) · 1 round', {'singles': 250, 'doubles': 200})
"""

from __future__ import annotations

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.events.model import Event

__all__ = ["FORMAT_TITLES", "count", "planned_rounds", "rules_title", "summary", "targets"]

#: The formats as people name them.
FORMAT_TITLES = {
    "round-robin": "Round robin",
    "swiss": "Swiss",
    "knockout": "Knockout",
    "league": "League",
}


def count(n: int, word: str) -> str:
    """``n`` of ``word``, in words: ``'1 round'``, ``'3 rounds'``, ``'0 teams'``.

    >>> count(1, "round"), count(2, "round"), count(0, "player")
    ('1 round', '2 rounds', '0 players')
    """
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def rules_title(event: Event) -> str:
    """The game and its preset by their titles: ``'All Fives: Muggins (no spinner)'``; the
    game's title alone where the preset is the plain game (``'All Fives'``), or it has none."""
    game = registry.get(event.game)
    try:
        preset = registry.find_preset(game, event.preset)
    except ScorekeeperError:
        preset = None
    if preset is None or preset.title == game.title:
        return game.title
    return f"{game.title}: {preset.title}"


def targets(event: Event) -> dict[str, int]:
    """The points that win a match at each kind of table the event has, ``'singles'`` (one
    player a side) and ``'doubles'`` (two): the event's own target, else the one the game's
    engine gives its preset at that table. A kind of table whose match has no target (a
    match of so many hands) or cannot be made is left out."""
    game = registry.get(event.game)
    seen: dict[str, int] = {}
    for rnd in event.rounds[:2]:
        for t in rnd.tables:
            kind = "singles" if len(t.players) == 2 else "doubles"
            if kind in seen:
                continue
            seen[kind] = 0
            try:
                seen[kind] = game.timeline(game.load({**event.record_for(rnd.number, t.number), "hands": []})).target
            except ScorekeeperError:
                continue
    return {k: v for k, v in sorted(seen.items(), key=lambda kv: kv[0] != "singles") if v}


def planned_rounds(event: Event) -> int:
    """How many rounds the event is played over: a Swiss's planned rounds, a knockout's
    bracket, the rounds drawn of the others (drawn whole when made)."""
    if event.format == "swiss":
        return max(event.planned, len(event.rounds))
    if event.format == "knockout":
        return max((len(event.players) - 1).bit_length(), len(event.rounds))
    return len(event.rounds)


def summary(event: Event) -> str:
    """The event in a line: format, game and preset, target, rounds (see the module)."""
    parts = [FORMAT_TITLES.get(event.format, event.format), rules_title(event)]
    wins = targets(event)
    if len(set(wins.values())) == 1:
        parts.append(f"to {next(iter(wins.values()))}")
    elif wins:
        parts.append("to " + ", ".join(f"{v} ({k})" for k, v in wins.items()))
    parts.append(count(planned_rounds(event), "round"))
    return " · ".join(parts)
