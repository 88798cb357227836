"""The rule for names and text (``scorekeeper/text.py``, issue 26): what it refuses and
welcomes, when two names are one, and the escapes of what is printed."""

from __future__ import annotations

import json
import unicodedata
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import text
from scorekeeper.errors import RecordFormatError, TextError
from scorekeeper.store import Store

REFUSED = {
    "\x00": "a control character",
    "\t": "a tab",
    "\n": "a line break",
    "\r": "a line break",
    "\x1b": "a terminal escape",
    "\x7f": "a control character",
    "\x85": "a line break",
    "\x9b": "a terminal escape",
    "\u00ad": "an invisible format character",  # soft hyphen
    "\u061c": "a direction control",
    "\u200b": "an invisible format character",
    "\u200e": "a direction control",
    "\u200f": "a direction control",
    "\u2028": "a line break",
    "\u2029": "a line break",
    "\u202a": "a direction control",
    "\u202e": "a direction control",
    "\u2060": "an invisible format character",
    "\u2066": "a direction control",
    "\u2069": "a direction control",
    "\u3164": "an invisible format character",  # Hangul filler
    "\ufeff": "an invisible format character",
    "\ufffe": "a noncharacter",
    "\U0001fffe": "a noncharacter",
    "\U000e0001": "an invisible format character",
    "\U000e0041": "an invisible format character",
    "\ud800": "half of a surrogate pair",
}
WELCOME = [
    "Zoë",
    "李雷",
    "Ἀλέξανδρος",
    "Ölçü",
    "ناصر\u200cی",
    "👩\u200d👩\u200d👧",
    "❤\ufe0f",
    "Ann\u00a0Lee",
    "\u3000x",
    "\ue000",
]


@pytest.mark.parametrize("c, kind", REFUSED.items())
def test_what_the_rule_refuses_and_says(c, kind):
    assert text.refused(c) and not text.clean(f"a{c}b")
    assert text.text_problem(f"a{c}b").endswith(f"is {kind})")
    with pytest.raises(TextError, match="must be printable") as e:
        text.check_name(f"Ann{c}")
    assert isinstance(e.value, RecordFormatError) and isinstance(e.value, ValueError)


@pytest.mark.parametrize("name", WELCOME)
def test_what_the_rule_welcomes(name):
    assert text.clean(name) and text.check_name(name) == name


def test_every_character_the_rule_refuses_is_one_printing_escapes():
    for cp in range(0x110000):
        c = chr(cp)
        if text.refused(c):
            assert text.escape(c) != c and text.escape(c).isascii() and text.escape(c).isprintable()
        else:
            assert text.escape(c) == c


@pytest.mark.parametrize(
    "a, b",
    [
        ("Ann", "ann"),
        ("Ann", " ANN "),
        ("Ann Lee", "ann   lee"),
        ("Ann Lee", "Ann\u00a0Lee"),
        ("Ann", "\uff21\uff4e\uff4e"),
        ("Zoë", "Zoe\u0308"),
        ("STRASSE", "straße"),
        ("ﬁfi", "FIFI"),
        ("Ann", "A\u200dnn"),
        ("❤", "❤\ufe0f"),
    ],
)
def test_spellings_of_one_name(a, b):
    assert text.same_name(a, b) and text.name_key(a) == text.name_key(b)
    assert text.same_names_problem([a, "Ben", b]) == (
        f"{a!r} and {b!r} are the same name (capitals, spaces and letter forms do not count)"
        if a != b
        else f"{a!r} is listed twice"
    )


@pytest.mark.parametrize("a, b", [("Ann", "Anne"), ("Rene", "René"), ("Ann", "\u0410nn"), ("Ann Lee", "AnnLee")])
def test_names_that_are_not_one(a, b):
    assert not text.same_name(a, b) and text.same_names_problem([a, b]) is None


@given(st.text(max_size=12))
def test_a_key_is_its_own_key(name):
    k = text.name_key(name)
    assert text.name_key(k) == k
    assert k == k.strip() and "  " not in k


@pytest.mark.parametrize("name", ["", " ", "\u200d", " \u200c\u200d ", "\ufe0f", "\u2800"])
def test_a_name_must_show_something(name):
    assert text.name_problem(name) == f"a player's name must be a non-empty string, not {name!r}"


def test_a_name_has_at_most_40_characters():
    assert text.name_problem("x" * 40) is None
    assert text.name_problem("x" * 41) == "a player's name must be at most 40 characters, not 41"
    assert text.name_problem("Us" * 30, "a side's name", limit=80) is None


def test_json_text_is_the_same_value_with_nothing_raw():
    value = {"a\u202eb": ["x\x1b[2J", "\x9b", "\u2028", "\U000e0041", "\ud800", "Zoë 李 ❤\ufe0f"], "n": 1}
    out = text.json_text(value, indent=2)
    assert json.loads(out) == value
    assert all(not text.refused(c) for c in out.replace("\n", ""))
    assert "Zoë 李 ❤\ufe0f" in out and "\\u202e" in out and "\\udb40\\udc41" in out
    out.encode("utf-8")  # a lone surrogate is written as an escape: the text can be encoded
    assert text.json_text({"a": "Ann"}, indent=2) == json.dumps({"a": "Ann"}, ensure_ascii=False, indent=2)


def test_terminal_keeps_its_lines_and_escapes_the_rest():
    assert text.terminal("a\x1b[2J\nb\u202e\n") == "a\\x1b[2J\nb\\u202e\n"
    assert text.escape("a\nb") == "a\\nb"


def test_xml_text_is_valid_xml_whatever_it_is_given():
    odd = "".join(chr(cp) for cp in (*range(0x20), 0x7F, 0x9B, 0x202E, 0xD800, 0xFFFE, 0xFFFF)) + "<&>\"'"
    root = ET.fromstring(f"<t a={text.xml_attr(odd)}>{text.xml_text(odd)}</t>")
    assert root.text == root.get("a") == text.escape(odd)
    assert all(unicodedata.category(c) != "Cc" for c in root.text)


def test_the_store_refuses_a_record_or_an_entry_whose_text_breaks_the_rule(tmp_path):
    """Every new record passes the door, wherever it comes from (the app's forms, a caller
    of the store); so does every new entry (what the app enters is made by buttons, but an
    award's reason is free text)."""
    new = {"format": "scorekeeper/1", "game": "all-fours", "players": ["Ann", "Ben"]}
    with Store(tmp_path / "db") as store:
        with pytest.raises(TextError, match="^title: must be printable text"):
            store.create(dict(new, title="club\x1b[2J"))
        with pytest.raises(TextError, match="^players: 'Ann' and 'ann' are the same name"):
            store.create(dict(new, players=["Ann", "ann"]))
        assert store.count() == 0
        mid = store.create(new)
        store.append(mid, {"hand": {"dealer": "Ann"}})
        award = {"type": "award", "side": "Ben", "points": 1, "reason": "late\x1b[2J"}
        with pytest.raises(TextError, match=r"^fact\.penalties\[0\]\.reason: must be printable text"):
            store.append(mid, {"fact": {"penalties": [award]}})
        with pytest.raises(TextError, match=r"^\[0\]\.reason: must be printable text"):
            store.edit(mid, 1, "penalties", [award])
        assert store.record(mid)["hands"] == [{"dealer": "Ann"}]
