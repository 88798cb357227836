"""Records of the three games carried on from paper, made the quick way (issue 47)."""

from __future__ import annotations

from typing import Any

NS, EW = "North-South", "East-West"
FOUR = ["Ann", "Ben", "Cy", "Di"]
TEAMS = {NS: ["Ann", "Cy"], EW: ["Ben", "Di"]}


def record(game: str, *hands: dict[str, Any], start: dict[str, int] | None = None, **rules: Any) -> dict[str, Any]:
    """A record of ``game`` for Ann & Cy (North-South) against Ben & Di (East-West)."""
    rec: dict[str, Any] = {"format": "scorekeeper/1", "game": game, "players": list(FOUR), "teams": dict(TEAMS)}
    if start is not None:
        rec["start"] = start
    if rules:
        rec["rules"] = rules
    rec["hands"] = list(hands)
    return rec


def points(ns: int, ew: int, first: str | None = None) -> dict[str, Any]:
    """A hand entered as points."""
    item: dict[str, Any] = {"points": {NS: ns, EW: ew}}
    if first is not None:
        item["first"] = first
    return item


def adjust(why: str = "misdeal", **changes: int) -> dict[str, Any]:
    """An adjustment: ``adjust(ew=-10)``."""
    names = {"ns": NS, "ew": EW}
    return {"adjust": {names[k]: v for k, v in changes.items()}, "why": why}


def open_hand(game: str, number: int = 1) -> dict[str, Any]:
    """Hand ``number`` of ``game`` begun tile by tile (or fact by fact) and left open."""
    if game == "all-fives":
        return {"leader": "Ann", "turns": [{"play": "5-5"}]}
    if game == "all-fours":
        return {"dealer": "Ann", "high": "Ben"}
    d = 7 - number  # Broadway's hands are built on 6-6, 5-5 ...
    return {"leader": "Ann", "turns": [{"play": f"{d}-{d}", "at": [[0, 0], [1, 0]]}]}
