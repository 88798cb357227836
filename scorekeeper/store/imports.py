"""Storing new matches: one, or many at once, all or nothing.

Each record is checked first (the door of records from outside, then its engine);
then every match file is written, and the index once. If a match file cannot be
written, the files written before it are taken back and nothing is stored. Once
every match file is on the disk the import has succeeded, even if the index cannot
be written (it is then kept in memory and reported in ``Store.problems``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from scorekeeper import boundary, registry
from scorekeeper.errors import type_name
from scorekeeper.store.errors import StoreError, plain_line, reason
from scorekeeper.store.files import MatchFiles, OpenMatch
from scorekeeper.store.index import Index
from scorekeeper.store.layout import Record, is_id, new_id, now
from scorekeeper.store.storage import NotDurableError, fsync_dir, remove


def checked_copy(record: Any) -> tuple[Record, Any]:
    """A private, JSON-clean copy of a record, and its engine state (every entry legal).
    The record passes the door of records from outside first (:func:`boundary.check`:
    limits, the rule for names and text), wherever it comes from."""
    if not isinstance(record, dict):
        raise StoreError(f"a record must be a JSON object, not {type_name(record)}")
    boundary.check(record)
    copied = json.loads(json.dumps(record))
    return copied, registry.game_of(copied).load(copied)  # a match may be in progress


def bulk_import(files: MatchFiles, index: Index, opened: dict[str, OpenMatch], records: Iterable[Record]) -> list[str]:
    """Store many records as match ``files`` listed by ``index`` (``opened``: the store's
    matches in memory, which a single new match joins); returns their ids (a record's own
    ``id`` is kept when it is a match id no match, file or record of this import has)."""
    checked = [checked_copy(r) for r in records]
    ids: list[str] = []
    written: list[OpenMatch] = []
    for n, (record, match) in enumerate(checked, start=1):
        o: OpenMatch | None = None
        try:
            given: Any = record.get("id")
            mid: str = given if _free(files, index, given, ids) else new_id()
            while not _free(files, index, mid, ids):
                mid = new_id()
            path = files.path(mid)
            o = OpenMatch(files.storage(path), record, [], match, now(), path, dirty=True)
            files.write(mid, o)
        except OSError as e:  # a write that failed left no file, unless only the directory's sync failed
            tried = list(zip(ids, written, strict=True))
            if o is not None and isinstance(e, NotDurableError):
                tried.append((mid, o))
            raise _take_back(files, index, opened, tried, e, n, len(checked)) from e
        ids.append(mid)
        written.append(o)
    opened.update(zip(ids, written, strict=True))
    index.refresh(ids)  # never fails for the index: it is then kept in memory
    if len(checked) > 1:  # do not keep a whole import in memory
        for mid in ids:
            opened.pop(mid, None)
    return ids


def _free(files: MatchFiles, index: Index, mid: Any, taken: list[str]) -> bool:
    """Whether a new match may have the id ``mid``: a match id that no match, no file
    (even one that could not be read) and no record of this import has. A file that
    cannot be looked at raises its OSError (it may be there)."""
    if not is_id(mid) or mid in index.docs or mid in index.unread or mid in taken:
        return False
    return not files.taken(mid)


def _take_back(
    files: MatchFiles,
    index: Index,
    opened: dict[str, OpenMatch],
    tried: list[tuple[str, OpenMatch]],
    e: OSError,
    n: int,
    total: int,
) -> StoreError:
    """Remove the files an import that failed at record ``n`` wrote (``tried``: the last
    one's write may have failed after putting its file in place); the error to raise. A
    file that cannot be removed is stored after all: listed, and named in the message."""
    stuck = []
    for mid, o in tried:
        try:
            remove(files.path(mid), sync=False)
        except OSError:
            try:
                if not files.taken(mid):
                    continue  # its own write never put it in place
            except OSError:
                pass
            stuck.append((mid, o))
    try:
        fsync_dir(files.directory)
    except OSError:
        pass
    what = "the match" if total == 1 else f"record {n} of {total}"
    nothing = StoreError(
        f"{what} could not be stored ({reason(e)}); nothing was stored",
        plain=plain_line("save the new match" if total == 1 else "import", e, "nothing was stored"),
    )
    if not stuck:
        return nothing
    for mid, o in stuck:  # on the disk after all: this store lists them too
        o.dirty = True
        opened[mid] = o
    index.refresh([mid for mid, _ in stuck])
    kept = [mid for mid, _ in stuck if mid in index.docs]
    for mid, _ in stuck:
        if mid not in index.docs:
            opened.pop(mid, None)
    if not kept:
        return nothing
    names = ", ".join(kept)
    return StoreError(
        f"{what} could not be stored ({reason(e)}); {len(kept)} match(es) written before the "
        f"failure could not be taken back and are stored: {names}",
        plain=plain_line("import", e, f"{len(kept)} match(es) are stored all the same: {names}"),
    )
