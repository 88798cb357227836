"""The league kept in its database: a season made, sheets in, results decided (both backends)."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.league.book import League, LeagueError
from scorekeeper.league.db import Database
from scorekeeper.league.sheets import SheetError
from scorekeeper.league.table import players, table

from .helpers import plan, sheet


@pytest.fixture
def league(db: Database) -> League:
    lg = League(db)
    lg.add_season(plan(), "the secretary")
    return lg


def club_of(lg: League, team) -> object:
    return lg.club(team.club_id)


def test_a_season_is_made_with_its_fixtures_on_its_nights(league: League):
    (season,) = league.seasons()
    (division,) = league.divisions(season.id)
    fixtures = league.fixtures(division=division.id)
    assert len(league.teams(division.id)) == 4 and len(fixtures) == 12
    assert "2026-09-21" not in {f.day for f in fixtures}  # a blackout date
    assert league.audit()[0].what.startswith("made the season Winter 2026: 12 fixtures over 6 weeks")


def test_a_sheet_is_kept_once_and_both_captains_approve_it(league: League):
    f = league.fixtures()[0]
    doc = sheet(f, [0, 1])
    first = league.receive(f.id, club_of(league, f.home), doc)
    again = league.receive(f.id, club_of(league, f.home), copy.deepcopy(doc))
    assert (first.version, first.new, first.state) == (1, True, "approved")
    assert (again.version, again.new) == (1, False)
    assert len(league.sheets(f.id)) == 1
    changed = sheet(f, [0, 0])
    assert league.receive(f.id, club_of(league, f.home), changed).version == 2
    assert league.fixture(f.id).approved.games_won == (2, 0)


def test_a_sheet_received_is_told_in_the_audit_before_the_result_it_makes(league: League):
    """The two lines of the audit a new sheet writes (its version, then the result's new
    state: one INSERT of two rows) in that order; the same sheet again writes none."""
    f = league.fixtures()[0]
    doc = sheet(f, [0, 1], away=False)
    league.receive(f.id, club_of(league, f.home), doc)
    league.receive(f.id, club_of(league, f.home), copy.deepcopy(doc))
    whats = [a.what for a in reversed(league.audit(f.id))]
    assert whats == [
        f"sent version 1 of {f.home.name} v {f.away.name}: 1-1",
        f"{f.home.name} v {f.away.name}: waiting (1-1)",
    ]


def test_the_server_scores_the_records_again_and_refuses_a_sheet_that_does_not_follow(league: League):
    f = league.fixtures()[0]
    with pytest.raises(SheetError, match="the sheet says games \\[2, 0\\]; its records give 1-1"):
        league.receive(f.id, club_of(league, f.home), sheet(f, [0, 1], lie=True))
    doc = sheet(f, [0, 1])
    doc["games"][0]["scores"] = [5, 1]
    with pytest.raises(SheetError, match="game 1: the sheet says 5-1; its record gives 5-0"):
        league.receive(f.id, club_of(league, f.home), doc)
    assert league.sheets(f.id) == []


def test_a_club_sends_only_its_own_teams_fixtures(league: League):
    f = league.fixtures()[0]
    other = next(t for t in league.teams() if t.id not in (f.home.id, f.away.id))
    with pytest.raises(SheetError, match="plays no part in"):
        league.receive(f.id, club_of(league, other), sheet(f, [0, 1]))


def test_one_side_only_waits_for_the_delay_unless_the_other_side_disputes(league: League):
    f, g = league.fixtures()[:2]
    r = league.receive(f.id, club_of(league, f.home), sheet(f, [0, 1], away=False), now="2026-09-07T22:30:00Z")
    assert r.state == "waiting" and league.fixture(f.id).result.due_at == "2026-09-09T22:30:00Z"
    assert league.settle("2026-09-09T22:29:59Z") == 0
    league.receive(g.id, club_of(league, g.home), sheet(g, [0, 1], away=False), now="2026-09-07T22:30:00Z")
    assert league.dispute(g.id, club_of(league, g.away), "game 2 was ours") == "disputed"
    assert league.settle("2026-09-09T22:30:00Z") == 1
    assert league.fixture(f.id).result.state == "approved"
    assert league.fixture(g.id).result.state == "disputed"
    assert [f.id for f in league.waiting_on_secretary()] == [g.id]


def test_two_clubs_sheets_that_differ_go_to_the_secretary_who_decides(league: League):
    f = league.fixtures()[0]
    league.receive(f.id, club_of(league, f.home), sheet(f, [0, 1], away=False))
    league.receive(f.id, club_of(league, f.away), sheet(f, [1, 1], home=False))
    assert league.fixture(f.id).result.state == "different"
    chosen = league.sheets(f.id)[1]["id"]
    with pytest.raises(LeagueError, match="say why"):
        league.decide(f.id, chosen, "Sue (secretary)", " ")
    league.decide(f.id, chosen, "Sue (secretary)", "the away captain's sheet matches the paper")
    result = league.fixture(f.id).result
    assert (result.state, result.games_won, result.by_secretary) == ("approved", (0, 2), True)
    # a late version does not undo the secretary's decision
    league.receive(f.id, club_of(league, f.home), sheet(f, [0, 0]))
    assert league.fixture(f.id).result.games_won == (0, 2)
    whats = [a.what for a in league.audit(f.id)]
    assert any("approved club:" in w for w in whats) and all(a.who and a.at for a in league.audit(f.id))


def test_the_secretary_enters_a_walkover_and_removes_a_result(league: League):
    f = league.fixtures()[0]
    league.enter(f.id, (2, 0), (10, 0), "Sue (secretary)", "walkover: the away team did not come")
    season, division = league.seasons()[0], league.divisions()[0]
    rows = table(season, division, league.teams(division.id), league.fixtures(division=division.id))
    assert (rows[0].name, rows[0].score, rows[0].games_for) == (f.home.name, 2 + 2, 2)
    before = league.revision()
    league.remove(f.id, "Sue (secretary)", "entered against the wrong fixture")
    assert league.fixture(f.id).result.state == "removed" and league.revision() > before
    rows = table(season, division, league.teams(division.id), league.fixtures(division=division.id))
    assert all(r.played == 0 for r in rows)


def test_the_table_and_the_players_figures_follow_the_approved_results(league: League):
    season, division = league.seasons()[0], league.divisions()[0]
    for f in league.fixtures()[:4]:
        league.receive(f.id, club_of(league, f.home), sheet(f, [0, 0]))
    fixtures = league.fixtures(division=division.id)
    rows = table(season, division, league.teams(division.id), fixtures)
    assert sum(r.played for r in rows) == 8 and rows[0].score == 8  # (2 a match won + 1 a game won, 2 games) twice
    home = league.fixtures()[0].home
    figures = players(home, fixtures)
    assert sum(p.played for p in figures) == sum(2 for f in fixtures[:4] if home.id in (f.home.id, f.away.id))


def test_a_fixture_is_moved_but_not_onto_a_blackout_or_a_night_a_team_plays(league: League):
    f = league.fixtures()[0]
    with pytest.raises(LeagueError, match="is a blackout date"):
        league.move(f.id, "2026-09-21", "Sue", "the pub is shut")
    other = next(g for g in league.fixtures() if g.id != f.id and f.home.id in (g.home.id, g.away.id))
    with pytest.raises(LeagueError, match="already plays on"):
        league.move(f.id, other.day, "Sue", "the pub is shut")
    league.move(f.id, "2026-09-22", "Sue", "the pub is shut on Monday")
    assert league.fixture(f.id).day == "2026-09-22"


def test_club_codes_are_kept_as_digests_and_revocable(league: League):
    club = league.clubs()[0]
    code = league.new_code(club.id, "Sue")
    assert league.club_for(code).id == club.id and league.club_for("nope") is None
    assert league.db.read(lambda tx: tx.value("SELECT COUNT(*) FROM club_code WHERE digest = ?", (code,))) == 0
    assert league.revoke(club.id, "Sue", "laptop stolen") == 1
    assert league.club_for(code) is None


def test_of_two_sheets_taken_in_one_second_the_one_taken_last_is_the_result_s(league: League):
    # a new sheet's id is made with its INSERT, sent with the COMMIT: the result still names it
    f = league.fixtures()[0]
    at = "2026-09-07T22:30:00Z"
    league.receive(f.id, club_of(league, f.home), sheet(f, [0, 1], away=False), now=at)
    league.receive(f.id, club_of(league, f.away), sheet(f, [1, 1], home=False), now=at)
    result, sheets = league.fixture(f.id).result, league.sheets(f.id)
    assert result.state == "different" and result.sheet == sheets[-1]["id"] > sheets[0]["id"]
    assert result.games_won == (sheets[-1]["games_home"], sheets[-1]["games_away"])


@pytest.mark.parametrize(
    "doc",
    [
        {"format": "f", "fixture": 3, "confirmed": {"home": {"by": "Ann", "at": "t"}, "away": None}, "games": []},
        {"z": 1, "a": [{"y": "é ü \u202e", "b": None}], "confirmed": 2, "m": {"q": 1.5, "p": True}},
        {"confirmed": None},
        {},
        {"home": "Reds", "away": "Blues", "games": [{"home": ["Ann"], "record": {"hands": [], "players": ["a"]}}]},
    ],
)
def test_both_digests_of_a_sheet_written_once_are_the_two_digests(doc):
    from scorekeeper.league.sheets import content_digest, digest, digests

    assert digests(doc) == (digest(doc), content_digest(doc))


def test_the_digests_of_what_is_no_sheet_object_are_its_digest_alone():
    from scorekeeper.league.sheets import digest, digests

    for doc in ([1, 2], "a", None, 3):
        assert digests(doc) == (digest(doc), None)


def test_a_player_is_known_by_any_spelling_of_the_name_and_a_stranger_is_not():
    """TeamInfo.has looks each name's key up in the team's (kept once): the same answers as
    comparing the name with each player (text.same_name)."""
    from scorekeeper import text
    from scorekeeper.league.sheets import TeamInfo

    team = TeamInfo("Reds", ("Ann Lee", "STRASSE", "Ｂen"), "Ann Lee")
    for name in ("  ann   LEE ", "straße", "ben", "Ann", "Anne Lee", "Ｂen ", "Bén"):
        assert team.has(name) == any(text.same_name(name, p) for p in team.players), name
    assert [team.has(n) for n in ("ann lee", "Bén")] == [True, False]
    assert team == TeamInfo("Reds", ("Ann Lee", "STRASSE", "Ｂen"), "Ann Lee") and "keys" not in repr(team)
