"""Names and text at the command's doors and in what it prints (issue 26, findings 5
and 6): one rule (``scorekeeper/text.py``) for every name and every text a record
holds, at ``import``, ``score`` and ``pegboard --names``; and every output (``list``,
``list --json``, ``export``, ``export --csv``, ``stats``, ``--svg``) writing any control,
direction or invisible format character of a match stored before the rule as a
visible escape."""

from __future__ import annotations

import copy
import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support import RECORDS, run_cli

WORKED = json.loads((RECORDS / "worked-example.json").read_text(encoding="utf-8"))
ALL_FOURS = {
    "format": "scorekeeper/1",
    "game": "all-fours",
    "players": ["Ann", "Ben"],
    "hands": [{"dealer": "Ann", "turn_up": ["J"], "penalties": [{"type": "award", "side": "Ben", "points": 1}]}],
}
#: What no output may write raw: a terminal escape (7-bit and 8-bit), a bell, a direction
#: override and isolate, a line separator.
RAW = ("\x1b", "\x9b", "\x07", "\u202e", "\u2066", "\u2028")


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


def no_raw(text: str) -> None:
    for c in RAW:
        assert c not in text, (c, text)


def import_(db: Path, record: dict):
    return run_cli("--db", db, "import", "-", stdin=json.dumps(record))


def plant(db: Path, record: dict, **changes: object) -> str:
    """A match stored before the rule: ``record`` imported, then its file changed to hold
    ``changes`` (what an earlier version let in). Returns its id."""
    ran = import_(db, record)
    assert ran.returncode == 0, ran.stderr
    mid = ran.stdout.strip()
    path = db / "matches" / f"{mid}.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["match"]["1"]["record"].update(changes)
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return mid


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


# ---------------------------------------------------------------- matches stored before the rule
LEGACY = {"started": "2026\x1b[2J\u202e\x9b31m", "title": "a\u2066b\u2028c", "notes": "x\x07"}


def test_list_writes_old_text_as_escapes(tmp_path):
    db = tmp_path / "db"
    plant(db, WORKED, **LEGACY)
    out = run_cli("--db", db, "list")
    assert out.returncode == 0 and not out.stderr, out.stderr
    no_raw(out.stdout)
    assert "2026\\x1b[2J\\u202e\\x9b31m"[:16] in out.stdout
    assert len(out.stdout.splitlines()) == 2


def test_list_json_writes_old_text_as_json_escapes(tmp_path):
    db = tmp_path / "db"
    plant(db, WORKED, **LEGACY)
    out = run_cli("--db", db, "list", "--json")
    assert out.returncode == 0 and not out.stderr, out.stderr
    no_raw(out.stdout)
    rows = json.loads(out.stdout)
    assert rows[0]["started"] == LEGACY["started"] and rows[0]["title"] == LEGACY["title"]  # the same text


def test_export_writes_old_text_as_json_escapes_and_valid_records_as_they_were(tmp_path):
    db = tmp_path / "db"
    mid = plant(db, WORKED, **LEGACY)
    out = run_cli("--db", db, "export", mid)
    assert out.returncode == 0, out.stderr
    no_raw(out.stdout)
    assert json.loads(out.stdout) == dict(WORKED, **LEGACY)
    clean = import_(db, WORKED).stdout.strip()
    assert run_cli("--db", db, "export", clean).stdout == json.dumps(WORKED, ensure_ascii=False, indent=2) + "\n"


@pytest.mark.parametrize("args", [["--all"], []])
def test_export_csv_writes_old_text_as_escapes(tmp_path, args):
    db = tmp_path / "db"
    mid = plant(db, WORKED, **LEGACY)
    out = run_cli("--db", db, "export", *(args or [mid]), "--csv")
    assert out.returncode == 0 and not out.stderr, out.stderr
    no_raw(out.stdout)
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert {r[2] for r in rows[1:]} == {"2026\\x1b[2J\\u202e\\x9b31m"}


def test_export_csv_writes_an_old_award_reason_as_escapes_and_keeps_formula_escaping(tmp_path):
    db = tmp_path / "db"
    rec = copy.deepcopy(ALL_FOURS)
    rec["hands"][0]["penalties"][0]["reason"] = "ok"
    hands = copy.deepcopy(rec["hands"])
    hands[0]["penalties"][0]["reason"] = "late\x1b[2J\u202e"
    mid = plant(db, rec, hands=hands, started="=cmd|' /C calc'!A0")
    out = run_cli("--db", db, "export", mid, "--csv")
    assert out.returncode == 0, out.stderr
    no_raw(out.stdout)
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert "award: late\\x1b[2J\\u202e" in [r[7] for r in rows]
    assert {r[2] for r in rows[1:]} == {"'=cmd|' /C calc'!A0"}


def test_score_text_writes_an_old_award_reason_as_escapes(tmp_path):
    """``score --text`` reads no stored match, but what it prints goes through the same
    escaping: the record below is refused, so the text is made from the engine directly."""
    from scorekeeper import registry

    rec = copy.deepcopy(ALL_FOURS)
    rec["hands"][0]["penalties"][0]["reason"] = "late\x1b[2J\u202e"
    game = registry.game_of(rec)
    from scorekeeper.text import terminal

    text = terminal(game.render(game.score(rec)))
    no_raw(text)
    assert "late\\x1b[2J\\u202e" in text


def test_stats_writes_renamed_names_from_players_json_as_escapes(tmp_path):
    """A ``players.json`` written by hand (or before the rule) may hold anything: ``stats``
    and ``stats --json`` still write it safely."""
    db = tmp_path / "db"
    assert import_(db, won()).returncode == 0
    (db / "players.json").write_text(
        json.dumps({"schema": 1, "names": {"ann": "Ann\u202e\x1b[2J", "ben": "Ben\nerror: forged"}}), encoding="utf-8"
    )
    for args in ([], ["--json"], ["--player", "Ann"], ["--player", "Ann", "--json"]):
        out = run_cli("--db", db, "stats", *args)
        assert out.returncode == 0, out.stderr
        no_raw(out.stdout)
        assert "\nerror: forged" not in out.stdout


def test_stats_counts_one_person_for_spellings_that_only_differ_in_form(tmp_path):
    db = tmp_path / "db"
    one = won()
    two = won(players=["\uff21nn", "Ben"])  # a full-width A: the same name
    two["hands"][0]["leader"] = "\uff21nn"
    assert import_(db, one).returncode == 0 and import_(db, two).returncode == 0
    out = run_cli("--db", db, "stats", "--json")
    rows = [(r["name"], r["matches"]) for r in json.loads(out.stdout)["players"]]
    assert len(rows) == 2 and all(m == 2 for _n, m in rows), rows  # Ann (or Ａnn) and Ben, two matches each


def test_pegboard_svg_of_odd_names_is_valid_xml_with_escapes():
    from scorekeeper.tally import pegboard
    from scorekeeper.tally.svg import pegboard_svg

    svg = pegboard_svg(pegboard({"a\x1b[2J\u202e": [3], "<b>&\ufffe": [4]}, target=61))
    no_raw(svg)
    root = ET.fromstring(svg)  # XML 1.0: no ESC, no U+FFFE
    texts = "".join(root.itertext())
    assert "a\\x1b[2J\\u202e" in texts and "<b>&\\ufffe" in texts
