"""A record's entries, in the order they were entered: what the store keeps.

How each game splits its record into entries is its codec's
(:mod:`scorekeeper.codec` has the bases, each game's ``entries.py`` the rest).

>>> from scorekeeper.store import entries_of
>>> entries_of({"format": "scorekeeper/1", "game": "all-fives",
...             "hands": [{"leader": "Ann", "turns": [{"play": "5-0"}], "remaining": {"Ben": 3}}]})
[{'hand': {'leader': 'Ann'}}, {'turn': {'play': '5-0'}}, {'remaining': {'Ben': 3}}]
"""

from __future__ import annotations

from scorekeeper.codec import entries_of

__all__ = ["entries_of"]
