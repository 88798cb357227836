"""The store's errors."""

from scorekeeper.errors import ScorekeeperError


class StoreError(ScorekeeperError):
    """The database cannot do what was asked (locked, newer schema, unknown id, disk trouble, a malformed entry)."""


class StoreLockedError(StoreError):
    """Another Scorekeeper has the database open."""
