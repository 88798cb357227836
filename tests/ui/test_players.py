"""The Players screens' view-model (no Flet), on a season of club nights
(``tests/season.py``): every figure shown is the one of :func:`scorekeeper.stats.of_store`,
the standings' order, the matches behind each figure, head-to-head, rename / merge /
separate and what is refused; the figures are kept between visits and made again when
the store changes."""

from __future__ import annotations

import datetime as _dt
import os
import re

import pytest
from season import season

from scorekeeper.stats import of_store
from scorekeeper.stats.figures import COUNTERS, Stats
from scorekeeper.stats.names import key
from scorekeeper.stats.report import best_text
from scorekeeper.ui.access.gate import Role
from scorekeeper.ui.history.view import back_of
from scorekeeper.ui.players import data as players_data
from scorekeeper.ui.players.data import Figure, slug, unslug, who_of, who_slug
from scorekeeper.ui.players.model import PlayersModel
from scorekeeper.ui.shell.base import WATCHING, Shared

FIGURE_ROUTE = re.compile(r"^/player/([^/]+)/([^/]+)/([^/]+)(?:/([^/]+))?$")


@pytest.fixture
def club(shared: Shared) -> Shared:
    """The app's store holding the season (the unfinished match made two days old: abandoned)."""
    records = season()
    ids = shared.store.bulk_import(records)
    old = (_dt.datetime.now() - _dt.timedelta(days=2)).timestamp()
    os.utime(shared.store.matches_dir / f"{ids[-1]}.json", (old, old))
    return shared


def expected(shared: Shared) -> Stats:
    with shared.lock:
        return of_store(shared.store)


def behind_ids(players: PlayersModel, route: str) -> list[str]:
    """The matches a figure's route opens (oldest first, as the figures list them)."""
    m = FIGURE_ROUTE.match(route)
    assert m, route
    who, game, figure, other = m.groups()
    found = players.behind(who_of(who), game, figure, other)
    assert found is not None, route
    return list(reversed(found.ids))


def opens(players: PlayersModel, fig: Figure, ids: list[str]) -> bool:
    """Whether ``fig`` opens exactly the matches ``ids`` (nothing to open when there are none)."""
    return fig.route is None if not ids else behind_ids(players, fig.route) == ids


# ------------------------------------------------------------------ standings
def test_the_standings_are_the_stats_most_wins_first(club):
    players, stats = PlayersModel(club), expected(club)
    assert [g for _t, g in players.games()] == ["all-fives", "fives-and-threes", "broadway"]
    for _title, game in players.games():
        for pairs in (False, True):
            lines = stats.ranked(game, pairs)
            rows = players.standings(game, pairs)
            assert [r.name for r in rows] == [ln.name for ln in lines]
            wins = [int(r.won.value) for r in rows]
            assert wins == sorted(wins, reverse=True)
            for row, line in zip(rows, lines, strict=True):
                assert (int(row.played.value), int(row.won.value)) == (len(line.matches), len(line.wins))
                assert row.rate == f"{round(line.win_rate * 100)}%"
                assert opens(players, row.played, line.matches)
                assert opens(players, row.won, line.wins)
    # two wins each, the same win rate: by name
    assert [(r.name, r.won.value) for r in players.standings("all-fives", pairs=True)] == [
        ("Ann & Cy", "2"),
        ("Ben & Di", "2"),
    ]


def test_annie_is_apart_until_merged_and_nobody_counts_the_abandoned_match(club):
    players, stats = PlayersModel(club), expected(club)
    ann = stats.line("Ann", "all-fives")
    assert "Annie" in [r.name for r in players.standings("all-fives")]
    assert len(ann.abandoned) == 1 and ann.abandoned[0] not in ann.matches
    page = players.player(("ann",), "all-fives")
    assert [f.text for f in page.apart] == ["Unfinished: 0", "Abandoned: 1"]
    assert behind_ids(players, page.apart[1].route) == ann.abandoned
    assert players.stats.counts() == {"finished": 22, "unfinished": 0, "abandoned": 1}


# ------------------------------------------------------------------ one player
def _value(figures: list[Figure], label: str) -> Figure:
    return next(f for f in figures if f.label == label)


