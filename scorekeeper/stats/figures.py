"""The figures: the facts of every match added up per player, pair of partners and game.

A match counts once it is won (``matches``, ``wins``, the points and hands ...).
A match not won yet is *unfinished* while it was changed in the last
:data:`ABANDONED_AFTER`, and *abandoned* after that; both are counted apart and
never in a win rate. "Game" here is the kind of game people name, as its game
declares it: one game may hold several (:func:`scorekeeper.registry.kinds`;
:func:`scorekeeper.stats.facts.match_facts`'s ``kind``).

>>> from scorekeeper.stats.cache import MatchFacts
>>> from scorekeeper.stats.names import Names
>>> def won(mid, winner, a, b):
...     facts = {"kind": "all-fives", "players": ["Ann", "Ben"], "sides": ["Ann", "Ben"],
...              "side_of": [0, 1], "scores": [a, b], "winner": winner, "hands": 3,
...              "per": [{}, {}], "best": [None, None]}
...     return MatchFacts(mid, f"2026-01-0{mid}T20:00:00Z", f"2026-01-0{mid}T22:00:00Z", facts)
>>> stats = compute([won("1", 0, 61, 40), won("2", 0, 61, 58), won("3", 1, 50, 61)], Names())
>>> ann = stats.line("Ann", "all-fives")
>>> ann.wins, len(ann.matches), ann.win_rate, ann.points, ann.longest_streak
(['1', '2'], 3, 0.667, 172, ['1', '2'])
>>> stats.head_to_head(("Ann",), ("Ben",)).wins, stats.head_to_head(("Ann",), ("Ben",)).margin
((2, 1), 4.3)
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from scorekeeper import registry
from scorekeeper.stats.cache import MatchFacts
from scorekeeper.stats.names import Names, key

Record = dict[str, Any]

#: A match not won that nobody has touched for this long is abandoned.
ABANDONED_AFTER = _dt.timedelta(hours=24)


def counters(kind: str) -> tuple[tuple[str, str], ...]:
    """``(name, words)`` of the figures a kind of game shows beside the common ones, in
    order: what its game declares (:attr:`scorekeeper.registry.Kind.counters`).

    >>> counters("broadway")
    (('own', 'points of own placements'), ('blocks', 'blocks out'))
    """
    k = registry.kind(kind)
    return () if k is None else tuple((c.name, c.words) for c in k.counters)


def __getattr__(name: str) -> Any:
    """``COUNTERS``: every kind's :func:`counters`, in the games' order (made when asked
    for, from the registry: a game registered later is in it)."""
    if name == "COUNTERS":
        return {k.id: counters(k.id) for k in registry.kinds()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _ratio(a: int, b: int, digits: int) -> float | None:
    return round(a / b, digits) if b else None


@dataclass
class Versus:
    """Finished matches of one player or pair against (or beside) another."""

    matches: list[str] = field(default_factory=list)
    won: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    margin_sum: int = 0  # own score minus the other's, summed

    @property
    def wins(self) -> tuple[int, int]:
        return len(self.won), len(self.lost)

    @property
    def margin(self) -> float | None:
        """The average of own score minus the other's, per match."""
        return _ratio(self.margin_sum, len(self.matches), 1)


