"""The Players screens' view-model, without Flet: the standings of each game, one
player's (or pair's) figures, the matches behind every figure, head-to-head, and
renaming and merging names. Every figure is :class:`~scorekeeper.stats.figures.Stats`'s;
this module picks them for a screen and puts them in words (:mod:`.players_data`).

>>> import tempfile
>>> from scorekeeper.ui.server.shared import open_shared
>>> shared = open_shared(tempfile.mkdtemp())
>>> _ = shared.store.import_record({"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben"],
...     "rules": {"target": 10}, "hands": [{"leader": "Ann", "turns": [{"play": "5-5"}]}]})
>>> players = PlayersModel(shared)
>>> [(r.name, r.played.value, r.won.value, r.rate) for r in players.standings("all-fives")]
[('Ann', '1', '1', '100%'), ('Ben', '1', '0', '0%')]
>>> players.rename("ann", " "), players.error
(None, "a player's name cannot be empty")
>>> players.rename("ann", "Anne"), players.standings("all-fives")[0].name
('anne', 'Anne')
>>> shared.close()
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from scorekeeper import registry
from scorekeeper import text as _text
from scorekeeper.errors import ScorekeeperError, one_line
from scorekeeper.stats import figures
from scorekeeper.stats import names as _names
from scorekeeper.stats.figures import Line, Stats, counters
from scorekeeper.stats.report import best_text, game_name
from scorekeeper.store.errors import message_of
from scorekeeper.ui.players.data import (
    Bar,
    Behind,
    Figure,
    Kept,
    MatchRow,
    Meeting,
    PlayerPage,
    Row,
    by_words,
    day,
    figures_of,
    forget,
    games_in_order,
    is_month,
    month,
    pct,
    slug,
    unslug,
    who_slug,
)
from scorekeeper.ui.shell.base import Model, Shared
from scorekeeper.ui.shell.policy import Act

__all__ = ["PlayersModel"]

_T = TypeVar("_T")


def _internal(e: Exception) -> str:
    return f"the figures could not be shown (internal error: {type(e).__name__}: {one_line(str(e), 200)})"


def _safe(fallback: Any) -> Callable[[Callable[..., _T]], Callable[..., _T]]:
    """A screen's question that never raises: a bug of ours is ``error``, one line on the
    screen (never a traceback), and the screen shows ``fallback``."""

    def wrap(method: Callable[..., _T]) -> Callable[..., _T]:
        @functools.wraps(method)
        def safe(self: PlayersModel, *args: Any, **kwargs: Any) -> _T:
            try:
                return method(self, *args, **kwargs)
            except Exception as e:
                self.error = _internal(e)
                return fallback() if callable(fallback) else fallback

        return safe

    return wrap


def _best_words(game: str) -> str:
    """What a kind of game's best single scoring move is called ("best play")."""
    k = registry.kind(game)
    return "best play" if k is None else k.best


def _plural(n: int) -> str:
    return f"{n} match{'es' if n != 1 else ''}"