@pytest.mark.parametrize("who", ["Ann", "Ben", "Cy", "Di"])
def test_a_players_figures_are_the_stats_and_each_opens_its_matches(club, who):
    players, stats = PlayersModel(club), expected(club)
    person = stats.person(who)
    for game in players.games_of((person,)):
        line = stats.line(who, game)
        page = players.player((person,), game)
        assert page.name == who and page.game == game and not page.pair
        f = page.figures
        assert _value(f, "Played").value == str(len(line.matches))
        assert _value(f, "Won").value == str(len(line.wins))
        assert _value(f, "Lost").value == str(len(line.matches) - len(line.wins))
        assert _value(f, "Win rate").value == f"{round(line.win_rate * 100)}%"
        assert _value(f, "Points a hand").value == f"{line.points_per_hand:g}"
        assert _value(f, "Longest winning run").value == str(len(line.longest_streak))
        behind = {"Played": line.matches, "Won": line.wins, "Longest winning run": line.longest_streak}
        behind["Lost"] = [m for m in line.matches if m not in line.wins]
        for label, ids in behind.items():
            assert opens(players, _value(f, label), ids), label
        for name, words in COUNTERS[game]:
            fig = _value(f, words[:1].upper() + words[1:])
            assert fig.value == str(line.counters[name])
            assert opens(players, fig, line.counter_matches.get(name, []))
        best = [x for x in f if x.label.startswith("Best")]
        if line.best is None:
            assert best == []
        else:
            assert best[0].value == best_text(line.best)
            assert behind_ids(players, best[0].route) == [line.best["match"]]
        assert sorted(p.label for p in page.partners) == sorted(f"With {stats.names[p]}" for p in line.partners)
        assert sorted(p.label for p in page.opponents) == sorted(f"Against {stats.names[p]}" for p in line.opponents)
        for fig in page.partners + page.opponents:
            other = stats.person(fig.label.split(" ", 1)[1])
            v = (line.partners if fig.label.startswith("With") else line.opponents)[other]
            assert behind_ids(players, fig.route) == v.matches
            if fig.label.startswith("Against"):
                assert fig.value == f"won {len(v.won)}, lost {len(v.lost)}"
                ahead = who if v.margin > 0 else stats.names[other]
                assert fig.note == (
                    "level on average" if v.margin == 0 else f"{ahead} by {abs(v.margin):g} points a match on average"
                )
        assert [(b.matches, b.wins) for b in page.months] == [(m["matches"], m["wins"]) for m in line.by_month()]
        for bar, m in zip(page.months, line.by_month(), strict=True):
            ids = behind_ids(players, bar.route)
            assert len(ids) == m["matches"] and len([i for i in ids if i in line.wins]) == m["wins"]


def test_a_pair_has_its_own_page(club):
    players, stats = PlayersModel(club), expected(club)
    line = stats.pairs[("ann", "cy"), "all-fives"]
    page = players.player(who_of("cy+ann"), "all-fives")
    assert page.pair and page.name == "Ann & Cy" == line.name
    assert _value(page.figures, "Won").value == str(len(line.wins))
    assert behind_ids(players, _value(page.figures, "Played").route) == line.matches


def test_the_matches_behind_a_figure_in_words_newest_first(club):
    players, stats = PlayersModel(club), expected(club)
    line = stats.line("Ben", "all-fives")
    found = players.behind(("ben",), "all-fives", "won")
    assert found.title == "Ben: won" and found.subtitle == f"All Fives · {len(line.wins)} matches"
    assert found.back == "/player/ben/all-fives" and found.ids == list(reversed(line.wins))
    rows = players.rows(found.ids, ("ben",), "/player/ben/all-fives/won")
    assert [r.outcome for r in rows] == ["won"] * len(line.wins)
    assert all(r.route == f"/history/{r.id}?back=/player/ben/all-fives/won" for r in rows)
    assert all(r.sides.startswith("Ben ") or r.sides.startswith("Ben & Di ") for r in rows)
    first = rows[-1]  # the oldest win
    assert (first.when, first.game, first.sides) == ("9 Jan 2026", "All Fives", "Ben 250 · Cy 220")
    assert players.behind(("ben",), "all-fives", "nonsense") is None
    assert players.behind(("nobody",), "all-fives", "won") is None


