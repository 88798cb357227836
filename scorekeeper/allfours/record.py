"""All Fours records: load one through the engine, and the ``scorekeeper score`` output."""

from __future__ import annotations

from typing import Any

from scorekeeper.allfours.engine import HandResult, Match, Setup
from scorekeeper.errors import RecordFormatError

__all__ = ["load", "result", "score_record"]


def load(record: Any) -> Match:
    """Check a record and fold its hands; raises a ScorekeeperError naming the hand."""
    setup = Setup.of(record)
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordFormatError("must be a list of hands", field="hands")
    return Match.replay(setup, hands)


def _hand_out(m: Match, h: HandResult) -> dict:
    sides = m.setup.sides
    out: dict[str, Any] = {
        "number": h.number,
        "dealer": m.setup.players[h.dealer],
        "points": [{"side": sides[i.side], "points": i.points, "for": i.label, **dict(i.extra)} for i in h.items],
    }
    if h.card_points is not None:
        out["card_points"] = dict(zip(sides, h.card_points))
    if h.all_four is not None:
        out["all_four"] = sides[h.all_four]
    if h.void:
        out["void"] = True
    if h.honour_revoke is not None:
        out["honour_revoke"] = sides[h.honour_revoke]
    out["end"] = "scored" if h.complete else "open"
    out["scores"] = dict(zip(sides, h.scores_after))
    return out


def result(m: Match) -> dict:
    """The ``scorekeeper score`` JSON object of an All Fours match."""
    sides = m.setup.sides
    return {
        "game": "all-fours",
        "sides": list(sides),
        "target": m.rules.target,
        "rules": {"variant": m.rules.variant, "target": m.rules.target},
        "hands": [_hand_out(m, h) for h in m.hands],
        "scores": dict(zip(sides, m.scores)),
        "winner": None if m.winner is None else sides[m.winner],
    }


def score_record(record: Any) -> dict:
    return result(load(record))


def render(out: dict) -> str:
    """``scorekeeper score --text`` for an All Fours match.

    >>> print(render(score_record({"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"],
    ...     "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben", "game": {"Ann": 10, "Ben": 30}}]})), end="")
    All Fours (trinidad): Ann vs Ben; target 14
    <BLANKLINE>
    Hand 1 (dealer Ann)
      Ann  +3  turn-up J
      Ben  +1  high
      Ben  +1  game (card points Ann 10, Ben 30)
      scores: Ann 3, Ben 2
    """
    lines = [f"All Fours ({out['rules']['variant']}): {' vs '.join(out['sides'])}; target {out['target']}"]
    width = max(len(s) for s in out["sides"])
    for h in out["hands"]:
        lines += [
            "",
            f"Hand {h['number']} (dealer {h['dealer']})" + (" - misdeal, dealt again" if h.get("void") else ""),
        ]
        for p in h["points"]:
            note = p.get("card") or (f"by {p['by']}" if "by" in p else p.get("reason", ""))
            if p["for"] == "game" and "card_points" in h:
                note = "(card points " + ", ".join(f"{k} {v}" for k, v in h["card_points"].items()) + ")"
            lines.append(f"  {p['side'].ljust(width)}  +{p['points']}  {p['for']} {note}".rstrip())
        if h.get("all_four"):
            lines.append(f"  all four: {h['all_four']}")
        if h.get("honour_revoke"):
            lines.append(f"  honour revoke: {h['honour_revoke']} lose the match")
        if h.get("end") == "open":
            lines.append("  hand open")
        lines.append("  scores: " + ", ".join(f"{k} {v}" for k, v in h["scores"].items()))
    if out["winner"]:
        lines += ["", f"Winner: {out['winner']}"]
    return "\n".join(lines) + "\n"
