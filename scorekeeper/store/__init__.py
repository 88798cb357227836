"""The match store: durable, crash-safe match records, one JSON file per match (see docs/store.md).

>>> import tempfile
>>> from scorekeeper.allfives import random_record
>>> rec = random_record(1, players=2, max_hands=1)
>>> with tempfile.TemporaryDirectory() as d, Store(d) as store:
...     mid = store.create(dict(rec, hands=[]))
...     for entry in entries_of(rec):
...         store.append(mid, entry)
...     store.record(mid) == rec
True
"""

from scorekeeper.store.entries import entries_of
from scorekeeper.store.errors import StoreError, StoreLockedError, message_of
from scorekeeper.store.sidefile import SideFile
from scorekeeper.store.storage import AtomicJSONStorage, atomic_write
from scorekeeper.store.store import SCHEMA, Store, default_path
from scorekeeper.store.view import ReadOnlyStore

__all__ = [
    "SCHEMA",
    "AtomicJSONStorage",
    "ReadOnlyStore",
    "SideFile",
    "Store",
    "StoreError",
    "StoreLockedError",
    "atomic_write",
    "default_path",
    "entries_of",
    "message_of",
]
