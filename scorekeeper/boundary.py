"""The one door for records from outside: files, standard input, a paste or a picked
file in the app.

``scorekeeper score``, ``scorekeeper import`` and the app's History -> Import read a
record's bytes or text here, so they refuse the same things with the same one-line
messages before any engine sees the record:

- more than :data:`MAX_BYTES` (read no further than that: ``score /dev/zero`` stops);
- text that is not UTF-8, or not JSON;
- an object with the same key twice (JSON would silently keep the last one);
- a whole number of more than :data:`MAX_DIGITS` digits, ``NaN``, ``Infinity`` or a
  number too large for a float;
- nesting deeper than :data:`MAX_DEPTH`;
- a string longer than :data:`MAX_STRING` characters;
- a string or a key that breaks the rule for text (:mod:`scorekeeper.text`: no control,
  direction or invisible format character), and players' or sides' names that break
  the rule for names, among them two spellings of one name;
- a named pipe (FIFO) that nobody writes to for :data:`FIFO_WAIT` seconds: it is
  never waited on for ever.

:func:`check` is this door for a record that was never text (a match made in the app,
a record given to the store): the store checks every new record with it. A record
stored before a rule was added is read as it is (and printed with escapes).

What the record *means* -- its players, teams, rules and hands -- is checked by the
envelope (:mod:`scorekeeper.envelope`) and the game's engine, which check exact types.

>>> loads('{"format": "scorekeeper/1", "game": "broadway"}')
{'format': 'scorekeeper/1', 'game': 'broadway'}
>>> loads('{"game": "a", "game": "b"}')
Traceback (most recent call last):
...
scorekeeper.errors.RecordFormatError: not a match record: the key 'game' appears twice in one object
>>> loads('{"rules": {"target": 1e999}}')
Traceback (most recent call last):
...
scorekeeper.errors.RecordFormatError: rules.target: the number 1e999 is too large
>>> loads("[" * 50 + "]" * 50)
Traceback (most recent call last):
...
scorekeeper.errors.RecordFormatError: [0][0][0][0]: nested more than 20 levels deep
"""

from __future__ import annotations

import errno
import json
import math
import os
import select
import stat
import sys
from collections.abc import Iterable
from typing import Any, BinaryIO

from scorekeeper import system
from scorekeeper import text as _text
from scorekeeper.errors import RecordFormatError, TextError, Where, one_line, short

#: The largest record read, in bytes (a long club match is well under 200 KB).
MAX_BYTES = 2_000_000
#: The most digits of a whole number in a record (no count, target or points comes near).
MAX_DIGITS = 9
#: The deepest nesting of lists and objects (a record needs about 7).
MAX_DEPTH = 20
#: The longest string in a record (the notes of a match).
MAX_STRING = 10_000
#: Seconds a named pipe (FIFO) given as the record is waited on: for a writer, and then
#: for each next piece of the record (a pipe nobody writes to would otherwise block for ever).
FIFO_WAIT: float = 5

_NOT = "not a match record"


# ---------------------------------------------------------------- reading
def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordFormatError(f"{_NOT}: the key {short(key)} appears twice in one object")
        out[key] = value
    return out


