"""Finding the stored match that is the same as a record (asked before an import).

The same: the same game, players, teams, rules (as the engine reads them: a default
written out or left out is the same), ``started`` (both the same time, or both none)
and the same hands, entry by entry, however a tile is spelled; the ``id``, ``title``
and ``notes`` do not count. Cheap: the index's cached fields (game, players, number
of hands, scores, started) rule out every other match; only the matches that pass
are read from their files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper import registry
from scorekeeper.errors import ScorekeeperError
from scorekeeper.store.files import OpenMatch
from scorekeeper.store.imports import checked_copy
from scorekeeper.store.layout import Record
from scorekeeper.store.storage import CorruptFileError

#: What a record says that does not make it another match.
LABELS = ("id", "title", "notes")


def brief(record: Record, match: Any) -> tuple[Any, ...]:
    """What the index caches of a match and :func:`find` compares first."""
    setup = match.setup
    return (
        record.get("game"),
        list(setup.players),
        len(match.hands),
        dict(zip(setup.sides, match.scores, strict=True)),
    )


def sameness(record: Record, match: Any) -> str:
    """A match as :func:`find` compares it: the engine's own record (tiles spelled
    one way) without its labels, with the rules as the engine reads them."""
    normal = {k: v for k, v in match.to_record().items() if k not in LABELS}
    normal["started"] = record.get("started")
    rules = getattr(match.setup, "rules", None)
    if rules is not None:
        normal["rules"] = repr(rules)  # every option, the defaults too
    return json.dumps(normal, sort_keys=True, ensure_ascii=False)


def find(
    record: Any,
    listed: Callable[[], Mapping[str, Record]],
    held: Callable[[str], OpenMatch | None],
    read: Callable[[str], Record],
) -> str | None:
    """The id of a stored match that is the same as ``record``, or None (the newest one if
    there are several), among the matches ``listed()`` gives (the index's documents by id,
    brought up to date); ``held`` gives a match kept in memory (the truth for its store),
    ``read`` a match file's document.
    ``record`` is checked through its engine first (its error is raised). A damaged file is
    not this record (opening it says why); an OSError (the disk's trouble) is raised: the
    match may well be this record."""
    copied, match = checked_copy(record)
    key = sameness(copied, match)
    cached_brief = brief(copied, match)
    started = copied.get("started")
    found: list[tuple[str, str]] = []
    for mid, meta in list(listed().items()):
        o = held(mid)
        if o is not None:  # its cached fields may be behind what was appended since
            if brief(o.record, o.match) == cached_brief and sameness(o.record, o.match) == key:
                found.append((o.created, mid))
            continue
        cached = (meta.get("game"), meta.get("players"), meta.get("hands"), meta.get("scores"))
        if cached != cached_brief or (started is not None and meta.get("started") != started):
            continue
        try:
            doc = read(mid)
            other = doc["record"]
            if sameness(other, registry.game_of(other).load(other)) == key:
                found.append((str(doc.get("created") or ""), mid))
        except (CorruptFileError, ScorekeeperError):
            continue
    return max(found)[1] if found else None
