"""Issue 47, part 4: everything that shows a score shows the scores carried in, the hands
entered as points and the adjustments in their place -- History, the Score screen's table,
the X tally, the pegboard (one move for a hand entered as points), the chart, the CSV, the
statistics (a hand entered as points is a hand played and gives no tile figure; an
adjustment is no hand), ``list`` and an event's standings."""

from __future__ import annotations

import csv
import io
import json

from support import run_cli

from scorekeeper import registry
from scorekeeper.eventbook import EventBook
from scorekeeper.events import new_event
from scorekeeper.stats import of_store
from scorekeeper.stats.facts import match_facts
from scorekeeper.store import Store
from scorekeeper.tally.svg import chart_svg
from scorekeeper.ui.score.model import DEDUCTION_NOTE, hand_rows, score_displays
from scorekeeper.ui.shell.screens import history_blocks

from .build import EW, NS, adjust, open_hand, points, record

#: A cribbage-style All Fives match carried on from paper: hand 1 was played before anyone
#: opened the app, a misdeal cost East-West a point, hand 2 is played tile by tile.
CRIB = record("all-fives", points(7, 2), adjust(ew=-1), open_hand("all-fives", 2), start={NS: 17, EW: 14}, scale=5)


def scored(rec):
    return registry.game_of(rec).score(rec)


def test_history_shows_them_in_their_place_in_words_in_every_game():
    fives = history_blocks(scored(record("all-fives", points(35, 10), adjust(ew=-10), start={NS: 85, EW: 70})))
    assert fives == [
        "Carried in: North-South 85, East-West 70",
        "Hand 1 · entered as points\n  points: North-South +35, East-West +10\n  scores: North-South 120, East-West 80",
        "Adjustment: East-West -10 (misdeal)\n  scores: North-South 120, East-West 70",
    ]
    for game in ("all-fours", "broadway"):
        (text,) = history_blocks(scored(record(game, points(3, 1), adjust(ew=-1), points(0, 2), start={NS: 5, EW: 2})))
        lines = text.splitlines()
        assert "Carried in: North-South 5, East-West 2" in lines
        at = lines.index("Hand 1 · entered as points")
        assert lines[at : at + 7] == [
            "Hand 1 · entered as points",
            "  points: North-South +3, East-West +1",
            "  scores: North-South 8, East-West 3",
            "",
            "Adjustment: East-West -1 (misdeal)",
            "  scores: North-South 8, East-West 2",
            "",
        ]
        assert "Hand 2 · entered as points" in lines


def test_the_score_screens_table_starts_from_the_start():
    rows = hand_rows(scored(CRIB))
    assert [r.title for r in rows] == [
        "Hand 1 · entered as points",
        "Adjustment: East-West -1 (misdeal)",
        "Hand 2 · playing",
    ]
    assert [r.number for r in rows] == [1, None, 2]
    assert [(c.total, c.detail) for c in rows[0].cells] == [("24", "+7 this hand"), ("16", "+2 this hand")]
    assert [(c.total, c.detail) for c in rows[1].cells] == [("24", "no change"), ("15", "-1 adjusted")]
    assert rows[1].cells[1].label == "East-West after the adjustment: 15 (-1 adjusted)"
    assert [(c.total, c.detail) for c in rows[2].cells] == [("26", "+2 in play"), ("15", "no points")]


def test_the_tally_and_the_pegboard_start_from_the_start_and_move_once_for_a_hand_of_points():
    game = registry.get("all-fives")
    rec = record("all-fives", points(7, 2), open_hand("all-fives", 2), start={NS: 17, EW: 14}, scale=5)
    shown = score_displays(game, game.load(rec))
    assert shown.timeline.events() == [[17, 7, 2], [14, 2]]
    assert [s.tally.total for s in shown.sides] == [26, 16]
    assert [(s.previous.total) for s in shown.sides] == [24, 14]
    board = dict(shown.pegboard.sides)
    assert (board[NS].front, board[NS].back, board[EW].front, board[EW].back) == (26, 24, 16, 14)


def test_a_score_that_went_down_has_no_pegboard_and_says_why():
    game = registry.get("all-fives")
    shown = score_displays(game, game.load(CRIB))
    assert shown.pegboard is None and shown.timeline.deductions
    east_west = shown.sides[1]
    assert east_west.tally is None and "deduction" in east_west.note
    fours = registry.get("all-fours")
    shown = score_displays(fours, fours.load(record("all-fours", points(3, 1), adjust(ew=-1, why="revoke"))))
    assert shown.pegboard is None and shown.sides[1].tally is None and "deduction" in shown.sides[1].note
    pegged = record("all-fives", points(13, 2), adjust(ew=-1), count="fives-and-threes")  # kept on the board
    shown = score_displays(game, game.load(pegged))
    assert shown.pegboard is None and [s.note for s in shown.sides] == [DEDUCTION_NOTE, DEDUCTION_NOTE]


