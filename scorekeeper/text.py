"""The one rule for names and text, at every door, and how stored text is printed.

**Text.** Every string a match record holds (the players' and sides' names, ``id``,
``title``, ``started``, ``notes``, an award's ``reason``, every key and value) and every
name typed into the app or given on the command line may hold any character except:

- control characters (Unicode category Cc: C0 and C1, DEL; among them the tab, the
  line feed, the carriage return, NEL and the terminal escape ESC);
- format characters (Cf): the direction marks, embeddings, overrides and isolates
  (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, U+061C), the zero-width space, the
  word joiner, the byte-order mark, the soft hyphen, the tag characters ... -- all of
  them except the **zero-width non-joiner and joiner** (U+200C, U+200D), which
  Persian and Indic scripts and emoji sequences need;
- the line and paragraph separators (U+2028, U+2029);
- halves of surrogate pairs (a JSON ``"\\ud800"`` alone), and noncharacters
  (U+FFFE, U+FFFF, U+FDD0-U+FDEF ...);
- the other characters that show nothing and serve no script a name is written in
  (the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the Khmer inherent vowels
  U+17B4 and U+17B5, and the unassigned code points among the default-ignorable ones).

Letters and marks of every script, spaces (the no-break and ideographic spaces too),
emoji with their variation selectors, private-use characters and characters newer than
this Python's Unicode tables are all welcome.

**Names** (of players and sides) follow the text rule, and also: a name is at most 40
characters and shows something (not only spaces and joiners). Two names are **the same
name** when their :func:`name_key` is: compared after Unicode compatibility
normalisation (NFKC: a full-width ``Ａ`` is ``A``, ``ﬁ`` is ``fi``) and case folding
(``ß`` is ``ss``), with the spaces at either end left out, every run of spaces taken as
one, and the invisible joiners and variation selectors left out. One match cannot have
two spellings of one name; a name is stored as it was given. Letters of different
scripts that look alike (Latin ``A`` and Cyrillic ``А``) are different letters here.

**Printing.** What is printed from a store -- which may hold text stored before this
rule -- writes each refused character as a visible escape: :func:`escape` for one line
(``\\x1b``, ``\\u202e``, ``\\n``), :func:`terminal` for text of several lines,
:func:`json_text` for JSON (``\\u001b``, ``\\u202e``), :func:`xml_text` for SVG.

>>> check_name("Zoë") == "Zoë", same_name("Ann", " ANN"), same_name("Ann", "\\uff21nn")
(True, True, True)
>>> check_name("Ann\\x1b[2J")
Traceback (most recent call last):
...
scorekeeper.errors.TextError: a player's name must be printable, not 'Ann\\x1b[2J' (\\x1b is a terminal escape)
>>> same_names_problem(["Ann", "Ben", "ann "])
"'Ann' and 'ann ' are the same name (capitals, spaces and letter forms do not count)"
>>> escape("2026\\x1b[2J\\u202e"), json_text({"t": "a\\u202eb"})
('2026\\\\x1b[2J\\\\u202e', '{"t": "a\\\\u202eb"}')
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable
from typing import Any

from scorekeeper.errors import TextError, escaped, short

#: The longest name of a player or a side.
MAX_NAME = 40
#: The only format characters allowed: the zero-width non-joiner and joiner.
JOINERS = frozenset("\u200c\u200d")
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: Refused although not of those categories: they show nothing (default-ignorable).
_INVISIBLE = (
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels (not to be used)
    (0x2060, 0x206F),  # word joiner, invisible operators, isolates ... and the unassigned among them
    (0x3164, 0x3164),  # Hangul filler
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE00FF),  # tags
    (0xE01F0, 0xE0FFF),
)
#: Left out of a name's key: allowed, but they show nothing of their own (joiners,
#: variation selectors, the combining grapheme joiner, the blank braille pattern).
_UNSEEN = (
    (0x034F, 0x034F),
    (0x180B, 0x180D),
    (0x180F, 0x180F),
    (0x200C, 0x200D),
    (0x2800, 0x2800),
    (0xFE00, 0xFE0F),
    (0xE0100, 0xE01EF),
)
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
_DIRECTION = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _in(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def refused(c: str) -> bool:
    """Whether the character ``c`` may not be part of a name or a text (see the module).

    >>> [refused(c) for c in ("A", " ", "\\u00a0", "\\u200d", "\\t", "\\u202e", "\\ufeff", "\\u3164")]
    [False, False, False, False, True, True, True, True]
    """
    if c in JOINERS:
        return False
    if unicodedata.category(c) in _REFUSED_CATEGORIES:
        return True
    cp = ord(c)
    if 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE:  # noncharacters
        return True
    return _in(cp, _INVISIBLE)


def clean(text: str) -> bool:
    """Whether ``text`` holds no refused character."""
    if text.isascii():
        return text.isprintable()
    return not any(map(refused, text))


def _kind(c: str) -> str:
    if c in _LINE_BREAKS:
        return "a line break"
    if c == "\t":
        return "a tab"
    if c in "\x1b\x9b":
        return "a terminal escape"
    if c in _DIRECTION:
        return "a direction control"
    category = unicodedata.category(c)
    if category == "Cc":
        return "a control character"
    if category == "Cs":
        return "half of a surrogate pair"
    cp = ord(c)
    if 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE:
        return "a noncharacter"
    return "an invisible format character"


def text_problem(text: str, what: str | None = None) -> str | None:
    """Why ``text`` breaks the rule, or None: ``"must be printable text, not '…' (\\x1b is a
    terminal escape)"``; with ``what``, ``"{what} must be printable, not …"``."""
    if clean(text):
        return None
    bad = next(c for c in text if refused(c))
    head = f"{what} must be printable" if what else "must be printable text"
    return f"{head}, not {short(text)} ({escaped(bad)} is {_kind(bad)})"


