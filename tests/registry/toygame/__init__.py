"""Tens, a toy game that lives in the test suite only: it shows that a game is one
package plus one line (``registry.register(GAME)``) and flows through ``scorekeeper
score``, the store and History with no edit anywhere else.

Players take turns; each turn scores 0 to 10 points; the first to 30 wins.
A record's hands are ``{"leader": name, "turns": [{"points": 4}, ...]}``.
"""
