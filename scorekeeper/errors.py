"""The error hierarchy of Scorekeeper.

Every error a user can cause is a :class:`ScorekeeperError`, a ``ValueError``
that knows *where* in the match record it happened: the 1-based hand and turn
numbers, or the field of the record (``remaining``, ``leader``,
``rules.target`` ...).

>>> e = IllegalPlacementError("3-5 cannot be played on 3-3", hand=1, turn=4)
>>> str(e)
'hand 1, turn 4: 3-5 cannot be played on 3-3'
>>> isinstance(e, ValueError)
True
>>> str(RemainingError("Ben holds 2 tiles but 3 are listed", hand=2, field="remaining"))
'hand 2, remaining: Ben holds 2 tiles but 3 are listed'
>>> str(RulesError("must be a whole number", field="rules.target"))
'rules.target: must be a whole number'
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Callable
from typing import Any, TypedDict


class Where(TypedDict, total=False):
    """Where an error is: the keyword arguments of :class:`ScorekeeperError`, kept
    together to be passed on as ``**where``."""

    hand: int | None
    turn: int | None
    field: str | None


def one_line(text: str, limit: int | None = None) -> str:
    """``text`` with every control character (a newline, a terminal escape) written as an
    escape, so that printing it makes one line and changes nothing on the terminal; cut
    to ``limit`` characters when given.

    >>> one_line("Ann\\nerror: forged"), one_line("\\x1b[31mred")
    ('Ann\\\\nerror: forged', '\\\\x1b[31mred')
    """
    if text.isprintable():
        out = text
    else:
        out = "".join(c if c.isprintable() or c == " " else escaped(c) for c in text)
    if limit is not None and len(out) > limit:
        out = out[: limit - 1] + "…"
    return out


def escaped(c: str) -> str:
    """One character as a visible escape: ``\\n``, ``\\t``, ``\\r``, ``\\x1b``, ``\\u202e``,
    ``\\U000e0041`` (the one escape of every message, table and file Scorekeeper writes;
    :mod:`scorekeeper.text` says which characters get it).

    >>> escaped("\\n"), escaped("\\x1b"), escaped("\\u202e"), escaped("\\U000e0041")
    ('\\\\n', '\\\\x1b', '\\\\u202e', '\\\\U000e0041')
    """
    code = ord(c)
    if c == "\n":
        return "\\n"
    if c == "\t":
        return "\\t"
    if c == "\r":
        return "\\r"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def type_name(value: Any) -> str:
    """A JSON name of a value's type, for messages: ``null``, ``a boolean``, ``a number``
    (whole or not), ``a string``, ``a list``, ``an object``; anything else by its Python name.

    >>> type_name(None), type_name(True), type_name(1.5), type_name([]), type_name({})
    ('null', 'a boolean', 'a number', 'a list', 'an object')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def internal_error(e: BaseException) -> str:
    """What a user is told of a bug of ours (an exception that is not a ScorekeeperError):
    one line, nothing changed, please report it.

    >>> internal_error(KeyError("x"))
    "not imported: internal error (KeyError: 'x'); nothing was changed, please report it"
    """
    return f"not imported: internal error ({type(e).__name__}: {one_line(str(e), 200)}); nothing was changed, please report it"


#: Longest echo of an input value in an error message (see :func:`short`).
SHORT = 40

_REPR = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = SHORT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6


def short(value: object) -> str:
    """``repr(value)`` for an error message, cut to at most 40 characters: a hostile
    record can hold a huge string, list or number, and none of it is echoed whole.

    >>> short("5-3"), short([1.5]), short("x" * 100), short("Ann\\nBen")
    ("'5-3'", '[1.5]', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...", "'Ann\\\\nBen'")
    >>> short(10**400), short(-(10**5000))
    ('a number of 401 digits', 'a number of 5001 digits')
    """
    if type(value) is int and not -(10**SHORT) < value < 10**SHORT:
        return f"a number of {math.floor(math.log10(abs(value))) + 1} digits"
    if type(value) is str:
        text = repr(value[:SHORT])
    else:
        try:
            text = _REPR.repr(value)
        except ValueError:  # a huge int inside a list (more than 4,300 digits have no repr)
            text = "a value too long to write out"
    return text if len(text) <= SHORT else text[: SHORT - 3] + "..."


