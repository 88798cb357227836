"""The whole table of figures as ``stats`` prints it, kept in ``stats-table.json``.

``scorekeeper stats`` without ``--player`` prints one line per player and game and
per pair of partners. Adding them up takes a few tenths of a second with 10,000
matches, so the table is kept beside the facts' cache (a side file of the store,
:meth:`Store.side_file`) with what it was made from: each match's file signature and
status (finished, unfinished, abandoned) and the renames and merges. While all of
that is as it was -- the same match files, no unfinished match left long enough to
count as abandoned, the same names -- the kept table is printed as it is; otherwise
it is made again (and kept again, by a store that writes). Like ``stats.json`` it is
only a cache: delete it at will.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any

from scorekeeper.stats import cache, figures
from scorekeeper.stats import facts as _facts
from scorekeeper.stats import names as _names
from scorekeeper.store import Store

Record = dict[str, Any]

FILE = "stats-table.json"
SCHEMA = 2  # 2: players matched by scorekeeper.text.name_key (NFKC and case folding)


def table(store: Store, game: str | None = None, now: _dt.datetime | None = None) -> Record:
    """``Stats.to_json(game=game)`` of every stored match: the kept table while it is fresh."""
    now = now or _dt.datetime.now(_dt.UTC)
    names = _names.load(store)
    sigs = store.signatures()
    kept = _read(store)
    if kept is not None and _fresh(kept, sigs, names, now):
        data: Record = kept["json"]
    else:
        stats = figures.compute(cache.load_all(store), names, now)
        data = stats.to_json(detail=False)
        if not store.read_only:
            made = {mf.id: [list(mf.sig), status] for mf, _seats, status in stats.matches}
            _save(
                store,
                {"schema": SCHEMA, "version": _facts.VERSION, "aliases": names.aliases, "matches": made, "json": data},
            )
    if game is None:
        return data
    return {
        "players": [r for r in data["players"] if r["game"] == game],
        "pairs": [r for r in data["pairs"] if r["game"] == game],
        "matches": data["matches"],
    }


def _read(store: Store) -> Record | None:
    kept = store.side_file(FILE).load()
    ok = (
        isinstance(kept, dict)
        and kept.get("schema") == SCHEMA
        and kept.get("version") == _facts.VERSION
        and isinstance(kept.get("matches"), dict)
        and isinstance(kept.get("json"), dict)
        and isinstance(kept.get("aliases"), dict)
    )
    return kept if ok else None


def _fresh(kept: Record, sigs: dict[str, list[int] | None], names: _names.Names, now: _dt.datetime) -> bool:
    made: dict[str, Any] = kept["matches"]
    if kept["aliases"] != names.aliases or len(made) != len(sigs):
        return False
    for mid, sig in sigs.items():
        was = made.get(mid)
        if sig is None or not isinstance(was, list) or len(was) != 2 or was[0] != sig:
            return False
        if was[1] != "finished":
            updated = _dt.datetime.fromtimestamp(sig[2] // 1_000_000_000, _dt.UTC)
            if ("abandoned" if now - updated > figures.ABANDONED_AFTER else "unfinished") != was[1]:
                return False
    return True


def _save(store: Store, data: Record) -> None:
    try:
        store.side_file(FILE).save(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode())
    except OSError:  # NotDurableError too: only a cache, made again next time
        pass
