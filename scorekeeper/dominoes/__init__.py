"""What every domino game shares: the tiles and the sets.

>>> from scorekeeper.dominoes import Tile
>>> Tile.parse("5-3") is Tile(3, 5)
True
"""

from scorekeeper.dominoes.tiles import MAX_PIPS, Tile, set_size, tiles_of_set

__all__ = ["MAX_PIPS", "Tile", "set_size", "tiles_of_set"]