class _Refused:
    """A number the record may not hold, kept in place while the text is read, so that the
    walk after it can say where it is (the parser does not know)."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _int(text: str) -> int | _Refused:
    if len(text) - text.startswith("-") > MAX_DIGITS:
        return _Refused(f"the number {one_line(text, 20)} has more than {MAX_DIGITS} digits")
    return int(text)


def _float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value) or len(text) > 40:
        return _Refused(f"the number {one_line(text, 20)} is too large")
    return value


def _constant(text: str) -> Any:
    return _Refused(f"{text} is not a number JSON allows")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_int, parse_float=_float, parse_constant=_constant)


def too_large() -> str:
    """The refusal of a record over :data:`MAX_BYTES`."""
    return f"{_NOT}: it is larger than {MAX_BYTES // 1_000_000} MB"


#: The byte-order mark some editors put at the start of a UTF-8 file (and so in a copy of it).
BOM = "\ufeff"


def loads(text: str) -> Any:
    """A record's JSON text -> its value, refusing what :mod:`this module <scorekeeper.boundary>`
    refuses (one :class:`RecordFormatError`, one line). One leading byte-order mark is
    left out, whether the text was read from a file (:func:`decode`) or pasted.

    >>> loads('\ufeff{"game": "broadway"}')
    {'game': 'broadway'}
    """
    if len(text) > MAX_BYTES:
        raise RecordFormatError(too_large())
    if text.startswith(BOM):
        text = text[1:]
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise RecordFormatError(f"{_NOT} (JSON): {_problem(e)}") from None
    except RecursionError:
        raise RecordFormatError(f"{_NOT}: nested more than {MAX_DEPTH} levels deep") from None
    check(value)
    return value


def check(value: Any) -> None:
    """Refuse what a record from outside may not hold (see the module), whatever made it:
    first the players' and sides' names (so the message says whose), then every number,
    nesting, string and key."""
    _names(value)
    _check(value)


def _names(record: Any) -> None:
    """The rule for names (:mod:`scorekeeper.text`) on a record's ``players`` and the names
    of its ``teams``; what is not a string is the envelope's to refuse."""
    if not isinstance(record, dict):
        return
    players = record.get("players")
    if isinstance(players, list):
        for p in players:
            if isinstance(p, str):
                _text.check_name(p, field="players")
        problem = _text.same_names_problem(players)
        if problem:
            raise TextError(problem, field="players")
    teams = record.get("teams")
    if isinstance(teams, dict):
        for side in teams:
            _text.check_name(side, "a side's name", field="teams")
        problem = _text.same_names_problem(teams)
        if problem:
            raise TextError(problem, field="teams")


#: The JSON parser's reasons, in words.
_JSON_WORDS = {
    "Expecting value": "expecting a value",
    "Expecting property name enclosed in double quotes": "expecting a name in double quotes",
    "Expecting ',' delimiter": "expecting a comma",
    "Expecting ':' delimiter": "expecting a colon",
    "Unterminated string starting at": "a text in quotes is not closed",
    "Invalid control character at": "a line break or tab inside quotes",
    "Invalid \\escape": "a backslash that escapes nothing",
    "Extra data": "more text after the record",
}


def _problem(e: json.JSONDecodeError) -> str:
    """Where and why text is not JSON, for people: "expecting a value at line 2, column 11"."""
    why = _JSON_WORDS.get(e.msg, one_line(e.msg[:1].lower() + e.msg[1:], 60))
    return f"{why} at line {e.lineno}, column {e.colno}"


def _check(value: Any) -> None:
    """Refused numbers, depth and string lengths, without recursion (a deep value cannot
    overflow the stack) and with little memory (a path is made only for a container that
    holds something, and spelled out only for an error); the error says where, the way
    the engines do."""
    stack: list[tuple[Any, int, Any]] = []  # (container, depth, (parent's link, key))
    if isinstance(value, (dict, list)):
        stack.append((value, 1, None))
    else:
        _scalar(value, None)
    while stack:
        v, depth, link = stack.pop()
        if depth > MAX_DEPTH:
            raise _at(_path(link)[:4], f"nested more than {MAX_DEPTH} levels deep")  # where it starts
        items: Iterable[tuple[str | int, Any]]
        if isinstance(v, dict):
            for k in v:
                if len(k) > MAX_STRING:
                    raise _at(_path(link), f"a key of {len(k)} characters (at most {MAX_STRING})")
                problem = _text.text_problem(k, "a key")
                if problem:
                    raise _at(_path(link), problem, TextError)
            items = v.items()
        else:
            items = enumerate(v)
        for key, item in items:
            if isinstance(item, (dict, list)):
                if item or depth + 1 > MAX_DEPTH:
                    stack.append((item, depth + 1, (link, key)))
            else:
                _scalar(item, (link, key))


def _scalar(v: Any, link: Any) -> None:
    if isinstance(v, _Refused):
        raise _at(_path(link), v.why)
    if isinstance(v, str):
        if len(v) > MAX_STRING:
            raise _at(_path(link), f"a string of {len(v)} characters (at most {MAX_STRING})")
        problem = _text.text_problem(v)
        if problem:
            raise _at(_path(link), problem, TextError)