# ------------------------------------------------------------------ head-to-head
def test_head_to_head_is_the_stats_for_players_and_pairs(club):
    players, stats = PlayersModel(club), expected(club)
    for a, b in ((("ann",), ("ben",)), (("ann", "cy"), ("ben", "di")), (("cy",), ("di",))):
        meetings = players.meetings(a, b)
        assert meetings, (a, b)
        for m in meetings:
            v = stats.head_to_head(a, b, m.game)
            assert [f.value for f in m.figures] == [str(len(v.matches)), str(len(v.won)), str(len(v.lost))]
            for fig, ids, figure in zip(m.figures, (v.matches, v.won, v.lost), ("played", "won", "lost"), strict=True):
                assert fig.route == (f"/head-to-head/{who_slug(a)}/{who_slug(b)}/{m.game}/{figure}" if ids else None)
                if ids:
                    assert list(reversed(players.meeting_behind(a, b, m.game, figure).ids)) == ids
    fives = players.meetings(("ann",), ("ben",))[0]
    assert fives.title == "All Fives" and [f.label for f in fives.figures] == ["Played", "Ann won", "Ben won"]
    assert players.meetings(("ann",), ("nobody",)) == []


# ------------------------------------------------------------------ names
def test_rename_merge_and_separate_round_trip(club):
    players, stats = PlayersModel(club), expected(club)
    ann, annie = stats.line("Ann", "all-fives"), stats.line("Annie", "all-fives")
    assert players.merging_into("annie", " ANN") == "Ann"  # another player's name: saving merges
    assert players.merging_into("annie", "Annie") is None  # her own
    assert players.merging_into("annie", "Ann B.") is None  # nobody's: a rename
    assert players.rename("annie", "Ann") == "ann"
    merged = players.player(("ann",), "all-fives")
    assert _value(merged.figures, "Played").value == str(len(ann.matches) + len(annie.matches))
    assert _value(merged.figures, "Won").value == str(len(ann.wins) + len(annie.wins))
    assert "Annie" not in [r.name for r in players.standings("all-fives")]
    assert sorted(expected(club).line("Ann", "all-fives").matches) == sorted(ann.matches + annie.matches)
    assert players.spellings("ann") == [("Annie", "annie")]
    assert players.rename("ann", "Anne") == "anne"
    assert players.player(("anne",), "all-fives").name == "Anne"
    assert PlayersModel(club).player(("ann",)) is None  # a fresh visit sees the new name too
    assert [s for s, _k in players.spellings("anne")] == ["Ann", "Annie"]
    assert players.separate("annie") == "annie"
    assert _value(players.player(("annie",), "all-fives").figures, "Played").value == str(len(annie.matches))
    assert players.separate("ann") == "ann"
    assert _value(players.player(("ann",), "all-fives").figures, "Played").value == str(len(ann.matches))
    assert players.spellings("ann") == [] and players.error is None


@pytest.mark.parametrize(
    ("new", "says"),
    [
        ("", "a player's name cannot be empty"),
        ("   ", "a player's name cannot be empty"),
        ("x" * 41, "a player's name has at most 40 characters"),
        (" BEN", None),  # Ben's name: a merge, not an error
        ("ann", "Ann is that name already (capitals and spaces do not count)"),
    ],
)
def test_what_a_rename_refuses_says_why_and_changes_nothing(club, new, says):
    players = PlayersModel(club)
    before = (club.store.path / "players.json").exists()
    got = players.rename("ann", new)
    if says is None:
        assert got == "ben" and players.error is None
        return
    assert got is None and players.error == says
    assert (club.store.path / "players.json").exists() == before
    assert players.standings("all-fives")[0].name in {"Ann", "Ben", "Di", "Cy", "Annie"}


def test_a_watcher_may_look_but_not_rename(club):
    view = club.visit(None)
    view.visitor.role = Role.WATCHER
    players = PlayersModel(view)
    assert not players.can_rename
    assert players.rename("annie", "Ann") is None and players.error == WATCHING
    assert players.separate("annie") is None
    assert not (club.store.path / "players.json").exists()