@dataclass
class Line:
    """The figures of one player (or pair of partners) in one kind of game. The lists
    hold match ids (oldest first): the matches behind each figure."""

    name: str
    game: str
    members: tuple[str, ...]
    matches: list[str] = field(default_factory=list)
    wins: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)
    abandoned: list[str] = field(default_factory=list)
    points: int = 0
    hands: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    counter_matches: dict[str, list[str]] = field(default_factory=dict)
    best: Record | None = None
    longest_streak: list[str] = field(default_factory=list)
    results: list[tuple[str, str, bool, int]] = field(default_factory=list)  # (started, id, won, margin)
    # the finished matches met with others, (id, seats, own seat, winner, scores): partners
    # and opponents are added up from them when first asked for
    _met: list[tuple[str, list[_Seat], int, int | None, list[int]]] = field(default_factory=list, repr=False)
    _versus: tuple[dict[str, Versus], dict[str, Versus]] | None = field(default=None, repr=False)
    _run: list[str] = field(default_factory=list, repr=False)

    @property
    def partners(self) -> dict[str, Versus]:
        """Who played beside this player, by person: the matches, won and lost together."""
        return self._meet()[0]

    @property
    def opponents(self) -> dict[str, Versus]:
        """Who played against this player, by person: won, lost, and by how much."""
        return self._meet()[1]

    def _meet(self) -> tuple[dict[str, Versus], dict[str, Versus]]:
        if self._versus is None:
            partners: dict[str, Versus] = {}
            opponents: dict[str, Versus] = {}
            for mid, seats, i, winner, scores in self._met:
                me = seats[i].side
                for j, (person, side) in enumerate(seats):
                    if j == i:
                        continue
                    v = (partners if side == me else opponents).get(person)
                    if v is None:
                        v = (partners if side == me else opponents)[person] = Versus()
                    v.matches.append(mid)
                    v.margin_sum += scores[me] - scores[side]
                    if winner == me:
                        v.won.append(mid)
                    elif winner == side or side == me:  # beaten by them, or beside them
                        v.lost.append(mid)
            self._versus = (partners, opponents)
        return self._versus

    @property
    def win_rate(self) -> float | None:
        return _ratio(len(self.wins), len(self.matches), 3)

    @property
    def points_per_hand(self) -> float | None:
        return _ratio(self.points, self.hands, 2)

    @property
    def losses(self) -> list[str]:
        """The finished matches not won (oldest first)."""
        won = set(self.wins)
        return [m for m in self.matches if m not in won]

    def in_month(self, month: str) -> list[str]:
        """The finished matches started in ``month`` (``"2026-03"``): a bar of :meth:`by_month`."""
        return [mid for started, mid, _won, _margin in self.results if started[:7] == month]

    def by_month(self) -> list[Record]:
        """Finished matches and wins per calendar month of their start (the chart's data)."""
        months: dict[str, list[int]] = {}
        for started, _mid, won, _margin in self.results:
            m = months.setdefault(started[:7], [0, 0])
            m[0] += 1
            m[1] += won
        return [{"month": k, "matches": v[0], "wins": v[1]} for k, v in sorted(months.items())]

    def to_json(self, names: dict[str, str], detail: bool = True) -> Record:
        """The line as ``stats --json`` prints it; ``detail``: with its partners and opponents."""
        out: Record = {
            "name": self.name,
            "game": self.game,
            "matches": len(self.matches),
            "wins": len(self.wins),
            "losses": len(self.matches) - len(self.wins),
            "win_rate": self.win_rate,
            "points": self.points,
            "hands": self.hands,
            "points_per_hand": self.points_per_hand,
            "unfinished": len(self.unfinished),
            "abandoned": len(self.abandoned),
            "longest_streak": len(self.longest_streak),
            "best": self.best,
        }
        if len(self.members) > 1:
            out["members"] = list(self.members)
        out.update(self.counters)
        if detail and self.partners:
            out["partners"] = [_versus_json(names[p], v) for p, v in sorted(self.partners.items())]
        if detail and self.opponents:
            out["opponents"] = [_versus_json(names[p], v) for p, v in sorted(self.opponents.items())]
        out["by_month"] = self.by_month()
        return out


def _versus_json(name: str, v: Versus) -> Record:
    return {"name": name, "matches": len(v.matches), "wins": len(v.won), "losses": len(v.lost), "margin": v.margin}


class _Seat(NamedTuple):
    person: str
    side: int


