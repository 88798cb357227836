"""The facts of every stored match, kept in ``stats.json`` so that the figures need
no replay of the records they were already built from.

``stats.json`` lies beside the index::

    {"schema": 1, "version": facts.VERSION,
     "matches": {ID: {"sig": [...], "created": ..., "facts": {...}}}}

It is only a cache. A match's facts are used while the signature of its file
(inode, size, mtime, ctime) is the one they were built from; otherwise, or when
the cache is missing, damaged or of another version, they are built again from
the record. A store that writes saves the cache, a side file of the store
(:meth:`Store.side_file`), atomically when anything was rebuilt; a read-only store
(the commands beside a running app) keeps what it rebuilt in memory. A record that cannot be read is left out and reported in the
store's ``problems``.
"""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.stats import facts as _facts
from scorekeeper.store import Store

Record = dict[str, Any]

SCHEMA = 1
FILE = "stats.json"


@dataclass(frozen=True)
class MatchFacts:
    """One stored match as the figures see it: its id, when it started and last
    changed (UTC, ISO 8601), and its :func:`~scorekeeper.stats.facts.match_facts`."""

    id: str
    started: str
    updated: str
    facts: Record
    sig: tuple[int, ...] = ()  # the signature of the match file the facts were read from


def _iso(ns: int) -> str:
    t = _dt.datetime.fromtimestamp(ns / 1e9, _dt.UTC)
    return t.isoformat(timespec="seconds").replace("+00:00", "Z")


def _read(store: Store) -> dict[str, Record]:
    data = store.side_file(FILE).load()
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or data.get("version") != _facts.VERSION:
        return {}
    matches = data.get("matches")
    return matches if isinstance(matches, dict) else {}


def _usable(entry: Any, sig: list[int] | None) -> bool:
    return (
        isinstance(entry, dict)
        and sig is not None
        and entry.get("sig") == sig
        and isinstance(entry.get("facts"), dict)
        and isinstance(entry.get("started"), str)
    )


def load_all(store: Store, memory: dict[str, Record] | None = None) -> list[MatchFacts]:
    """The facts of every match the store lists, from the cache where it is fresh,
    else from the record (then saved, by a store that writes). ``memory``: the cache as
    the previous call left it, read instead of ``stats.json`` when it is not empty and
    left up to date (a running app keeps it, so a look after a change reads no file but
    the changed match's)."""
    cached = memory if memory else _read(store)
    sigs = store.signatures()
    fresh: dict[str, Record] = {}
    rebuilt = False
    for mid, sig in sigs.items():
        entry = cached.get(mid)
        if not _usable(entry, sig):
            entry = _build(store, mid)
            rebuilt = True
        if entry is not None:
            fresh[mid] = entry
    if (rebuilt or len(fresh) != len(cached)) and not store.read_only:
        _save(store, fresh)
    if memory is not None:
        memory.clear()
        memory.update(fresh)
    return [MatchFacts(mid, e["started"], _iso(e["sig"][2]), e["facts"], tuple(e["sig"])) for mid, e in fresh.items()]


def _build(store: Store, mid: str) -> Record | None:
    try:
        record, created, sig = store.peek(mid)
        facts = _facts.match_facts(record)
    except ScorekeeperError as e:
        store.problems.append(f"match {mid} is left out of the statistics: {e}")
        return None
    except Exception as e:  # a record no engine expected: only this match is left out
        store.problems.append(f"match {mid} is left out of the statistics ({type(e).__name__}: {e})")
        return None
    started = record.get("started")
    if not isinstance(started, str) or not started:
        started = created or _iso(sig[2])
    return {"sig": sig, "started": started, "facts": facts}


def _save(store: Store, matches: dict[str, Record]) -> None:
    data = {"schema": SCHEMA, "version": _facts.VERSION, "matches": matches}
    try:
        store.side_file(FILE).save(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
    except OSError:  # NotDurableError too: only a cache, the next look builds it again
        pass
