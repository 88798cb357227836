"""Tens as the registry sees it: the same GameSpec the built-in games use."""

from __future__ import annotations

from typing import Any

from scorekeeper.codec import TurnEntries
from scorekeeper.registry import Counter, GameSpec, Kind
from scorekeeper.tally.timeline import Step, Timeline

from .engine import TARGET, Event, Match, load, parse_start, parse_turn


def result(m: Match) -> dict[str, Any]:
    sides = m.setup.sides
    hands = []
    for i, h in enumerate(m.hands):
        after = m.hands[i + 1].scores_before if i + 1 < len(m.hands) else tuple(m.scores)
        hands.append(
            {
                "number": h.number,
                "leader": m.setup.players[h.leader],
                "turns": [{"points": p} for p in h.turns],
                "end": "open",
                "scores": dict(zip(sides, after, strict=True)),
            }
        )
    return {
        "game": "toy-tens",
        "sides": list(sides),
        "target": TARGET,
        "hands": hands,
        "scores": dict(zip(sides, m.scores, strict=True)),
        "winner": None if m.winner is None else sides[m.winner],
    }


def render(out: dict[str, Any]) -> str:
    lines = [f"Tens: {' vs '.join(out['sides'])}; target {out['target']}"]
    for h in out["hands"]:
        lines.append(f"Hand {h['number']} (leader {h['leader']}): " + " ".join(str(t["points"]) for t in h["turns"]))
    lines.append("Scores: " + ", ".join(f"{k} {v}" for k, v in out["scores"].items()))
    return "\n".join(lines) + "\n"


def timeline(m: Match) -> Timeline:
    steps = []
    for h in m.hands:
        scores = list(h.scores_before)
        for n, p in enumerate(h.turns, 1):
            scores[m.setup.side_of[(h.leader + n - 1) % len(m.setup.players)]] += p
            steps.append(Step(h.number, n, tuple(scores)))
    return Timeline(tuple(m.setup.sides), TARGET, 5, tuple(steps))


def facts(record: dict[str, Any], scored: dict[str, Any]) -> dict[str, Any]:
    """The statistics' counters: per player, the turns that scored ten."""
    players = list(record["players"])
    per: list[dict[str, Any]] = [{"tens": 0} for _ in players]
    for hand in scored["hands"]:
        leader = players.index(hand["leader"])
        for n, turn in enumerate(hand["turns"]):
            if turn["points"] == 10:
                per[(leader + n) % len(players)]["tens"] += 1
    return {"kind": "toy-tens", "per": per, "best": [None] * len(players)}


def samples() -> dict[str, dict[str, Any]]:
    """The toy's sample records for the game contract: a match won, one stopped in its
    second hand, and two sides of two."""
    head = {"format": "scorekeeper/1", "game": "toy-tens", "players": ["Ann", "Ben"]}
    tens = [{"points": p} for p in (10, 4, 10, 6, 10)]
    return {
        "finished": {**head, "hands": [{"leader": "Ann", "turns": tens}]},
        "mid-hand": {
            **head,
            "hands": [{"leader": "Ann", "turns": tens[:3]}, {"leader": "Ben", "turns": [{"points": 2}]}],
        },
        "partners": {
            **head,
            "players": ["Ann", "Ben", "Cy", "Di"],
            "teams": {"Us": ["Ann", "Cy"], "Them": ["Ben", "Di"]},
            "title": "Tens for four",
            "hands": [{"leader": "Di", "turns": [{"points": p} for p in (3, 7, 0, 9, 10)]}],
        },
    }


class TensEntries(TurnEntries):
    kinds = ("hand", "turn")

    def event(self, match: Match, kind: str, value: Any) -> Event:
        hand, turn = (len(match.hands), len(match.hands[-1].turns) + 1) if match.hands else (1, 1)
        if kind == "hand":
            return parse_start(value, len(match.hands) + 1)
        return parse_turn(value, hand, turn)


GAME = GameSpec(
    id="toy-tens",
    title="Tens",
    entries=TensEntries(),
    load=load,
    score=lambda record: result(load(record)),
    result=result,
    render=render,
    timeline=timeline,
    facts=facts,
    kinds=(Kind("toy-tens", "Tens", (Counter("tens", "turns of ten"),)),),
    samples=samples,
)