#: The longest message an error carries (what it echoes of a value is cut shorter still).
MAX_MESSAGE = 500


class ScorekeeperError(ValueError):
    """Base of every error caused by bad input (a record, an entry, a rule)."""

    def __init__(
        self,
        reason: str,
        *,
        hand: int | None = None,
        turn: int | None = None,
        field: str | None = None,
    ) -> None:
        reason = one_line(reason, MAX_MESSAGE)  # one line on any terminal, whatever it echoes
        super().__init__(reason)
        self.reason = reason
        self.hand = hand
        self.turn = turn
        self.field = field

    @property
    def location(self) -> str:
        """Where the error is, e.g. ``"hand 1, turn 4"`` (empty if unknown)."""
        parts = []
        if self.hand is not None:
            parts.append(f"hand {self.hand}")
        if self.turn is not None:
            parts.append(f"turn {self.turn}")
        if self.field is not None:
            parts.append(self.field)
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.location
        return f"{where}: {self.reason}" if where else self.reason

    def __reduce__(self) -> tuple[Callable[..., ScorekeeperError], tuple[object, ...]]:
        # keep the location when pickled (multiprocessing)
        return (_rebuild, (type(self), self.reason, self.hand, self.turn, self.field))


def _rebuild(
    cls: type[ScorekeeperError], reason: str, hand: int | None, turn: int | None, field: str | None
) -> ScorekeeperError:
    return cls(reason, hand=hand, turn=turn, field=field)


class RecordFormatError(ScorekeeperError):
    """The record is not a well-formed ``scorekeeper/1`` record (JSON, types, keys)."""


class TextError(RecordFormatError):
    """A name or a text that breaks the rule of :mod:`scorekeeper.text`: a control,
    direction or invisible format character, a name that is empty or too long, or two
    spellings of one name."""


class RulesError(ScorekeeperError):
    """An unknown rule key or an invalid rule value."""


class IllegalEntryError(ScorekeeperError):
    """An entry that breaks a rule of the game."""


class IllegalTileError(IllegalEntryError):
    """An unknown tile, one outside the set, or one already on the table."""


class IllegalPlacementError(IllegalEntryError):
    """A tile that does not fit where it is placed."""


class AmbiguousPlacementError(IllegalPlacementError):
    """A tile that fits several tiles and the entry does not say which."""


class IllegalDrawError(IllegalEntryError):
    """Drawing more tiles than the boneyard allows."""


class IllegalPassError(IllegalEntryError):
    """A pass while tiles can still be drawn."""


class WrongPlayerError(IllegalEntryError):
    """A turn entered for a player whose turn it is not."""


class HandOverError(IllegalEntryError):
    """A turn after the hand has ended, or a hand entry out of order."""


class RemainingError(IllegalEntryError):
    """Missing or impossible tiles or pips left in hands at the end of a hand."""


class LeaderError(IllegalEntryError):
    """A missing or wrong leader for a hand."""


class ClaimError(IllegalEntryError):
    """A malformed claim or muggins call."""


class MatchOverError(IllegalEntryError):
    """An entry after a side has already won the match."""


class NothingToUndoError(ScorekeeperError):
    """Undo on a match with no entries."""


class StoreError(ScorekeeperError):
    """The database cannot do what was asked (locked, newer schema, unknown id, disk trouble, a malformed entry).

    Here, beside the other errors, so that a game's entry codec (:mod:`scorekeeper.codec`)
    raises it without loading the store; :mod:`scorekeeper.store.errors` has the rest.

    ``plain``: the same in one short line for the people at the table (the message
    itself when it is already that)."""

    def __init__(
        self,
        reason: str,
        *,
        plain: str | None = None,
        hand: int | None = None,
        turn: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(reason, hand=hand, turn=turn, field=field)
        self.plain = one_line(plain, 300) if plain is not None else str(self)


class SiteError(ScorekeeperError):
    """The phone's site cannot be built (``scorekeeper site``): a package it copies is missing
    or not what it expects, or the folder it would write is taken."""


class EventError(ScorekeeperError):
    """An event (a club night, a tournament, a league season) that cannot be made or played
    as asked: a bad name, format, scoring, team, round or table (see :mod:`scorekeeper.events`)."""
