"""Scorekeeper: a table-side companion for real domino and card games.

The package is layered so the architecture shows in the tree:

* ``scorekeeper.allfives`` -- the All Fives rules engine (no UI, no storage);
* ``scorekeeper.envelope`` -- the game-independent part of a match record;
* ``scorekeeper.errors`` -- the error hierarchy every layer raises;
* ``scorekeeper.cli`` -- the ``scorekeeper`` command.
"""

__version__ = "0.1.0"