def _path(link: Any) -> tuple[str | int, ...]:
    keys: list[str | int] = []
    while link is not None:
        link, key = link
        keys.append(key)
    return tuple(reversed(keys))


def _at(path: tuple[str | int, ...], why: str, error: type[RecordFormatError] = RecordFormatError) -> RecordFormatError:
    """The error for ``path`` in the record: ``hands[0].turns[3].draw`` is "hand 1, turn 4, draw"."""
    where: Where = {}
    rest = list(path)
    if len(rest) >= 2 and rest[0] == "hands" and isinstance(rest[1], int):
        where["hand"] = rest[1] + 1
        rest = rest[2:]
        if len(rest) >= 2 and rest[0] == "turns" and isinstance(rest[1], int):
            where["turn"] = rest[1] + 1
            rest = rest[2:]
    field = ""
    for part in rest:
        field += f"[{part}]" if isinstance(part, int) else (f".{part}" if field else str(part))
    if field:
        where["field"] = one_line(field, 80)
    return error(f"{_NOT}: {why}" if not where else why, **where)


def decode(data: bytes) -> Any:
    """A record's bytes (UTF-8, a BOM allowed) -> its value, as :func:`loads` (which leaves
    out the BOM: a file and a paste of it are read alike)."""
    if len(data) > MAX_BYTES:
        raise RecordFormatError(too_large())
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordFormatError(f"{_NOT}: it is not UTF-8 text (byte {e.start})") from None
    return loads(text)


def read(stream: BinaryIO) -> Any:
    """Read a record from an open binary stream, never more than :data:`MAX_BYTES` + 1 bytes."""
    data = stream.read(MAX_BYTES + 1)
    return decode(data)


def read_path(path: str) -> Any:
    """Read a record from a file, or standard input for ``-``; a file that cannot be read
    is a :class:`RecordFormatError` naming it. The file is opened without waiting: a named
    pipe is read as its writer writes, and refused when nothing comes for :data:`FIFO_WAIT`
    seconds (``score PIPE`` with no writer does not hang)."""
    shown = "standard input" if path == "-" else one_line(path, 200)
    try:
        if path == "-":
            if sys.stdin is None:  # closed when Python started (``<&-``)
                raise RecordFormatError("standard input: cannot be read (it is closed)")
            return read(sys.stdin.buffer)
        # a FIFO: no wait for a writer here (Windows has no O_NONBLOCK, and no FIFO among its files)
        fd = os.open(path, os.O_RDONLY | system.O_BINARY | system.O_NONBLOCK | system.O_CLOEXEC)
        with open(fd, "rb", buffering=0, closefd=True) as f:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                return decode(_read_pipe(fd, path))
            if system.O_NONBLOCK:
                os.set_blocking(fd, True)  # a file or a device: read as it comes
            return read(f)
    except FileNotFoundError:
        raise RecordFormatError(f"{shown}: no such file") from None
    except IsADirectoryError:
        raise RecordFormatError(f"{shown}: is a directory, not a record") from None
    except OSError as e:
        why = "it is closed" if e.errno == errno.EBADF else e.strerror or e
        raise RecordFormatError(f"{shown}: cannot be read ({why})") from None


def _read_pipe(fd: int, path: str) -> bytes:
    """A named pipe's bytes, opened non-blocking: up to :data:`MAX_BYTES` + 1 of them, or
    until its writer closes it; nothing for :data:`FIFO_WAIT` seconds is a RecordFormatError."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    wait_ms = max(1, round(FIFO_WAIT * 1000))
    chunks: list[bytes] = []
    size = 0
    while size <= MAX_BYTES:
        if not poller.poll(wait_ms):
            why = (
                f"nobody is writing to this pipe (waited {FIFO_WAIT:g} s)"
                if not size
                else f"the pipe's writer stopped writing (nothing more for {FIFO_WAIT:g} s)"
            )
            raise RecordFormatError(f"{one_line(path, 200)}: {why}")
        try:
            chunk = os.read(fd, min(1 << 16, MAX_BYTES + 1 - size))
        except BlockingIOError:  # woken, but nothing to read after all
            continue
        if not chunk:  # the writer closed it
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)
