"""History in a real browser: a record pasted, saved by export, imported again from
the saved file (read from its bytes in the browser) -- which asks first, since the
match is already stored -- and the messages of a paste that is empty or not JSON;
the Score screen's per-hand table of the imported match.

The tests share one server and one host page (see conftest's ``module_server`` and
``host``): each reads how many matches History holds before it imports, and checks what
its own imports added to that; the score table's match is a copy of the saved file's with
its players renamed, so it is not the same match the first test imports."""

from __future__ import annotations

import json
import re

import pytest
from support import RECORDS

from e2e import harness
from e2e.app_driver import open_in_history
from e2e.harness import go_to, read_texts, wait_text

pytestmark = pytest.mark.browser

tap = harness.tap
PASTE = "Or paste a saved match here"
TITLE = "Two hands: Ben dominoes hand 1 and leads hand 2"


def open_history(page) -> int:
    """Home, then History; how many matches it holds."""
    go_to(page, "/", "History")
    tap(page, "History")
    wait_text(page, "Import a record")
    return stored(page)


def count_text(n: int) -> str:
    return f"{n} match{'es' if n != 1 else ''}"


def stored(page) -> int:
    """How many matches History says it holds."""
    (n,) = [int(t.split()[0]) for t in read_texts(page) if re.fullmatch(r"\d+ match(es)?", t)]
    return n


def paste(page, text: str) -> None:
    harness.enter(page, PASTE, text, retype_last=True)  # the field does nothing until Import
    tap(page, "Import")


def imported_id(page) -> str:
    wait_text(page, re.compile(r"^imported as "))
    return next(t for t in read_texts(page) if t.startswith("imported as "))[len("imported as ") :]


def test_a_saved_file_imports_again_only_after_asking(host, tmp_path):
    page = host
    before = open_history(page)
    paste(page, json.dumps(json.loads((RECORDS / "two-hands.json").read_text(encoding="utf-8"))))
    mid = imported_id(page)
    wait_text(page, count_text(before + 1))

    # Save writes scorekeeper-<id>.json (a download in the browser)
    open_in_history(page, mid)
    wait_text(page, re.compile(r"\n  Ann: \+1 4-1 on 2-1 \(count 7\)\n"))  # a play after a draw shows the draw
    with page.expect_download() as download:
        tap(page, "Save the record as a file")
    assert download.value.suggested_filename == f"scorekeeper-{mid}.json"
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    tap(page, "Back")
    wait_text(page, "Import a record")

    question = re.compile(r"^This match is already stored \(" + re.escape(TITLE) + r", \d{4}-\d\d-\d\d\): import")
    for answer in ("Cancel", "Import a copy"):
        with page.expect_file_chooser() as chooser:
            tap(page, "Import a file")
        chooser.value.set_files(str(saved))
        wait_text(page, question)
        tap(page, answer)
        harness.wait_idle(page, quiet=0.3)
        assert not any(question.search(t) for t in read_texts(page)), "the question is gone once answered"
        if answer == "Cancel":
            wait_text(page, "nothing imported: the match was already stored")
            assert count_text(before + 1) in read_texts(page)
    copy = imported_id(page)
    assert copy != mid
    wait_text(page, count_text(before + 2))


def test_what_cannot_be_imported_says_why_in_words(host, tmp_path):
    page = host
    before = open_history(page)
    tap(page, "Import")
    wait_text(page, "paste a match record first")
    paste(page, '{"format": "scorekeeper/1", "game": all-fives}')
    wait_text(page, "not a match record (JSON): expecting a value at line 1, column 37")
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
    with page.expect_file_chooser() as chooser:
        tap(page, "Import a file")
    chooser.value.set_files(str(photo))
    wait_text(page, "photo.jpg is not a match record: it is not text")
    assert stored(page) == before  # nothing imported


def test_the_score_table_of_an_imported_match(host):
    page = host
    before = open_history(page)
    # the saved file's match with Ann and Ben renamed Cy and Di: another match than the first test's
    text = (RECORDS / "two-hands.json").read_text(encoding="utf-8").replace('"Ann"', '"Cy"').replace('"Ben"', '"Di"')
    paste(page, json.dumps(json.loads(text)))
    mid = imported_id(page)
    wait_text(page, count_text(before + 1))
    go_to(page, f"/score/{mid}", "Hand 1 · domino")
    wait_text(page, "Di after hand 1: 10 (+10 at the end)")
    wait_text(page, "Cy after hand 1: 0 (no points)")
    wait_text(page, "Hand 2 · playing")
    wait_text(page, "Di after hand 2 so far: 15 (+5 in play)")
    assert not [t for t in read_texts(page) if "=" in t], "no cell reads as a sum"


def test_hostile_records_are_refused_in_place_and_the_session_goes_on(host, tmp_path):
    """The audit's imports that ended the session ("Error running app"): each one is now a
    line in place, and a good record imports after them in the same session."""
    page = host
    before = open_history(page)
    worked = json.loads((RECORDS / "worked-example.json").read_text(encoding="utf-8"))
    fours = {
        "format": "scorekeeper/1",
        "game": "all-fours",
        "players": ["Ann", "Ben"],
        "rules": {"variant": ["trinidad"]},
        "hands": [],
    }
    for text, says in (
        (json.dumps(dict(worked, game=["all-fives"])), "game: unknown game ['all-fives']"),
        (json.dumps(fours), "rules.variant"),
        ("[" * 1000 + "]" * 1000, "nested more than 20 levels deep"),
        ('{"format": "scorekeeper/1", "format": "scorekeeper/1"}', "the key 'format' appears twice"),
    ):
        paste(page, text)
        wait_text(page, re.compile(re.escape(says)))
        assert not any("Error running app" in t for t in read_texts(page))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with page.expect_file_chooser() as chooser:
        tap(page, "Import a file")
    chooser.value.set_files(str(deep))
    wait_text(page, re.compile("nested more than 20 levels deep"))
    harness.wait_idle(page, quiet=0.3)
    assert not any("appears twice" in t for t in read_texts(page)), "the file's message replaced the paste's"
    paste(page, json.dumps(worked))
    imported_id(page)
    wait_text(page, count_text(before + 1))