# ------------------------------------------------------------------ kept between visits
def test_the_figures_are_kept_until_the_store_changes(club, monkeypatch):
    monkeypatch.setattr(players_data, "SETTLED", -1e9)  # every stamp trusted at once
    first = PlayersModel(club).stats
    assert PlayersModel(club).stats is first  # nothing replayed, nothing added up again
    with club.lock:
        club.store.import_record(season()[0])
    again = PlayersModel(club).stats
    assert again is not first and again.counts()["finished"] == first.counts()["finished"] + 1
    assert PlayersModel(club).stats is again


def test_an_unsettled_stamp_is_not_trusted(club, monkeypatch):
    PlayersModel(club)  # the files were written just now: within one tick of the clock
    looked: list[int] = []
    real = players_data.cache.load_all

    def spy(*args, **kwargs):
        looked.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(players_data.cache, "load_all", spy)
    PlayersModel(club)
    assert looked  # the match files were looked at again, not the stamp trusted


# ------------------------------------------------------------------ names in routes
@pytest.mark.parametrize("name", ["Ann", "Mary Ann", "Zoë O'Neil", "a-b", "x+y", "~", "Ann/Ben", "名前"])
def test_every_name_makes_a_route_and_back(name):
    person = key(name)
    part = slug(person)
    assert re.fullmatch(r"[a-z0-9~-]+", part) and unslug(part) == person
    assert who_of(who_slug((person, "ben"))) == tuple(sorted((person, "ben")))


def test_back_from_a_stored_match_goes_to_the_list_it_was_opened_from():
    assert back_of("/history/x?back=/player/ann/all-fives/won") == "/player/ann/all-fives/won"
    assert back_of("/history/x?back=/head-to-head/ann/ben/all-fives/played") == "/head-to-head/ann/ben/all-fives/played"
    for route in ("/history/x", "/history/x?back=https://example.org/", "/history/x?back=//evil", None):
        assert back_of(route) == "/history"


def test_a_watcher_has_no_players_screens_and_home_leads_the_others_there(shared):
    from scorekeeper.ui.app.main import _routes

    def paths(role: Role) -> set[str]:
        return {r.path for r in _routes(shared, role) if r.path}

    watching = paths(Role.WATCHER)
    assert not any(p.startswith(("player", "head-to-head")) for p in watching)  # Home for a watcher
    for role in (Role.HOST, Role.SCORER):
        assert {"players", "players/:game", "player/:who", "player/:who/rename", "head-to-head/:a/:b"} <= paths(role)


def test_two_spellings_of_one_name_in_one_match_are_kept_apart_and_not_renamed_there(shared, monkeypatch):
    """A match stored before import refused two spellings of one name (issue 26)."""
    from scorekeeper import boundary

    monkeypatch.setattr(boundary, "_names", lambda record: None)  # the door as it was
    record = {
        "format": "scorekeeper/1",
        "game": "all-fives",
        "players": ["Ann", "ANN"],
        "rules": {"target": 10},
        "hands": [{"leader": "Ann", "turns": [{"play": "5-5"}]}],
    }
    with shared.lock:
        shared.store.import_record(record)
    players = PlayersModel(shared)
    rows = players.standings("all-fives")
    assert [(r.name, r.won.value) for r in rows] == [("Ann", "1"), ("ANN", "0")]
    ghost = who_of(rows[1].route.split("/")[2])
    assert ghost != ("ann",)
    page = players.player(ghost)
    assert page.name == "ANN" and page.pair  # no "Rename or merge" on its page
    assert players.renamable(ghost[0]) is None
    assert players.rename(ghost[0], "Annabel") is None and players.error == "this player is not in the records any more"
    assert players.renamable("ann") == "Ann"


def test_a_bug_in_the_figures_is_a_line_on_the_screen_not_a_traceback(club, monkeypatch):
    players = PlayersModel(club)

    def broken(*args, **kwargs):
        raise KeyError("kind")

    monkeypatch.setattr(Stats, "ranked", broken)
    assert players.standings("all-fives") == []
    assert players.error == "the figures could not be shown (internal error: KeyError: 'kind')"
    monkeypatch.setattr(players_data.cache, "load_all", broken)
    players_data.forget(club)
    fresh = PlayersModel(club)
    assert fresh.error == "the figures could not be shown (internal error: KeyError: 'kind')"
    assert fresh.games() == [] and fresh.player(("ann",)) is None