@dataclass
class Stats:
    """Every line of figures, and the matches they came from (for head-to-head)."""

    players: dict[tuple[str, str], Line]
    pairs: dict[tuple[tuple[str, ...], str], Line]
    names: dict[str, str]  # person -> the name shown
    matches: list[tuple[MatchFacts, list[_Seat], str]]  # (facts, seats, status), oldest first
    aliases: Names = field(default_factory=Names)
    fingerprint: tuple[Any, ...] | None = None  # what they were made from (see compute)

    def person(self, name: str) -> str | None:
        """The person a name (as shown, or any spelling seen or merged) stands for, or None."""
        k = self.aliases.person(name)
        if k in self.names:
            return k
        return next((p for p, shown in self.names.items() if key(shown) == k), None)

    def line(self, name: str, game: str) -> Line:
        p = self.person(name)
        if p is None or (p, game) not in self.players:
            raise KeyError((name, game))
        return self.players[p, game]

    def ranked(self, game: str, pairs: bool = False) -> list[Line]:
        """The players (or pairs of partners) of one game, most wins first, then the best
        win rate, then by name: the order ``stats`` prints them in."""
        table = self.pairs if pairs else self.players
        lines = [line for (_who, g), line in table.items() if g == game]
        return sorted(lines, key=lambda ln: (-len(ln.wins), -(ln.win_rate or 0), key(ln.name)))

    def counts(self, game: str | None = None) -> dict[str, int]:
        """Matches finished, unfinished and abandoned (of one kind of game, or all)."""
        out = {"finished": 0, "unfinished": 0, "abandoned": 0}
        for mf, _seats, status in self.matches:
            if game is None or mf.facts["kind"] == game:
                out[status] += 1
        return out

    def head_to_head(self, a: Sequence[str], b: Sequence[str], game: str | None = None) -> Versus:
        """Finished matches in which the players ``a`` were one side and ``b`` another
        (``a`` and ``b`` are names: one player each, or partners)."""
        pa = {self.person(n) or key(n) for n in a}
        pb = {self.person(n) or key(n) for n in b}
        v = Versus()
        for mf, seats, status in self.matches:
            if status != "finished" or (game is not None and mf.facts["kind"] != game):
                continue
            sa = {s.side for s in seats if s.person in pa}
            sb = {s.side for s in seats if s.person in pb}
            if len(sa) != 1 or len(sb) != 1 or sa == sb:
                continue
            if len([s for s in seats if s.person in pa]) != len(pa):
                continue
            if len([s for s in seats if s.person in pb]) != len(pb):
                continue
            (side_a,), (side_b,) = sa, sb
            scores, winner = mf.facts["scores"], mf.facts["winner"]
            v.matches.append(mf.id)
            v.margin_sum += scores[side_a] - scores[side_b]
            if winner == side_a:
                v.won.append(mf.id)
            elif winner == side_b:
                v.lost.append(mf.id)
        return v

    def to_json(self, player: str | None = None, game: str | None = None, detail: bool | None = None) -> Record:
        """``{"players": [...], "pairs": [...], "matches": {...}}``, as ``stats --json`` prints it.
        ``detail`` (by default: when one ``player`` is asked for): each player's partners and
        opponents, head to head."""
        who = None if player is None else (self.person(player) or key(player))
        detail = who is not None if detail is None else detail
        players = [
            line.to_json(self.names, detail)
            for (p, g), line in self.players.items()
            if (who is None or p == who) and (game is None or g == game)
        ]
        pairs = [
            line.to_json(self.names)
            for (ps, g), line in self.pairs.items()
            if (who is None or who in ps) and (game is None or g == game)
        ]
        return {"players": _ranked(players), "pairs": _ranked(pairs), "matches": self.counts()}


def _ranked(rows: list[Record]) -> list[Record]:
    return sorted(rows, key=lambda r: (-r["wins"], -(r["win_rate"] or 0), r["game"], key(r["name"])))


def status_of(mf: MatchFacts, now: _dt.datetime) -> str:
    """finished, unfinished or abandoned (see the module's docstring)."""
    if mf.facts["winner"] is not None:
        return "finished"
    try:
        updated = _dt.datetime.fromisoformat(mf.updated.replace("Z", "+00:00"))
    except ValueError:
        return "abandoned"
    return "abandoned" if now - updated > ABANDONED_AFTER else "unfinished"


