"""The night sheet of a round robin, a Swiss and a knockout, worked out by hand: every
round's tables and results, the byes, the standings with the tie-break that decided each
place, final or after which round; its text for a printer and its CSV."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.errors import EventError
from scorekeeper.events import new_event, next_round, result_for, standings
from scorekeeper.events.night import CSV_HEAD, night_of
from scorekeeper.events.standings import latest

FOUR = ["Ann", "Ben", "Cy", "Di"]
FIVE = [*FOUR, "Ed"]


def won(event, rnd, a, b, score_a, score_b):
    """The result of the table of round ``rnd`` where ``a`` plays ``b`` (a draw when level)."""
    for t in event.rounds[rnd - 1].tables:
        if set(t.players) == {a, b}:
            winner = None if score_a == score_b else (0 if score_a > score_b else 1)
            return result_for(event, rnd, t.number, [(a,), (b,)], (score_a, score_b), winner)
    raise AssertionError(f"{a} and {b} do not meet in round {rnd}")


def standings_lines(text: str) -> list[str]:
    """The printed standings: from the header line to the blank line after it."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#  "))
    return lines[start : lines.index("", start)]


def rows(csv_text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(csv_text, newline="")))


def test_a_round_robin_where_head_to_head_decides_a_place():
    e = new_event("rr", "Club night", "round-robin", "all-fives", players=FOUR)
    results = [
        won(e, 1, "Ann", "Di", 61, 50),  # Ann +11
        won(e, 1, "Ben", "Cy", 61, 60),  # Ben +1
        won(e, 2, "Cy", "Di", 61, 0),
        won(e, 2, "Ann", "Ben", 61, 60),  # Ann beat Ben
        won(e, 3, "Ben", "Di", 61, 60),
        won(e, 3, "Ann", "Cy", 50, 61),  # Ann -11
    ]
    sheet = night_of(e, results)
    assert sheet.final and sheet.heading == "Final standings" and sheet.champion is None
    text = sheet.text()
    # Cy: 2 won, 182-111; Ann and Ben: 2 won, +1 each (Ann 172-171, Ben 182-181): Ann beat Ben
    assert standings_lines(text) == [
        "#   name  played  won  lost  points   diff  score",
        "1.  Cy    3       2    1     182-111  +71   2",
        "2.  Ann   3       2    1     172-171  +1    2      (points difference)",
        "3.  Ben   3       2    1     182-181  +1    2      (head to head)",
        "4.  Di    3       0    3     110-183  -73   0",
    ]
    assert text.startswith(
        "Club night: night sheet\nRound robin · All Fives · a point a match won\n\nFinal standings\n"
    )
    assert "\nRanked by score, then points difference (for minus against), then head to head\n" in text
    assert "\nRound 2\n  Table 1: Cy v Di: 61-0, Cy\n  Table 2: Ann v Ben: 61-60, Ann\n" in text
    assert text.endswith("\nRound 3\n  Table 1: Ben v Di: 61-60, Ben\n  Table 2: Ann v Cy: 50-61, Cy\n")
    got = rows(sheet.csv())
    assert got[0] == CSV_HEAD and sheet.csv().count("\r\n") == 1 + 6 + 4
    assert got[1] == ["Club night", "table", "1", "1", "Ann", "Di", "61", "50", "Ann", "won"] + [""] * 11
    assert [r[9:] for r in got[7:]] == [
        ["final", "1", "Cy", "3", "2", "0", "1", "182", "111", "71", "2", ""],
        ["final", "2", "Ann", "3", "2", "0", "1", "172", "171", "1", "2", "points difference"],
        ["final", "3", "Ben", "3", "2", "0", "1", "182", "181", "1", "2", "head to head"],
        ["final", "4", "Di", "3", "0", "0", "3", "110", "183", "-73", "0", "score"],
    ]