class PlayersModel(Model):
    """One visit of a Players screen (the figures are taken as kept, or made, once)."""

    def __init__(self, shared: Shared) -> None:
        self._shared = shared
        self.error: str | None = None
        self._kept: Kept | None = None
        self._load()

    def _load(self) -> None:
        try:
            self._kept = figures_of(self._shared)
        except ScorekeeperError as e:
            self.error = message_of(e)
        except Exception as e:  # a bug of ours: one line on the screen, never a traceback
            self.error = _internal(e)

    @property
    def stats(self) -> Stats:
        if self._kept is None:
            return figures.compute([], _names.Names())
        return self._kept.stats

    @property
    def can_rename(self) -> bool:
        """Renaming is for the host and the scorers (a watcher may not)."""
        return self._shared.may(Act.NAMES).allowed

    # ------------------------------------------------------------ who
    def name_of(self, members: tuple[str, ...]) -> str:
        return " & ".join(self.stats.names.get(p, p) for p in members)

    def line(self, members: tuple[str, ...], game: str) -> Line | None:
        if len(members) == 1:
            return self.stats.players.get((members[0], game))
        return self.stats.pairs.get((members, game))

    def games_of(self, members: tuple[str, ...] | None = None) -> list[str]:
        """The games played (by ``members``: one player or a pair), most played first."""
        played: dict[str, int] = {}
        for table in (self.stats.players, self.stats.pairs):
            for (who, game), line in table.items():
                if members is None or who in (members, members[0] if len(members) == 1 else None):
                    played[game] = played.get(game, 0) + len(line.matches) + len(line.unfinished)
        return sorted(games_in_order(set(played)), key=lambda g: -played[g])

    @_safe(list)
    def games(self) -> list[tuple[str, str]]:
        """(title, game) of every game with figures, in the usual order."""
        return [(game_name(g), g) for g in games_in_order(set(self.games_of()))]

    @_safe(list)
    def people(self) -> list[tuple[str, str]]:
        """(name, person) of everybody with figures, by name."""
        seen = {p for p, _g in self.stats.players}
        return sorted(((self.stats.names.get(p, p), p) for p in seen), key=lambda np: _names.key(np[0]))

    # ------------------------------------------------------------ standings
    @_safe(list)
    def standings(self, game: str, pairs: bool = False) -> list[Row]:
        """The players (or pairs of partners) of a game, most wins first."""
        rows = []
        for line in self.stats.ranked(game, pairs):
            base = f"/player/{who_slug(line.members)}/{game}"
            played = Figure(f"{line.name} played", str(len(line.matches)), f"{base}/played" if line.matches else None)
            won = Figure(f"{line.name} won", str(len(line.wins)), f"{base}/won" if line.wins else None)
            rows.append(Row(line.name, base, played, won, pct(line.win_rate)))
        return rows

    # ------------------------------------------------------------ one player
    @_safe(None)
    def player(self, members: tuple[str, ...], game: str | None = None) -> PlayerPage | None:
        """One player's (or pair's) figures in ``game`` (default: the game played most)."""
        played = self.games_of(members)
        if not played:
            return None
        game = game if game in played else played[0]
        line = self.line(members, game)
        assert line is not None
        base = f"/player/{who_slug(members)}/{game}"

        def fig(label: str, ids: list[str], figure: str, value: str | None = None) -> Figure:
            return Figure(label, str(len(ids)) if value is None else value, f"{base}/{figure}" if ids else None)

        shown = [
            fig("Played", line.matches, "played"),
            fig("Won", line.wins, "won"),
            fig("Lost", line.losses, "lost"),
            Figure("Win rate", pct(line.win_rate)),
            Figure("Points a hand", "-" if line.points_per_hand is None else f"{line.points_per_hand:g}"),
            fig("Longest winning run", line.longest_streak, "run"),
        ]
        if line.best is not None:
            word = _best_words(game)
            shown.append(Figure(word[:1].upper() + word[1:], best_text(line.best), f"{base}/best"))
        for name, words in counters(game):
            if name in line.counters:
                ids = line.counter_matches.get(name, [])
                shown.append(fig(words[:1].upper() + words[1:], ids, name, str(line.counters[name])))
        apart = [fig("Unfinished", line.unfinished, "unfinished"), fig("Abandoned", line.abandoned, "abandoned")]
        partners = [
            Figure(f"With {self.name_of((p,))}", f"{len(v.matches)} played, {len(v.won)} won", f"{base}/with/{slug(p)}")
            for p, v in sorted(line.partners.items(), key=lambda pv: -len(pv[1].matches))
        ]
        opponents = []
        for p, v in sorted(line.opponents.items(), key=lambda pv: -len(pv[1].matches)):
            margin = by_words(v.margin, line.name, self.name_of((p,)))
            value = f"won {len(v.won)}, lost {len(v.lost)}"
            opponents.append(Figure(f"Against {self.name_of((p,))}", value, f"{base}/against/{slug(p)}", margin))
        months = [Bar(month(m["month"]), m["matches"], m["wins"], f"{base}/{m['month']}") for m in line.by_month()]
        games = [(game_name(g), g) for g in played]
        return PlayerPage(
            line.name,
            who_slug(members),
            len(members) > 1 or _names.key(members[0]) != members[0],
            game,
            games,
            shown,
            apart,
            partners,
            opponents,
            months,
        )

    @_safe(None)
    def behind(self, members: tuple[str, ...], game: str, figure: str, other: str | None = None) -> Behind | None:
        """The matches behind one figure of a player's page, newest first (None: no such figure)."""
        line = self.line(members, game)
        if line is None:
            return None
        words: dict[str, tuple[str, list[str]]] = {
            "played": ("played", line.matches),
            "won": ("won", line.wins),
            "lost": ("lost", line.losses),
            "run": ("longest winning run", line.longest_streak),
            "unfinished": ("unfinished", line.unfinished),
            "abandoned": ("abandoned", line.abandoned),
        }
        for name, counter in counters(game):
            words[name] = (counter, line.counter_matches.get(name, []))
        if line.best is not None:
            words["best"] = (_best_words(game), [line.best["match"]])
        found: tuple[str, list[str]] | None = None
        if figure in ("with", "against") and other is not None:
            p = unslug(other)
            table = line.partners if figure == "with" else line.opponents
            if p is not None and p in table:
                found = (f"{figure} {self.name_of((p,))}", table[p].matches)
        elif is_month(figure):
            found = (month(figure), line.in_month(figure))
        elif other is None:
            found = words.get(figure)
        if found is None:
            return None
        what, ids = found
        back = f"/player/{who_slug(members)}/{game}"
        return Behind(f"{line.name}: {what}", f"{game_name(game)} · {_plural(len(ids))}", back, list(reversed(ids)))

    @_safe(list)
    def rows(self, ids: list[str], members: tuple[str, ...], back: str) -> list[MatchRow]:
        """The matches ``ids`` in words, as ``members`` played them (their side first); each
        opens the stored match, whose Back returns to ``back``."""
        out = []
        known = self._kept.by_id if self._kept is not None else {}
        for mid in ids:
            entry = known.get(mid)
            if entry is None:
                continue
            mf, seats, status = entry
            sides: dict[int, list[str]] = {}
            for s in seats:
                sides.setdefault(s.side, []).append(self.stats.names.get(s.person, s.person))
            scores, winner = mf.facts["scores"], mf.facts["winner"]
            mine = {s.side for s in seats if s.person in members}
            order = sorted(sides, key=lambda i: (i not in mine, i))
            text = " · ".join(f"{' & '.join(sides[i])} {scores[i]}" for i in order)
            if status != "finished":
                outcome = status
            elif winner in mine:
                outcome = "won"
            elif mine:
                outcome = "lost"
            else:
                outcome = f"won by {' & '.join(sides[winner])}"
            game = game_name(mf.facts["kind"])
            out.append(MatchRow(mid, f"/history/{mid}?back={back}", day(mf.started), game, text, outcome))
        return out

    # ------------------------------------------------------------ head-to-head
    @_safe(list)
    def meetings(self, a: tuple[str, ...], b: tuple[str, ...]) -> list[Meeting]:
        """``a`` against ``b`` (one player or two partners each), per game they met in."""
        name_a, name_b = self.name_of(a), self.name_of(b)
        base = f"/head-to-head/{who_slug(a)}/{who_slug(b)}"
        out = []
        for game in games_in_order({g for _p, g in self.stats.players}):
            v = self.stats.head_to_head(a, b, game)
            if not v.matches:
                continue
            figs = [
                Figure("Played", str(len(v.matches)), f"{base}/{game}/played"),
                Figure(f"{name_a} won", str(len(v.won)), f"{base}/{game}/won" if v.won else None),
                Figure(f"{name_b} won", str(len(v.lost)), f"{base}/{game}/lost" if v.lost else None),
            ]
            out.append(Meeting(game, game_name(game), figs, by_words(v.margin, name_a, name_b)))
        return out

    @_safe(None)
    def meeting_behind(self, a: tuple[str, ...], b: tuple[str, ...], game: str, figure: str) -> Behind | None:
        """The matches behind a head-to-head figure, newest first (None: no such figure)."""
        v = self.stats.head_to_head(a, b, game)
        name_a, name_b = self.name_of(a), self.name_of(b)
        what = {"played": ("played", v.matches), "won": (f"{name_a} won", v.won), "lost": (f"{name_b} won", v.lost)}
        if figure not in what or not v.matches:
            return None
        title, ids = what[figure]
        back = f"/head-to-head/{who_slug(a)}/{who_slug(b)}"
        sub = f"{game_name(game)} · {title} · {_plural(len(ids))}"
        return Behind(f"{name_a} against {name_b}", sub, back, list(reversed(ids)))

    # ------------------------------------------------------------ names
    @_safe(list)
    def spellings(self, person: str) -> list[tuple[str, str]]:
        """(as typed, spelling) of the other names kept as this person's (a merge or a
        rename, each undone by :meth:`separate`)."""
        if self._kept is None:
            return []
        names = self._kept.names
        keys = [k for k in names.aliases if k != person and names.person(k) == person]
        return sorted(((self._kept.typed.get(k, k), k) for k in keys), key=lambda tk: tk[1])

    def renamable(self, person: str) -> str | None:
        """The name shown for ``person`` when it can be renamed here (None: no such player,
        or two spellings of one name in one match, kept apart)."""
        return self.stats.names.get(person) if _names.key(person) == person else None

    @_safe(None)
    def merging_into(self, person: str, typed: str) -> str | None:
        """The other player whose name ``typed`` is (saving then merges the two), or None."""
        other = self.stats.person(typed) if typed.strip() else None
        return None if other is None or other == person else self.stats.names.get(other, other)

    def rename(self, person: str, new: str) -> str | None:
        """Show ``person`` as ``new`` (merged with the player of that name, if any); the
        person it is now, or None with ``error`` saying why."""
        if self.renamable(person) is None:
            self._refuse("this player is not in the records any more")
            return None
        problem = _text.text_problem(new, "a player's name") or self._shared.names_problem([new])
        if problem:
            self._refuse(problem)
            return None
        if _names.key(new) == person:
            self._refuse(f"{self.stats.names[person]} is that name already (capitals and spaces do not count)")
            return None
        return self._save_names(lambda names: names.rename(person, new), new)

    def separate(self, spelling: str) -> str | None:
        """Undo a merge or a rename: ``spelling`` is a player of its own again."""
        return self._save_names(lambda names: names.split(spelling), spelling)

    def _save_names(self, change: Any, name: str) -> str | None:
        verdict = self._shared.may(Act.NAMES)
        if not verdict.allowed:
            self._refuse(verdict.words or "")
            return None
        try:
            with self._shared.lock:
                names = change(_names.load(self._shared.store))
                _names.save(self._shared.store, names)
        except ScorekeeperError as e:
            self._refuse(message_of(e))
            return None
        except Exception as e:  # a bug of ours: nothing was saved, and the screen says so
            self._refuse(f"the name was not changed (internal error: {type(e).__name__}: {one_line(str(e), 200)})")
            return None
        forget(self._shared)
        self.error = None
        self._load()
        self._changed()
        return names.person(name) if isinstance(names, _names.Names) else None

    def _refuse(self, why: str) -> None:
        self.error = why
        self._changed()
