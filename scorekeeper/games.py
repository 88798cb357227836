"""The games Scorekeeper knows, by the record's ``game``: scoring a record and
rendering the result as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["score_record", "render"]


def _game(record: Any) -> str:
    return record.get("game") if isinstance(record, dict) else None


def _engine(game: Any) -> tuple[Callable[[Any], dict], Callable[[dict], str]]:
    if game == "all-fours":
        from scorekeeper.allfours.record import render, score_record

        return score_record, render
    if game == "broadway":
        from scorekeeper.broadway.record import render, score_record

        return score_record, render
    from scorekeeper.allfives.record import score_record
    from scorekeeper.allfives.text import render

    return score_record, render  # All Fives, and every record the envelope refuses


def score_record(record: Any) -> dict:
    """Check and score a record of any game (``scorekeeper score``)."""
    return _engine(_game(record))[0](record)


def render(out: dict) -> str:
    """The ``--text`` form of a scored record."""
    return _engine(out.get("game"))[1](out)
