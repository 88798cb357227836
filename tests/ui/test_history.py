"""The History screen's view-model (no Flet): a stored All Fives match's turns with
their draws, import by paste or file in words, and the question before a record
already stored is imported again."""

from __future__ import annotations

import json

import pytest
from support import RECORDS

from scorekeeper.allfives import score_record
from scorekeeper.ui.allfives.history import history_blocks
from scorekeeper.ui.history.model import HistoryModel


def two_hands_text() -> str:
    return (RECORDS / "two-hands.json").read_text(encoding="utf-8")


# ------------------------------------------------------------------ draws
def test_a_play_after_drawing_shows_the_draws_as_a_pass_does() -> None:
    out = score_record(
        {
            "format": "scorekeeper/1",
            "game": "all-fives",
            "players": ["Ann", "Ben"],
            "rules": {"hand_size": 7},
            "hands": [
                {
                    "leader": "Ann",
                    "turns": [{"play": "5-4"}, {"draw": 1, "play": "5-2", "on": "5-4"}, {"draw": 2, "play": "2-2"}],
                }
            ],
        }
    )
    lines = history_blocks(out)[0].splitlines()
    assert lines[1:] == [
        "  Ann: 5-4 (count 9)",
        "  Ben: +1 5-2 on 5-4 (count 6)",
        "  Ann: +2 2-2 on 5-2 (count 8)",
    ]


def test_the_stored_two_hands_record_shows_anns_draw(shared) -> None:
    hist = HistoryModel(shared)
    mid = hist.import_text(two_hands_text())
    block = history_blocks(hist.summary(mid))[0]
    assert "  Ann: +1 4-1 on 2-1 (count 7)" in block.splitlines()


# ------------------------------------------------------------------ messages
@pytest.mark.parametrize("text", ["", "   \n\t "])
def test_an_empty_paste_asks_for_a_record(shared, text: str) -> None:
    hist = HistoryModel(shared)
    assert hist.import_text(text) is None
    assert hist.error == "paste a match record first"
    assert hist.total == 0


def test_text_that_is_not_json_says_so_with_the_line_and_column(shared) -> None:
    hist = HistoryModel(shared)
    assert hist.import_text('{"format": "scorekeeper/1",\n  "game": all-fives}') is None
    assert hist.error == "not a match record (JSON): expecting a value at line 2, column 11"
    assert hist.import_text("{") is None
    assert hist.error.startswith("not a match record (JSON): ")
    assert hist.error.endswith("at line 1, column 2")
    assert "Expecting value" not in hist.error and "char " not in hist.error


def test_a_record_the_engine_refuses_keeps_the_engines_reason(shared) -> None:
    hist = HistoryModel(shared)
    assert hist.import_text('{"format": "scorekeeper/1", "game": "all-fives", "players": ["A"]}') is None
    assert hist.error.startswith("not imported: ")
    assert hist.import_text("[1, 2]") is None
    assert hist.error == "not imported: a record must be a JSON object, not a list"


# ------------------------------------------------------------------ the same record twice
def test_the_same_record_again_asks_before_storing_a_copy(shared) -> None:
    hist = HistoryModel(shared)
    first = hist.import_text(two_hands_text())
    assert first and hist.question is None and hist.total == 1
    date = shared.store.summary(first)["started"][:10]
    question = (
        f"This match is already stored (Two hands: Ben dominoes hand 1 and leads hand 2, {date}): "
        "import it again as a copy?"
    )

    # the export of the stored match, with its id: the same match
    assert hist.import_text(hist.export(first)) is None
    assert hist.question == question and hist.error is None and hist.total == 1
    hist.cancel_import()
    assert hist.question is None and hist.total == 1
    assert hist.message == "nothing imported: the match was already stored"

    revision = hist.revision
    assert hist.import_text(two_hands_text()) is None
    assert hist.question == question and hist.revision > revision
    copy = hist.import_copy()
    assert copy and copy != first and hist.question is None
    assert hist.total == 2 and hist.message == f"imported as {copy}"
    assert shared.store.record(copy) == json.loads(two_hands_text())

    assert hist.import_copy() is None  # nothing is waiting any more
    assert hist.total == 2


def test_an_untitled_match_is_told_by_its_game_and_players(shared) -> None:
    hist = HistoryModel(shared)
    text = '{"format": "scorekeeper/1", "game": "all-fives", "players": ["Ann", "Ben", "Cy"]}'
    first = hist.import_text(text)
    assert hist.import_text(text) is None
    date = shared.store.summary(first)["started"][:10]
    assert hist.question == (
        f"This match is already stored (All Fives: Ann · Ben · Cy, {date}): import it again as a copy?"
    )


def test_another_record_while_asking_replaces_the_question(shared) -> None:
    hist = HistoryModel(shared)
    hist.import_text(two_hands_text())
    hist.import_text(two_hands_text())
    assert hist.question
    other = json.loads(two_hands_text())
    other["hands"] = other["hands"][:1]
    mid = hist.import_text(json.dumps(other))
    assert mid and hist.question is None and hist.total == 2
    assert hist.import_copy() is None and hist.total == 2


# ------------------------------------------------------------------ a file
def test_a_file_goes_the_way_of_a_paste(shared) -> None:
    hist = HistoryModel(shared)
    data = two_hands_text().encode()
    first = hist.import_file("scorekeeper-x.json", data)
    assert first and hist.message == f"imported as {first}"
    assert hist.import_file("scorekeeper-x.json", "\ufeff".encode() + data) is None  # a byte-order mark is fine
    assert hist.question and hist.question.startswith("This match is already stored (Two hands")
    assert hist.import_copy() and hist.total == 2


def test_a_file_that_is_empty_or_not_text_says_which_file(shared) -> None:
    hist = HistoryModel(shared)
    assert hist.import_file("empty.json", b"") is None
    assert hist.error == "empty.json is empty"
    assert hist.import_file("photo.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF") is None
    assert hist.error == "photo.jpg is not a match record: it is not text"
    assert hist.import_file("notes.txt", b"Ann 15, Ben 10") is None
    assert hist.error.startswith("not a match record (JSON): ")
    assert hist.import_file("lost.json", None) is None
    assert hist.error == "lost.json could not be read"
    assert hist.total == 0


# ------------------------------------------------------------------ a byte-order mark
def test_a_paste_with_a_byte_order_mark_goes_the_way_of_a_file_with_one(shared) -> None:
    """Issue 26: a record copied from a file saved with a BOM keeps it in the paste; the
    file itself was taken, so the paste is too, by the same door (one BOM, no more)."""
    hist = HistoryModel(shared)
    text = two_hands_text()
    mid = hist.import_text("\ufeff" + text)
    assert mid and hist.error is None and hist.message == f"imported as {mid}", hist.error
    assert hist.import_file("scorekeeper-x.json", ("\ufeff" + text).encode()) is None  # the same match
    assert hist.question and hist.total == 1
    hist.cancel_import()
    # two marks are one too many, the same way pasted and from a file (and at the command line)
    assert hist.import_text("\ufeff\ufeff" + text) is None
    pasted = hist.error
    assert hist.import_file("twice.json", ("\ufeff\ufeff" + text).encode()) is None
    assert pasted and hist.error == pasted and pasted.startswith("not a match record (JSON): ")
    assert hist.total == 1
