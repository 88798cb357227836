"""Scorekeeper: a table-side companion for real domino and card games.

The package is layered so the architecture shows in the tree:

* ``scorekeeper.allfives`` -- the All Fives rules engine (no UI, no storage);
* ``scorekeeper.envelope`` -- the game-independent part of a match record;
* ``scorekeeper.errors`` -- the error hierarchy every layer raises;
* ``scorekeeper.cli`` -- the ``scorekeeper`` command.
"""

#: The name Scorekeeper is installed by (``pipx install scorekeeper-table``): the package index's
#: ``scorekeeper`` is another project. The package imported and the command stay ``scorekeeper``.
DISTRIBUTION = "scorekeeper-table"

__version__ = "1.0.0"
