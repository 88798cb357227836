"""``scorekeeper --db PATH export ID --csv`` and ``export --all --csv`` end to end."""

from __future__ import annotations

import csv
import io
import json

import pytest
from support import run_cli, run_cli_process, tree_state

from scorekeeper import registry
from scorekeeper.allfives import random_record
from scorekeeper.broadway.simulate import random_record as broadway_record
from scorekeeper.stats.csv_rows import COLUMNS, match_table, safe
from scorekeeper.store import Store

HEADER = ",".join(COLUMNS) + "\r\n"
FIVES = {
    "format": "scorekeeper/1",
    "game": "all-fives",
    "started": "2024-05-17T19:30:00",
    "players": ["Ann", "Ben"],
    "rules": {"hand_size": 3},
    "hands": [
        {
            "leader": "Ann",
            "turns": [
                {"play": "5-5"},
                {"play": "5-0", "on": "5-5"},
                {"play": "5-1", "on": "5-5", "claim": 5},
                {"draw": 2, "play": "0-4", "on": "5-0"},
                {"play": "1-3"},
            ],
            "remaining": {"Ben": ["6-6", "6-3", "2-0"]},
        }
    ],
}
FOURS = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": ["Ann", "Ben"],
    "hands": [{"dealer": "Ann", "turn_up": ["J"], "high": "Ben", "game": {"Ann": 10, "Ben": 30}}],
}


def ok(ran) -> str | bytes:
    assert (ran.returncode, ran.stderr) == (0, b"" if isinstance(ran.stderr, bytes) else ""), ran.stderr
    return ran.stdout


def error_line(ran) -> str:
    assert (ran.returncode, ran.stdout) == (2, ""), (ran.returncode, ran.stdout, ran.stderr)
    (line,) = ran.stderr.splitlines()
    assert line.startswith("error: ") and "Traceback" not in ran.stderr
    return line


def stored(db, *records) -> list[str]:
    with Store(db) as store:
        return [store.import_record(r) for r in records]


