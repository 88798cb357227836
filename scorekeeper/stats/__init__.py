"""Players and their records across matches: statistics, head-to-head, CSV.

Every figure is derived from the stored match records. :mod:`.facts` reads one
record into the facts the figures need; :mod:`.cache` keeps those facts per
match in ``stats.json`` beside the index, rebuilt for a match whenever its file
changed (the cache can be deleted at any time); :mod:`.figures` adds them up per
player, pair of partners and game; :mod:`.names` matches players' names across
matches, with the renames and merges people make.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scorekeeper.stats.figures import Stats
    from scorekeeper.store import Store


def of_store(store: Store) -> Stats:
    """The figures of every match stored (the cache brought up to date on the way)."""
    from scorekeeper.stats import cache, figures, names

    return figures.compute(cache.load_all(store), names.load(store))