def check_text(text: str, what: str | None = None, *, field: str | None = None) -> str:
    """``text`` when it follows the rule; else a :class:`TextError` saying why (at ``field``)."""
    problem = text_problem(text, what)
    if problem:
        raise TextError(problem, field=field)
    return text


# ---------------------------------------------------------------- names
def name_problem(name: Any, what: str = "a player's name", limit: int = MAX_NAME) -> str | None:
    """Why ``name`` cannot be the name of a player (or, with ``what``, a side ...), or None.

    >>> name_problem("Ann") is None, name_problem(" \\u200d ")
    (True, "a player's name must be a non-empty string, not ' \\\\u200d '")
    """
    if not isinstance(name, str) or not name.strip():
        return f"{what} must be a non-empty string, not {short(name)}"
    if len(name) > limit:
        return f"{what} must be at most {limit} characters, not {len(name)}"
    problem = text_problem(name, what)
    if problem:
        return problem
    if not name_key(name):
        return f"{what} must be a non-empty string, not {short(name)}"
    return None


def check_name(name: Any, what: str = "a player's name", limit: int = MAX_NAME, *, field: str | None = None) -> str:
    """``name`` as it is when it can be a name; else a :class:`TextError` saying why (at ``field``)."""
    problem = name_problem(name, what, limit)
    if problem:
        raise TextError(problem, field=field)
    return str(name)


@functools.lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """What two spellings of one name have in common: ``"  ANN  lee"`` and ``"Ann Lee"``
    are ``"ann lee"``; ``"Ａnn"`` (full-width) is ``"ann"``; ``"STRASSE"`` and
    ``"straße"`` are ``"strasse"``.

    Unicode's compatibility caseless match (NFKD of the case folding of NFKD of the
    case folding of NFD), without the characters that show nothing of their own,
    composed again (NFC), with the spaces at either end left out and every run of
    spaces taken as one.

    >>> name_key("  ANN  lee"), name_key("\\uff21nn"), name_key("STRASSE") == name_key("straße")
    ('ann lee', 'ann', True)
    """
    if name.isascii():
        return " ".join(name.casefold().split())
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold())
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not _unseen(c))
    return " ".join(unicodedata.normalize("NFC", text).split())


def _unseen(c: str) -> bool:
    return _in(ord(c), _UNSEEN) or refused(c)


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are two spellings of one name (see :func:`name_key`)."""
    return name_key(a) == name_key(b)


def same_names(names: Iterable[Any]) -> tuple[str, str] | None:
    """The first two of ``names`` that are one name (the earlier first), or None; what is
    not a string is passed over (its type is someone else's error)."""
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str):
            continue
        k = name_key(name)
        if k in seen:
            return seen[k], name
        seen[k] = name
    return None


def same_names_problem(names: Iterable[Any]) -> str | None:
    """Why ``names`` cannot be the names of one match's players (or sides): two of them
    are one name; None when they can."""
    pair = same_names(names)
    if pair is None:
        return None
    first, second = pair
    if first == second:
        return f"{short(first)} is listed twice"
    return f"{short(first)} and {short(second)} are the same name (capitals, spaces and letter forms do not count)"


def players_problem(names: list[str]) -> str | None:
    """Why ``names`` cannot be a new match's players, in the words of the app's New match
    forms (an empty field: "every player needs a name"), or None.

    >>> players_problem(["Ann", "ann"])
    "two players have the same name: 'Ann' and 'ann' (capitals and spaces do not count)"
    """
    if any(not isinstance(n, str) or not name_key(n) for n in names):
        return "every player needs a name"
    problem = next(filter(None, map(name_problem, names)), None)
    pair = same_names(names)
    if problem is not None or pair is None:
        return problem
    same = "" if pair[0] == pair[1] else f": {pair[0]!r} and {pair[1]!r} (capitals and spaces do not count)"
    return "two players have the same name" + same


# ---------------------------------------------------------------- printing
def escape(text: str) -> str:
    """``text`` on one line with every refused character written as a visible escape."""
    if clean(text):
        return text
    return "".join(escaped(c) if refused(c) else c for c in text)


def terminal(text: str) -> str:
    """Text of several lines for a terminal: every refused character but the line feed
    written as a visible escape."""
    if clean(text.replace("\n", "")):
        return text
    return "".join(escaped(c) if c != "\n" and refused(c) else c for c in text)


def _json_escaped(c: str) -> str:
    cp = ord(c)
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    cp -= 0x10000
    return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` with every refused character
    written as a JSON escape: the same value, letters kept as letters, and nothing that
    acts on a terminal (JSON itself escapes only the C0 controls)."""
    out = json.dumps(value, ensure_ascii=False, **options)
    if clean(out.replace("\n", "")):
        return out
    # a raw line feed is the layout's (one inside a string is written \n by json)
    return "".join(_json_escaped(c) if c != "\n" and refused(c) else c for c in out)


# XML's escapes written here, as ``xml.sax.saxutils`` writes them: importing that module loads
# urllib.request, http.client and email (a seventh of the phone's start in Pyodide).
def _xml_escape(data: str) -> str:
    return data.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def _xml_quoteattr(data: str) -> str:
    data = _xml_escape(data).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"{}"'.format(data.replace('"', "&quot;"))


def xml_text(text: str) -> str:
    """``text`` for the content of an XML (SVG) element: refused characters -- among them
    every one XML 1.0 does not allow -- as visible escapes, then ``&``, ``<``, ``>`` escaped."""
    return _xml_escape(escape(text))


def xml_attr(text: str) -> str:
    """``text`` as a quoted XML attribute value (``quoteattr`` of :func:`escape`)."""
    return _xml_quoteattr(escape(text))
