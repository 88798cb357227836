"""What the league's tests share: a small season's plan, and sheets made of real match records."""

from __future__ import annotations

from typing import Any

from scorekeeper.league.book import Fixture
from scorekeeper.league.sheets import FORMAT


def plan(teams: int = 4, divisions: int = 1, *, singles: int = 2, doubles: int = 0, delay: int = 48) -> dict[str, Any]:
    """A season of ``divisions`` divisions of ``teams`` teams, each its own club at its
    own pub (two teams a pub), three players a team (the first the captain, the second the vice)."""
    divs = []
    for d in range(divisions):
        rows = []
        for i in range(teams):
            n = d * teams + i
            rows.append(
                {
                    "name": f"Team {n}",
                    "club": f"Club {n}",
                    "venue": f"Pub {n // 2}",
                    "players": [f"P{n}a", f"P{n}b", f"P{n}c"],
                    "vice": f"P{n}b",
                }
            )
        divs.append({"name": f"Division {d + 1}", "teams": rows})
    return {
        "name": "Winter 2026",
        "game": "all-fives",
        "scoring": "league-2-1",
        "singles": singles,
        "doubles": doubles,
        "starts": "2026-09-07",
        "delay_hours": delay,
        "blackouts": ["2026-09-21"],
        "divisions": divs,
    }


def record(home: list[str], away: list[str], winner: int) -> dict[str, Any]:
    """A finished All Fives match of ``home`` v ``away`` won 5-0 by side ``winner`` (0 home)."""
    players = [p for pair in zip(home, away, strict=True) for p in pair]
    out: dict[str, Any] = {"format": "scorekeeper/1", "game": "all-fives", "players": players, "rules": {"target": 5}}
    if len(home) > 1:
        out["teams"] = {" & ".join(home): home, " & ".join(away): away}
    leader = (home, away)[winner][0]
    out["hands"] = [{"leader": leader, "turns": [{"play": "5-0"}]}]
    return out


def sheet(f: Fixture, winners: list[int], *, home: bool = True, away: bool = True, lie: bool = False) -> dict[str, Any]:
    """A sheet of fixture ``f`` whose game i was won by side ``winners[i]``; confirmed for the
    sides asked; ``lie``: the totals claim a game more for the home team."""
    games = []
    for i, w in enumerate(winners):
        hp, ap = [f.home.players[i % 3]], [f.away.players[i % 3]]
        scores = [5, 0] if w == 0 else [0, 5]
        games.append({"home": hp, "away": ap, "scores": scores, "record": record(hp, ap, w)})
    won = [winners.count(0), winners.count(1)]
    if lie:
        won = [won[0] + 1, won[1] - 1]
    return {
        "format": FORMAT,
        "fixture": f.id,
        "home": f.home.name,
        "away": f.away.name,
        "games": games,
        "totals": {"games": won, "points": [5 * winners.count(0), 5 * winners.count(1)]},
        "confirmed": {
            "home": {"by": f.home.captain, "at": "2026-09-07T22:30:00Z"} if home else None,
            "away": {"by": f.away.captain, "at": "2026-09-07T22:31:00Z"} if away else None,
        },
    }


class Served:
    """A league service on a free port of this machine, in a thread of this process (uvicorn),
    over ``db``; ``url`` its address. ``stop()`` ends it."""

    def __init__(self, db: Any, **options: Any) -> None:
        import socket
        import threading
        import time

        import uvicorn

        from scorekeeper.league.app import make_app

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        self.server = uvicorn.Server(
            uvicorn.Config(make_app(db, **options), host="127.0.0.1", port=port, log_level="warning")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end, "the league service did not start"
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
