"""A season of club nights as match records: the Players screens' tests (view-model and
browser) and the screenshots are built from it.

Ann, Ben, Cy and Di play All Fives one against one and in partnerships (Ann & Cy
against Ben & Di), Fives and Threes and a Broadway match, from January to April 2026;
"Annie" is Ann typed another way (two matches against Ben: the merge to make), and one
All Fives match of Ann and Ben is not finished. Every match is a legal game of the
engines' simulators (seeded: always the same season).
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.allfives.simulate import random_record
from scorekeeper.broadway.simulate import random_record as broadway_record

Record = dict[str, Any]

FIVES_THREES = {"count": "fives-and-threes", "draw": False, "hand_end": "go", "target": 61}
SINGLES = [("Ann", "Ben"), ("Ann", "Cy"), ("Ben", "Cy"), ("Ann", "Di"), ("Ben", "Di"), ("Cy", "Di")]


def named(record: Record, names: list[str], started: str | None) -> Record:
    """The simulator's record with its players P1, P2 ... called ``names`` (and the sides
    S1, S2 of partners "Ann & Cy" ...), started at ``started``."""
    text = json.dumps(record)
    teams = record.get("teams") or {}
    for side, members in teams.items():
        shown = " & ".join(names[int(p[1:]) - 1] for p in members)
        text = text.replace(json.dumps(side), json.dumps(shown))
    for i, name in enumerate(names):
        text = text.replace(json.dumps(f"P{i + 1}"), json.dumps(name))
    out: Record = json.loads(text)
    if started:
        out["started"] = started
    return out


def night(i: int) -> str:
    """The i-th club night: Tuesdays and Fridays from January 2026, 20:00."""
    month, day = divmod(i, 8)
    return f"2026-{1 + month % 4:02d}-{3 + day * 3:02d}T20:00:00Z"


def season() -> list[Record]:
    """Every match of the season (the unfinished one last)."""
    out: list[Record] = []
    n = 0
    for seed in range(12):
        out.append(named(random_record(seed, 2), list(SINGLES[seed % len(SINGLES)]), night(n)))
        n += 1
    for seed in range(20, 24):
        out.append(named(random_record(seed, 4, teams=True), ["Ann", "Ben", "Cy", "Di"], night(n)))
        n += 1
    for seed in range(40, 43):
        out.append(named(random_record(seed, 2, **FIVES_THREES), ["Ann", "Ben"], night(n)))
        n += 1
    out.append(named(broadway_record(3), ["Ann", "Ben", "Cy", "Di"], night(n)))
    n += 1
    for seed in (60, 61):
        out.append(named(random_record(seed, 2), ["Annie", "Ben"], night(n)))
        n += 1
    out.append(named(random_record(70, 2, max_hands=1), ["Ann", "Ben"], None))
    return out
