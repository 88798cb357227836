"""``scorekeeper stats`` as text: one table per game, and one player's details.

Each figure is named in the players' words; ``-`` stands for a figure that has no
value yet (a win rate with no finished match). A name is written with any control,
direction or format character as a visible escape (:func:`scorekeeper.text.escape`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper import registry
from scorekeeper.stats.figures import counters
from scorekeeper.text import escape

Record = dict[str, Any]


def game_name(game: str) -> str:
    """A kind of game's name for people, as its game declares it (:func:`scorekeeper.registry.kind_title`)."""
    return registry.kind_title(game)


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{round(rate * 100)}%"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:g}"


def best_text(best: Record | None) -> str:
    if not best:
        return "-"
    return f"{best['points']} ({best['text']}, hand {best['hand']})"


def _table(given: Sequence[Sequence[str]]) -> list[str]:
    rows = [tuple(escape(c) for c in r) for r in given]
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    return ["  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip() for r in rows]


def render(data: Record, detail: bool = False) -> str:
    """The text of ``stats``: ``data`` is :meth:`Stats.to_json`'s object."""
    out: list[str] = []
    m = data["matches"]
    out.append(f"{m['finished']} finished matches ({m['unfinished']} unfinished, {m['abandoned']} abandoned)")
    for kind_rows, title in ((data["players"], "players"), (data["pairs"], "partners")):
        games: dict[str, list[Record]] = {}
        for r in kind_rows:
            games.setdefault(r["game"], []).append(r)
        for game, rows in games.items():
            out.append("")
            out.append(f"{game_name(game)}: {title}")
            head = ("name", "matches", "wins", "win rate", "points/hand", "win streak", "best play")
            table: list[tuple[str, ...]] = [head]
            for r in rows:
                table.append(
                    (
                        r["name"],
                        str(r["matches"]),
                        str(r["wins"]),
                        _pct(r["win_rate"]),
                        _num(r["points_per_hand"]),
                        str(r["longest_streak"]),
                        best_text(r["best"]) if r["best"] else "-",
                    )
                )
            out.extend(_table(table))
            if detail:
                for r in rows:
                    out.extend(_details(r))
    return "\n".join(out) + "\n"


def _details(r: Record) -> list[str]:
    out = ["", f"{escape(r['name'])}, {game_name(r['game'])}:"]
    out.append(
        f"  {r['matches']} matches, {r['wins']} won, {r['losses']} lost; "
        f"{r['unfinished']} unfinished, {r['abandoned']} abandoned"
    )
    out.append(f"  {r['points']} points in {r['hands']} hands ({_num(r['points_per_hand'])} a hand)")
    for name, words in counters(r["game"]):
        if name in r:
            out.append(f"  {words}: {r[name]}")
    for v in r.get("partners", []):
        out.append(f"  with {escape(v['name'])}: {v['matches']} matches, {v['wins']} won")
    for v in r.get("opponents", []):
        margin = "-" if v["margin"] is None else f"{v['margin']:+g}"
        out.append(f"  against {escape(v['name'])}: {v['wins']}-{v['losses']} in {v['matches']}, by {margin} a match")
    return out