def parse(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def expected(db, mid: str) -> list[list[str]]:
    """What ``export MID --csv`` should say after the header, as a CSV reader reads it."""
    with Store(db, read_only=True) as store:
        rec, started = store.record(mid), store.summary(mid)["started"]
    lines = match_table(mid, started, rec, registry.game_of(rec).load(rec))
    return [[str(safe(c)) for c in line] for line in lines]


def test_export_id_csv_is_crlf_utf8_without_bom_and_reads_back(tmp_path):
    db = tmp_path / "db"
    (mid,) = stored(db, dict(FIVES, players=["Ann", "Bén"], rules={"hand_size": 3}, hands=[]))
    raw = ok(run_cli("--db", db, "export", mid, "--csv", binary=True))
    assert raw.startswith(HEADER.encode()) and not raw.startswith(b"\xef\xbb\xbf")
    assert raw.count(b"\r\n") == raw.count(b"\n") == 1  # the header; a match not begun has no row
    (mid,) = stored(db, FIVES)
    raw = ok(run_cli("--db", db, "export", mid, "--csv", binary=True))
    text = raw.decode("utf-8")
    assert text.count("\r\n") == text.count("\n") == 7
    rows = parse(text)
    assert rows[0] == list(COLUMNS)
    assert rows[1] == [
        mid,
        "all-fives",
        "2024-05-17T19:30:00",
        "1",
        "1",
        "Ann",
        "Ann",
        "5-5 (lead)",
        "10",
        "10",
        "10",
        "Ann 10; Ben 0",
        "",
        "all-fives",
    ]
    assert rows[-1] == [
        mid,
        "all-fives",
        "2024-05-17T19:30:00",
        "1",
        "",
        "Ann",
        "Ann",
        "settlement: Ann dominoed, 23 pips",
        "",
        "25",
        "35",
        "Ann 35; Ben 15",
        "",
        "all-fives",
    ]
    assert rows[1:] == expected(db, mid)


def test_export_id_without_csv_is_the_stored_record_as_before(tmp_path):
    db = tmp_path / "db"
    (mid,) = stored(db, FIVES)
    with Store(db, read_only=True) as store:
        assert ok(run_cli("--db", db, "export", mid)) == store.export(mid)
    assert json.loads(ok(run_cli("--db", db, "export", mid))) == FIVES


def test_export_all_csv_has_one_header_and_every_match_newest_first(tmp_path):
    db = tmp_path / "db"
    ids = stored(db, FIVES, FOURS, broadway_record(3, max_hands=1), random_record(4, 3, max_hands=2))
    before = tree_state(db)
    text = ok(run_cli("--db", db, "export", "--all", "--csv"))
    assert tree_state(db) == before  # read only: nothing written
    rows = parse(text)
    assert rows[0] == list(COLUMNS) and list(COLUMNS) not in rows[1:]
    assert rows[1:] == [line for mid in reversed(ids) for line in expected(db, mid)]
    with Store(db, read_only=True) as store:
        started = {m["id"]: m["started"] for m in store.list(limit=None)}
    assert {(r[0], r[2]) for r in rows[1:]} == set(started.items())
    assert {r[1] for r in rows[1:]} == {"all-fives", "all-fours", "broadway"}


def test_a_fives_and_threes_match_is_named_so_in_the_kind_column_and_its_game_stays_all_fives(tmp_path):
    """The ``game`` column is the record's game, as before; ``kind``, the last column, is the
    game as people name it (the statistics' ``--game``): Fives and Threes apart from All Fives."""
    db = tmp_path / "db"
    pub = random_record(7, 2, max_hands=2, count="fives-and-threes", draw=False, spinner="none")
    ids = stored(db, pub, FIVES, FOURS)
    rows = parse(ok(run_cli("--db", db, "export", "--all", "--csv")))
    assert rows[0][-1] == "kind" and rows[0][:2] == ["match", "game"]
    named = {(r[0], r[1], r[-1]) for r in rows[1:]}
    assert named == {
        (ids[0], "all-fives", "fives-and-threes"),
        (ids[1], "all-fives", "all-fives"),
        (ids[2], "all-fours", "all-fours"),
    }


def test_export_all_csv_of_an_empty_database_is_the_header(tmp_path):
    db = tmp_path / "db"
    Store(db).close()
    assert ok(run_cli("--db", db, "export", "--all", "--csv", binary=True)) == HEADER.encode()


def test_a_match_that_cannot_be_read_is_left_out_with_a_warning(tmp_path):
    db = tmp_path / "db"
    bad, good = stored(db, FIVES, FOURS)
    victim = db / "matches" / f"{bad}.json"
    victim.write_bytes(victim.read_bytes()[:-9])
    ran = run_cli("--db", db, "export", "--all", "--csv")
    assert ran.returncode == 0
    (warning,) = ran.stderr.splitlines()
    assert warning.startswith(f"warning: {bad}.json could not be read")
    rows = parse(ran.stdout)
    assert rows[1:] == expected(db, good)
    assert "could not be read" in error_line(run_cli("--db", db, "export", bad, "--csv"))


@pytest.mark.parametrize(
    "args, words",
    [
        (["export", "--all"], "export --all prints CSV only: add --csv"),
        (["export", "ID", "--all", "--csv"], "give a match ID or --all, not both"),
        (["export", "ID", "--all"], "give a match ID or --all, not both"),
        (["export"], "export: give a match ID"),
        (["export", "--csv"], "export: give a match ID"),
        (["export", "nope", "--csv"], "no match 'nope' in"),
        (["export", "../etc", "--csv"], "no match '../etc' in"),
    ],
)
def test_refused_with_one_error_line_and_status_2(tmp_path, args, words):
    db = tmp_path / "db"
    (mid,) = stored(db, FOURS)
    args = [mid if a == "ID" else a for a in args]
    assert words in error_line(run_cli("--db", db, *args))


def test_text_that_looks_like_a_formula_is_quoted_and_numbers_stay_numbers(tmp_path):
    db = tmp_path / "db"
    players = ["=SUM(A1:A9)", "+Ben", "-Cy", "@Di"]
    teams = {"=cmd|' /C calc'!A0": ["=SUM(A1:A9)", "-Cy"], "Them": ["+Ben", "@Di"]}
    rec = {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "started": "=1+1",
        "players": players,
        "teams": teams,
        "hands": [
            {"dealer": "-Cy", "turn_up": ["J"], "high": "+Ben", "low": "@Di"},
            {"dealer": "+Ben", "penalties": [{"type": "award", "side": "Them", "points": 2, "reason": "-5 for =x"}]},
        ],
    }
    (mid,) = stored(db, rec)
    rows = parse(ok(run_cli("--db", db, "export", mid, "--csv")))
    header, *rows = rows
    cell = dict(zip(header, rows[0], strict=True))
    assert cell["started"] == "'=1+1"
    assert (cell["player"], cell["side"]) == ("'-Cy", "'=cmd|' /C calc'!A0")
    assert cell["scores"] == "'=cmd|' /C calc'!A0 3; Them 0"
    assert [r[5] for r in rows] == ["'-Cy", "'+Ben", "'@Di", ""]
    assert rows[-1][7] == "award: -5 for =x" and rows[-1][9:11] == ["2", "4"]
    for r in rows:
        assert r[3].isdigit() and r[9].lstrip("-").isdigit()
    assert safe("\tx") == "\\tx" and safe("\rx") == "\\rx"  # no raw control character: visible, not a formula
    assert safe("=\tx") == "'=\\tx" and safe(-3) == -3 and safe("") == ""


def test_a_game_registered_without_rows_exports_a_row_per_hand(tmp_path):
    from registry.toygame.game import GAME  # tests/registry/toygame

    toy = {
        "format": "scorekeeper/1",
        "game": "toy-tens",
        "players": ["Ann", "Ben"],
        "hands": [{"leader": "Ann", "turns": [{"points": 10}, {"points": 4}]}, {"leader": "Ben", "turns": []}],
    }
    registry.register(GAME)
    try:
        db = tmp_path / "db"
        (mid,) = stored(db, toy)
        rows = parse(ok(run_cli("--db", db, "export", mid, "--csv")))
    finally:
        registry.unregister(GAME.id)
    assert [r[3:] for r in rows[1:]] == [
        ["1", "", "", "Ann", "hand 1", "", "10", "10", "Ann 10; Ben 0", "", "toy-tens"],
        ["1", "", "", "Ben", "hand 1", "", "4", "4", "Ann 10; Ben 4", "", "toy-tens"],
        ["2", "", "", "", "nothing scored", "", "0", "", "Ann 10; Ben 4", "hand open", "toy-tens"],
    ]


def test_a_reader_that_closes_early_is_not_an_error(tmp_path):
    """``scorekeeper export --all --csv | head -c 10``: more than a pipe holds."""
    db = tmp_path / "db"
    stored(db, *[random_record(s, 2, max_hands=40, target=1000) for s in range(3)])
    whole = run_cli("--db", db, "export", "--all", "--csv", binary=True)
    assert whole.returncode == 0 and len(whole.stdout) > 100_000
    ran = run_cli_process("--db", db, "export", "--all", "--csv", read_stdout=10, binary=True)
    assert ran.stdout == whole.stdout[:10]
    assert (ran.returncode, ran.stderr) == (0, b"")