def test_a_swiss_with_a_bye_round_by_round():
    e = new_event("sw", "Swiss night", "swiss", "all-fives", players=FIVE, rounds=2)
    first = [won(e, 1, "Ann", "Ben", 61, 30), won(e, 1, "Cy", "Di", 55, 61)]
    sheet = night_of(e, first)
    assert (sheet.final, sheet.after, sheet.heading) == (False, 1, "Standings after round 1 of 2")
    assert [t.words for t in sheet.rounds[0].tables] == [
        "Table 1: Ann v Ben: 61-30, Ann",
        "Table 2: Cy v Di: 55-61, Di",
    ]
    assert sheet.rounds[0].bye_words == "Bye: Ed (counts as a match won)"
    e = next_round(e, first)
    assert [t.title for t in e.rounds[1].tables] == ["Ann v Di", "Ed v Cy"] and e.rounds[1].byes == ("Ben",)
    mid = night_of(e, [*first, won(e, 2, "Ed", "Cy", 61, 45)], in_play={(2, 1)})
    assert mid.heading == "Standings after round 1 of 2, and 1 of 2 tables of round 2"
    assert [t.words for t in mid.rounds[1].tables] == ["Table 1: Ann v Di: in play", "Table 2: Ed v Cy: 61-45, Ed"]
    results = [*first, won(e, 2, "Ann", "Di", 50, 61), won(e, 2, "Ed", "Cy", 61, 45)]
    sheet = night_of(e, results)
    assert sheet.final and sheet.heading == "Final standings"
    # Di: won 2, 122-105; Ed: a bye and a win, 61-45; Ann 111-91; Ben: a bye and a loss; Cy: lost 2
    assert standings_lines(sheet.text()) == [
        "#   name  played  won  lost  points   diff  score",
        "1.  Di    2       2    0     122-105  +17   2",
        "2.  Ed    1       1    0     61-45    +16   2      (points difference)",
        "3.  Ann   2       1    1     111-91   +20   1",
        "4.  Ben   1       0    1     30-61    -31   1      (points difference)",
        "5.  Cy    2       0    2     100-122  -22   0",
    ]
    assert (
        "\nRound 2\n  Table 1: Ann v Di: 50-61, Di\n  Table 2: Ed v Cy: 61-45, Ed\n  Bye: Ben (counts" in sheet.text()
    )
    byes = [r for r in rows(sheet.csv()) if r[1] == "bye"]
    assert byes == [
        ["Swiss night", "bye", "1", "", "Ed", "", "", "", "", "bye"] + [""] * 11,
        ["Swiss night", "bye", "2", "", "Ben", "", "", "", "", "bye"] + [""] * 11,
    ]
    assert [r[9] for r in rows(mid.csv()) if r[1] == "standing"] == ["after round 1"] * 5


def test_a_knockout_names_its_rounds_and_its_winner():
    e = new_event("ko", "Cup night", "knockout", "all-fives", players=FIVE)
    assert night_of(e, []).heading == "Standings: no table played yet"
    results = [won(e, 1, "Di", "Ed", 30, 61)]
    e = next_round(e, results)
    results += [won(e, 2, "Ann", "Ed", 61, 30), won(e, 2, "Ben", "Cy", 59, 61)]
    e = next_round(e, results)
    results.append(won(e, 3, "Ann", "Cy", 61, 58))
    sheet = night_of(e, results)
    assert [r.title for r in sheet.rounds] == [
        "Round 1: the quarter-finals",
        "Round 2: the semi-finals",
        "Round 3: the final",
    ]
    assert sheet.final and sheet.champion == "Ann"
    text = sheet.text()
    assert text.startswith("Cup night: night sheet\nKnockout · All Fives · a point a match won\nWinner: Ann\n")
    assert (
        "\nRound 1: the quarter-finals\n  Table 1: Di v Ed: 30-61, Ed\n  Bye: Ann, Ben, Cy (counts as a match won)\n"
        in text
    )
    # a bye scores as a match won: Ann 3 (a bye and two wins); Ed and Ben 1 each, Ed's difference the better
    assert standings_lines(text) == [
        "#   name  played  won  lost  points   diff  score",
        "1.  Ann   2       2    0     122-88   +34   3",
        "2.  Cy    2       1    1     119-120  -1    2",
        "3.  Ed    2       1    1     91-91    0     1",
        "4.  Ben   1       0    1     59-61    -2    1      (points difference)",
        "5.  Di    1       0    1     30-61    -31   0",
    ]