def test_the_chart_starts_from_the_start_and_steps_for_each_entry():
    game = registry.get("all-fives")
    tl = game.timeline(game.load(CRIB))
    assert [s.label for s in tl.steps] == [
        "hand 1, entered as points",
        "adjustment after hand 1 (misdeal)",
        "hand 2, turn 1",
    ]
    assert tl.series(0) == [17, 24, 24, 26] and tl.series(1) == [14, 16, 15, 15]
    assert "<title>Score chart: North-South 26, East-West 15 after 3 turns</title>" in chart_svg(tl)
    early = game.timeline(game.load(record("all-fives", adjust(ew=5), open_hand("all-fives"), start={NS: 5, EW: 0})))
    svg = chart_svg(early)
    assert early.steps[0].label == "adjustment before hand 1 (misdeal)"
    assert ">H1<" in svg and ">H0<" not in svg, "an adjustment before the first hand is no hand"


def test_the_csv_has_them_in_their_place_and_adds_up(tmp_path):
    db = tmp_path / "db"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(CRIB), encoding="utf-8")
    mid = run_cli("--db", db, "import", path).stdout.strip()
    rows = list(csv.DictReader(io.StringIO(run_cli("--db", db, "export", mid, "--csv").stdout)))
    picked = [(r["hand"], r["side"], r["entry"], r["points"], r["side_score"]) for r in rows]
    assert picked == [
        ("", NS, "carried in", "17", "17"),
        ("", EW, "carried in", "14", "14"),
        ("1", NS, "entered as points", "7", "24"),
        ("1", EW, "entered as points", "2", "16"),
        ("", EW, "adjustment: misdeal", "-1", "15"),
        ("2", NS, "5-5 (lead)", "2", "26"),
    ]
    assert rows[-1]["scores"] == "North-South 26; East-West 15"


def test_a_voided_side_is_a_row_of_0_noted_voided():
    from scorekeeper.stats.csv_rows import match_rows

    rec = record("all-fives", points(15, 5), start={NS: 50, EW: 30}, target=61, exact_target=True)
    _, rows = match_rows(rec, registry.get("all-fives").load(rec))
    assert [(r.side, r.entry, r.points, r.note) for r in rows if r.hand == 1] == [
        (NS, "entered as points", 0, "voided"),
        (EW, "entered as points", 5, ""),
    ]


def test_the_statistics_count_a_hand_of_points_as_played_and_no_tile_figures(tmp_path):
    facts = match_facts(CRIB)
    assert facts["hands"] == 2 and facts["start"] == [17, 14] and facts["scores"] == [26, 15]
    assert [p["plays"] for p in facts["per"]] == [1, 0, 0, 0], "a hand entered as points plays no tile"
    won = record("all-fives", points(35, 10), adjust(ew=-10), points(110, 0), start={NS: 85, EW: 70})
    assert scored(won)["winner"] == NS
    with Store(tmp_path / "db") as store:
        store.import_record(won)
        ann = of_store(store).line("Ann", "all-fives")
    assert (ann.hands, ann.points, len(ann.wins)) == (2, 145, 1), "the points the match carried in are not counted"


def test_list_keeps_its_shape(tmp_path):
    with Store(tmp_path / "db") as store:
        plain = store.import_record(record("all-fives", open_hand("all-fives")))
        mixed = store.import_record(CRIB)
        rows = {r["id"]: r for r in store.list()}
    assert set(rows[mixed]) == set(rows[plain])
    assert (rows[mixed]["scores"], rows[mixed]["hands"], rows[mixed]["status"]) == ({NS: 26, EW: 15}, 2, "playing")


def test_an_events_standings_read_the_scores_a_match_carried_in_and_adjusted(tmp_path):
    with Store(tmp_path / "db") as store:
        book = EventBook(store)
        event = book.add(new_event("e1", "Night", "round-robin", "all-fives", players=["Ann", "Ben", "Cy", "Di"]))
        table = event.table(1, 1)
        (a,), (b,) = table.sides
        rec = event.record_for(1, 1)
        rec.update(start={a: 100, b: 40}, hands=[{"points": {a: 35, b: 10}}, {"adjust": {a: 115}, "why": "agreed"}])
        store.import_record(rec)
        rows = {r.name: r for r in book.standings("e1")}
    assert (rows[a].won, rows[a].points_for, rows[a].points_against) == (1, 250, 50), "250 is the target"
    assert (rows[b].lost, rows[b].points_for) == (1, 50)
