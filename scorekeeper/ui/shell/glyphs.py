"""What the phone's own site can draw: a name it could only show as empty boxes is refused.

On the phone alone (``scorekeeper site``) Flutter draws every character itself, with the
one font for text the site ships: the Roboto that flet-web ships. Its fallback fonts (emoji,
Chinese, Arabic, Devanagari ...) would come from Google's font server, which the site never
asks (nothing leaves the phone, and offline there is nothing to ask): a name with such a
character would show as empty boxes on every screen. So on the phone alone the doors where
a name is typed (New match, Players' rename, an event's players and teams) refuse it with
a line saying which character, before anything is stored; the laptop's app, whose browsers
find the fonts they need, takes every name the one rule for names
(:mod:`scorekeeper.text`) takes, and a record imported on the phone is kept as it is.

>>> undrawn("Zoë"), undrawn("Ærøskøbing Ψ Жанна"), undrawn("Ann 🎲"), undrawn("李")
(None, None, '🎲', '李')
>>> names_problem(["Ann", "Cy 🎲"])
"'Cy 🎲' cannot be shown on this phone: its font has no '🎲' (U+1F3B2). Type the name with Latin, Greek or Cyrillic letters"
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

__all__ = ["ROBOTO", "names_problem", "undrawn"]

#: The code points flet-web's Roboto has a glyph for, as closed ranges (printed by
#: ``python -m tools.font_coverage``; tests/ui/test_glyphs.py checks them against the font).
ROBOTO = (
    (0x0000, 0x0000),
    (0x0002, 0x0002),
    (0x000D, 0x000D),
    (0x0020, 0x007E),
    (0x00A0, 0x017F),
    (0x018F, 0x018F),
    (0x0192, 0x0192),
    (0x01A0, 0x01A1),
    (0x01AF, 0x01B0),
    (0x01F0, 0x01F0),
    (0x01FA, 0x01FF),
    (0x0218, 0x021B),
    (0x0237, 0x0237),
    (0x0259, 0x0259),
    (0x02BC, 0x02BC),
    (0x02C6, 0x02C7),
    (0x02C9, 0x02C9),
    (0x02D8, 0x02DD),
    (0x02F3, 0x02F3),
    (0x0300, 0x0301),
    (0x0303, 0x0303),
    (0x0309, 0x0309),
    (0x030F, 0x030F),
    (0x0323, 0x0323),
    (0x0384, 0x038A),
    (0x038C, 0x038C),
    (0x038E, 0x03A1),
    (0x03A3, 0x03CE),
    (0x03D1, 0x03D2),
    (0x03D6, 0x03D6),
    (0x0400, 0x0486),
    (0x0488, 0x0513),
    (0x1E00, 0x1E01),
    (0x1E3E, 0x1E3F),
    (0x1E80, 0x1E85),
    (0x1EA0, 0x1EF9),
    (0x1F4D, 0x1F4D),
    (0x2000, 0x200B),
    (0x2010, 0x2011),
    (0x2013, 0x2015),
    (0x2017, 0x201E),
    (0x2020, 0x2022),
    (0x2025, 0x2027),
    (0x2030, 0x2030),
    (0x2032, 0x2033),
    (0x2039, 0x203A),
    (0x203C, 0x203C),
    (0x2044, 0x2044),
    (0x2074, 0x2074),
    (0x207F, 0x207F),
    (0x20A3, 0x20A4),
    (0x20A6, 0x20AC),
    (0x20B1, 0x20B1),
    (0x20B9, 0x20BA),
    (0x20BC, 0x20BD),
    (0x2105, 0x2105),
    (0x2113, 0x2113),
    (0x2116, 0x2116),
    (0x2122, 0x2122),
    (0x2126, 0x2126),
    (0x212E, 0x212E),
    (0x215B, 0x215E),
    (0x2202, 0x2202),
    (0x2206, 0x2206),
    (0x220F, 0x220F),
    (0x2211, 0x2212),
    (0x221A, 0x221A),
    (0x221E, 0x221E),
    (0x222B, 0x222B),
    (0x2248, 0x2248),
    (0x2260, 0x2260),
    (0x2264, 0x2265),
    (0x25CA, 0x25CA),
    (0xEE01, 0xEE02),
    (0xF6C3, 0xF6C3),
    (0xFB01, 0xFB04),
    (0xFEFF, 0xFEFF),
    (0xFFFC, 0xFFFD),
)

_FIRSTS = [first for first, _ in ROBOTO]
#: Characters that show nothing of their own, drawn with any font: the zero-width joiners
#: and the variation selectors (the text rule lets them in).
_UNSEEN = frozenset("\u200c\u200d") | frozenset(chr(c) for c in range(0xFE00, 0xFE10))


def _has(char: str) -> bool:
    code = ord(char)
    at = bisect.bisect_right(_FIRSTS, code) - 1
    return at >= 0 and ROBOTO[at][0] <= code <= ROBOTO[at][1]


def undrawn(name: str) -> str | None:
    """The first character of ``name`` the phone's font cannot draw, or None."""
    for char in name:
        if char not in _UNSEEN and not _has(char):
            return char
    return None


def names_problem(names: Iterable[str]) -> str | None:
    """Why one of ``names`` cannot be shown on the phone alone, or None."""
    for name in names:
        char = undrawn(name)
        if char is not None:
            return (
                f"{name!r} cannot be shown on this phone: its font has no {char!r} (U+{ord(char):04X}). "
                "Type the name with Latin, Greek or Cyrillic letters"
            )
    return None