def compute(
    matches: Iterable[MatchFacts], names: Names, now: _dt.datetime | None = None, previous: Stats | None = None
) -> Stats:
    """Add up the facts of these matches (see the module's docstring). ``previous``: the figures
    made last time, given back as they are (with the unfinished matches' facts brought up to
    date) when no finished match, no match's status and no name has changed since -- the
    common case while a match is being played."""
    now = now or _dt.datetime.now(_dt.UTC)
    ordered = sorted(matches, key=lambda m: (m.started, m.id))
    shown: dict[str, str] = {}
    memo: dict[str, tuple[str, str]] = {}
    seated: list[list[_Seat]] = []
    statuses: list[str] = []
    for mf in ordered:
        seats: list[_Seat] = []
        taken: set[str] = set()
        for name, side in zip(mf.facts["players"], mf.facts["side_of"], strict=True):
            known = memo.get(name)
            if known is None:
                known = memo[name] = (names.person(name), names.shown(name) or " ".join(name.split()))
            person, display = known
            if person in taken:  # two spellings of one person in one match: kept apart
                person, display = key(name) + " " * (len(seats) + 1), " ".join(name.split())
            taken.add(person)
            shown[person] = display  # oldest first: the latest spelling is the one shown
            seats.append(_Seat(person, side))
        seated.append(seats)
        statuses.append(status_of(mf, now))
    stamp = _fingerprint(ordered, statuses, shown)
    if previous is not None and stamp is not None and previous.fingerprint == stamp:
        fresh = {mf.id: mf for mf in ordered}
        previous.matches[:] = [(fresh[m.id], seats, st) for m, seats, st in previous.matches]
        return previous
    stats = Stats({}, {}, shown, [], names, stamp)
    for mf, seats, status in zip(ordered, seated, statuses, strict=True):
        stats.matches.append((mf, seats, status))
        _add(stats, mf, seats, status)
    return stats


def _fingerprint(ordered: list[MatchFacts], statuses: list[str], shown: dict[str, str]) -> tuple[Any, ...] | None:
    """What the figures are made of: every finished match as its file was, the others' status,
    and the names shown (None: a match without its file's signature, never taken as unchanged)."""
    if any(not mf.sig for mf in ordered):
        return None
    done = tuple((mf.id, mf.sig, mf.started) for mf, st in zip(ordered, statuses, strict=True) if st == "finished")
    rest = tuple((mf.id, mf.started, st) for mf, st in zip(ordered, statuses, strict=True) if st != "finished")
    return done, rest, tuple(sorted(shown.items()))


def _add(stats: Stats, mf: MatchFacts, seats: list[_Seat], status: str) -> None:
    """One match into the lines of its players and pairs (the hot loop: kept plain)."""
    f = mf.facts
    kind = f["kind"]
    mid = mf.id
    players, names = stats.players, stats.names
    lines: list[tuple[Line, int]] = []
    sides: dict[int, list[str]] = {}
    for person, side in seats:
        line = players.get((person, kind))
        if line is None:
            line = players[person, kind] = Line(names[person], kind, (person,))
        lines.append((line, side))
        sides.setdefault(side, []).append(person)
    for side, members in sides.items():
        if len(members) > 1:
            pair = tuple(sorted(members))
            line = stats.pairs.get((pair, kind))
            if line is None:
                line = stats.pairs[pair, kind] = Line(" & ".join(names[p] for p in pair), kind, pair)
            lines.append((line, side))
    if status != "finished":
        for line, _side in lines:
            (line.unfinished if status == "unfinished" else line.abandoned).append(mid)
        return
    scores: list[int] = f["scores"]
    winner = f["winner"]
    per_list, best_list = f["per"], f["best"]
    for i in range(len(seats)):
        line = lines[i][0]
        per = per_list[i] if i < len(per_list) else {}
        counters = line.counters
        for name, n in per.items():
            if type(n) is int and n:
                counters[name] = counters.get(name, 0) + n
                line.counter_matches.setdefault(name, []).append(mid)
            elif name not in counters:
                counters[name] = 0
        best = best_list[i] if i < len(best_list) else None
        if best is not None and (
            line.best is None or (best["points"], best["count"]) > (line.best["points"], line.best["count"])
        ):
            line.best = {**best, "match": mid}
        if len(seats) > 1:
            line._met.append((mid, seats, i, winner, scores))
    # each side's margin over the best of the others
    ranked = sorted(scores, reverse=True)
    hands, started = f["hands"], mf.started
    start = f.get("start") or [0] * len(scores)  # what was carried in was not scored in this match's hands
    for line, side in lines:
        score = scores[side]
        if len(ranked) < 2:
            margin = 0
        else:
            margin = score - (ranked[1] if score == ranked[0] else ranked[0])
        won = winner == side
        line.matches.append(mid)
        line.points += score - start[side]
        line.hands += hands
        line.results.append((started, mid, won, margin))
        if won:
            line.wins.append(mid)
            line._run.append(mid)
            if len(line._run) > len(line.longest_streak):
                line.longest_streak = line._run
        else:
            line._run = []
