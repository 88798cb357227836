"""Names and text at the command's doors (issue 26, findings 5 and 6): one rule
(``scorekeeper/text.py``) for every name and every text a record holds, at ``import``,
``score`` and ``pegboard --names``; ``stats`` matches names with the same key."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from support import RECORDS, run_cli

WORKED = json.loads((RECORDS / "worked-example.json").read_text())
ALL_FOURS = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": ["Ann", "Ben"],
    "hands": [{"dealer": "Ann", "turn_up": ["J"], "penalties": [{"type": "award", "side": "Ben", "points": 1}]}],
}


def worked(**changes: object) -> dict:
    rec = copy.deepcopy(WORKED)
    rec.update(changes)
    return rec


def won(**changes: object) -> dict:
    """The worked example to 15: Ann wins it at her third play."""
    rec = worked(rules={"target": 15}, **changes)
    del rec["hands"][0]["turns"][5:]
    return rec


def refused(proc, *must_contain: str) -> str:
    """The one ``error:`` line of a refused command (status 2, nothing on standard output)."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert not proc.stdout, proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    for text in must_contain:
        assert text in lines[0], lines[0]
    return lines[0]


def import_(db: Path, record: dict):
    return run_cli("--db", db, "import", "-", stdin=json.dumps(record))


# ---------------------------------------------------------------- the doors
@pytest.mark.parametrize("field", ["started", "title", "notes", "id"])
@pytest.mark.parametrize(
    "value, says",
    [
        ("2026\x1b[2J\u202e", "\\x1b is a terminal escape"),
        ("2026\u202e05-17", "\\u202e is a direction control"),
        ("2026\u2066x\u2069", "\\u2066 is a direction control"),
        ("club\nnight", "\\n is a line break"),
        ("club\u2028night", "\\u2028 is a line break"),
        ("club\x85night", "\\x85 is a line break"),
        ("club\u200bnight", "\\u200b is an invisible format character"),
        ("tag\U000e0041", "\\U000e0041 is an invisible format character"),
        ("half \ud800", "\\ud800 is half of a surrogate pair"),
    ],
)
def test_import_and_score_refuse_control_and_format_characters_in_free_text(tmp_path, field, value, says):
    rec = worked(**{field: value})
    line = refused(import_(tmp_path / "db", rec), f"error: {field}: ", "must be printable", says)
    assert refused(run_cli("score", "-", stdin=json.dumps(rec))) == line  # the same door, the same line
    assert not (tmp_path / "db" / "matches").exists() or not list((tmp_path / "db" / "matches").glob("*.json"))


def test_an_award_reason_is_text_too(tmp_path):
    rec = copy.deepcopy(ALL_FOURS)
    rec["hands"][0]["penalties"][0]["reason"] = "slow play\x1b]0;pwned\x07"
    refused(import_(tmp_path / "db", rec), "hand 1, penalties[0].reason: must be printable")


@pytest.mark.parametrize(
    "players, first, second",
    [
        (["Ann", "ann"], "'Ann'", "'ann'"),
        (["Ann", "Ann "], "'Ann'", "'Ann '"),
        (["Ann Lee", "ann  lee"], "'Ann Lee'", "'ann  lee'"),
        (["Ann", "\uff21nn"], "'Ann'", "'Ａnn'"),  # a full-width A
        (["Zoë", "Zoe\u0308"], "'Zoë'", "'Zoë'"),  # e and a combining diaeresis
        (["STRASSE", "straße"], "'STRASSE'", "'straße'"),
        (["Ann", "An\u200dn"], "'Ann'", "'An\\u200dn'"),  # a zero-width joiner shows nothing
    ],
)
def test_import_refuses_two_spellings_of_one_name(tmp_path, players, first, second):
    rec = worked(players=players)
    for hand in rec["hands"]:
        hand["leader"] = players[0]
    line = refused(import_(tmp_path / "db", rec), "error: players: ", first, second, "the same name")
    assert refused(run_cli("score", "-", stdin=json.dumps(rec))) == line


def test_import_refuses_two_spellings_of_one_side(tmp_path):
    rec = copy.deepcopy(ALL_FOURS)
    rec.update(players=["Ann", "Ben", "Cy", "Di"], teams={"Us": ["Ann", "Cy"], "us ": ["Ben", "Di"]})
    rec["hands"][0]["penalties"][0]["side"] = "Us"
    refused(import_(tmp_path / "db", rec), "error: teams: 'Us' and 'us ' are the same name")


def test_a_name_of_nothing_visible_is_refused(tmp_path):
    rec = worked(players=["\u200d", "Ben"])
    rec["hands"][0]["leader"] = "Ben"
    refused(import_(tmp_path / "db", rec), "error: players: a player's name must be a non-empty string")


def test_names_that_only_look_alike_by_script_and_emoji_are_still_welcome(tmp_path):
    players = ["👩\u200d👩\u200d👧 Ann", "\u0410nn"]  # a family emoji; a Cyrillic А (not the same letter)
    rec = worked(players=players)
    rec["hands"][0]["leader"] = players[0]
    ran = import_(tmp_path / "db", rec)
    assert ran.returncode == 0, ran.stderr
    export = run_cli("--db", tmp_path / "db", "export", ran.stdout.strip())
    assert json.loads(export.stdout)["players"] == players  # kept as given


def test_a_valid_record_is_stored_and_exported_as_given(tmp_path):
    rec = worked(players=["Ann ", " Ben"], started="2024-05-17 19:30\u00a0h", notes="für Zoë 李雷 ❤\ufe0f")
    rec["hands"][0]["leader"] = "Ann "
    ran = import_(tmp_path / "db", rec)
    assert ran.returncode == 0, ran.stderr
    export = run_cli("--db", tmp_path / "db", "export", ran.stdout.strip())
    assert json.loads(export.stdout) == rec
    assert "für Zoë 李雷 ❤\ufe0f" in export.stdout  # letters stay letters, not \u escapes


@pytest.mark.parametrize(
    "names, says",
    [
        ("a\x1b[2J,b", "--names: a side's name must be printable, not 'a\\x1b[2J'"),
        ("a\nb,c", "--names: a side's name must be printable, not 'a\\nb'"),
        ("Ann,\u202eBen", "not '\\u202eBen'"),
        ("Ann,ann", "--names: 'Ann' and 'ann' are the same name"),
        ("Ann,,Ben", "--names: a side's name must be a non-empty string"),
    ],
)
def test_pegboard_names_follow_the_rule(names, says):
    args = ["pegboard"] + [a for i in range(names.count(",") + 1) for a in ("--points", str(i + 3))]
    for output in ([], ["--json"], ["--svg"]):
        refused(run_cli(*args, "--names", names, *output), says)


def test_stats_counts_one_person_for_spellings_that_only_differ_in_form(tmp_path):
    db = tmp_path / "db"
    one = won()
    two = won(players=["\uff21nn", "Ben"])  # a full-width A: the same name
    two["hands"][0]["leader"] = "\uff21nn"
    assert import_(db, one).returncode == 0 and import_(db, two).returncode == 0
    out = run_cli("--db", db, "stats", "--json")
    rows = [(r["name"], r["matches"]) for r in json.loads(out.stdout)["players"]]
    assert len(rows) == 2 and all(m == 2 for _n, m in rows), rows  # Ann (or Ａnn) and Ben, two matches each