def test_players_level_share_a_place_and_a_draw_shows_the_drawn_column():
    e = new_event("rr", "Three", "round-robin", "all-fives", players=["Ann", "Ben", "Cy"])
    results = [won(e, 1, "Ann", "Ben", 61, 51), won(e, 2, "Ben", "Cy", 61, 51), won(e, 3, "Cy", "Ann", 61, 51)]
    assert standings_lines(night_of(e, results).text())[1:] == [
        "1.  Ann   2       1    1     112-112  0     1",
        "=   Ben   2       1    1     112-112  0     1      (level)",
        "=   Cy    2       1    1     112-112  0     1      (level)",
    ]
    drawn = night_of(e, [won(e, 1, "Ann", "Ben", 40, 40)])
    assert drawn.rounds[0].tables[0].words == "Table 1: Ann v Ben: 40-40, drawn"
    assert drawn.rounds[0].bye_words == "Bye: Cy"  # a round robin's bye scores nothing
    assert standings_lines(drawn.text())[0] == "#   name  played  won  drawn  lost  points  diff  score"
    assert drawn.heading == "Standings after round 1 of 3"
    assert night_of(e, [won(e, 2, "Ben", "Cy", 61, 5)]).heading == "Standings so far: 1 of 1 tables of round 2"


def test_the_csv_guards_a_name_a_spreadsheet_would_run():
    e = new_event("rr", "=SUM(A1) night", "round-robin", "all-fives", players=["-Ann", "Ben"])
    sheet = night_of(e, [result_for(e, 1, 1, [("-Ann",), ("Ben",)], (61, 3), 0)])
    first = rows(sheet.csv())[1]
    assert first[:10] == ["'=SUM(A1) night", "table", "1", "1", "'-Ann", "Ben", "61", "3", "'-Ann", "won"]
    assert rows(sheet.csv())[2][11] == "'-Ann"
    assert "Table 1: -Ann v Ben: 61-3, -Ann" in sheet.text()  # the printed sheet is as it is


def test_a_league_has_no_night_sheet():
    e = new_event("lg", "League", "league", "all-fives", teams={"Reds": ["Ann"], "Blues": ["Ben"]}, singles=1)
    with pytest.raises(EventError, match="a league's result sheets are its fixtures'"):
        night_of(e, [])


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 7),
    fmt=st.sampled_from(["round-robin", "swiss"]),
    data=st.data(),
)
def test_every_result_appears_once_and_the_standings_are_the_standings(players, fmt, data):
    names = [f"P{i}" for i in range(players)]
    e = new_event("e", "Night", fmt, "all-fives", players=names)
    results = []
    for rnd in e.rounds:
        for t in rnd.tables:
            for _ in range(data.draw(st.integers(0, 2))):  # none, one, or a match played again
                a, b = data.draw(st.integers(0, 61)), data.draw(st.integers(0, 61))
                winner = None if a == b else (0 if a > b else 1)
                results.append(result_for(e, rnd.number, t.number, t.sides, (a, b), winner))
    sheet = night_of(e, results)
    shown = [t.result for r in sheet.rounds for t in r.tables if t.result is not None]
    assert sorted(shown, key=lambda r: (r.round, r.table)) == sorted(
        latest(results).values(), key=lambda r: (r.round, r.table)
    )
    assert [(s.rank, s.name, s.score, s.decided_by) for s in sheet.standings] == [
        (s.rank, s.name, s.score, s.decided_by) for s in standings(e, results)
    ]
    csv_rows = rows(sheet.csv())
    assert sum(r[1] == "table" for r in csv_rows) == sum(len(r.tables) for r in e.rounds)
    assert [r[11] for r in csv_rows if r[1] == "standing"] == [s.name for s in sheet.standings]
    every = len(shown) == sum(len(r.tables) for r in e.rounds)
    assert sheet.final == (every and (fmt == "round-robin" or e.planned == 1))
    done = latest(results)
    whole = [all((r.number, t.number) in done for t in r.tables) for r in e.rounds]
    assert sheet.after == (whole + [False]).index(False)  # the rounds played from the first
