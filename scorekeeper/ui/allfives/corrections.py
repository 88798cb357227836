"""Correcting an earlier turn of an All Fives match, without Flet: every turn of
the match in the short notation (``5-3 on 5-5``, ``+2 5-3``, ``pass``), and a
corrected one put in its place; the store checks the whole match again and every
score after it is recounted (or the correction is refused, naming the turn it
would break)."""

from __future__ import annotations

from scorekeeper.allfives.notation import parse_turn_text, turn_text
from scorekeeper.ui.allfives.part import Part

__all__ = ["Corrections"]


class Corrections(Part):
    def entries(self) -> list[tuple[int, int, str]]:
        """Every turn of the match as (hand, turn, text)."""
        out = []
        s = self.match.setup
        for h in self.match.hands:
            for i, t in enumerate(h.turns, 1):
                out.append((h.number, i, f"{s.players[t.player]}: {turn_text(t)}"))
        return out

    def correct(self, hand: int, turn: int, text: str) -> None:
        """Replace an earlier turn by ``text`` (e.g. ``5-3 on 5-5``, ``+2 5-3``, ``pass``, ``+3 pass``)."""
        try:
            entry = parse_turn_text(text)
        except ValueError as e:
            self._fail(f"hand {hand}, turn {turn}: {e}")
            return
        if self.t._apply(lambda st: st.edit(self.t.mid, hand, turn, entry)):
            self.t._done(f"hand {hand}, turn {turn} corrected; every score after it recounted")
